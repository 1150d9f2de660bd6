//! `dakon solve` and `dakon best` as a user runs them: JSON fields, values checked by replaying
//! the principal variation, limits, finished games and bad input.

use crate::run_dakon;

use dakon_solver::dakon::Position;
use run_dakon::{dakon, json};
use serde_json::Value;

/// Plays the holes of `pv` and returns the finished position.
fn replay(position: &str, pv: &Value) -> Position {
    let mut p: Position = position.parse().unwrap();
    for hole in pv.as_array().unwrap() {
        p = p.play_hole(hole.as_u64().unwrap() as usize).unwrap().0;
    }
    p
}

#[test]
fn solve_json_has_the_value_and_a_pv_that_achieves_it() {
    for (position, holes) in [("start", "5"), ("2,1,2,0,0/0,0,0,0,4 3/1 1", "5"), ("0,3,0,2,2/1,0,0,0,2 0/0 0", "5")] {
        let v = json(&["solve", position, "--holes", holes, "--json", "--threads", "2"]);
        let value = v["value"].as_i64().unwrap();
        assert_eq!((v["exact"].as_bool(), v["lower"].as_i64(), v["upper"].as_i64()), (Some(true), Some(value), Some(value)));
        assert!(v["nodes"].as_u64().is_some() && v["seconds"].as_f64().is_some());
        let start: Position = v["position"].as_str().unwrap().parse().unwrap();
        let end = replay(v["position"].as_str().unwrap(), &v["pv"]);
        assert!(end.is_over(), "{position}: the pv plays to the end");
        let diff = end.final_difference();
        assert_eq!(if end.mover() == start.mover() { diff } else { -diff } as i64, value, "{position}");
        assert_eq!(v["best_move"], v["pv"][0]);
        assert_eq!(v["best_move_proven"], true);
    }
}

#[test]
fn the_five_by_five_start_is_a_sweep_for_the_first_player() {
    let v = json(&["solve", "start", "--holes", "5", "--json"]);
    assert_eq!(v["value"], 48);
    assert_eq!(v["final_stores"]["s0"], 49);
    assert_eq!(v["result"], "win");
}

#[test]
fn a_position_and_its_mirror_image_have_the_same_value() {
    let a = json(&["solve", "2,1,2,0,0/0,0,0,0,4 0/0 1", "--json"]);
    let b = json(&["solve", "4,0,0,0,0/0,0,2,1,2 0/0 0", "--json"]);
    assert_eq!(a["value"], b["value"]);
}

#[test]
fn best_lists_every_move_best_first_and_agrees_with_solve() {
    let position = "1,2,0,3,1/2,0,1,1,3 2/4 0";
    let v = json(&["best", position, "--json"]);
    let moves = v["moves"].as_array().unwrap();
    let legal = position.parse::<Position>().unwrap().legal_holes();
    assert_eq!(moves.len(), legal.len());
    let values: Vec<i64> = moves.iter().map(|m| m["value"].as_i64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first: {values:?}");
    assert!(moves.iter().all(|m| m["exact"] == true));
    assert_eq!(values[0], json(&["solve", position, "--json"])["value"].as_i64().unwrap());
    // Each move's value is the value of the position after it, for the same player.
    for m in moves {
        let (after, _) = position.parse::<Position>().unwrap().play_hole(m["hole"].as_u64().unwrap() as usize).unwrap();
        let child = json(&["solve", &after.to_string(), "--json"])["value"].as_i64().unwrap();
        let same = after.mover() == position.parse::<Position>().unwrap().mover();
        assert_eq!(m["value"].as_i64().unwrap(), if same { child } else { -child }, "hole {}", m["hole"]);
    }
}

#[test]
fn a_finished_game_has_its_final_difference_and_no_move() {
    let v = json(&["solve", "0,0/0,0 6/6 0", "--json"]);
    assert_eq!((v["value"].as_i64(), v["best_move"].is_null(), v["pv"].as_array().unwrap().len()), (Some(0), true, 0));
    let v = json(&["solve", "3,1/0,0 2/5 0", "--json"]);
    assert_eq!(v["value"], -1);
    assert_eq!(json(&["best", "3,1/0,0 2/5 0", "--json"])["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn a_node_limit_gives_proven_bounds_marked_not_exact() {
    let v = json(&["solve", "start", "--holes", "6", "--node-limit", "50", "--json"]);
    assert_eq!(v["exact"], false);
    assert!(v["value"].is_null());
    assert!(v["lower"].as_i64().unwrap() <= 72 && 72 <= v["upper"].as_i64().unwrap());
    assert!(v["best_move"].is_u64());
    // 50 nodes prove no move: the move given is the ordering's guess, and says so.
    assert_eq!(v["best_move_proven"], false);
    let text = String::from_utf8(dakon(&["solve", "start", "--holes", "6", "--node-limit", "50"]).stdout).unwrap();
    assert!(text.contains("not exact") && text.contains("a guess"), "{text}");
}

#[test]
fn prove_win_answers_the_standard_start() {
    let v = json(&["solve", "start", "--prove-win", "--json"]);
    assert_eq!(v["holds"], true);
    let v = json(&["solve", "start", "--holes", "4", "--at-least", "33", "--json"]);
    assert_eq!(v["holds"], false);
}

#[test]
fn bad_input_is_refused_with_status_2() {
    for args in [
        &["solve", "1,2/3 0/0 0"][..],
        &["solve", "start", "--time-limit", "-1"],
        &["solve", "start", "--threads", "0"],
        &["best", "start", "--tt-mb", "0"],
        &["best", "start", "--holes", "12"],
    ] {
        let out = dakon(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stderr.is_empty());
    }
}
