//! `dakon verify`: exact values on small boards against a memoized minimax on the independent
//! rules reference, every opening
//! replayed with the rules engine, the opening-turn proofs on the traditional boards, reports
//! and bad options.

use crate::memo_minimax;

use memo_minimax::{dakon, json_lines, no_tables, Board, Minimax, RefRules};
use serde_json::Value;

fn holes_of(row: &Value, field: &str) -> Vec<usize> {
    row[field].as_array().unwrap().iter().map(|h| h.as_u64().unwrap() as usize).collect()
}

/// Replays a reported opening by the rules of `minimax`: it must be one complete first turn of
/// player 0 that stores what the row says. Returns the position after it.
fn replay_opening(minimax: &Minimax, start: &Board, holes: &[usize], stored: &Value) -> Board {
    let mut at = start.clone();
    for (i, &hole) in holes.iter().enumerate() {
        assert_eq!(at.to_move, 0, "hole {hole} of {holes:?} is played after the turn ended");
        at = minimax.play(&at, hole);
        let last = i + 1 == holes.len();
        assert_eq!(last, at.to_move != 0 || minimax.moves(&at).is_empty(), "the turn {holes:?} does not end at its last hole");
    }
    assert_eq!(stored.as_u64(), Some(at.stores[0] as u64), "stored by {holes:?}");
    at
}

#[test]
fn small_boards_are_exact_and_agree_with_minimax() {
    let [dakon_rules, kalah, empty_capture] = RefRules::ALL;
    for (rules, seeds, count) in [(dakon_rules, "1..4", 12), (kalah, "1..3", 9), (empty_capture, "1..3", 9)] {
        let output = dakon(&["verify", "--rules", rules.name(), "--holes", "1..3", "--seeds", seeds, "--json"]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let rows = json_lines(&output);
        assert_eq!(rows.len(), count, "{}", rules.name());
        let mut minimax = Minimax::of(rules);
        for row in &rows {
            let here = format!("{} {row}", rules.name());
            let (holes, seeds) = (row["holes"].as_u64().unwrap() as usize, row["seeds"].as_u64().unwrap() as u32);
            let start = Board::start(holes, seeds);
            let expected = minimax.value(&start);
            assert_eq!(row["total"], 2 * holes as u32 * seeds);
            assert_eq!((row["exact"].as_bool(), row["status"].as_str()), (Some(true), Some("exact")), "{here}");
            assert_eq!((&row["value"], &row["lower"], &row["upper"]), (&expected.into(), &expected.into(), &expected.into()), "{here}");
            let verdict = match expected.signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            };
            assert_eq!(row["first_player"], verdict, "{here}");
            assert_eq!(row["proof"], "exact search", "{here}");
            // The opening of an exact row is optimal: playing it keeps the value.
            assert_eq!(row["opening_kind"], "optimal", "{here}");
            let after = replay_opening(&minimax, &start, &holes_of(row, "opening"), &row["opening_stored"]);
            assert_eq!(minimax.value_for_player_0(&after), expected, "after the opening of {here}");
            // The opening-turn proof is replayable too and proves no more than the truth.
            let proof = &row["turn_proof"];
            replay_opening(&minimax, &start, &holes_of(proof, "opening"), &proof["stored"]);
            assert!(proof["lower"].as_i64().unwrap() <= expected as i64, "{here}");
        }
    }
}

