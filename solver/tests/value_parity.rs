//! The parity the search and the driver rely on (`dakon_solver::rules`): every seed on the
//! board ends in a store, so a future gain has the parity of the seeds on the board. Checked
//! with the plain memoized minimax on every position of the whole game tree of small starts,
//! under every rule set.

use crate::minimax;

use dakon_solver::dakon::Position;
use dakon_solver::rules::{parity_ceil, parity_floor, Rules};
use dakon_solver::ruleset::{RuleSet, RulesName};
use minimax::Minimax;

/// Every position of the game trees of the starts of 1 to 4 holes with 1 to 4 seeds a hole and
/// at most 12 seeds a row: 4 x 4's trees are far larger and hold no kind of move the others lack.
fn every_future_gain_has_the_parity_of_the_seeds_on_the_board(name: RulesName) {
    for holes in 1..=4 {
        for seeds in (1..=4u32).filter(|&seeds| holes as u32 * seeds <= 12) {
            let rules = RuleSet::new(name, holes).unwrap();
            let mut minimax = Minimax::new(rules);
            minimax.value(&Position::start(holes, seeds).unwrap());
            assert!(minimax.memo.len() > 1 || holes == 1, "{name} {holes}x{seeds}: a whole game tree");
            for (key, &value) in &minimax.memo {
                let board = key.board(holes);
                let on_board = rules.seeds_on_board(&board);
                assert_eq!((value - on_board as i32).rem_euclid(2), 0, "{name}: {board} is worth {value}");
                assert_eq!(parity_floor(value, on_board), value);
                assert_eq!(parity_ceil(value, on_board), value);
            }
        }
    }
}

// One test per rule set, so that the test threads share the work.
#[test]
fn dakon_future_gains_have_the_parity_of_the_seeds_on_the_board() {
    every_future_gain_has_the_parity_of_the_seeds_on_the_board(RulesName::DAKON);
}

#[test]
fn kalah_future_gains_have_the_parity_of_the_seeds_on_the_board() {
    every_future_gain_has_the_parity_of_the_seeds_on_the_board(RulesName::Kalah);
}

#[test]
fn empty_capture_future_gains_have_the_parity_of_the_seeds_on_the_board() {
    every_future_gain_has_the_parity_of_the_seeds_on_the_board(RulesName::KalahEmptyCapture);
}

#[test]
fn parity_rounding_moves_a_bound_by_at_most_one_towards_the_lattice() {
    for v in -20..=20 {
        for seeds in 0..=9u32 {
            let (down, up) = (parity_floor(v, seeds), parity_ceil(v, seeds));
            assert!(down <= v && v - down <= 1 && (down - seeds as i32).rem_euclid(2) == 0);
            assert!(up >= v && up - v <= 1 && (up - seeds as i32).rem_euclid(2) == 0);
        }
    }
}
