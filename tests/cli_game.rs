//! End-to-end tests of `dakon show`, `play` and `perft`: the built program is run as a user
//! would run it, its output checked against the independent reference implementation of the
//! rules (`solver/tests/reference`), and bad input must exit with status 2 and a message that
//! names the problem, never a panic.

use crate::reference;

use std::process::{Command, Output};

use reference::rules::RefRules;
use reference::{notation, Board, Kind};
use serde_json::Value;

const START: &str = "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0";

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).output().expect("cannot run dakon")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is not UTF-8")
}

/// Runs a command that must succeed; returns its standard output.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "dakon {args:?} failed ({}): {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "dakon {args:?}: {stderr}");
    text(&out.stdout)
}

/// Runs a command that must refuse its input: exit status 2, each of `words` on standard
/// error, no panic.
fn refused(args: &[&str], words: &[&str]) {
    let out = run(args);
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "dakon {args:?} panicked: {stderr}");
    assert_eq!(out.status.code(), Some(2), "dakon {args:?}: exit status; stderr: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "dakon {args:?}: stderr lacks '{word}': {stderr}");
    }
}

/// One JSON value per line of output.
fn json_lines(output: &str) -> Vec<Value> {
    output.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

fn capture_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Nembak => "nembak",
        Kind::Mikul => "mikul",
    }
}

/// Checks one `play --json` line against the reference's move `hole` from `board`; returns
/// the reference's position after it.
fn check_move(line: &Value, board: &Board, hole: usize) -> Board {
    let (after, report) = board.play(hole);
    let here = format!("{} hole {hole}: {line}", notation::format(board));
    assert_eq!(line["hole"], hole, "{here}");
    assert_eq!(line["position"], notation::format(&after), "{here}");
    assert_eq!(line["extra_move"], report.extra_move, "{here}");
    assert_eq!(line["game_over"], report.sweep.is_some(), "{here}");
    assert_eq!(line["captured"], report.capture.map_or(0, |c| c.1), "{here}");
    assert_eq!(line["capture"], report.capture.map(|c| capture_name(c.0)).map_or(Value::Null, Value::from), "{here}");
    assert_eq!(line["to_move"], after.to_move, "{here}");
    assert_eq!(line["laps"], report.laps, "{here}");
    assert_eq!(line["sown_into_store"], report.sown_into_store, "{here}");
    assert_eq!(line["last_hole"], report.last_hole.map_or(Value::Null, Value::from), "{here}");
    let sweep = report.sweep.map_or(Value::Null, |(to, seeds)| serde_json::json!({"to": to, "seeds": seeds}));
    assert_eq!(line["sweep"], sweep, "{here}");
    after
}

#[test]
fn show_draws_the_board() {
    let out = ok(&["show", "start"]);
    assert!(out.contains(START), "{out}");
    assert!(out.contains("#0") && out.contains("#13"), "{out}");
    assert!(out.contains("player 0 to move; legal holes: 7 8 9 10 11 12 13"), "{out}");
    let out = ok(&["show", "0,1/0,1 5/5 1"]);
    assert!(out.contains("player 1 to move; legal holes: 1"), "{out}");
    let over = ok(&["show", "0,0/0,1 6/5 1"]);
    assert!(over.contains("game over"), "{over}");
}

#[test]
fn show_json() {
    let v = &json_lines(&ok(&["show", "--json", "0,3,0,2,2/1,0,0,0,2 4/6 1"]))[0];
    assert_eq!(v["position"], "0,3,0,2,2/1,0,0,0,2 4/6 1");
    assert_eq!(v["holes"], 5);
    assert_eq!(v["board"], serde_json::json!([0, 3, 0, 2, 2, 1, 0, 0, 0, 2]));
    assert_eq!(v["rows"], serde_json::json!({"top": [0, 3, 0, 2, 2], "bottom": [1, 0, 0, 0, 2]}));
    assert_eq!(v["stores"], serde_json::json!([6, 4]));
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["legal_moves"], serde_json::json!([1, 3, 4]));
    assert_eq!(v["game_over"], false);
    let v = &json_lines(&ok(&["show", "0,0,0/0,0,0 1/2 1", "--json"]))[0];
    assert_eq!(v["game_over"], true);
    assert_eq!(v["legal_moves"], serde_json::json!([]));
}

