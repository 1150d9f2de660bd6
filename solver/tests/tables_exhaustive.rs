//! Built tiers agree, position by position, with a plain memoized minimax written here.

use std::collections::HashMap;

use dakon_solver::dakon::{Dakon, Key, Player, Position};
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::tables::{build_tiers, BuildOptions, TableSet};

/// The future gain by the definition, memoized on the key.
fn minimax(rules: &Dakon, pos: &Position, memo: &mut HashMap<Key, i32>) -> i32 {
    let key = rules.key(pos);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let moves = rules.legal_moves(pos);
    let value = if moves.is_empty() {
        rules.terminal_gain(pos)
    } else {
        moves
            .as_slice()
            .iter()
            .map(|&mv| {
                let step = rules.play(pos, mv);
                let next = minimax(rules, &step.next, memo);
                step.gain + if step.same_mover { next } else { -next }
            })
            .max()
            .unwrap()
    };
    memo.insert(key, value);
    value
}

fn check_board(holes: usize, max_seeds: u32) {
    let rules = Dakon::new(holes).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions { threads: 2, ..BuildOptions::default() };
    let report = build_tiers(&rules, dir.path(), max_seeds, &options).unwrap();
    assert!(!report.interrupted);
    assert_eq!(report.tiers.len(), max_seeds as usize + 1);
    let tables = TableSet::open(&rules, dir.path()).unwrap().expect("tables were just built");
    assert_eq!(tables.max_seeds(), max_seeds);
    let mut memo = HashMap::new();
    for seeds in 0..=max_seeds {
        for index in 0..rules.tier_size(seeds) {
            let pos = rules.position_at(seeds, index);
            let expected = minimax(&rules, &pos, &mut memo);
            assert_eq!(tables.probe(&pos), Some(expected), "{holes} holes, tier {seeds}, index {index}: {pos}");
            // The mirror image (player 1 to move) is the same entry.
            assert_eq!(tables.probe(&pos.with_mover(Player::One)), Some(expected));
        }
    }
}

#[test]
fn one_hole_tiers_match_minimax() {
    check_board(1, 12);
}

#[test]
fn two_hole_tiers_match_minimax() {
    check_board(2, 10);
}

#[test]
fn three_hole_tiers_match_minimax() {
    check_board(3, 9);
}

#[test]
fn four_hole_tiers_match_minimax() {
    check_board(4, 12);
}

#[test]
fn five_hole_tiers_match_minimax() {
    check_board(5, 9);
}

#[test]
fn six_hole_tiers_match_minimax() {
    check_board(6, 7);
}

/// The contract the builder relies on: a move that keeps every seed on the board lowers
/// `tier_order`.
#[test]
fn moves_within_a_tier_lower_the_tier_order() {
    for holes in 1..=5 {
        let rules = Dakon::new(holes).unwrap();
        for seeds in 0..=7 {
            for index in 0..rules.tier_size(seeds) {
                let pos = rules.position_at(seeds, index);
                for &mv in rules.legal_moves(&pos).as_slice() {
                    let step = rules.play(&pos, mv);
                    if rules.seeds_on_board(&step.next) == seeds {
                        assert!(rules.tier_order(&step.next) < rules.tier_order(&pos), "{pos}, move {mv}");
                        assert!(step.gain == 0 && !step.same_mover, "{pos}, move {mv}");
                    }
                }
            }
        }
    }
}

#[test]
fn seven_hole_tiers_match_minimax() {
    check_board(7, 6);
}
