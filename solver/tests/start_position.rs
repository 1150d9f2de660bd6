//! `Position::start` with absurd seed counts must refuse them and say how many seeds that
//! would be.

use crate::reference;

use dakon_solver::dakon::{Position, PositionError};
use reference::{notation, Board};

#[test]
fn start_matches_the_reference() {
    for holes in 1..=9 {
        for seeds in 0..=255 / (2 * holes as u32) {
            let start = Position::start(holes, seeds).unwrap();
            assert_eq!(start.to_string(), notation::format(&Board::start(holes, seeds)));
        }
        let seeds = 255 / (2 * holes as u32) + 1;
        assert_eq!(Position::start(holes, seeds), Err(PositionError::TooManySeeds(2 * holes as u64 * seeds as u64)));
    }
    for holes in [0, 10, 100] {
        assert_eq!(Position::start(holes, 1), Err(PositionError::Holes(holes)));
    }
}

/// Huge `--seeds` once overflowed the total in `u32`: debug builds panicked, release builds
/// reported a wrapped total (`--holes 1 --seeds 2147483648` said "found 510").
#[test]
fn start_refuses_huge_seed_counts_with_the_true_total() {
    for (holes, seeds) in [(7, 19u32), (1, 1 << 31), (1, u32::MAX), (7, u32::MAX / 7), (9, 300_000_000)] {
        let total = 2 * holes as u64 * seeds as u64;
        let result = std::panic::catch_unwind(|| Position::start(holes, seeds));
        let error = result.unwrap_or_else(|_| panic!("start({holes}, {seeds}) panicked")).expect_err("accepted");
        assert!(error.to_string().contains(&format!("found {total} ")), "start({holes}, {seeds}): '{error}' should report {total} seeds");
    }
}
