//! Memory images of the tiers (`.dkm` beside each `.dkt`): written by a load that asks for
//! them, read back by the next load with the very values the table files decode to, and
//! refused with a note (then made again) when damaged, truncated or stale.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dakon_solver::rules::Rules;

use crate::damage::flip_byte;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::tables::{
    build_and_load, build_tiers, image_path, tier_path, BuildOptions, LoadOptions, TableError, TableFile, TableSet,
};

const TOP: u32 = 9;

fn built(rules: &RuleSet) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build_tiers(rules, dir.path(), TOP, &BuildOptions { threads: 2, ..BuildOptions::default() }).unwrap();
    dir
}

/// Every tier's values as its table file decodes them.
fn decoded(rules: &RuleSet, dir: &Path) -> Vec<Vec<u8>> {
    let mut values: Vec<Vec<u8>> = Vec::new();
    for k in 0..=TOP {
        let file = TableFile::open(rules, &tier_path(rules, dir, k), k).unwrap();
        let tier = file.read_values(rules, &values).unwrap();
        values.push(tier);
    }
    values
}

fn writing() -> LoadOptions {
    LoadOptions { write_images: true, ..LoadOptions::default() }
}

fn image(rules: &RuleSet, dir: &Path, k: u32) -> PathBuf {
    image_path(&tier_path(rules, dir, k))
}

/// Loads `dir` (writing images when `options` says so) and checks every position against
/// `values`; returns the images refused.
fn load_and_check(rules: &RuleSet, dir: &Path, options: &LoadOptions, values: &[Vec<u8>]) -> Vec<String> {
    let (set, plan) = TableSet::open_with(rules, dir, options).unwrap().unwrap();
    assert_eq!(plan.loaded, TOP + 1);
    for (k, tier) in values.iter().enumerate() {
        for (index, &value) in tier.iter().enumerate() {
            assert_eq!(set.value(k as u32, index as u64), Some(value as i8 as i32), "{} tier {k} index {index}", rules.name());
        }
    }
    plan.refused_images
}

#[test]
fn images_are_written_on_loading_and_read_back_with_the_same_values() {
    for name in RulesName::ALL {
        let rules = RuleSet::new(name, 3).unwrap();
        let dir = built(&rules);
        let values = decoded(&rules, dir.path());
        // Loading without asking for images writes none.
        assert!(load_and_check(&rules, dir.path(), &LoadOptions::default(), &values).is_empty());
        assert!((0..=TOP).all(|k| !image(&rules, dir.path(), k).exists()), "{name}");
        assert!(load_and_check(&rules, dir.path(), &writing(), &values).is_empty());
        assert!((0..=TOP).all(|k| image(&rules, dir.path(), k).exists()), "{name}");
        // The next load reads the images: the top tier's file could not be decoded now, its
        // last block's checksum being damaged, yet the values come.
        flip_byte(&tier_path(&rules, dir.path(), TOP), |len| len - 2);
        assert!(load_and_check(&rules, dir.path(), &LoadOptions::default(), &values).is_empty());
        std::fs::remove_file(image(&rules, dir.path(), TOP)).unwrap();
        assert!(matches!(TableSet::open_with(&rules, dir.path(), &LoadOptions::default()), Err(TableError::Corrupt { .. })), "{name}");
    }
}

#[test]
fn a_build_asked_for_images_writes_those_a_decoding_load_writes() {
    for name in RulesName::ALL {
        let rules = RuleSet::new(name, 3).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let options = BuildOptions { threads: 2, write_images: true, ..BuildOptions::default() };
        build_tiers(&rules, dir.path(), TOP, &options).unwrap();
        // The same tables imaged by a load that decodes them, in a directory of their own.
        let loaded = built(&rules);
        let values = decoded(&rules, loaded.path());
        assert!(load_and_check(&rules, loaded.path(), &writing(), &values).is_empty());
        for k in 0..=TOP {
            let (from_build, from_load) = (image(&rules, dir.path(), k), image(&rules, loaded.path(), k));
            assert_eq!(std::fs::read(&from_build).unwrap(), std::fs::read(&from_load).unwrap(), "{name} tier {k}");
        }
        // The first load after the build reads them: the top tier's file could not be decoded.
        flip_byte(&tier_path(&rules, dir.path(), TOP), |len| len - 2);
        assert!(load_and_check(&rules, dir.path(), &LoadOptions::default(), &values).is_empty());
    }
}

#[test]
fn a_build_kept_in_memory_writes_the_images_a_build_to_disk_writes() {
    for name in RulesName::ALL {
        let rules = RuleSet::new(name, 3).unwrap();
        let (on_disk, kept) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let options = BuildOptions { threads: 2, write_images: true, ..BuildOptions::default() };
        build_tiers(&rules, on_disk.path(), TOP, &options).unwrap();
        let (_, tables) = build_and_load(&rules, kept.path(), TOP, &options).unwrap();
        assert!(tables.is_some(), "{name}");
        for k in 0..=TOP {
            let (a, b) = (image(&rules, on_disk.path(), k), image(&rules, kept.path(), k));
            assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "{name} tier {k}");
        }
    }
}

/// The tiers of `name` on 3 holes, built, their values decoded, and loaded once with their
/// images written.
fn with_images(name: RulesName) -> (RuleSet, tempfile::TempDir, Vec<Vec<u8>>) {
    let rules = RuleSet::new(name, 3).unwrap();
    let dir = built(&rules);
    let values = decoded(&rules, dir.path());
    assert!(load_and_check(&rules, dir.path(), &writing(), &values).is_empty());
    (rules, dir, values)
}

/// A way of damaging a file.
type Damage<'a> = &'a dyn Fn(&Path);

