//! `dakon verify` under `mpirun`: the boards of 3 ranks give the one-process rows in board
//! order, a run whose rank was killed resumes with `--resume`, and the commands that are not
//! distributed run once, on rank 0.
//! Needs `--features mpi` and Open MPI's `mpirun` (`.ci/run` installs it).
#![cfg(feature = "mpi")]

use crate::mpi_run;

use std::path::{Path, PathBuf};

use mpi_run::{dakon, mpirun, stderr};
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    mpi_run::scratch("mpi-verify", name)
}

/// Each row without what depends on timing or on the search's route: board, bounds, verdict.
fn values(lines: &str) -> Vec<(u64, u64, Value, Value, Value)> {
    lines
        .lines()
        .map(|line| {
            let r: Value = serde_json::from_str(line).unwrap();
            (r["holes"].as_u64().unwrap(), r["seeds"].as_u64().unwrap(), r["lower"].clone(), r["upper"].clone(), r["first_player"].clone())
        })
        .collect()
}

#[test]
fn three_ranks_give_the_rows_of_one_process_in_board_order() {
    let args =
        ["verify", "--holes", "2..6", "--seeds", "2,3", "--json", "--budget", "600", "--threads", "1", "--tt-mb", "16", "--no-tables"];
    let alone = dakon(&args);
    assert!(alone.status.success(), "{}", stderr(&alone));
    let shared = mpirun(3, &args);
    assert!(shared.status.success(), "{}", stderr(&shared));
    let expected = values(&String::from_utf8_lossy(&alone.stdout));
    assert_eq!(expected.len(), 10);
    assert_eq!(values(&String::from_utf8_lossy(&shared.stdout)), expected);
}

#[test]
fn a_verify_whose_rank_was_killed_resumes() {
    let dir = scratch("killed");
    let report = dir.join("atlas.md");
    let records = dir.join("atlas.jsonl");
    // Five quick boards, then 8 x 3 (seconds): a rank is killed while it is being decided.
    let args = |report: &Path| -> Vec<String> {
        [
            "verify",
            "--holes",
            "2,3,8",
            "--seeds",
            "1,3",
            "--threads",
            "1",
            "--tt-mb",
            "64",
            "--json",
            "--budget",
            "600",
            "--no-tables",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([report.to_str().unwrap().to_string()])
        .collect()
    };
    let alone_report = dir.join("alone.md");
    let alone_args = args(&alone_report);
    let alone = dakon(&alone_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(alone.status.success(), "{}", stderr(&alone));
    let shared_args = args(&report);
    let shared_args: Vec<&str> = shared_args.iter().map(String::as_str).collect();
    let child = mpi_run::spawn_mpirun(3, &shared_args);
    let out = mpi_run::kill_rank_when(child, 1, || std::fs::read_to_string(&records).map_or(0, |t| t.lines().count()) >= 4);
    assert!(!out.status.success(), "a verify with a dead rank must fail");
    let kept = std::fs::read_to_string(&records).unwrap().lines().count();
    assert!((4..6).contains(&kept), "kept {kept} boards");
    let resumed = mpirun(3, &[&shared_args[..], &["--resume"]].concat());
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let sorted = |path: &Path| {
        let mut rows = values(&std::fs::read_to_string(path).unwrap());
        rows.sort_by_key(|r| (r.0, r.1));
        rows
    };
    assert_eq!(sorted(&records), sorted(&dir.join("alone.jsonl")));
}

#[test]
fn commands_that_are_not_distributed_run_once_on_rank_0() {
    let args = ["best", "start", "--holes", "3", "--json", "--threads", "1"];
    let out = mpirun(3, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 1, "one answer, not one a rank: {text}");
    let moves = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).unwrap()["moves"].clone();
    assert_eq!(moves(&out.stdout), moves(&dakon(&args).stdout));
    assert!(stderr(&out).contains("not distributed"), "{}", stderr(&out));
}

/// Open MPI's `mpirun` sometimes deadlocks in its teardown after a rank was killed
/// (`mpi_run::wait_for_job`), which cannot be caused at will: a parent that outlives its only
/// rank stands for it. The wait ends with a failure instead of hanging the test.
#[test]
fn a_launcher_stuck_after_its_ranks_ended_is_killed() {
    let started = std::time::Instant::now();
    let stuck = std::process::Command::new("sh")
        .args(["-c", "OMPI_COMM_WORLD_RANK=0 sleep 1 & exec sleep 600"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = mpi_run::wait_for_job(stuck);
    assert!(!out.status.success());
    assert!(started.elapsed() < std::time::Duration::from_secs(120), "waited {:?}", started.elapsed());
}
