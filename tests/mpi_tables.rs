//! `dakon tables build` under `mpirun`: the files of 1 to 4 ranks are those of one process,
//! byte for byte, and a build whose rank was killed ends with an error and resumes.
//! Needs `--features mpi` and Open MPI's `mpirun` (`.ci/run` installs it).
#![cfg(feature = "mpi")]

mod mpi_run;

use std::path::{Path, PathBuf};

use mpi_run::{dakon, mpirun, stderr};

/// The boards of the test and their highest tiers: small enough that 17 builds take seconds.
const BOARDS: [(&str, &str, &str); 4] = [("dakon", "3", "14"), ("dakon", "4", "12"), ("dakon", "5", "10"), ("kalah", "4", "12")];

fn build_args<'a>(rules: &'a str, holes: &'a str, max_seeds: &'a str, dir: &'a Path) -> Vec<&'a str> {
    vec![
        "tables",
        "build",
        "--rules",
        rules,
        "--holes",
        holes,
        "--max-seeds",
        max_seeds,
        "--threads",
        "1",
        "--json",
        "--tables-dir",
        dir.to_str().unwrap(),
    ]
}

/// Every file of `dir`, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mpi-tables").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn tables_of_one_to_four_ranks_are_the_files_of_one_process() {
    for (rules, holes, max_seeds) in BOARDS {
        let alone = scratch(&format!("{rules}-{holes}-alone"));
        let out = dakon(&build_args(rules, holes, max_seeds, &alone));
        assert!(out.status.success(), "{}", stderr(&out));
        let expected = files(&alone);
        assert_eq!(expected.len(), max_seeds.parse::<usize>().unwrap() + 1);
        for ranks in 1..=4 {
            let dir = scratch(&format!("{rules}-{holes}-np{ranks}"));
            let out = mpirun(ranks, &build_args(rules, holes, max_seeds, &dir));
            assert!(out.status.success(), "{rules} {holes} holes, {ranks} ranks: {}", stderr(&out));
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object, from rank 0 only");
            if ranks > 1 {
                assert_eq!(report["exchange"]["ranks"], ranks);
                assert!(report["exchange"]["sent_bytes"].as_u64().unwrap() > 0);
            } else {
                assert!(report.get("exchange").is_none(), "one rank builds as one process");
            }
            assert!(files(&dir) == expected, "{rules} {holes} holes, {ranks} ranks: the files differ from one process's");
        }
    }
}

#[test]
fn a_killed_rank_ends_the_build_with_an_error_and_the_rerun_resumes() {
    let (rules, holes, max_seeds) = ("dakon", "5", "15");
    let alone = scratch("killed-alone");
    assert!(dakon(&build_args(rules, holes, max_seeds, &alone)).status.success());
    let dir = scratch("killed");
    let child = mpi_run::spawn_mpirun(3, &build_args(rules, holes, max_seeds, &dir));
    // Kill rank 1 once some tiers are written and before the last is.
    let killed = std::cell::Cell::new(0);
    let out = mpi_run::kill_rank_when(child, 1, || {
        let written =
            std::fs::read_dir(&dir).map_or(0, |d| d.filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "dkt")).count());
        killed.set(written);
        written >= 10
    });
    let killed = killed.get();
    assert!(!out.status.success(), "a build with a dead rank must fail");
    let message = stderr(&out);
    assert!(message.contains("rank 1") || message.contains("signal 9") || message.contains("killed"), "no clear message: {message}");
    let kept = files(&dir).into_iter().filter(|(name, _)| name.ends_with(".dkt")).count();
    assert!(kept >= killed && kept <= 16, "kept {kept} tiers");
    assert!(kept < 16, "rank 1 was killed after the last tier: use a larger build");
    // The rerun keeps what was written and builds the rest, the files of one process.
    let out = mpirun(3, &build_args(rules, holes, max_seeds, &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let present = report["tiers"].as_array().unwrap().iter().filter(|t| t["built"] == false).count();
    assert_eq!(present, kept, "the rerun resumes after the tiers kept");
    let dkt = |dir: &Path| files(dir).into_iter().filter(|(name, _)| name.ends_with(".dkt")).collect::<Vec<_>>();
    assert!(dkt(&dir) == dkt(&alone), "the resumed files differ from one process's");
}

#[test]
fn ranks_that_see_different_directories_are_told_so() {
    // Each rank's own directory (as without a shared file system): rank 0's already holds
    // tiers 0..=5, so rank 0 starts at tier 6 while the others start at tier 0.
    let root = scratch("unshared");
    let seeded = root.join("rank0");
    assert!(dakon(&build_args("dakon", "3", "5", &seeded)).status.success());
    let script = format!(
        "if [ \"$OMPI_COMM_WORLD_RANK\" = 0 ]; then d={0}/rank0; else d={0}/rank$OMPI_COMM_WORLD_RANK; fi; exec {1} tables build --holes 3 --max-seeds 8 --threads 1 --tables-dir $d",
        root.display(),
        env!("CARGO_BIN_EXE_dakon")
    );
    let out = mpi_run::mpirun_program(2, "sh", &["-c", &script]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("same tables directory"), "{}", stderr(&out));
}
