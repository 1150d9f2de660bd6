//! `dakon solve` under `mpirun`: 1 to 4 ranks, in one shared table or each rank a node of its
//! own (`DAKON_MPI_SEPARATE_RANKS`), give the one-process value and a line that reaches it on
//! positions of several board sizes under Dakon's and Kalah's rules, with certificates
//! `dakon check` accepts; limits stop every rank with proven bounds; a rank killed mid-solve
//! ends the run with a clear message on rank 0 and the bounds proven.
//! Needs `--features mpi` and Open MPI's `mpirun` (`.ci/run` installs it).
#![cfg(feature = "mpi")]

use crate::memo_minimax;
use crate::mpi_run;

use std::path::{Path, PathBuf};

use memo_minimax::{format, Board, RefRules};
use mpi_run::{dakon, mpirun, mpirun_command, stderr};
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    mpi_run::scratch("mpi-solve", name)
}

/// A small table: the positions solve in moments, and each launch under MPI zeroes its shared
/// window whole.
fn solve_args<'a>(rules: &'a str, position: &'a str) -> Vec<&'a str> {
    vec!["solve", position, "--rules", rules, "--json", "--threads", "1", "--tt-mb", "2", "--no-tables"]
}

/// 30 `(rules, position)` of 4 to 7 holes (Dakon) and 4 to 6 (Kalah and its empty-capture
/// variant), a few random moves from a start, with few enough seeds to solve in moments.
fn thirty_positions() -> Vec<(&'static str, String)> {
    let mut state = 40u64;
    let mut next = move |bound: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % bound
    };
    let mut cases = Vec::new();
    for rules in RefRules::ALL {
        let holes: &[usize] = if rules == RefRules::DAKON { &[4, 5, 6, 7] } else { &[4, 5, 6] };
        for &n in holes {
            while cases
                .iter()
                .filter(|(r, p): &&(&str, String)| *r == rules.name() && p.split('/').next().unwrap().split(',').count() == n)
                .count()
                < 3
            {
                let mut board = Board::start(n, 2 + next(3) as u32);
                for _ in 0..4 + next(30) {
                    let moves = rules.moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    board = rules.play(&board, moves[next(moves.len())]);
                }
                if (8..=20).contains(&board.seeds_on_board()) && !rules.moves(&board).is_empty() {
                    cases.push((rules.name(), format(&board)));
                }
            }
        }
    }
    cases
}

/// The final store difference for the mover of `position` after playing `line` (absolute
/// holes) from it to the end of the game.
fn line_result(rules: &str, position: &str, line: &[String]) -> i32 {
    let mut args = vec!["play", position, "--rules", rules, "--json"];
    args.extend(line.iter().map(String::as_str));
    let played = dakon(&args);
    assert!(played.status.success(), "{rules} {position}: the line {line:?}: {}", stderr(&played));
    let text = String::from_utf8_lossy(&played.stdout);
    let last: Value = serde_json::from_str(text.lines().last().expect("a move was played")).unwrap();
    assert_eq!(last["game_over"], Value::Bool(true), "{rules} {position}: the line {line:?} ends the game: {last}");
    // Notation: holes, then `S1/S0`, then the player to move.
    let stores = |notation: &str| -> (i32, i32, String) {
        let fields: Vec<&str> = notation.split(' ').collect();
        let (s1, s0) = fields[1].split_once('/').unwrap();
        (s0.parse().unwrap(), s1.parse().unwrap(), fields[2].to_string())
    };
    let (_, _, mover) = stores(position);
    let (s0, s1, _) = stores(last["position"].as_str().unwrap());
    if mover == "0" {
        s0 - s1
    } else {
        s1 - s0
    }
}

#[test]
fn one_to_four_ranks_give_the_one_process_value_a_line_reaching_it_and_certificates_that_check() {
    let dir = scratch("thirty");
    let cases = thirty_positions();
    assert_eq!(cases.len(), 30);
    // Three cases at a time: each job is small, and much of its time is MPI's start and end.
    let next_case = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let i = next_case.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((rules, position)) = cases.get(i) else { break };
                check_one_to_four_ranks(&dir, i, rules, position);
            });
        }
    });
}

