//! The tiers of the board, shared by every rule set played on it: how many boards hold `k`
//! seeds, the perfect index of a board among them, and the order in which the table builder
//! solves one tier.

use super::{Player, Position, Side};
use crate::composition;

/// How many boards of `holes` holes per row hold exactly `seeds` seeds.
///
/// # Panics
/// Panics if the tier has `2^64` boards or more (far beyond any table).
pub(crate) fn tier_size(holes: usize, seeds: u32) -> u64 {
    u64::try_from(composition::count(seeds as usize, 2 * holes)).expect("tier too large to index in 64 bits")
}

/// The index of a position's board (seen from the mover) among the boards of its tier.
///
/// # Panics
/// Panics if the tier has `2^64` boards or more.
#[inline]
pub(crate) fn index(pos: &Position) -> u64 {
    // The holes read straight from the lanes (the mover's row, then the opponent's): the
    // search and the tables ask this for every probe.
    let n = pos.holes();
    let mut holes = [0u8; 32];
    holes[..16].copy_from_slice(&pos.lane(0).to_le_bytes());
    holes[n..n + 16].copy_from_slice(&pos.lane(1).to_le_bytes());
    composition::rank_u64(&holes[..2 * n - 1])
}

/// The board at `index` in tier `seeds`, player 0 to move, empty stores: the inverse of
/// [`index`].
pub(crate) fn position_at(holes: usize, seeds: u32, index: u64) -> Position {
    let mut bytes = [0u8; 18];
    composition::unrank(seeds as usize, index as u128, &mut bytes[..2 * holes]);
    Position::from_sides(&bytes[..holes], &bytes[holes..2 * holes], [0, 0], Player::Zero)
}

/// The board at `index + 1` of `pos`'s tier, given `pos`, the board at `index` as
/// [`position_at`] makes it: the same board, without unranking.
pub(crate) fn position_after(pos: &Position) -> Position {
    let n = pos.holes();
    let mut holes = [0u8; 32];
    holes[..16].copy_from_slice(&pos.lane(0).to_le_bytes());
    holes[n..n + 16].copy_from_slice(&pos.lane(1).to_le_bytes());
    composition::advance(&mut holes[..2 * n]);
    Position::from_sides(&holes[..n], &holes[n..2 * n], [0, 0], Player::Zero)
}

/// Each seed counted by its distance to its owner's store (`n - r` from hole `r`). A turn that
/// stores nothing (in Dakon and Kalah alike) moves seeds forward along the mover's row only,
/// so it lowers this: the order in which the table builder solves a tier.
#[inline]
pub(crate) fn distance_to_stores(pos: &Position) -> u32 {
    let n = pos.holes();
    (0..n).map(|r| (n - r) as u32 * (pos.seeds(Side::Mover, r) as u32 + pos.seeds(Side::Opponent, r) as u32)).sum()
}