#[test]
fn a_damaged_or_truncated_image_is_refused_with_a_note_and_made_again() {
    let (rules, dir, values) = with_images(RulesName::DAKON);
    let damages: [(u32, &str, Damage); 4] = [
        (5, "checksum", &|path| flip_byte(path, |len| len / 2)),
        (7, "truncated", &|path| {
            let bytes = std::fs::read(path).unwrap();
            std::fs::write(path, &bytes[..bytes.len() / 2]).unwrap();
        }),
        (8, "after the checksum", &|path| {
            let mut bytes = std::fs::read(path).unwrap();
            bytes.push(0);
            std::fs::write(path, bytes).unwrap();
        }),
        (TOP, "header", &|path| std::fs::write(path, 1u64.to_le_bytes().iter().chain(&[7u8; 20]).copied().collect::<Vec<u8>>()).unwrap()),
    ];
    for (k, what, damage) in damages {
        let path = image(&rules, dir.path(), k);
        damage(&path);
        let refused = load_and_check(&rules, dir.path(), &writing(), &values);
        assert_eq!(refused.len(), 1, "{refused:?}");
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(refused[0].contains(name) && refused[0].contains(what) && refused[0].contains("made again"), "{}", refused[0]);
        // Made again: the next load takes it.
        assert!(load_and_check(&rules, dir.path(), &writing(), &values).is_empty(), "tier {k}");
    }
}

#[test]
fn an_image_made_from_other_values_is_refused_as_stale() {
    // The version 1 files of the same tiers: the same values, another values checksum, so an
    // image of the version 2 files does not prove itself theirs.
    let (rules, version_2, _) = with_images(RulesName::DAKON);
    let version_1 = tempfile::tempdir().unwrap();
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tables-v1");
    for k in 0..=TOP {
        std::fs::copy(tier_path(&rules, &kept, k), tier_path(&rules, version_1.path(), k)).unwrap();
        std::fs::copy(image(&rules, version_2.path(), k), image(&rules, version_1.path(), k)).unwrap();
    }
    let values = decoded(&rules, version_1.path());
    let refused = load_and_check(&rules, version_1.path(), &writing(), &values);
    assert_eq!(refused.len(), TOP as usize + 1, "{refused:?}");
    assert!(refused.iter().all(|r| r.contains("stale")), "{refused:?}");
    assert!(load_and_check(&rules, version_1.path(), &writing(), &values).is_empty());
}

#[test]
fn background_loading_reports_a_refused_image_and_answers_the_same() {
    let (rules, dir, values) = with_images(RulesName::Kalah);
    flip_byte(&image(&rules, dir.path(), 4), |len| len - 20);
    let reports = Arc::new(Mutex::new(Vec::new()));
    let sink = reports.clone();
    let (set, _) = TableSet::open_in_background(&rules, dir.path(), &writing(), move |e| sink.lock().unwrap().push(e)).unwrap().unwrap();
    let started = Instant::now();
    while !set.is_loaded() {
        assert!(started.elapsed() < Duration::from_secs(60), "the tiers never loaded");
        std::thread::sleep(Duration::from_millis(5));
    }
    for (k, tier) in values.iter().enumerate() {
        for (index, &value) in tier.iter().enumerate() {
            assert_eq!(set.value(k as u32, index as u64), Some(value as i8 as i32));
        }
    }
    let reports = reports.lock().unwrap();
    assert!(matches!(reports.as_slice(), [TableError::ImageRefused { path, .. }] if *path == image(&rules, dir.path(), 4)), "{reports:?}");
}

#[test]
fn a_resumed_build_takes_the_lower_tiers_from_their_images_and_decodes_a_damaged_one() {
    let rules = RuleSet::new(RulesName::DAKON, 3).unwrap();
    let options = BuildOptions { threads: 2, write_images: true, ..BuildOptions::default() };
    let whole = tempfile::tempdir().unwrap();
    build_tiers(&rules, whole.path(), TOP, &options).unwrap();
    let top = std::fs::read(tier_path(&rules, whole.path(), TOP)).unwrap();
    // The images are what the build reads: with them, a lower tier's file whose values no
    // longer decode (its last byte changed) is not decoded; a damaged image is decoded instead.
    let last_byte = |len: usize| len - 1;
    let cases: [(&str, Damage); 2] = [
        ("a table file's values", &|dir| flip_byte(&tier_path(&rules, dir, TOP - 1), last_byte)),
        ("an image", &|dir| flip_byte(&image(&rules, dir, TOP - 1), |len| len / 2)),
    ];
    for (damaged, damage) in cases {
        let resumed = tempfile::tempdir().unwrap();
        for k in 0..TOP {
            std::fs::copy(tier_path(&rules, whole.path(), k), tier_path(&rules, resumed.path(), k)).unwrap();
            std::fs::copy(image(&rules, whole.path(), k), image(&rules, resumed.path(), k)).unwrap();
        }
        damage(resumed.path());
        build_tiers(&rules, resumed.path(), TOP, &options).unwrap();
        assert_eq!(std::fs::read(tier_path(&rules, resumed.path(), TOP)).unwrap(), top, "damaged: {damaged}");
    }
    // An image that does not hold its tier's values would make the top tier's file wrong: the
    // build refuses an image made from other values (another tier's, here).
    let resumed = tempfile::tempdir().unwrap();
    for k in 0..TOP {
        std::fs::copy(tier_path(&rules, whole.path(), k), tier_path(&rules, resumed.path(), k)).unwrap();
    }
    std::fs::copy(image(&rules, whole.path(), TOP - 2), image(&rules, resumed.path(), TOP - 1)).unwrap();
    build_tiers(&rules, resumed.path(), TOP, &options).unwrap();
    assert_eq!(std::fs::read(tier_path(&rules, resumed.path(), TOP)).unwrap(), top);
}
