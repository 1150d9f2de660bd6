//! `dakon solve` under `mpirun`: 3 ranks give the one-process value on positions of several
//! board sizes under Dakon's and Kalah's rules, with certificates `dakon check` accepts, and
//! a rank killed mid-solve ends the run with a clear message on rank 0 and the bounds proven.
//! Needs `--features mpi` and Open MPI's `mpirun` (`.ci/run` installs it).
#![cfg(feature = "mpi")]

#[allow(dead_code, unused_imports)]
mod memo_minimax;
#[allow(dead_code)]
mod mpi_run;

use std::path::PathBuf;

use memo_minimax::{format, random_positions, RefRules};
use mpi_run::{dakon, mpirun, stderr};
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    mpi_run::scratch("mpi-solve", name)
}

/// `(rules, position)`: random positions of 2 to 4 holes for each rule set (Dakon, Kalah and its
/// empty-capture variant), and openings of
/// 3 to 6 holes.
fn positions() -> Vec<(&'static str, String)> {
    let mut cases = Vec::new();
    for rules in RefRules::ALL {
        for board in random_positions(rules, 6, 19, 4, 12) {
            cases.push((rules.name(), format(&board)));
        }
    }
    for (rules, holes, seeds) in
        [("dakon", 3, 3), ("dakon", 4, 4), ("dakon", 5, 2), ("dakon", 6, 2), ("kalah", 3, 3), ("kalah", 4, 3), ("kalah", 5, 2)]
    {
        let start = dakon(&["show", "start", "--holes", &holes.to_string(), "--seeds", &seeds.to_string(), "--json"]);
        assert!(start.status.success(), "{}", stderr(&start));
        let shown: Value = serde_json::from_slice(&start.stdout).unwrap();
        cases.push((rules, shown["position"].as_str().expect("show --json gives the position").to_string()));
    }
    cases
}

fn solve_args<'a>(rules: &'a str, position: &'a str) -> Vec<&'a str> {
    vec!["solve", position, "--rules", rules, "--json", "--threads", "1", "--tt-mb", "16", "--no-tables"]
}

#[test]
fn three_ranks_give_the_one_process_value_and_certificates_that_check() {
    let dir = scratch("values");
    let cases = positions();
    assert!(cases.len() >= 20);
    for (i, (rules, position)) in cases.iter().enumerate() {
        let alone = dakon(&solve_args(rules, position));
        assert!(alone.status.success(), "{position}: {}", stderr(&alone));
        let alone: Value = serde_json::from_slice(&alone.stdout).unwrap();
        let certificate = dir.join(format!("{i}.dkc"));
        let mut args = solve_args(rules, position);
        args.extend(["--certificate", certificate.to_str().unwrap()]);
        let shared = mpirun(3, &args);
        assert!(shared.status.success(), "{rules} {position}: {}", stderr(&shared));
        let text = String::from_utf8_lossy(&shared.stdout);
        assert_eq!(text.lines().count(), 1, "one answer, from rank 0: {text}");
        let shared: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(shared["exact"], Value::Bool(true), "{rules} {position}: {shared}");
        assert_eq!(shared["value"], alone["value"], "{rules} {position}");
        assert_eq!(shared["mpi"]["ranks"], 3, "{shared}");
        assert_eq!(shared["certificate"]["check"]["holds"], Value::Bool(true), "{shared}");
        let check = dakon(&["check", certificate.to_str().unwrap()]);
        assert_eq!(check.status.code(), Some(0), "{rules} {position}: {}", String::from_utf8_lossy(&check.stdout));
        // The best line is played from the position to the end of the game (a finished
        // game has none).
        if shared["pv"].as_array().unwrap().is_empty() {
            assert_eq!(shared["best_move"], Value::Null, "{rules} {position}");
            continue;
        }
        let mut line = vec!["play", position.as_str(), "--rules", rules];
        let pv: Vec<String> = shared["pv"].as_array().unwrap().iter().map(|h| h.to_string()).collect();
        line.extend(pv.iter().map(String::as_str));
        let played = dakon(&line);
        assert!(played.status.success(), "{rules} {position}: the line {pv:?}: {}", stderr(&played));
    }
}

#[test]
fn a_single_test_runs_on_rank_0_alone() {
    let args = ["solve", "start", "--holes", "3", "--at-least", "10", "--json", "--threads", "1"];
    let out = mpirun(3, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 1, "one answer, not one a rank: {text}");
    let holds = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).unwrap()["holds"].clone();
    assert_eq!(holds(&out.stdout), holds(&dakon(&args).stdout));
    assert!(stderr(&out).contains("not distributed"), "{}", stderr(&out));
}

#[test]
fn a_killed_rank_ends_the_solve_with_the_bounds_proven_on_rank_0() {
    // Kalah(6,4): minutes of search, so that rank 2 dies in the middle.
    let args = ["solve", "start", "--rules", "kalah", "--holes", "6", "--seeds", "4", "--threads", "1", "--tt-mb", "64", "--no-tables"];
    let child = mpi_run::spawn_mpirun(3, &args);
    let started = std::time::Instant::now();
    let out = mpi_run::kill_rank_when(child, 2, || started.elapsed() > std::time::Duration::from_secs(3));
    assert!(!out.status.success(), "a solve with a dead rank must fail");
    let (text, errors) = (String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(errors.contains("the MPI job is being ended"), "rank 0 says why it stops: {errors}");
    assert!(text.contains("value: not exact") && text.contains("between"), "rank 0 prints the bounds proven: {text}\n{errors}");
}

#[test]
fn one_rank_is_the_one_process_program() {
    let args = solve_args("kalah", "3,3,3,3/3,3,3,3 0/0 0");
    let (alone, single) = (dakon(&args), mpirun(1, &args));
    assert!(single.status.success(), "{}", stderr(&single));
    let json = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).unwrap();
    let (alone, single) = (json(&alone.stdout), json(&single.stdout));
    assert_eq!(single["value"], alone["value"]);
    assert_eq!(single["nodes"], alone["nodes"], "the same search");
    assert_eq!(single.get("mpi"), None, "no MPI job: {single}");
}
