//! The transposition key: what the search's table knows a position by, apart from the game.
//!
//! A rule set's moves say nothing about how a position is stored; the key only has to be
//! lossless for everything its future gain depends on, so rule sets on the same board share
//! one (see [`crate::dakon::DakonBoardRules`]).

use std::fmt::Debug;
use std::hash::Hash;

use crate::rules::Rules;

/// A lossless fixed-width key of each position, for transposition tables.
pub trait TranspositionKey: Rules {
    /// Everything in a position that its future gain depends on, in at most 128 bits, which
    /// the table stores whole.
    type Key: Copy + Eq + Hash + Send + Sync + Debug + Into<u128>;

    /// The key of `pos`.
    fn key(&self, pos: &Self::Position) -> Self::Key;
}
