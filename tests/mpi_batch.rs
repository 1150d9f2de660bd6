//! `dakon batch` under `mpirun`: the records of 3 ranks are those of one process, in the same
//! order, and a batch whose rank was killed resumes with `--resume`.
//! Needs `--features mpi` and Open MPI's `mpirun` (`.ci/run` installs it).
#![cfg(feature = "mpi")]

use crate::memo_minimax;
use crate::mpi_run;

use std::path::{Path, PathBuf};

use memo_minimax::{format, random_positions, RefRules};
use mpi_run::{dakon, mpirun, stderr};
use serde_json::Value;

/// Positions of random Dakon games, with a malformed line and a comment among them.
fn input(count: usize, seeds: usize) -> String {
    let mut text = String::from("# positions\n");
    for (i, board) in random_positions(RefRules::DAKON, count, 11, seeds, 10).iter().enumerate() {
        if i == count / 2 {
            text.push_str("not a position\n");
        }
        text.push_str(&format!("{}\n", format(board)));
    }
    text
}

/// `count` 5-hole positions of up to 4 seeds a hole, fixed by a generator: each takes
/// milliseconds, so the batch lasts long enough to kill a rank in the middle.
fn harder_input(count: usize) -> String {
    let mut state = 1u64;
    let mut seeds = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % 5
    };
    (0..count)
        .map(|i| {
            let holes: Vec<String> = (0..10).map(|_| seeds().to_string()).collect();
            format!("{}/{} 0/0 {}\n", holes[..5].join(","), holes[5..].join(","), i % 2)
        })
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    mpi_run::scratch("mpi-batch", name)
}

/// The records of `path` without what may change between runs: timing, node counts and the
/// choice among equally good moves.
fn stable_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            for field in ["seconds", "nodes", "best_move", "pv"] {
                record.as_object_mut().unwrap().remove(field);
            }
            record
        })
        .collect()
}

fn batch<'a>(file: &'a str, out: &'a str) -> Vec<&'a str> {
    vec!["batch", file, "--out", out, "--threads", "1"]
}

#[test]
fn three_ranks_give_the_records_of_one_process_in_input_order() {
    let dir = scratch("same");
    let file = dir.join("in.txt");
    std::fs::write(&file, input(60, 2)).unwrap();
    let (file, alone, shared) = (file.to_str().unwrap(), dir.join("alone.jsonl"), dir.join("shared.jsonl"));
    assert_eq!(dakon(&batch(file, alone.to_str().unwrap())).status.code(), Some(1), "the malformed line fails");
    let out = mpirun(3, &batch(file, shared.to_str().unwrap()));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 of 61 lines failed"), "{}", stderr(&out));
    // The batch ran to its end on every rank: no abort, whose launcher can crash in teardown.
    assert!(!stderr(&out).contains("MPI_ABORT"), "{}", stderr(&out));
    let expected = stable_records(&alone);
    assert_eq!(expected.len(), 61);
    assert_eq!(stable_records(&shared), expected);
}

#[test]
fn a_batch_whose_rank_was_killed_resumes() {
    let dir = scratch("killed");
    let file = dir.join("in.txt");
    std::fs::write(&file, harder_input(300)).unwrap();
    let (file, alone, shared) = (file.to_str().unwrap(), dir.join("alone.jsonl"), dir.join("shared.jsonl"));
    assert!(dakon(&batch(file, alone.to_str().unwrap())).status.success());
    let child = mpi_run::spawn_mpirun(3, &batch(file, shared.to_str().unwrap()));
    let out = mpi_run::kill_rank_when(child, 2, || std::fs::read_to_string(&shared).map_or(0, |t| t.lines().count()) >= 5);
    assert!(!out.status.success(), "a batch with a dead rank must fail");
    let kept = std::fs::read_to_string(&shared).unwrap().lines().count();
    assert!(kept < 300, "rank 2 was killed after the last line: use a larger batch");
    let resumed = mpirun(3, &["batch", file, "--out", shared.to_str().unwrap(), "--threads", "1", "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(stable_records(&shared), stable_records(&alone));
}