#[test]
fn opening_turn_proves_a_win_on_every_traditional_board() {
    let output = dakon(&["verify", "--holes", "5..9", "--opening-only", "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = json_lines(&output);
    assert_eq!(rows.iter().map(|r| r["holes"].as_u64().unwrap()).collect::<Vec<_>>(), [5, 6, 7, 8, 9]);
    for row in &rows {
        let holes = row["holes"].as_u64().unwrap() as usize;
        assert_eq!(row["seeds"].as_u64(), Some(holes as u64));
        let total = 2 * holes as i64 * holes as i64;
        let start = Board::start(holes, holes as u32);
        let after = replay_opening(&Minimax::default(), &start, &holes_of(row, "opening"), &row["opening_stored"]);
        let stored = after.stores[0] as i64;
        assert!(2 * stored > total, "{row}");
        assert_eq!(row["lower"].as_i64(), Some(2 * stored - total));
        assert_eq!(row["upper"].as_i64(), Some(total));
        assert_eq!((row["first_player"].as_str(), row["proof"].as_str()), (Some("win"), Some("opening turn")));
        assert_eq!((row["exact"].as_bool(), &row["value"]), (Some(false), &Value::Null));
    }
}

#[test]
fn table_and_markdown_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.md");
    let output = dakon(&["verify", "--holes", "2,3", "--out", report.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(lines[0].split_whitespace().eq([
        "holes",
        "seeds",
        "total",
        "status",
        "value",
        "first",
        "proof",
        "stored",
        "nodes",
        "seconds",
        "certificate",
        "opening"
    ]));
    assert!(lines[2].split_whitespace().take(4).eq(["3", "3", "18", "exact"]), "{table}");
    let markdown = std::fs::read_to_string(&report).unwrap();
    for needle in [
        "Date: ",
        "Machine: ",
        "Program: dakon ",
        "Settings: budget 60 s",
        "| 3 | 3 | 18 | exact |",
        "dakon play start --holes N",
        "## Opening-turn proofs",
    ] {
        assert!(markdown.contains(needle), "'{needle}' missing from\n{markdown}");
    }
}

#[test]
fn bad_options_are_refused_with_status_2() {
    for (args, needle) in [
        (&["--holes", "10"][..], "1 to 9 holes"),
        (&["--holes", "0..2"], "1 to 9 holes"),
        (&["--holes", "9", "--seeds", "15"], "board 9x15 (--holes 9 --seeds 15): cannot set up the start: 270 seeds in all"),
        (&["--holes", "1..9", "--seeds", "13..15"], "board 9x15"),
        (&["--holes", "9..5"], "range '9..5' in '9..5' is empty"),
        (&["--holes", "3", "--seeds", "6..2"], "range '6..2'"),
        (&["--holes", "0"], "1 to 9 holes per row; found 0"),
        (&["--holes", "3", "--resume"], "--out"),
        (&["--holes", "3", "--out", "atlas.jsonl"], "names the Markdown report"),
        (&["--holes", "5..x"], "found 'x'"),
        (&["--holes", "3", "--seeds", "0"], "at least 1 seed"),
        (&["--holes", "3", "--budget=-1"], "--budget"),
    ] {
        let output = dakon(&[&["verify"][..], args].concat());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}: work started before the options were checked");
        assert!(String::from_utf8_lossy(&output.stderr).contains(needle), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

#[test]
fn build_tables_builds_what_the_board_needs_and_uses_it() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    let built = dakon(&["verify", "--holes", "2,3", "--build-tables", "--tables-dir", tables, "--json"]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert!(std::fs::read_dir(dir.path()).unwrap().count() > 0, "no table written");
    let without = dakon(&["verify", "--holes", "2,3", "--no-tables", "--json"]);
    for (with, without) in json_lines(&built).iter().zip(json_lines(&without)) {
        assert_eq!((&with["tables"], &without["tables"]), (&Value::Bool(true), &Value::Bool(false)));
        assert_eq!((&with["value"], &with["exact"]), (&without["value"], &without["exact"]));
    }
}

#[test]
fn large_board_values_follow_from_their_optimal_opening() {
    // The search's exact value on a traditional board is re-proved here: play the reported
    // opening, then solve what is left (a few seeds) by plain minimax.
    let output = dakon(&["verify", "--holes", "7,9", "--json", "--tt-mb", "256", "--threads", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut minimax = Minimax::default();
    for row in json_lines(&output) {
        let holes = row["holes"].as_u64().unwrap() as usize;
        assert_eq!(row["exact"], true, "{row}");
        assert_eq!(row["opening_kind"], "optimal");
        let start = Board::start(holes, holes as u32);
        let after = replay_opening(&Minimax::default(), &start, &holes_of(&row, "opening"), &row["opening_stored"]);
        assert!(after.seeds_on_board() <= 12, "too much left for the minimax: {}", memo_minimax::format(&after));
        assert_eq!(Some(minimax.value_for_player_0(&after) as i64), row["value"].as_i64(), "{row}");
    }
}

#[test]
fn a_budget_too_small_gives_bounds_and_the_opening_turn_still_proves_the_win() {
    let output = dakon(&["verify", "--holes", "9", "--budget", "0", "--tt-mb", "64", "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = json_lines(&output);
    let row = &rows[0];
    assert_eq!((&row["status"], &row["exact"], &row["value"]), (&"bounds".into(), &false.into(), &Value::Null), "{row}");
    assert_eq!((&row["first_player"], &row["proof"]), (&"win".into(), &"opening turn".into()));
    assert_eq!(row["lower"], row["turn_proof"]["lower"]);
    assert!(row["lower"].as_i64().unwrap() > 0 && row["upper"].as_i64().unwrap() <= 162);
    let start = Board::start(9, 9);
    let after = replay_opening(&Minimax::default(), &start, &holes_of(row, "opening"), &row["opening_stored"]);
    assert_eq!(row["lower"].as_i64(), Some(2 * after.stores[0] as i64 - 162));
}

/// The rows of a records file or of `--json` output, each without the fields that depend on
/// timing (seconds) or on the search's route (nodes, which opening among optimal ones).
fn values(rows: &[Value]) -> Vec<(u64, u64, Value, Value, Value)> {
    rows.iter()
        .map(|r| {
            (r["holes"].as_u64().unwrap(), r["seeds"].as_u64().unwrap(), r["lower"].clone(), r["upper"].clone(), r["first_player"].clone())
        })
        .collect()
}

fn read_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn rows_do_not_depend_on_threads_table_size_or_tables() {
    let boards = ["--holes", "2..6", "--seeds", "2,3", "--json", "--budget", "600"];
    let runs: Vec<Vec<Value>> =
        [&["--threads", "1", "--tt-mb", "1"][..], &["--threads", "2", "--tt-mb", "64"], &["--threads", "2", "--tt-mb", "1"]]
            .iter()
            .map(|extra| {
                let output = dakon(&[&["verify"][..], &boards, extra, &["--no-tables"]].concat());
                assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
                json_lines(&output)
            })
            .collect();
    assert!(runs[0].iter().all(|r| r["exact"] == true), "every board of this test is decided well within its budget");
    for run in &runs[1..] {
        assert_eq!(values(run), values(&runs[0]));
    }
}

#[test]
fn resume_after_ctrl_c_keeps_the_boards_decided_and_does_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("atlas.md");
    let records = dir.path().join("atlas.jsonl");
    let picture = dir.path().join("atlas.svg");
    // Quick boards first, then 9 x 2 (millions of nodes, seconds): Ctrl-C arrives during it.
    let args = |budget: &str| -> Vec<String> {
        ["verify", "--holes", "2,3,9", "--seeds", "1,2", "--threads", "1", "--tt-mb", "64", "--json", "--budget", budget, "--out"]
            .iter()
            .map(|s| s.to_string())
            .chain([report.to_str().unwrap().to_string(), "--svg".to_string(), picture.to_str().unwrap().to_string()])
            .collect()
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dakon"))
        .env("DAKON_TABLES", no_tables())
        .args(args("600"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    // 2x1, 2x2, 3x1, 3x2 and 9x1 are done at once; wait for their records.
    while std::fs::read_to_string(&records).map_or(0, |t| t.lines().count()) < 5 {
        assert!(started.elapsed().as_secs() < 300, "the quick boards took too long");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "interrupted runs exit with status 1");
    let before = read_lines(&records);
    assert_eq!(before.len(), 6, "every board has a record, the interrupted one too");
    let cut = &before[5];
    assert_eq!((cut["holes"].as_u64(), cut["seeds"].as_u64(), &cut["interrupted"]), (Some(9), Some(2), &Value::Bool(true)));
    assert!(std::fs::read_to_string(&report).unwrap().contains("**Interrupted**"));
    // A crash while writing a record leaves half a line; resume cuts it off.
    let mut text = std::fs::read_to_string(&records).unwrap();
    text.push_str("{\"holes\":9,\"seeds\":");
    std::fs::write(&records, text).unwrap();

    // Resumed with a budget of 1 s: 9 x 2 ends with bounds this time, the others are kept.
    let output = dakon(&args("1").iter().map(String::as_str).chain(["--resume"]).collect::<Vec<_>>());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let after = read_lines(&records);
    assert_eq!(after.len(), 6, "one record per board");
    assert_eq!(after[..5], before[..5], "the decided boards are kept as they were, not searched again");
    assert_eq!((after[5]["holes"].as_u64(), after[5]["seeds"].as_u64(), &after[5]["interrupted"]), (Some(9), Some(2), &Value::Bool(false)));
    assert_eq!(json_lines(&output), after, "stdout shows every board, kept and new");
    let markdown = std::fs::read_to_string(&report).unwrap();
    assert!(!markdown.contains("**Interrupted**"), "{markdown}");
    for row in &after {
        assert!(
            markdown.contains(&format!("| {} | {} | {} |", row["holes"], row["seeds"], row["total"])),
            "{row} missing from\n{markdown}"
        );
    }
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("of 18") && svg.contains("bounds"), "{svg}");
}

#[test]
fn resume_keeps_the_intersection_of_the_earlier_and_the_new_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("atlas.md");
    let records = dir.path().join("atlas.jsonl");
    let run =
        || dakon(&["verify", "--holes", "9", "--seeds", "3", "--opening-only", "--json", "--out", report.to_str().unwrap(), "--resume"]);
    assert!(run().status.success());
    let alone = read_lines(&records).remove(0);
    assert_eq!((alone["lower"].as_i64(), alone["upper"].as_i64()), (Some(42), Some(54)), "the opening turn alone: {alone}");
    // An earlier search cut short had proved [30, 53] (9 x 3 is +52): the new record keeps
    // the opening turn's 42 and the earlier 53.
    let earlier = serde_json::to_string(&alone).unwrap().replace("\"lower\":42", "\"lower\":30").replace("\"upper\":54", "\"upper\":53");
    let earlier = earlier.replace("\"interrupted\":false", "\"interrupted\":true");
    std::fs::write(&records, earlier + "\n").unwrap();
    let output = run();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let after = read_lines(&records);
    assert_eq!(after.len(), 1, "one record per board");
    assert_eq!(
        (after[0]["lower"].as_i64(), after[0]["upper"].as_i64(), &after[0]["first_player"]),
        (Some(42), Some(53), &Value::from("win"))
    );
    assert_eq!(json_lines(&output), after);
    // An earlier record that contradicts the new proof is not of this board: refused, and
    // replaced by the new record.
    let wrong = serde_json::to_string(&after[0]).unwrap().replace("\"lower\":42", "\"lower\":-54").replace("\"upper\":53", "\"upper\":0");
    let wrong =
        wrong.replace("\"first_player\":\"win\"", "\"first_player\":\"unknown\"").replace("\"interrupted\":false", "\"interrupted\":true");
    std::fs::write(&records, wrong + "\n").unwrap();
    let output = run();
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("board 9x3: the earlier record proves [-54, 0], this run [42, 54]"), "{message}");
    let last = read_lines(&records).pop().unwrap();
    assert_eq!(
        (last["lower"].as_i64(), last["upper"].as_i64()),
        (Some(42), Some(54)),
        "the last record, which a resume reads, is the new one"
    );
    assert!(run().status.success(), "and the next resume goes on from it");
}

#[test]
fn resume_refuses_records_of_other_boards() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("atlas.md");
    let ran = dakon(&["verify", "--holes", "2", "--seeds", "1,2", "--out", report.to_str().unwrap()]);
    assert!(ran.status.success());
    let other = dakon(&["verify", "--holes", "3", "--seeds", "1,2", "--out", report.to_str().unwrap(), "--resume"]);
    assert_eq!(other.status.code(), Some(2));
    let message = String::from_utf8_lossy(&other.stderr);
    assert!(message.contains("line 1 of") && message.contains("board 2x1, which this run does not ask for"), "{message}");
}

#[test]
fn resume_refuses_records_of_other_rules() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("atlas.md");
    let out = report.to_str().unwrap();
    assert!(dakon(&["verify", "--rules", "kalah", "--holes", "2", "--seeds", "1,2", "--out", out]).status.success());
    let other = dakon(&["verify", "--holes", "2", "--seeds", "1,2", "--out", out, "--resume"]);
    assert_eq!(other.status.code(), Some(2));
    let message = String::from_utf8_lossy(&other.stderr);
    assert!(message.contains("played under kalah, but this run plays dakon"), "{message}");
    // The records are untouched: the same rules resume them.
    assert!(dakon(&["verify", "--rules", "kalah", "--holes", "2", "--seeds", "1,2", "--out", out, "--resume"]).status.success());
}

#[test]
fn the_picture_shows_values_bounds_and_the_standard_board() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("atlas.svg");
    // 7 x 7 within a zero budget: the opening turn proves bounds only.
    let output = dakon(&["verify", "--holes", "6,7", "--seeds", "6,7", "--budget", "0", "--svg", picture.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let svg = std::fs::read_to_string(&picture).unwrap();
    for needle in ["first player", "seeds per hole", "holes per row", "the standard board, 7 × 7", "bounds", "0: draw"] {
        assert!(svg.contains(needle), "'{needle}' missing from the picture");
    }
}