/// Case `i` of the test above: `position` solved by one process, then under 1 to 4 ranks.
fn check_one_to_four_ranks(dir: &Path, i: usize, rules: &str, position: &str) {
    let alone = dakon(&solve_args(rules, position));
    assert!(alone.status.success(), "{position}: {}", stderr(&alone));
    let alone: Value = serde_json::from_slice(&alone.stdout).unwrap();
    for ranks in 1..=4 {
        // Half the runs with every rank a node of its own: the cross-node path.
        let separate = (i + ranks) % 2 == 1;
        let certificate = dir.join(format!("{i}-{ranks}.dkc"));
        let mut args = solve_args(rules, position);
        args.extend(["--certificate", certificate.to_str().unwrap()]);
        let shared = mpi_run::run_to_end(|| {
            let mut command = mpirun_command(ranks, env!("CARGO_BIN_EXE_dakon"), &args);
            if separate {
                command.env("DAKON_MPI_SEPARATE_RANKS", "1");
            }
            command
        });
        let case = format!("{rules} {position}, {ranks} ranks{}", if separate { ", separate" } else { "" });
        assert!(shared.status.success(), "{case}: {}", stderr(&shared));
        let shared: Value = serde_json::from_slice(&shared.stdout).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(shared["exact"], Value::Bool(true), "{case}: {shared}");
        assert_eq!(shared["value"], alone["value"], "{case}");
        assert_eq!(shared["mpi"]["ranks"], if ranks > 1 { Value::from(ranks) } else { Value::Null }, "{case}: {shared}");
        assert_eq!(shared["certificate"]["check"]["holds"], Value::Bool(true), "{case}: {shared}");
        let check = dakon(&["check", certificate.to_str().unwrap()]);
        assert_eq!(check.status.code(), Some(0), "{case}: {}", String::from_utf8_lossy(&check.stdout));
        let line: Vec<String> = shared["pv"].as_array().unwrap().iter().map(|h| h.to_string()).collect();
        assert_eq!(shared["best_move"].to_string(), line[0], "{case}: the line starts with the best move");
        assert_eq!(Value::from(line_result(rules, position, &line)), alone["value"], "{case}: the line {line:?} reaches the value");
    }
}

#[test]
fn limits_stop_every_rank_with_the_bounds_proven() {
    // Kalah(6,4): minutes of search; a node limit and a time limit each end it in moments.
    let start =
        ["solve", "start", "--rules", "kalah", "--holes", "6", "--seeds", "4", "--threads", "1", "--tt-mb", "16", "--no-tables", "--json"];
    for (limit, value) in [("--node-limit", "300000"), ("--time-limit", "2")] {
        let mut args = start.to_vec();
        args.extend([limit, value]);
        let started = std::time::Instant::now();
        let out = mpirun(3, &args);
        assert!(out.status.success(), "{limit}: {}", stderr(&out));
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "{limit}: {:?}", started.elapsed());
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["exact"], Value::Bool(false), "{limit}: {json}");
        let (lower, upper) = (json["lower"].as_i64().unwrap(), json["upper"].as_i64().unwrap());
        // The value is +8 (`docs/DISTRIBUTED.md`): proven bounds hold it.
        assert!(lower <= 8 && 8 <= upper && lower < upper, "{limit}: [{lower}, {upper}]");
        assert!(stderr(&out).contains("proven so far"), "{limit}: progress on stderr: {}", stderr(&out));
        if limit == "--node-limit" {
            // Each test's search gets the nodes left shared over the ranks, and each of the 3
            // ranks looks at its share every 4,096 nodes: a test ends at most 3 x 4,096 nodes
            // past what was left. Rank 0 reports every test on stderr.
            let tests = stderr(&out).matches("proven so far").count() as u64;
            let nodes = json["nodes"].as_u64().unwrap();
            assert!(nodes <= 300_000 + tests * 3 * 4096, "{nodes} nodes over all ranks in {tests} tests");
        }
    }
}

