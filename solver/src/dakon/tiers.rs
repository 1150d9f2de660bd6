//! The tiers of the board, shared by every rule set played on it: how many boards hold `k`
//! seeds, the perfect index of a board among them, and the order in which the table builder
//! solves one tier.

use super::layout::{self, Lanes, LAYOUTS};
use super::{Player, Position};
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
///
/// [`composition::next`] on the lanes themselves (a table build steps through every board of
/// a tier): the first non-empty hole `j` after the mover's hole 0 gives a seed to hole `j - 1`,
/// which also takes hole 0's seeds (the holes between are empty). Working on the lanes saves
/// copying the holes out and back, most of the step's instructions.
pub(crate) fn position_after(pos: &Position) -> Position {
    let n = pos.holes();
    let mut lanes = pos.lanes();
    // Bytes of the holes after hole 0: the mover's `1..n`, then the opponent's `16..16 + n`.
    let own = lanes.lane(0) & LAYOUTS[n].row_mask & !0xff;
    let j =
        if own != 0 { own.trailing_zeros() as usize / 8 } else { 16 + (lanes.lane(1) & LAYOUTS[n].row_mask).trailing_zeros() as usize / 8 };
    debug_assert!(j < 16 + n, "position_after of the last board of its tier");
    let before = if j == 16 { n - 1 } else { j - 1 };
    let gathered = lanes.take(0);
    lanes.put(before, gathered + 1);
    let last = lanes.take(j);
    lanes.put(j, last - 1);
    Position::from_lanes(lanes, n, pos.mover())
}

/// Mover's rows a run of [`walk_row_run`].
const RUN_ROWS: usize = 128;

/// The runs of [`walk_row_run`] in tier `seeds`: for each count of seeds `m` in the mover's
/// row, its rows of `m` seeds in rank order, [`RUN_ROWS`] at a time.
pub(crate) fn row_runs(holes: usize, seeds: u32) -> u64 {
    (0..=seeds as usize).map(|m| runs_of_rows(m, holes)).sum()
}

/// The rows of `holes` holes that hold `seeds` seeds.
fn rows(seeds: usize, holes: usize) -> u64 {
    u64::try_from(composition::count(seeds, holes)).expect("tier too large to index in 64 bits")
}

/// The runs of [`walk_row_run`] whose mover's rows hold `seeds` seeds.
fn runs_of_rows(seeds: usize, holes: usize) -> u64 {
    rows(seeds, holes).div_ceil(RUN_ROWS as u64)
}

/// Visits, with its index, every board of tier `seeds` whose mover's row is one of the
/// `run`-th [`RUN_ROWS`] (see [`row_runs`]): for each opponent's row in rank order, each of
/// those mover's rows in rank order.
///
/// The index ranks the opponent's row above the mover's, and a turn shows the board to the
/// other player: the successors of a board by one move (that ends the turn) hold the mover's
/// row as it is after that move in the place that orders their tier. Where a walk in index
/// order reads successors all over the tiers below, this one reads a few blocks of them for
/// each of its mover's rows, and writes the values of its boards a cache line at a time; the
/// run's rows are kept as lanes and the indices counted on, so that no board is unranked.
pub(crate) fn walk_row_run(holes: usize, seeds: u32, run: u64, visit: &mut dyn FnMut(u64, &Position)) {
    let (mut run, mut own_seeds) = (run, 0);
    while run >= runs_of_rows(own_seeds, holes) {
        run -= runs_of_rows(own_seeds, holes);
        own_seeds += 1;
    }
    debug_assert!(own_seeds <= seeds as usize, "run beyond tier {seeds}");
    let first = run * RUN_ROWS as u64;
    let count = (rows(own_seeds, holes) - first).min(RUN_ROWS as u64) as usize;
    // Each row as the lane it fills (its holes, an empty store): a board is then two lanes.
    let lane = |row: &[u8; 9]| {
        let mut bytes = [0u8; 16];
        bytes[..holes].copy_from_slice(&row[..holes]);
        u128::from_le_bytes(bytes)
    };
    let mut row = [0u8; 9];
    composition::unrank(own_seeds, first as u128, &mut row[..holes]);
    let mut own = [0u128; RUN_ROWS];
    for (i, own) in own[..count].iter_mut().enumerate() {
        if i > 0 {
            composition::next(&mut row[..holes]);
        }
        *own = lane(&row);
    }
    let mut other = [0u8; 9];
    composition::unrank(seeds as usize - own_seeds, 0, &mut other[..holes]);
    loop {
        let other_lane = lane(&other);
        let board = |own: u128| Position::from_lanes(Lanes::from_u128(own, other_lane), holes, Player::Zero);
        // The mover's row ranks lowest in the index, and the run's rows are consecutive in
        // rank: so are their boards' indices beside one opponent's row.
        let first_index = index(&board(own[0]));
        for (i, &own) in own[..count].iter().enumerate() {
            visit(first_index + i as u64, &board(own));
        }
        if composition::next(&mut other[..holes]).is_none() {
            return;
        }
    }
}