#[test]
fn start_takes_holes_and_seeds() {
    for (holes, seeds) in [(1, 1), (5, 3), (9, 14), (7, 0), (3, 42)] {
        let (h, s) = (holes.to_string(), seeds.to_string());
        let v = &json_lines(&ok(&["show", "start", "--holes", &h, "--seeds", &s, "--json"]))[0];
        assert_eq!(v["position"], notation::format(&Board::start(holes, seeds)), "--holes {h} --seeds {s}");
    }
    // --seeds defaults to --holes.
    let v = &json_lines(&ok(&["show", "start", "--holes", "4", "--json"]))[0];
    assert_eq!(v["position"], "4,4,4,4/4,4,4,4 0/0 0");
}

#[test]
fn play_text() {
    let out = ok(&["play", "start", "7", "8"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("7: 7,7,7,7,7,7,7/0,8,8,8,8,8,8 0/1 0 "), "{out}");
    assert!(lines[0].contains("extra move"), "{out}");
    let out = ok(&["play", START, "13"]);
    assert!(out.starts_with("13: 8,0,8,8,8,8,0/8,8,8,8,8,8,1 0/9 1 "), "{out}");
    assert!(out.contains("nembak takes 8"), "{out}");
    let out = ok(&["play", "1,1,2,0,1/0,0,0,0,3 0/0 0", "9"]);
    assert!(out.contains("mikul takes 5"), "{out}");
    let out = ok(&["play", "0,1/0,1 5/5 0", "3"]);
    assert!(out.contains("game over: player 1 sweeps 1"), "{out}");
}

#[test]
fn play_json_worked_examples() {
    for (_, before, hole, after) in notation::worked_examples().into_iter().filter(|example| example.0 == RefRules::DAKON) {
        let out = ok(&["play", before, &hole.to_string(), "--json"]);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "{out}");
        assert_eq!(lines[0]["position"], after, "{before} hole {hole}");
        check_move(&lines[0], &notation::parse(before).unwrap(), hole);
    }
}

/// Whole games in one `play` call each: extra moves, captures, and the move that ends the
/// game, every line checked against the reference.
#[test]
fn play_json_whole_games() {
    let mut seen_extra = false;
    for (holes, seeds) in [(3, 2), (4, 3), (5, 5), (7, 7), (9, 3)] {
        // A fixed, simple choice of moves: cycle through the legal holes.
        let mut board = Board::start(holes, seeds);
        let mut moves = Vec::new();
        while !board.is_over() {
            let legal = board.moves();
            let hole = legal[moves.len() % legal.len()];
            moves.push(hole);
            board = board.play(hole).0;
        }
        let args: Vec<String> = ["play", "--holes", &holes.to_string(), "--seeds", &seeds.to_string(), "start", "--json"]
            .iter()
            .map(|s| s.to_string())
            .chain(moves.iter().map(usize::to_string))
            .collect();
        let lines = json_lines(&ok(&args.iter().map(String::as_str).collect::<Vec<_>>()));
        assert_eq!(lines.len(), moves.len());
        let mut board = Board::start(holes, seeds);
        for (line, &hole) in lines.iter().zip(&moves) {
            seen_extra |= line["extra_move"] == true && line["game_over"] == false;
            board = check_move(line, &board, hole);
        }
        assert_eq!(lines.last().unwrap()["game_over"], true, "n = {holes}: the last move ends the game");
    }
    assert!(seen_extra, "no extra move in the games");
}

