//! `dakon review`: a game record valued move by move. Each value is checked against `dakon best`
//! of the same position, each cost against the values, the second review comes from the
//! results database, and a malformed record is refused with the line and move at fault.

use crate::run_dakon;

use std::io::Write;
use std::process::{Command, Stdio};

use rand::{Rng, SeedableRng};
use run_dakon::{dakon, json};
use serde_json::Value;

/// A random game of 5 holes a row played to its end (seeded), as a record, and its positions
/// before each move.
fn random_game(seed: u64) -> (String, Vec<(String, u64)>) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut shown = json(&["show", "start", "--holes", "5", "--json"]);
    let mut record = "# a random game\nrules dakon\nholes 5\nseeds 5\n".to_string();
    let (mut turn, mut line, mut plies) = (1, Vec::new(), Vec::new());
    while let Some(moves) = shown["legal_moves"].as_array().filter(|m| !m.is_empty()) {
        let position = shown["position"].as_str().unwrap().to_string();
        let hole = moves[rng.gen_range(0..moves.len())].as_u64().unwrap();
        let played = json(&["play", &position, &hole.to_string(), "--json"]);
        plies.push((position, hole));
        line.push(hole.to_string());
        if !(played["extra_move"] == true && played["game_over"] == false) {
            record.push_str(&format!("{turn}. {}\n", line.join(" ")));
            (turn, line) = (turn + 1, Vec::new());
        }
        shown = json(&["show", played["position"].as_str().unwrap(), "--json"]);
    }
    (record, plies)
}

fn review(record: &str, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dakon"))
        .args(["review", "-"])
        .args(args)
        .env("DAKON_TABLES", run_dakon::no_tables())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dakon runs");
    child.stdin.take().unwrap().write_all(record.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn review_json(record: &str, args: &[&str]) -> Value {
    let out = review(record, &[args, &["--json"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn every_value_is_best_json_s_and_every_cost_their_difference_and_the_second_review_comes_from_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.db");
    let db = db.to_str().unwrap();
    let (record, plies) = random_game(7);
    let first = review_json(&record, &["--db", db, "--threads", "1"]);
    let moves = first["moves"].as_array().unwrap();
    assert_eq!(moves.len(), plies.len());
    assert_eq!((first["searched"].as_u64(), first["from_database"].as_u64()), (Some(plies.len() as u64), Some(0)));
    let mut marked = 0;
    for (m, (position, hole)) in moves.iter().zip(&plies) {
        assert_eq!(m["hole"].as_u64(), Some(*hole));
        let best = json(&["best", position, "--json", "--threads", "1"]);
        let valued = best["moves"].as_array().unwrap();
        let value = |hole: u64| valued.iter().find(|v| v["hole"] == hole).unwrap()["value"].as_i64().unwrap();
        let (before, after, cost) =
            (m["before"]["value"].as_i64().unwrap(), m["after"]["value"].as_i64().unwrap(), m["cost"]["value"].as_i64().unwrap());
        assert_eq!(before, valued[0]["value"].as_i64().unwrap(), "{position}: the position is worth its best move");
        assert_eq!(after, value(*hole), "{position}: the move played is worth what best says");
        assert_eq!(cost, before - after, "{position}");
        let expected_mark = match cost {
            0 => Value::Null,
            _ if cost >= 8 || (before > 0 && after <= 0) || (before >= 0 && after < 0) => "??".into(),
            3.. => "?".into(),
            _ => "?!".into(),
        };
        assert_eq!(m["mark"], expected_mark, "{position}: cost {cost}");
        if m["mark"].is_string() {
            marked += 1;
            let line = m["best_line"].as_array().unwrap();
            assert_eq!(line.first(), best["moves"][0].get("hole"), "{position}: the best line starts with a best move");
        } else {
            assert_eq!(m["best_line"], Value::Array(Vec::new()));
        }
    }
    assert!(marked > 0, "a random game has mistakes");
    // The graph's values for player 0 follow the moves.
    assert_eq!(first["values_for_player_0"].as_array().unwrap().len(), plies.len() + 1);

    let second = review_json(&record, &["--db", db, "--threads", "1"]);
    assert_eq!((second["searched"].as_u64(), second["from_database"].as_u64()), (Some(0), Some(plies.len() as u64)));
    assert_eq!(second["moves"], first["moves"]);
    // The record it prints reads back as the same game.
    let again = review_json(first["record"].as_str().unwrap(), &["--no-db", "--threads", "1"]);
    assert_eq!(again["moves"], first["moves"]);
}

#[test]
fn the_table_and_the_graph_show_the_marked_moves() {
    let (record, _) = random_game(11);
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("game.svg");
    let out = review(&record, &["--no-db", "--threads", "1", "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("before") && table.contains("best line") && table.contains("searched"), "{table}");
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains("the value for player 0"), "{drawn}");
    let marks = table.lines().filter(|l| l.contains('?')).count();
    assert!(marks > 0 && drawn.matches("<circle").count() >= marks, "every marked move is a dot on the graph");
}

#[test]
fn a_malformed_record_is_refused_with_the_line_and_move_at_fault() {
    for (record, expected) in [
        ("holes 5\n1. 7\n2. 3 3\n", "line 3, turn 2, move 1: hole 3 in"),
        ("holes 5\nseeds 5\n\n1. 6 9\n", "line 4, turn 1, move 2: the turn passed to player 1 after hole 6"),
        ("holes 5\n1. 5\n", "line 2, turn 1, move 1: player 0 moves again after hole 5"),
        ("holes 12\n1. 8\n", "line 2: cannot set up the start of 12 holes"),
    ] {
        let out = review(record, &["--no-db"]);
        assert_eq!(out.status.code(), Some(2), "{record:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("standard input: {expected}")), "{record:?}: {stderr}");
    }
    let out = dakon(&["review", "/no/such/game.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the game record /no/such/game.txt"));
}
