//! `dakon batch`: results in input order and exact against a memoized minimax on the
//! independent rules reference, error records,
//! resume after a kill, the same answers with 1 and 2 threads.

use crate::memo_minimax;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use memo_minimax::{dakon, format, json_lines, no_tables, play, random_positions, Board, Minimax, RefRules};
use serde_json::Value;

/// Positions from random Dakon games on small boards.
fn positions(count: usize, seed: u64) -> Vec<Board> {
    random_positions(RefRules::DAKON, count, seed, 2, 12)
}

/// What each input line should give: its line number and the position or the malformed text.
type Expected = Vec<(u64, Result<Board, &'static str>)>;

const MALFORMED: [&str; 4] = ["garbage", "1,2/3 0/0 0", "1,1/1,1 0/0 2", "1,1/1,x 0/0 0"];

/// An input file: positions, with comments, blank lines and malformed lines mixed in.
fn input(count: usize) -> (String, Expected) {
    let mut text = String::from("# a test batch\n\n");
    let mut expected = Vec::new();
    let mut line = 2;
    for (i, p) in positions(count, 7).into_iter().enumerate() {
        if i % 9 == 4 {
            line += 1;
            let bad = MALFORMED[i % MALFORMED.len()];
            text.push_str(&format!("{bad}\n"));
            expected.push((line, Err(bad)));
        }
        if i % 7 == 3 {
            line += 1;
            text.push_str("   # a comment line\n");
        }
        line += 1;
        text.push_str(&format!("{}{}\n", format(&p), if i % 5 == 0 { "   # trailing comment" } else { "" }));
        expected.push((line, Ok(p)));
    }
    (text, expected)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn read_records(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A record without what may change between runs: timing, node counts, and the choice among
/// equally good moves.
fn stable(record: &Value) -> Value {
    let mut record = record.clone();
    for field in ["seconds", "nodes", "best_move", "pv"] {
        record.as_object_mut().unwrap().remove(field);
    }
    record
}

fn holes(value: &Value) -> Vec<usize> {
    value.as_array().unwrap().iter().map(|h| h.as_u64().unwrap() as usize).collect()
}

/// Checks every record against the input and the minimax.
fn check(records: &[Value], expected: &[(u64, Result<Board, &str>)]) {
    assert_eq!(records.len(), expected.len());
    let mut minimax = Minimax::default();
    for (record, (line, input)) in records.iter().zip(expected) {
        assert_eq!(record["line"].as_u64(), Some(*line), "{record}");
        match input {
            Err(bad) => {
                assert_eq!(record["input"], *bad);
                assert!(record["error"].as_str().unwrap().contains("invalid position"), "{record}");
            }
            Ok(p) => {
                assert_eq!(record["position"], format(p));
                let v = minimax.value(p);
                assert_eq!((&record["value"], &record["lower"], &record["upper"]), (&v.into(), &v.into(), &v.into()), "{record}");
                assert_eq!(record["exact"], true);
                if p.is_over() {
                    assert_eq!((&record["best_move"], holes(&record["pv"]).len()), (&Value::Null, 0));
                    continue;
                }
                let best = record["best_move"].as_u64().unwrap() as usize;
                assert_eq!(minimax.move_value(p, best), v, "best move {best} of {record}");
                let pv = holes(&record["pv"]);
                assert!(!pv.is_empty(), "{record}");
                let end = play(p, &pv);
                if end.is_over() {
                    let end_value = if end.to_move == p.to_move { minimax.value(&end) } else { -minimax.value(&end) };
                    assert_eq!(end_value, v, "the pv of {record} does not reach the value");
                }
            }
        }
    }
}

#[test]
fn results_in_input_order_exact_with_error_records() {
    let dir = tempfile::tempdir().unwrap();
    let (text, expected) = input(60);
    let file = write(dir.path(), "in.txt", &text);
    let output = dakon(&["batch", &file, "--threads", "2"]);
    assert_eq!(output.status.code(), Some(1), "malformed lines make the exit status 1");
    assert!(String::from_utf8_lossy(&output.stderr).contains("failed"));
    check(&json_lines(&output), &expected);
}

#[test]
fn all_moves_gives_every_move_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let list: Vec<Board> = positions(20, 3).into_iter().filter(|p| !p.is_over()).collect();
    let text: String = list.iter().map(|p| format!("{}\n", format(p))).collect();
    let output = dakon(&["batch", &write(dir.path(), "in.txt", &text), "--all-moves"]);
    assert!(output.status.success());
    let mut minimax = Minimax::default();
    for (record, p) in json_lines(&output).iter().zip(&list) {
        let moves = record["moves"].as_array().unwrap();
        let mut played: Vec<usize> = moves.iter().map(|m| m["hole"].as_u64().unwrap() as usize).collect();
        let values: Vec<i64> = moves.iter().map(|m| m["value"].as_i64().unwrap()).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "not best first: {record}");
        assert_eq!(values[0], record["value"].as_i64().unwrap());
        for (hole, v) in played.iter().zip(&values) {
            assert_eq!(minimax.move_value(p, *hole) as i64, *v, "hole {hole} of {}", format(p));
        }
        played.sort_unstable();
        assert_eq!(played, p.moves());
    }
}

#[test]
fn stdin_and_exit_status_zero_without_failures() {
    let list = positions(15, 11);
    let text: String = list.iter().map(|p| format!("{}\n", format(p))).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dakon"))
        .env("DAKON_TABLES", no_tables())
        .args(["batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let expected: Vec<_> = list.into_iter().enumerate().map(|(i, p)| (i as u64 + 1, Ok(p))).collect();
    check(&json_lines(&output), &expected);
}

#[test]
fn same_results_with_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (text, expected) = input(50);
    let file = write(dir.path(), "in.txt", &text);
    let one = json_lines(&dakon(&["batch", &file, "--threads", "1"]));
    let two = json_lines(&dakon(&["batch", &file, "--threads", "2"]));
    check(&one, &expected);
    check(&two, &expected);
    assert_eq!(one.iter().map(stable).collect::<Vec<_>>(), two.iter().map(stable).collect::<Vec<_>>());
}

#[test]
fn resume_after_a_kill_mid_line_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (text, expected) = input(40);
    let file = write(dir.path(), "in.txt", &text);
    let full = dir.path().join("full.jsonl").to_str().unwrap().to_string();
    dakon(&["batch", &file, "--out", &full]);
    let complete = std::fs::read_to_string(&full).unwrap();
    // A kill while writing: 10 complete lines and half of the 11th.
    let lines: Vec<&str> = complete.split_inclusive('\n').collect();
    let cut = format!("{}{}", lines[..10].concat(), &lines[10][..lines[10].len() / 2]);
    let resumed = write(dir.path(), "resumed.jsonl", &cut);
    let output = dakon(&["batch", &file, "--out", &resumed, "--resume", "--threads", "2"]);
    assert_eq!(output.status.code(), Some(1), "the malformed lines still count as failed");
    assert!(String::from_utf8_lossy(&output.stderr).contains("10 answered before"), "{}", String::from_utf8_lossy(&output.stderr));
    let records = read_records(&resumed);
    check(&records, &expected);
    assert_eq!(records.iter().map(stable).collect::<Vec<_>>(), read_records(&full).iter().map(stable).collect::<Vec<_>>());
    // Resuming a finished batch solves nothing and changes nothing.
    let before = std::fs::read_to_string(&resumed).unwrap();
    dakon(&["batch", &file, "--out", &resumed, "--resume"]);
    assert_eq!(std::fs::read_to_string(&resumed).unwrap(), before);
}

#[test]
fn resume_after_a_real_kill() {
    let dir = tempfile::tempdir().unwrap();
    let (text, expected) = input(3000);
    let file = write(dir.path(), "in.txt", &text);
    let out = dir.path().join("out.jsonl").to_str().unwrap().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dakon"))
        .env("DAKON_TABLES", no_tables())
        .args(["batch", &file, "--out", &out, "--threads", "2"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it as soon as it has written something, long before it is done.
    let started = Instant::now();
    while std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    eprintln!("killed after {} of {} lines", std::fs::read_to_string(&out).unwrap().lines().count(), expected.len());
    dakon(&["batch", &file, "--out", &out, "--resume", "--threads", "2"]);
    check(&read_records(&out), &expected);
}

#[test]
fn resume_refuses_the_output_of_another_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "in.txt", "1,0/0,2 0/0 0\n");
    let out = write(dir.path(), "out.jsonl", "{\"line\":1,\"position\":\"0,1/0,2 0/0 0\",\"value\":1}\n");
    let output = dakon(&["batch", &file, "--out", &out, "--resume"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("answers input line 1"));
}

#[test]
fn missing_input_file_is_bad_input() {
    let output = dakon(&["batch", "/nonexistent/positions.txt"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent/positions.txt"));
}

#[test]
fn time_limit_gives_proven_bounds() {
    let dir = tempfile::tempdir().unwrap();
    // A 7 x 7 middle game that takes millions of nodes (the 9 x 9 start, tried before, is
    // sometimes solved within the limit: its first test is a sweep).
    let hard = "12,1,3,5,0,13,4/3,0,12,12,5,12,2 5/9 0";
    let file = write(dir.path(), "in.txt", &format!("{hard}\n1,0/0,2 0/0 0\n"));
    let output = dakon(&["batch", &file, "--time-limit", "0.01", "--tt-mb", "64"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let records = json_lines(&output);
    let big = &records[0];
    assert_eq!((&big["exact"], &big["value"]), (&false.into(), &Value::Null), "{big}");
    let (lower, upper) = (big["lower"].as_i64().unwrap(), big["upper"].as_i64().unwrap());
    assert!(-98 <= lower && lower < upper && upper <= 98, "{big}");
    assert!(lower <= -42 && -42 <= upper, "the value, -42, is within the bounds: {big}");
    assert_eq!((&records[1]["exact"], &records[1]["value"]), (&true.into(), &(-1).into()));
}
