//! `dakon verify`: exact values on small boards against a memoized minimax on the independent
//! rules reference, every opening
//! replayed with the rules engine, the opening-turn proofs on the traditional boards, reports
//! and bad options.

#[allow(dead_code, unused_imports)]
mod memo_minimax;

use memo_minimax::{dakon, json_lines, play, Board, Minimax};
use serde_json::Value;

fn holes_of(row: &Value, field: &str) -> Vec<usize> {
    row[field].as_array().unwrap().iter().map(|h| h.as_u64().unwrap() as usize).collect()
}

/// Replays a reported opening: it must be one complete first turn of player 0 that stores what
/// the row says. Returns the position after it.
fn replay_opening(start: &Board, holes: &[usize], stored: &Value) -> Board {
    let mut at = start.clone();
    for (i, &hole) in holes.iter().enumerate() {
        assert_eq!(at.to_move, 0, "hole {hole} of {holes:?} is played after the turn ended");
        at = play(&at, &[hole]);
        let last = i + 1 == holes.len();
        assert_eq!(last, at.to_move != 0 || at.is_over(), "the turn {holes:?} does not end at its last hole");
    }
    assert_eq!(stored.as_u64(), Some(at.stores[0] as u64), "stored by {holes:?}");
    at
}

#[test]
fn small_boards_are_exact_and_agree_with_minimax() {
    let output = dakon(&["verify", "--holes", "1..3", "--seeds", "1..4", "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = json_lines(&output);
    assert_eq!(rows.len(), 12);
    let mut minimax = Minimax::default();
    for row in &rows {
        let (holes, seeds) = (row["holes"].as_u64().unwrap() as usize, row["seeds"].as_u64().unwrap() as u32);
        let start = Board::start(holes, seeds);
        let expected = minimax.value(&start);
        assert_eq!(row["total"], 2 * holes as u32 * seeds);
        assert_eq!((row["exact"].as_bool(), row["status"].as_str()), (Some(true), Some("exact")), "{row}");
        assert_eq!((&row["value"], &row["lower"], &row["upper"]), (&expected.into(), &expected.into(), &expected.into()), "{row}");
        let verdict = match expected.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        assert_eq!(row["first_player"], verdict);
        assert_eq!(row["proof"], "exact search");
        // The opening of an exact row is optimal: playing it keeps the value.
        assert_eq!(row["opening_kind"], "optimal");
        let after = replay_opening(&start, &holes_of(row, "opening"), &row["opening_stored"]);
        assert_eq!(minimax.value_for_player_0(&after), expected, "after the opening of {row}");
        // The opening-turn proof is replayable too and proves no more than the truth.
        let proof = &row["turn_proof"];
        replay_opening(&start, &holes_of(proof, "opening"), &proof["stored"]);
        assert!(proof["lower"].as_i64().unwrap() <= expected as i64);
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
        let after = replay_opening(&start, &holes_of(row, "opening"), &row["opening_stored"]);
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
        (&["--holes", "9", "--seeds", "15"], "cannot set up the start"),
        (&["--holes", "5..x"], "found 'x'"),
        (&["--holes", "3", "--seeds", "0"], "at least 1 seed"),
        (&["--holes", "3", "--budget=-1"], "--budget"),
    ] {
        let output = dakon(&[&["verify"][..], args].concat());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
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
        let after = replay_opening(&start, &holes_of(&row, "opening"), &row["opening_stored"]);
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
    let after = replay_opening(&start, &holes_of(row, "opening"), &row["opening_stored"]);
    assert_eq!(row["lower"].as_i64(), Some(2 * after.stores[0] as i64 - 162));
}
