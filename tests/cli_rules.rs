//! `--rules` end to end: the commands the user runs, under every rule set (`dakon`, `kalah`,
//! `kalah-empty-capture`) where the test is the same, and under the Kalah rules where they say
//! more, checked against the independent references (`solver/tests/reference`) and a memoized
//! minimax on them, never against the engine.

use crate::memo_minimax;

use memo_minimax::{dakon, format, json_lines, random_positions, Board, Kalah, Minimax, RefRules};
use serde_json::Value;

const BOTH: [Kalah; 2] = [Kalah::STANDARD, Kalah::EMPTY_CAPTURE];

/// Runs a command that must succeed and print one JSON object.
fn json(args: &[&str]) -> Value {
    let out = dakon(args);
    assert!(out.status.success(), "dakon {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("dakon {args:?}: {e}"))
}

/// Positions from random games under `rules` on small boards.
fn positions(rules: RefRules, count: usize, seed: u64) -> Vec<Board> {
    random_positions(rules, count, seed, 3, 14)
}

fn holes(value: &Value) -> Vec<usize> {
    value.as_array().unwrap().iter().map(|h| h.as_u64().unwrap() as usize).collect()
}

#[test]
fn play_reports_what_the_reference_does() {
    for rules in BOTH {
        // A whole game from the 6 x 4 start, the moves chosen by the reference.
        let mut board = Board::start(6, 4);
        let mut moves = Vec::new();
        for i in 0.. {
            let legal = rules.moves(&board);
            if legal.is_empty() {
                break;
            }
            let hole = legal[(7 * i + 3) % legal.len()];
            moves.push(hole);
            board = rules.play(&board, hole).0;
        }
        let mut args = vec!["play", "start", "--rules", rules.name(), "--holes", "6", "--seeds", "4", "--json"];
        let texts: Vec<String> = moves.iter().map(usize::to_string).collect();
        args.extend(texts.iter().map(String::as_str));
        let output = dakon(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let lines = json_lines(&output);
        assert_eq!(lines.len(), moves.len());
        let mut at = Board::start(6, 4);
        for (line, &hole) in lines.iter().zip(&moves) {
            let (after, report) = rules.play(&at, hole);
            let here = format!("{} {} hole {hole}: {line}", rules.name(), format(&at));
            assert_eq!(line["position"], format(&after), "{here}");
            assert_eq!(line["extra_move"], report.extra_move, "{here}");
            assert_eq!(line["game_over"], report.end.is_some(), "{here}");
            assert_eq!(line["captured"], report.captured.unwrap_or(0), "{here}");
            assert_eq!(line["sown_into_store"], report.sown_into_store, "{here}");
            assert_eq!(line["last_hole"], report.last_hole.map_or(Value::Null, Value::from), "{here}");
            assert_eq!(line["to_move"], after.to_move, "{here}");
            let end = report.end.map_or(Value::Null, |[s0, s1]| serde_json::json!({"s0": s0, "s1": s1}));
            assert_eq!(line["end"], end, "{here}");
            at = after;
        }
        assert!(rules.is_over(&at));
    }
}

#[test]
fn perft_follows_the_reference() {
    for rules in RefRules::ALL {
        let start = Board::start(4, 3);
        let output = dakon(&["perft", "start", "6", "--rules", rules.name(), "--holes", "4", "--seeds", "3", "--json"]);
        assert!(output.status.success());
        let lines = json_lines(&output);
        assert_eq!(lines.len(), 6, "{}", rules.name());
        for (depth, line) in lines.iter().enumerate() {
            assert_eq!(line["nodes"], rules.perft(&start, depth as u32 + 1), "{} depth {}", rules.name(), depth + 1);
        }
    }
}

#[test]
fn show_says_a_kalah_game_with_an_empty_side_is_over() {
    for rules in BOTH {
        // A side is empty: the game is over, and each player stores their own side.
        let over = "0,0,0/2,1,0 3/4 1";
        let shown = json(&["show", over, "--rules", rules.name(), "--json"]);
        assert_eq!(
            (&shown["game_over"], &shown["legal_moves"], &shown["rules"]),
            (&Value::from(true), &serde_json::json!([]), &Value::from(rules.name()))
        );
        let text = String::from_utf8(dakon(&["show", over, "--rules", rules.name()]).stdout).unwrap();
        assert!(
            text.contains("game over: a side is empty and each player stores their own side; final difference for player 0: +4"),
            "{text}"
        );
    }
}

#[test]
fn solve_and_best_agree_with_minimax() {
    for (i, rules) in RefRules::ALL.into_iter().enumerate() {
        let mut minimax = Minimax::of(rules);
        // The Kalah rule sets keep the generator seeds 40 and 41 they had.
        for board in positions(rules, 12, 39 + i as u64) {
            let text = format(&board);
            let v = json(&["solve", &text, "--rules", rules.name(), "--json", "--threads", "2"]);
            let value = minimax.value(&board);
            assert_eq!(
                (&v["value"], &v["exact"], &v["rules"]),
                (&Value::from(value), &Value::from(true), &Value::from(rules.name())),
                "{text}"
            );
            let end = minimax.play_line(&board, &holes(&v["pv"]));
            if !rules.moves(&board).is_empty() {
                assert!(rules.moves(&end).is_empty(), "{text}: the pv ends the game");
                let last = minimax.final_difference(&end);
                assert_eq!(if end.to_move == board.to_move { last } else { -last }, value, "{text}: the pv achieves the value");
            }
            let best = json(&["best", &text, "--rules", rules.name(), "--json"]);
            let moves = best["moves"].as_array().unwrap();
            assert_eq!(moves.len(), rules.moves(&board).len(), "{text}");
            for m in moves {
                let hole = m["hole"].as_u64().unwrap() as usize;
                assert_eq!(m["value"], minimax.move_value(&board, hole), "{text} hole {hole}");
            }
        }
    }
}

#[test]
fn batch_solves_every_line_by_the_rules_asked_for() {
    let boards = positions(RefRules::Kalah(Kalah::STANDARD), 15, 77);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("positions.txt");
    std::fs::write(&input, boards.iter().map(|b| format!("{}\n", format(b))).collect::<String>()).unwrap();
    let output = dakon(&["batch", input.to_str().unwrap(), "--rules", "kalah", "--threads", "2"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut minimax = Minimax::kalah(Kalah::STANDARD);
    let records = json_lines(&output);
    assert_eq!(records.len(), boards.len());
    for (record, board) in records.iter().zip(&boards) {
        assert_eq!(record["value"], minimax.value(board), "{record}");
        assert_eq!(record["rules"], "kalah", "{record}");
    }
    // Its output resumes under its own rules only.
    let out = dir.path().join("out.jsonl");
    std::fs::write(&out, &output.stdout).unwrap();
    let (input, out) = (input.to_str().unwrap(), out.to_str().unwrap());
    let again = dakon(&["batch", input, "--out", out, "--resume", "--rules", "kalah"]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(std::fs::read(out).unwrap(), output.stdout, "every line was answered already");
    let refused = dakon(&["batch", input, "--out", out, "--resume"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("written under the kalah rules, but this run plays dakon"));
}

#[test]
fn kalah_tables_are_built_probed_and_verified_under_their_own_name() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    let built = json(&["tables", "build", "--rules", "kalah", "--holes", "3", "--max-seeds", "6", "--tables-dir", tables, "--json"]);
    assert_eq!(built["tiers"].as_array().unwrap().len(), 7);
    assert!(built["tiers"][6]["file"].as_str().unwrap().ends_with("kalah-3-k6.dkt"));
    let position = "1,0,2/0,2,1 3/4 1";
    let probed = json(&["tables", "probe", position, "--rules", "kalah", "--tables-dir", tables, "--json"]);
    let mut minimax = Minimax::kalah(Kalah::STANDARD);
    assert_eq!(probed["value"], minimax.value(&memo_minimax::parse(position).unwrap()));
    // The Dakon rules look for Dakon tables, and there are none.
    let missing = dakon(&["tables", "probe", position, "--tables-dir", tables]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no table for 6 seeds on a board of 3 holes per row (rules dakon)"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let verified = dakon(&["tables", "verify", "--samples", "3", "--tables-dir", tables]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stderr));
    assert_eq!(String::from_utf8_lossy(&verified.stdout).matches("kalah 3 holes").count(), 7);
    // A search with the tables gives the same value.
    let solved = json(&["solve", position, "--rules", "kalah", "--tables-dir", tables, "--json"]);
    assert_eq!((&solved["value"], &solved["tables"]), (&probed["value"], &Value::from(true)));
}

#[test]
fn bad_rules_and_finished_games_are_refused_with_status_2() {
    let output = dakon(&["show", "start", "--rules", "oware"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected one of dakon, kalah, kalah-empty-capture"));
    let output = dakon(&["play", "0,0,0/2,1,0 3/4 0", "3", "--rules", "kalah"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("move 1 (hole 3)") && stderr.contains("the game is over: player 1 has no seeds on their side"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
