//! The layout of the endgame tables: positions with the same seeds on the board form a
//! *tier*, numbered without gaps.
//!
//! The numbering depends on the board alone, not on the moves, so rule sets on the same board
//! share one (see [`crate::dakon::DakonBoardRules`]); the search's table uses it too, as a
//! lossless short code.

use crate::rules::Rules;

/// The numbering of every tier of a game's positions.
pub trait TierLayout: Rules {
    /// How many positions hold exactly `seeds` seeds on the board.
    ///
    /// # Panics
    /// May panic if the tier has `2^64` positions or more (far beyond any table).
    fn tier_size(&self, seeds: u32) -> u64;
    /// The index of a position within its tier, in `0..tier_size(seeds_on_board(pos))`.
    ///
    /// # Panics
    /// May panic if the position's tier has `2^64` positions or more.
    fn index(&self, pos: &Self::Position) -> u64;
    /// The position at `index` in tier `seeds`: the inverse of [`TierLayout::index`], with
    /// empty stores (they do not change the future gain).
    fn position_at(&self, seeds: u32, index: u64) -> Self::Position;
    /// `position_at(seeds, index + 1)`, given `pos`, the position [`TierLayout::position_at`]
    /// gives at `index`: a walk over a tier in index order (the table builder, the decoder of
    /// format 2) steps from each position to the next, which costs less than unranking it.
    fn position_after(&self, seeds: u32, index: u64, pos: &Self::Position) -> Self::Position {
        let _ = pos;
        self.position_at(seeds, index + 1)
    }
}
