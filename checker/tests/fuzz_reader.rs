//! The reader and the check never panic, whatever the bytes: random files, random
//! truncations and flips of valid certificates (with and without a repaired checksum, so that
//! the deeper checks are reached too), and random headers and strategies.

use crate::common;

use common::{exact_certificate, rechecksummed, start, Draft, Solver};
use dakon_check::rules::Rules;
use dakon_check::{check, MAGIC};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Valid certificates of a few tiny positions, for every rule set.
fn valid_files() -> &'static [Vec<u8>] {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files = Vec::new();
        for rules in Rules::ALL {
            let mut solver = Solver::default();
            for (holes_per_row, seeds, small_seeds) in [(1, 3, 0), (2, 2, 0), (2, 3, 3), (3, 2, 0)] {
                files.push(exact_certificate(&mut solver, &start(rules, holes_per_row, seeds), small_seeds).1.bytes());
            }
        }
        files
    })
}

/// Checks `bytes`; whatever it returns is fine, as long as it returns.
fn survives(bytes: &[u8]) -> Option<bool> {
    check(bytes).ok().map(|report| report.holds())
}

proptest! {
    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        prop_assert_eq!(survives(&bytes), None);
    }

    #[test]
    fn random_bytes_after_the_magic_and_version(tail in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(1u32.to_le_bytes());
        bytes.extend(tail);
        survives(&bytes);
        survives(&rechecksummed(&bytes));
    }

    #[test]
    fn truncated_valid_files(file in 0..12usize, cut in any::<prop::sample::Index>()) {
        let bytes = &valid_files()[file];
        let length = cut.index(bytes.len());
        prop_assert_eq!(survives(&bytes[..length]), None);
    }

    #[test]
    fn flipped_valid_files(file in 0..12usize, flips in proptest::collection::vec((any::<prop::sample::Index>(), 1..=255u8), 1..4)) {
        let original = &valid_files()[file];
        let mut bytes = original.clone();
        for (at, bits) in flips {
            let at = at.index(bytes.len());
            bytes[at] ^= bits;
        }
        // Two flips of one byte can cancel: only a file that differs is damaged.
        if &bytes != original {
            prop_assert_eq!(survives(&bytes), None, "a damaged file is refused");
        }
        survives(&rechecksummed(&bytes));
    }

    #[test]
    fn random_headers_and_strategies(
        rules in prop_oneof![
            3 => Just(b"dakon".to_vec()),
            3 => Just(b"kalah".to_vec()),
            3 => Just(b"kalah-empty-capture".to_vec()),
            1 => proptest::collection::vec(any::<u8>(), 0..34),
        ],
        holes_per_row in prop_oneof![9 => 1..=4u8, 1 => Just(0u8)],
        mut holes in proptest::collection::vec(0..=6u8, 8),
        stores in (0..=20u8, 0..=20u8),
        player in prop_oneof![9 => 0..=1u8, 1 => Just(2u8)],
        (lower, above) in (-40..=40i32, -2..=40i32),
        small_seeds in prop_oneof![9 => 0..=12u8, 1 => Just(65u8)],
        mut halves in any::<[Vec<(Vec<u8>, u8)>; 2]>(),
        version in prop_oneof![9 => Just(1u32), 1 => any::<u32>()],
    ) {
        holes.truncate(2 * usize::from(holes_per_row));
        // Valid entries for boards of the root's size, so that the strategies reach the check.
        for half in &mut halves {
            for (board, hole) in half.iter_mut() {
                board.resize(holes.len(), 0);
                board.iter_mut().for_each(|seeds| *seeds %= 5);
                *hole %= 10;
            }
            half.retain(|(board, _)| board.iter().map(|&seeds| u32::from(seeds)).sum::<u32>() > u32::from(small_seeds));
            half.sort();
            half.dedup_by(|a, b| a.0 == b.0);
        }
        let stores = [stores.0, stores.1];
        let draft = Draft { version, rules, holes_per_row, holes, stores, player, lower, upper: lower + above, small_seeds, halves };
        survives(&draft.bytes());
    }
}
