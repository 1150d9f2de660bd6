//! Interrupted builds resume to the very same files.

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dakon_solver::dakon::Dakon;
use dakon_solver::tables::{build_tiers, tier_path, BuildOptions};

const HOLES: usize = 5;
const MAX: u32 = 11;

fn files(rules: &Dakon, dir: &Path) -> Vec<Option<Vec<u8>>> {
    (0..=MAX).map(|k| fs::read(tier_path(rules, dir, k)).ok()).collect()
}

fn reference(rules: &Dakon) -> (tempfile::TempDir, Vec<Option<Vec<u8>>>) {
    let dir = tempfile::tempdir().unwrap();
    let report = build_tiers(rules, dir.path(), MAX, &BuildOptions { threads: 2, ..BuildOptions::default() }).unwrap();
    assert!(!report.interrupted && report.tiers.iter().all(|t| t.built));
    let files = files(rules, dir.path());
    (dir, files)
}

#[test]
fn a_stop_flag_raised_mid_build_keeps_finished_tiers_and_resumes_identically() {
    let rules = Dakon::new(HOLES).unwrap();
    let (_reference_dir, expected) = reference(&rules);
    let dir = tempfile::tempdir().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    // Raise the flag as soon as tier 8 is on disk: the builder is then inside tier 9 or later.
    let watcher = {
        let (stop, path) = (stop.clone(), tier_path(&rules, dir.path(), 8));
        std::thread::spawn(move || {
            while !path.exists() {
                std::thread::yield_now();
            }
            stop.store(true, Ordering::SeqCst);
        })
    };
    let options = BuildOptions { threads: 2, progress: None, stop: Some(stop), memory_limit: None, write_images: false };
    let first = build_tiers(&rules, dir.path(), MAX, &options).unwrap();
    watcher.join().unwrap();
    assert!(first.tiers.len() >= 9);
    assert_eq!(first.interrupted, first.tiers.len() <= MAX as usize);
    // Finished tiers are complete files; nothing of the interrupted tier is left as a table.
    let partial = files(&rules, dir.path());
    for (k, file) in partial.iter().enumerate() {
        assert_eq!(file.is_some(), k < first.tiers.len(), "tier {k}");
        if let Some(bytes) = file {
            assert_eq!(Some(bytes), expected[k].as_ref(), "tier {k}");
        }
    }
    let second = build_tiers(&rules, dir.path(), MAX, &BuildOptions::default()).unwrap();
    assert!(!second.interrupted);
    assert_eq!(second.tiers.iter().filter(|t| t.built).count(), MAX as usize + 1 - first.tiers.len());
    assert_eq!(files(&rules, dir.path()), expected);
}

#[test]
fn a_build_stopped_before_it_starts_writes_nothing() {
    let rules = Dakon::new(HOLES).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let options =
        BuildOptions { threads: 1, progress: None, stop: Some(Arc::new(AtomicBool::new(true))), memory_limit: None, write_images: false };
    let report = build_tiers(&rules, dir.path(), MAX, &options).unwrap();
    assert!(report.interrupted && report.tiers.is_empty());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_crash_that_left_a_temporary_file_and_missing_tiers_rebuilds_identically() {
    let rules = Dakon::new(HOLES).unwrap();
    let (reference_dir, expected) = reference(&rules);
    for k in [7, 9, 10, 11] {
        fs::remove_file(tier_path(&rules, reference_dir.path(), k)).unwrap();
    }
    // A crash while writing tier 7 leaves half a temporary file.
    let tmp = format!("{}.tmp", tier_path(&rules, reference_dir.path(), 7).display());
    fs::write(&tmp, &expected[7].as_ref().unwrap()[..100]).unwrap();
    let report = build_tiers(&rules, reference_dir.path(), MAX, &BuildOptions::default()).unwrap();
    let built: Vec<u32> = report.tiers.iter().filter(|t| t.built).map(|t| t.seeds).collect();
    assert_eq!(built, [7, 9, 10, 11]);
    assert_eq!(files(&rules, reference_dir.path()), expected);
    assert!(!Path::new(&tmp).exists());
}
