//! Built tiers agree, position by position, with the plain memoized minimax, under every rule
//! set; and each rule set's tier order is what the builder needs.

use crate::minimax;

use dakon_solver::build_schedule::{BuildSchedule, BuildStep};
use dakon_solver::dakon::Player;
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::{MoveList, Rules, Step};
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::tables::{build_tiers, BuildOptions, TableError, TableSet};
use dakon_solver::tier_layout::TierLayout;
use dakon_solver::transposition_key::TranspositionKey;
use minimax::Minimax;

const KALAH: [RulesName; 2] = [RulesName::Kalah, RulesName::KalahEmptyCapture];

fn check_board(name: RulesName, holes: usize, max_seeds: u32) {
    let rules = RuleSet::new(name, holes).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions { threads: 2, ..BuildOptions::default() };
    let report = build_tiers(&rules, dir.path(), max_seeds, &options).unwrap();
    assert!(!report.interrupted);
    assert_eq!(report.tiers.len(), max_seeds as usize + 1);
    let tables = TableSet::open(&rules, dir.path()).unwrap().expect("tables were just built");
    assert_eq!(tables.max_seeds(), max_seeds);
    let mut reference = Minimax::new(rules);
    for seeds in 0..=max_seeds {
        for index in 0..rules.tier_size(seeds) {
            let pos = rules.position_at(seeds, index);
            let expected = reference.value(&pos);
            assert_eq!(tables.probe(&pos), Some(expected), "{name} {holes} holes, tier {seeds}, index {index}: {pos}");
            // The mirror image (player 1 to move) is the same entry.
            assert_eq!(tables.probe(&pos.with_mover(Player::One)), Some(expected));
        }
    }
}

#[test]
fn dakon_tiers_match_minimax() {
    for (holes, max_seeds) in [(1, 12), (2, 10), (3, 9), (4, 12), (5, 9)] {
        check_board(RulesName::DAKON, holes, max_seeds);
    }
}

#[test]
fn dakon_six_hole_tiers_match_minimax() {
    check_board(RulesName::DAKON, 6, 7);
}

#[test]
fn dakon_seven_hole_tiers_match_minimax() {
    check_board(RulesName::DAKON, 7, 6);
}

#[test]
fn kalah_tiers_match_minimax() {
    for name in KALAH {
        for (holes, max_seeds) in [(1, 12), (2, 10), (3, 9), (4, 10)] {
            check_board(name, holes, max_seeds);
        }
    }
}

#[test]
fn kalah_six_hole_tiers_match_minimax() {
    for name in KALAH {
        check_board(name, 6, 6);
    }
}

/// The builder's step of a move (which Kalah answers from a memo of the mover's row) is the
/// move played and its successor ranked, on every board of the small tiers, with one memo
/// for all of them, so that moves are found in it, missed and evicted.
#[test]
fn build_steps_are_the_moves_played_and_ranked() {
    for name in RulesName::ALL {
        for holes in 1..=9 {
            let rules = RuleSet::new(name, holes).unwrap();
            let mut memo = <RuleSet as BuildSchedule>::StepMemo::default();
            let max_seeds = if holes <= 4 { 9 } else { 5 };
            for seeds in 0..=max_seeds {
                for index in 0..rules.tier_size(seeds) {
                    let pos = rules.position_at(seeds, index);
                    for &mv in rules.legal_moves(&pos).as_slice() {
                        let step = rules.play(&pos, mv);
                        let played = BuildStep {
                            seeds: rules.seeds_on_board(&step.next),
                            index: rules.index(&step.next),
                            gain: step.gain,
                            same_mover: step.same_mover,
                        };
                        assert_eq!(rules.build_step(&pos, seeds, mv, &mut memo), played, "{name} {pos}, move {mv}");
                    }
                }
            }
        }
    }
}

/// The contract the builder relies on: a move that keeps every seed on the board lowers
/// `tier_order` (and stores nothing, passing the turn).
#[test]
fn moves_within_a_tier_lower_the_tier_order() {
    for name in RulesName::ALL {
        for holes in 1..=5 {
            let rules = RuleSet::new(name, holes).unwrap();
            for seeds in 0..=7 {
                for index in 0..rules.tier_size(seeds) {
                    let pos = rules.position_at(seeds, index);
                    for &mv in rules.legal_moves(&pos).as_slice() {
                        let step = rules.play(&pos, mv);
                        if rules.seeds_on_board(&step.next) == seeds {
                            assert!(rules.tier_order(&step.next) < rules.tier_order(&pos), "{name} {pos}, move {mv}");
                            assert!(step.gain == 0 && !step.same_mover, "{name} {pos}, move {mv}");
                        }
                    }
                }
            }
        }
    }
}

/// Kalah with a tier order that every move keeps: rules that break the contract.
struct Unordered(RuleSet);

impl Rules for Unordered {
    type Position = <RuleSet as Rules>::Position;

    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn parameters(&self) -> Vec<u32> {
        self.0.parameters()
    }
    fn legal_moves(&self, pos: &Self::Position) -> MoveList {
        self.0.legal_moves(pos)
    }
    fn play(&self, pos: &Self::Position, mv: u8) -> Step<Self::Position> {
        self.0.play(pos, mv)
    }
    fn seeds_on_board(&self, pos: &Self::Position) -> u32 {
        self.0.seeds_on_board(pos)
    }
    fn terminal_gain(&self, pos: &Self::Position) -> i32 {
        self.0.terminal_gain(pos)
    }
}

impl TranspositionKey for Unordered {
    type Key = <RuleSet as TranspositionKey>::Key;

    fn key(&self, pos: &Self::Position) -> Self::Key {
        self.0.key(pos)
    }
}

impl TierLayout for Unordered {
    fn tier_size(&self, seeds: u32) -> u64 {
        self.0.tier_size(seeds)
    }
    fn index(&self, pos: &Self::Position) -> u64 {
        self.0.index(pos)
    }
    fn position_at(&self, seeds: u32, index: u64) -> Self::Position {
        self.0.position_at(seeds, index)
    }
}

impl BuildSchedule for Unordered {
    type StepMemo = ();

    fn tier_order(&self, _: &Self::Position) -> u32 {
        0
    }
}

/// The builder solves a position's in-tier successors first, trusting the tier order to rule
/// out cycles: rules that break it get an error naming the position, not a wrong table or an
/// endless recursion, and the broken tier is not written. (The error comes where a successor
/// in the tier is met unsolved: here in tier 3, as index order happens to solve every
/// successor first in tiers 1 and 2 of this board, whose values are then right.)
#[test]
fn a_tier_order_that_does_not_fall_is_refused() {
    let rules = Unordered(RuleSet::new(RulesName::Kalah, 2).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions { threads: 1, ..BuildOptions::default() };
    let error = build_tiers(&rules, dir.path(), 4, &options).unwrap_err();
    let TableError::Order { seeds, index, successor } = error else { panic!("expected an order error, got {error}") };
    let pos = rules.position_at(seeds, index);
    let next = rules.legal_moves(&pos).as_slice().iter().map(|&mv| rules.play(&pos, mv).next).find(|n| rules.index(n) == successor);
    assert!(next.is_some_and(|n| rules.seeds_on_board(&n) == seeds), "{error}");
    assert!(error.to_string().contains("tier_order"), "{error}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), seeds as usize, "tiers 0..{seeds} are written, tier {seeds} is not");
}