#[test]
fn perft_text_and_json() {
    assert_eq!(ok(&["perft", "start", "5"]), "1 7\n2 36\n3 224\n4 1362\n5 7896\n");
    let board = Board::start(5, 4);
    let lines = json_lines(&ok(&["perft", "--holes", "5", "--seeds", "4", "start", "4", "--json"]));
    assert_eq!(lines.len(), 4);
    for (depth, line) in (1..).zip(&lines) {
        assert_eq!(line, &serde_json::json!({"depth": depth, "nodes": reference::perft(&board, depth)}));
    }
    let timed = json_lines(&ok(&["perft", "start", "3", "--json", "--timing"]));
    assert_eq!(timed[2]["nodes"], 224);
    assert!(timed[2]["seconds"].is_number() && timed[2]["nodes_per_second"].is_number(), "{}", timed[2]);
    let position = "0,3,0,2,2/1,0,0,0,2 0/0 0";
    let expected = reference::perft(&notation::parse(position).unwrap(), 6);
    assert!(ok(&["perft", position, "6"]).ends_with(&format!("\n6 {expected}\n")));
}

#[test]
fn every_command_has_help() {
    for command in ["show", "play", "perft"] {
        let out = ok(&[command, "--help"]);
        assert!(out.contains("Examples:"), "dakon {command} --help: {out}");
    }
}

#[test]
fn bad_positions_are_refused() {
    for command in [&["show"][..], &["play"][..], &["perft"][..]] {
        let tail: &[&str] = match command[0] {
            "play" => &["7"],
            "perft" => &["2"],
            _ => &[],
        };
        let with = |position: &'static str| [command, &[position], tail].concat();
        refused(&with("7,7/7,7 0/0"), &["invalid position", "column 12", "found 2"]);
        refused(&with("7,7/7 0/0 0"), &["both rows must have the same length"]);
        refused(&with("7,7/7,x 0/0 0"), &["column 7", "whole number", "'x'"]);
        refused(&with("200,50/5,1 0/0 0"), &["at most 255 seeds", "found 256"]);
        refused(&with("7,7/7,7 0/0 2"), &["player to move must be 0 or 1"]);
        refused(&with("7,7/7,7 0 0"), &["stores"]);
    }
}

#[test]
fn bad_starts_are_refused() {
    refused(&["show", "start", "--holes", "0"], &["--holes 0", "1 to 9 holes"]);
    refused(&["show", "start", "--holes", "10"], &["--holes 10", "1 to 9 holes"]);
    refused(&["perft", "start", "--holes", "10", "1"], &["1 to 9 holes"]);
    refused(&["show", "start", "--holes", "9", "--seeds", "15"], &["at most 255 seeds", "270"]);
    refused(&["show", "start", "--holes", "1", "--seeds", "4294967295"], &["at most 255 seeds"]);
    refused(&["show", "start", "--seeds", "-1"], &["'-1'"]);
    refused(&["show", "start", "--holes", "seven"], &["--holes"]);
}

#[test]
fn bad_moves_are_refused() {
    refused(&["play", "start", "3"], &["move 1 (hole 3)", "hole 3 is not on the side of player 0"]);
    refused(&["play", "start", "7", "0"], &["move 2 (hole 0)", "not on the side of player 0"]);
    refused(&["play", "start", "13", "9"], &["move 2 (hole 9)", "not on the side of player 1"]);
    refused(&["play", "0,1/0,1 0/0 0", "2"], &["hole 2 is empty"]);
    refused(&["play", "start", "14"], &["hole 14 does not exist", "0 to 13"]);
    refused(&["play", "start", "99"], &["hole 99 does not exist"]);
    refused(&["play", "start", "x"], &["'x'"]);
    refused(&["play", "start", "--", "-1"], &["'-1'"]);
    refused(&["play", "0,1/0,1 5/5 0", "3", "1"], &["move 2 (hole 1)", "game is over"]);
    refused(&["play", "0,0/0,0 6/6 0", "3"], &["game is over"]);
    // The moves before the bad one are still shown.
    let out = run(&["play", "start", "7", "0"]);
    assert!(text(&out.stdout).starts_with("7: "), "{}", text(&out.stdout));
}