/// Each seed counted by its distance to its owner's store (`n - r` from hole `r`). A turn that
/// stores nothing (in Dakon and Kalah alike) moves seeds forward along the mover's row only,
/// so it lowers this: the order in which the table builder solves a tier.
#[inline]
pub(crate) fn distance_to_stores(pos: &Position) -> u32 {
    let row_mask = LAYOUTS[pos.holes()].row_mask;
    // Byte `r`: the seeds of both players' holes `r` (at most 255 on a board, so no byte
    // carries), then of their holes `0..=r`; the sum over `r` of the latter counts a seed of
    // hole `r` once for each of the `n - r` holes from it on.
    let holes = (pos.lane(0) & row_mask) + (pos.lane(1) & row_mask);
    layout::wide_byte_sum(holes.wrapping_mul(u128::MAX / 255) & row_mask)
}

/// The [`distance_to_stores`] of the boards at indices `first..first + orders.len()` of tier
/// `seeds`, written into `orders`: one [`composition::next`] a board where
/// `distance_to_stores(&position_at(..))` unranks each, and the distance changed by the seeds
/// that step moved.
pub(crate) fn distances_to_stores(holes: usize, seeds: u32, first: u64, orders: &mut [u32]) {
    let mut bytes = [0u8; 18];
    let board = &mut bytes[..2 * holes];
    // Part `p` is hole `p mod n` of the mover's row, then of the opponent's (position_at).
    let distances: Vec<u32> = (0..2 * holes).map(|p| (holes - p % holes) as u32).collect();
    composition::unrank(seeds as usize, first as u128, board);
    let mut order: u32 = board.iter().zip(&distances).map(|(&s, &d)| d * s as u32).sum();
    for (k, slot) in orders.iter_mut().enumerate() {
        if k > 0 {
            // Hole 0's seeds and one of hole `j`'s go to hole `j - 1`.
            let gathered = u32::from(board[0]);
            let j = composition::next(board).unwrap_or_else(|| panic!("index {} beyond tier {seeds}", first + k as u64));
            order = order + distances[j - 1] * (gathered + 1) - distances[0] * gathered - distances[j];
        }
        *slot = order;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distances_of_a_run_are_those_of_its_positions() {
        for holes in 1..=9 {
            for seeds in 0..=if holes <= 4 { 8 } else { 4 } {
                let size = tier_size(holes, seeds);
                for first in [0, size / 3, size - 1] {
                    let mut orders = vec![0u32; (size - first) as usize];
                    distances_to_stores(holes, seeds, first, &mut orders);
                    for (index, &order) in (first..).zip(&orders) {
                        assert_eq!(
                            order,
                            distance_to_stores(&position_at(holes, seeds, index)),
                            "{holes} holes, tier {seeds}, index {index}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_row_runs_visit_every_board_of_a_tier_once_with_its_index() {
        for holes in 1..=5 {
            for seeds in 0..=9 {
                let mut seen = vec![false; tier_size(holes, seeds) as usize];
                for run in 0..row_runs(holes, seeds) {
                    walk_row_run(holes, seeds, run, &mut |index, pos| {
                        assert_eq!(*pos, position_at(holes, seeds, index), "{holes} holes, tier {seeds}, run {run}");
                        assert!(!std::mem::replace(&mut seen[index as usize], true), "{holes} holes, tier {seeds}: {index} twice");
                    });
                }
                assert!(seen.iter().all(|&s| s), "{holes} holes, tier {seeds}: a board never visited");
            }
        }
    }

    #[test]
    fn the_board_after_is_the_board_of_the_next_index() {
        for holes in 1..=9 {
            for seeds in [0, 1, 2, 5, 9] {
                let size = tier_size(holes, seeds).min(20_000);
                let mut pos = position_at(holes, seeds, 0);
                for index in 0..size {
                    assert_eq!(pos, position_at(holes, seeds, index), "{holes} holes, tier {seeds}, index {index}");
                    assert_eq!(index, super::index(&pos));
                    if index + 1 < tier_size(holes, seeds) {
                        pos = position_after(&pos);
                    }
                }
            }
        }
    }
}