/// The ranks of a node share their table in a file of huge pages where the host lets a user
/// mount a tmpfs of their own (user namespaces allowed), and say so; without it, or with
/// `DAKON_MPI_HUGE_FILES=0`, in an MPI window, and a note says why the pages are small.
#[test]
fn the_ranks_of_a_node_share_their_table_in_huge_pages_and_say_where_it_is() {
    let args = solve_args("kalah", "3,3,3,3/3,3,3,3 0/0 0");
    let memory = |out: &std::process::Output| {
        assert!(out.status.success(), "{}", stderr(out));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()["mpi"]["table_memory"].as_str().unwrap().to_string()
    };
    let allowed = std::fs::read_to_string("/proc/sys/user/max_user_namespaces").is_ok_and(|n| n.trim() != "0");
    let out = mpirun(2, &args);
    if allowed {
        assert_eq!(memory(&out), "file of huge pages", "{}", stderr(&out));
        assert!(!stderr(&out).contains("4 KiB pages"), "{}", stderr(&out));
    }
    let windowed = mpi_run::run_to_end(|| {
        let mut command = mpirun_command(2, env!("CARGO_BIN_EXE_dakon"), &args);
        command.env("DAKON_MPI_HUGE_FILES", "0");
        command
    });
    if dakon_mpi::shared_memory_in_huge_pages() == Some(true) {
        assert_eq!(memory(&windowed), "MPI window of /dev/shm in huge pages");
    } else {
        assert_eq!(memory(&windowed), "MPI window of /dev/shm in 4 KiB pages (DAKON_MPI_HUGE_FILES=0)");
        assert!(
            stderr(&windowed).contains("note: the table this node's 2 ranks share is in 4 KiB pages (DAKON_MPI_HUGE_FILES=0"),
            "{}",
            stderr(&windowed)
        );
    }
    let value = |out: &std::process::Output| serde_json::from_slice::<Value>(&out.stdout).unwrap()["value"].clone();
    assert_eq!(value(&out), value(&windowed));
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
    // Killed once it has searched a while, counted in its processor time: on a loaded
    // machine a wall-clock delay can end before the search begins.
    let job = child.id();
    let out = mpi_run::kill_rank_when(child, 2, || mpi_run::rank_cpu(job, 2) > std::time::Duration::from_secs(2));
    assert!(!out.status.success(), "a solve with a dead rank must fail");
    let (text, errors) = (String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(errors.contains("the MPI job is being ended"), "rank 0 says why it stops: {errors}");
    assert!(text.contains("value: not exact") && text.contains("between"), "rank 0 prints the bounds proven: {text}\n{errors}");
}

#[test]
fn a_rerun_after_a_dead_rank_starts_from_every_root_move_kept_in_the_database() {
    // Kalah(5,4) (value +10): seconds of search on 3 ranks, so that rank 2 dies in the middle.
    let db = scratch("resume").join("results.db");
    let args = [
        "solve",
        "start",
        "--rules",
        "kalah",
        "--holes",
        "5",
        "--seeds",
        "4",
        "--threads",
        "1",
        "--tt-mb",
        "16",
        "--no-tables",
        "--db",
        db.to_str().unwrap(),
    ];
    let child = mpi_run::spawn_mpirun(3, &args);
    // Killed once rank 0 has said three changes of the proven bounds: the root's moves have
    // entries to keep by then, and the solve is far from its end (a dozen such lines). A kill
    // by time can come before the search begins (MPI's start-up spins) or after it ends.
    let out = mpi_run::kill_rank_when_said(child, 2, "proven so far", 3);
    assert!(!out.status.success(), "the first run was cut by the dead rank: {}", String::from_utf8_lossy(&out.stdout));
    let rerun = mpirun(3, &args);
    assert!(rerun.status.success(), "{}", stderr(&rerun));
    let errors = stderr(&rerun);
    assert!(
        errors.contains("the solve starts from the database's bounds of"),
        "the log says which moves it starts from: {errors}\nthe first run's log: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&rerun.stdout);
    assert!(text.contains("value: +10"), "{text}");
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

#[test]
fn separate_nodes_share_one_table_and_search_fewer_nodes_than_each_alone() {
    // Kalah(5,3) (value +6), 4 ranks each its own node with 1 MiB: without sharing every rank
    // searches the whole tree in a table of its own; with it, the shallow entries live on
    // their owner node and the busy marks on node 0, so the ranks split the work.
    let args =
        ["solve", "start", "--rules", "kalah", "--holes", "5", "--seeds", "3", "--threads", "1", "--tt-mb", "1", "--no-tables", "--json"];
    let run = |cross_node: &str| {
        let out = mpi_run::run_to_end(|| {
            let mut command = mpirun_command(4, env!("CARGO_BIN_EXE_dakon"), &args);
            command.env("DAKON_MPI_SEPARATE_RANKS", "1").env("DAKON_MPI_CROSS_NODE", cross_node);
            command
        });
        assert!(out.status.success(), "cross node {cross_node}: {}", stderr(&out));
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["value"], Value::from(6), "cross node {cross_node}: {json}");
        // Every one-sided access moves at least one word; without the window there are none.
        let one_sided = json["mpi"]["one_sided"].as_array().expect("one-sided traffic a rank");
        let accesses: u64 = one_sided.iter().map(|t| t["accesses"].as_u64().unwrap()).sum();
        let bytes: u64 = one_sided.iter().map(|t| t["bytes"].as_u64().unwrap()).sum();
        assert_eq!(one_sided.len(), 4, "{json}");
        assert!(bytes >= 8 * accesses, "{json}");
        assert_eq!(accesses > 0, cross_node == "1", "one-sided accesses with cross node {cross_node}: {json}");
        json["nodes"].as_u64().unwrap()
    };
    // The nodes depend on the ranks' timing, which other jobs on a busy machine upset: the
    // test holds if one of three tries shows the saving (a broken sharing shows it in none).
    let mut tries = Vec::new();
    for _ in 0..3 {
        let (alone, shared) = (run("0"), run("1"));
        tries.push((shared, alone));
        if shared * 5 < alone * 4 {
            return;
        }
    }
    panic!("nodes over all ranks (sharing one table, each alone), three tries: {tries:?}");
}
