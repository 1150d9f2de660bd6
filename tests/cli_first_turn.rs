//! `no-first-turn-capture` on the command line: `solve` (and `--at-least`), `best` and `verify` of opening states
//! against a plain memoized minimax over the rules engine, and the refusals (other commands,
//! options the opening search does not serve, the `first:` field under rules without the
//! option).

use std::collections::HashMap;
use std::path::Path;

use crate::run_dakon;

use dakon_solver::dakon::{DakonOptions, OpeningState};
use run_dakon::{dakon, json};

const RULES: &str = "dakon:no-first-turn-capture";

/// The final store difference for the mover, by minimax over every move.
fn value(state: &OpeningState, options: DakonOptions, memo: &mut HashMap<OpeningState, i32>) -> i32 {
    if state.position.is_over() {
        return state.position.final_difference();
    }
    if let Some(&v) = memo.get(state) {
        return v;
    }
    let mover = state.position.mover();
    let v = state
        .position
        .legal_holes()
        .into_iter()
        .map(|hole| {
            let next = state.play_hole_with(hole, options).unwrap().0;
            let v = value(&next, options, memo);
            if next.position.mover() == mover {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap();
    memo.insert(*state, v);
    v
}

#[test]
fn solve_and_best_give_the_minimax_value_of_opening_states() {
    let options: DakonOptions = RULES[6..].parse().unwrap();
    let start = OpeningState::start(3, 3).unwrap();
    let mut memo = HashMap::new();
    let exact = value(&start, options, &mut memo);
    let solved = json(&["solve", "start", "--holes", "3", "--rules", RULES, "--json", "--threads", "1"]);
    assert_eq!(solved["value"], exact);
    assert_eq!(solved["position"], "3,3,3/3,3,3 0/0 0 first:0,1");
    // The default's value differs on this board: the option is really played.
    let default = json(&["solve", "start", "--holes", "4", "--json", "--threads", "1"]);
    let four = OpeningState::start(4, 4).unwrap();
    let exact_four = value(&four, options, &mut HashMap::new());
    assert_ne!(default["value"], exact_four);
    let best = json(&["best", "start", "--holes", "3", "--rules", RULES, "--json", "--threads", "1"]);
    let moves = best["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    for m in moves {
        let hole = m["hole"].as_u64().unwrap() as usize;
        let next = start.play_hole_with(hole, options).unwrap().0;
        let v = value(&next, options, &mut memo);
        assert_eq!(m["value"], if next.position.mover() == start.position.mover() { v } else { -v }, "hole {hole}");
    }
    assert_eq!(moves[0]["value"], exact);
    // An opening state in notation, one move into player 0's first turn.
    let third = "3,3,3/0,4,4 0/1 0 first:0,1";
    let solved = json(&["solve", third, "--rules", RULES, "--json", "--threads", "1"]);
    assert_eq!(solved["value"], value(&third.parse().unwrap(), options, &mut memo));
}

/// Runs `dakon args`, which must fail with status 2; returns its standard error.
fn refused(args: &[&str]) -> String {
    let out = dakon(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "dakon {args:?}: {stderr}");
    stderr
}

#[test]
fn what_the_opening_search_does_not_serve_is_refused_naming_the_rules() {
    for args in [
        &["verify", "--holes", "3", "--seeds", "3", "--rules", RULES, "--opening-only"][..],
        &["perft", "start", "2", "--holes", "3", "--rules", RULES],
        &["tables", "build", "--holes", "3", "--max-seeds", "2", "--rules", RULES],
    ] {
        assert!(refused(args).contains("dakon:no-first-turn-capture"), "{args:?}");
    }
    let stderr = refused(&["solve", "start", "--holes", "3", "--rules", RULES, "--db", "x.db"]);
    assert!(stderr.contains("--db is not available under the rules dakon:no-first-turn-capture"), "{stderr}");
    let stderr = refused(&["solve", "3,3,3/3,3,3 0/0 0 first:0,1", "--holes", "3"]);
    assert!(stderr.contains("needs --rules dakon:no-first-turn-capture"), "{stderr}");
    let stderr = refused(&["solve", "start", "--holes", "3", "--take-all-checkpoint", "walk.ckpt"]);
    assert!(
        stderr.contains(
            "--take-all-checkpoint keeps the enumeration of first turns under a rule option with no-first-turn-capture, not under dakon"
        ),
        "{stderr}"
    );
    let stderr = refused(&["solve", "3,3,3/3,3,3 0/0 0 first:2", "--rules", RULES]);
    assert!(stderr.contains("'first:0,1', 'first:0' or 'first:1'"), "{stderr}");
}

#[test]
fn solve_writes_a_certificate_of_the_opening_that_the_checker_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3.dkc");
    let file = path.to_str().unwrap();
    let solved = json(&["solve", "start", "--holes", "3", "--rules", RULES, "--certificate", file, "--json"]);
    assert_eq!(solved["certificate"]["checked"], true, "{solved}");
    assert_eq!(solved["certificate"]["lower"], solved["value"]);
    let checked = json(&["check", file, "--json"]);
    assert_eq!(checked["rules"], RULES);
    assert_eq!(checked["checked_lower"], solved["value"]);
}

#[test]
fn at_least_answers_one_bound_of_an_opening_state_with_a_certificate_of_the_answer() {
    let options: DakonOptions = RULES[6..].parse().unwrap();
    let start = OpeningState::start(4, 4).unwrap();
    let exact = value(&start, options, &mut HashMap::new());
    let dir = tempfile::tempdir().unwrap();
    for (bound, holds) in [(exact, true), (exact + 1, false), (-exact, true)] {
        let path = dir.path().join(format!("{bound}.dkc"));
        let file = path.to_str().unwrap();
        let bound_arg = bound.to_string();
        let args = ["solve", "start", "--holes", "4", "--rules", RULES, "--at-least", &bound_arg, "--certificate", file, "--json"];
        let answer = json(&args);
        assert_eq!(answer["holds"], holds, "{answer}");
        assert_eq!(answer["certificate"]["checked"], true, "{answer}");
        let checked = json(&["check", file, "--json"]);
        if holds {
            assert_eq!(checked["checked_lower"], bound, "{checked}");
        } else {
            assert_eq!(checked["checked_upper"], bound - 1, "{checked}");
        }
    }
    let win = json(&["solve", "start", "--holes", "4", "--rules", RULES, "--prove-win", "--json"]);
    assert_eq!(win["holds"], exact > 0, "{win}");
}

/// `dakon verify` of `holes` x `seeds` under `rules` with `search` (budget, threads, table),
/// no tables, JSON lines, certificates into `certificates` and the report into `out`.
fn verify_args(rules: &str, holes: &str, seeds: &str, search: &[&str], certificates: &Path, out: &Path) -> Vec<String> {
    let head = ["verify", "--holes", holes, "--seeds", seeds, "--rules", rules, "--no-tables", "--json"];
    let files = ["--certificates", certificates.to_str().unwrap(), "--out", out.to_str().unwrap()];
    head.iter().chain(search).chain(&files).map(|a| a.to_string()).collect()
}

#[test]
fn verify_decides_each_start_through_the_opening_with_certificates_the_checker_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let certificates = dir.path().join("certs");
    let out = dir.path().join("atlas.md");
    for rules in [RULES, "dakon:no-first-turn-capture,traditional"] {
        let args = verify_args(rules, "1..4", "2,3", &["--budget", "30", "--threads", "1", "--tt-mb", "16"], &certificates, &out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let done = dakon(&args);
        assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
        let options: DakonOptions = rules[6..].parse().unwrap();
        let rows: Vec<serde_json::Value> =
            String::from_utf8_lossy(&done.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        assert_eq!(rows.len(), 8, "{rules}");
        for row in &rows {
            let (holes, seeds) = (row["holes"].as_u64().unwrap() as usize, row["seeds"].as_u64().unwrap() as u32);
            let mut memo = HashMap::new();
            let start = OpeningState::start(holes, seeds).unwrap();
            assert_eq!((row["rules"].as_str(), row["value"].as_i64()), (Some(rules), Some(value(&start, options, &mut memo) as i64)));
            // The opening shown is a whole first turn of player 0, each move keeping the value.
            let mut state = start;
            for hole in row["opening"].as_array().unwrap() {
                assert_eq!(state.position.mover(), start.position.mover(), "{row}");
                let next = state.play_hole_with(hole.as_u64().unwrap() as usize, options).unwrap().0;
                let v = value(&next, options, &mut memo);
                assert_eq!(if next.position.mover() == start.position.mover() { v } else { -v }, row["value"].as_i64().unwrap() as i32);
                state = next;
            }
            assert!(state.position.is_over() || state.position.mover() != start.position.mover(), "{row}");
            let file = certificates.join(format!("{}-{holes}x{seeds}.dkc", rules.replace(':', "_")));
            assert_eq!(row["certificate"]["file"], file.to_str().unwrap());
            let checked = json(&["check", file.to_str().unwrap(), "--json"]);
            assert_eq!((checked["rules"].as_str(), &checked["checked_lower"]), (Some(rules), &row["value"]), "{checked}");
        }
        // The records name the rules, so --resume keeps every board, certificates included.
        let resumed = dakon(&[&args[..], &["--resume"]].concat());
        assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
        let again: Vec<serde_json::Value> =
            String::from_utf8_lossy(&resumed.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        assert_eq!(again, rows, "{rules}");
    }
}

#[test]
fn verify_certifies_the_lower_bound_where_the_upper_rests_on_the_take_all_enumeration() {
    // 6 x 6: +70 of 72 seeds, the upper bound by the enumeration of every first turn; the
    // certificate holds +70 to +72, and --resume keeps it.
    let dir = tempfile::tempdir().unwrap();
    let certificates = dir.path().join("certs");
    let out = dir.path().join("atlas.md");
    let args = verify_args(RULES, "6", "6", &["--budget", "300", "--threads", "2"], &certificates, &out);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let done = dakon(&args);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let row: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!((&row["value"], &row["upper_by_walk"]), (&serde_json::json!(70), &serde_json::json!(true)), "{row}");
    let checked = json(&["check", row["certificate"]["file"].as_str().unwrap(), "--json"]);
    assert_eq!((&checked["checked_lower"], &checked["checked_upper"]), (&serde_json::json!(70), &serde_json::json!(72)), "{checked}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("checked (lower)"));
    let resumed = dakon(&[&args[..], &["--resume"]].concat());
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&resumed.stdout).unwrap(), row);
}

#[test]
fn play_and_show_carry_the_first_turns() {
    let options: DakonOptions = RULES[6..].parse().unwrap();
    // 7 x 7, hole 13 relays through hole 1 and stops in the empty hole 6: a nembak by default,
    // nothing in a first turn, after which player 0's first turn is over.
    assert_eq!(json(&["play", "start", "13", "--json"])["capture"], "nembak");
    let played = json(&["play", "start", "13", "--rules", RULES, "--json"]);
    let (expected, _) = OpeningState::start(7, 7).unwrap().play_hole_with(13, options).unwrap();
    assert_eq!((played["capture"].clone(), played["position"].as_str()), (serde_json::Value::Null, Some(&*expected.to_string())));
    assert!(expected.to_string().ends_with(" 1 first:1"));
    let shown = json(&["show", &expected.to_string(), "--rules", RULES, "--json"]);
    assert_eq!((shown["position"].as_str(), shown["rules"].as_str()), (Some(&*expected.to_string()), Some(RULES)));
    assert_eq!(json(&["show", "start", "--holes", "2", "--rules", RULES, "--json"])["position"], "2,2/2,2 0/0 0 first:0,1");
    let stderr = refused(&["show", &expected.to_string()]);
    assert!(stderr.contains("needs --rules dakon:no-first-turn-capture"), "{stderr}");
}

#[test]
fn solve_keeps_the_take_all_enumeration_in_a_checkpoint_and_goes_on_from_it() {
    // 6 x 6 needs the enumeration of every first turn (+70 of 72 seeds): the first run writes
    // the checkpoint, the second finds every walk done there and decides without walking.
    let dir = tempfile::tempdir().unwrap();
    let walk = dir.path().join("6x6.walk");
    let walk = walk.to_str().unwrap();
    let args =
        ["solve", "start", "--holes", "6", "--rules", RULES, "--threads", "2", "--no-tables", "--json", "--take-all-checkpoint", walk];
    let first = json(&args);
    assert_eq!(first["value"], 70, "{first}");
    let enumeration = &first["work"]["take_all_enumeration"];
    let walks = enumeration["walks"].as_u64().unwrap();
    assert!(walks > 1000 && enumeration["walks_done"] == walks, "{enumeration}");
    assert_eq!((&enumeration["decision"], &enumeration["turn"]), (&serde_json::json!("impossible"), &serde_json::Value::Null));
    let again = json(&args);
    assert_eq!(again["value"], 70);
    assert_eq!(again["work"]["take_all_enumeration"]["turn_states"], enumeration["turn_states"], "{again}");
    // A damaged checkpoint is refused, naming the file.
    std::fs::write(walk, b"not a checkpoint").unwrap();
    let out = dakon(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("6x6.walk: not a take-all checkpoint"), "{stderr}");
}
