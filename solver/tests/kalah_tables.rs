//! Kalah endgame tables: built tiers agree, position by position, with a plain memoized
//! minimax; the rules' tier order is what the builder needs; and a Kalah table is never read
//! as a Dakon one, nor a standard Kalah table as an empty-capture one.

mod minimax;

use std::fs;

use dakon_solver::dakon::{Dakon, Player};
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::tables::{build_tiers, tier_path, BuildOptions, TableError, TableFile, TableSet};
use minimax::Minimax;

const RULES: [CaptureRule; 2] = [CaptureRule::FacingSeeds, CaptureRule::Always];

fn check_board(holes: usize, max_seeds: u32) {
    for rule in RULES {
        let rules = Kalah::new(holes, rule).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let report = build_tiers(&rules, dir.path(), max_seeds, &BuildOptions { threads: 2, ..BuildOptions::default() }).unwrap();
        assert!(!report.interrupted);
        assert_eq!(report.tiers.len(), max_seeds as usize + 1);
        let tables = TableSet::open(&rules, dir.path()).unwrap().expect("tables were just built");
        assert_eq!(tables.max_seeds(), max_seeds);
        let mut reference = Minimax::new(rules);
        for seeds in 0..=max_seeds {
            for index in 0..rules.tier_size(seeds) {
                let pos = rules.position_at(seeds, index);
                let expected = reference.value(&pos);
                assert_eq!(tables.probe(&pos), Some(expected), "{} {holes} holes, tier {seeds}, index {index}: {pos}", rules.name());
                assert_eq!(tables.probe(&pos.with_mover(Player::One)), Some(expected));
            }
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
    check_board(4, 10);
}

#[test]
fn six_hole_tiers_match_minimax() {
    check_board(6, 6);
}

/// The contract the builder relies on: a move that keeps every seed on the board lowers
/// `tier_order` (and stores nothing, passing the turn).
#[test]
fn moves_within_a_tier_lower_the_tier_order() {
    for rule in RULES {
        for holes in 1..=5 {
            let rules = Kalah::new(holes, rule).unwrap();
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
}

#[test]
fn tables_of_one_rule_set_are_never_read_as_another() {
    let dir = tempfile::tempdir().unwrap();
    let kalah = Kalah::new(3, CaptureRule::FacingSeeds).unwrap();
    let empty_capture = Kalah::new(3, CaptureRule::Always).unwrap();
    let dakon = Dakon::new(3).unwrap();
    build_tiers(&kalah, dir.path(), 4, &BuildOptions::default()).unwrap();
    assert!(tier_path(&kalah, dir.path(), 4).ends_with("kalah-3-k4.dkt"));
    // Other rules look for other file names, and find none.
    assert!(TableSet::open(&dakon, dir.path()).unwrap().is_none());
    assert!(TableSet::open(&empty_capture, dir.path()).unwrap().is_none());
    // A Kalah file under another rule set's name is refused by its header.
    fs::copy(tier_path(&kalah, dir.path(), 0), tier_path(&dakon, dir.path(), 0)).unwrap();
    let error = TableSet::open(&dakon, dir.path()).err().expect("a Kalah table is refused as Dakon");
    assert!(matches!(error, TableError::Mismatch { field: "rules", .. }), "{error}");
    assert!(error.to_string().contains("header says rules kalah, expected dakon"), "{error}");
    fs::copy(tier_path(&kalah, dir.path(), 0), tier_path(&empty_capture, dir.path(), 0)).unwrap();
    let error = TableFile::open(&empty_capture, &tier_path(&empty_capture, dir.path(), 0), 0).unwrap_err();
    assert!(error.to_string().contains("header says rules kalah, expected kalah-empty-capture"), "{error}");
}
