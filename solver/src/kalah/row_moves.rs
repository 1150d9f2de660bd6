//! The table builder's Kalah moves, from a memo of what each move does to the mover's row.
//!
//! A Kalah lap depends on the mover's row alone: it leaves that row as it leaves it, adds the
//! same seeds to the opponent's holes and the store, and ends in the same slot, whatever the
//! opponent's row holds. The builder walks a tier a few mover's rows at a time over every
//! opponent's row (`dakon::tiers::walk_row_run`), so [`RowMoveMemo`] sows each move of a
//! mover's row once and makes the successor of every other board with that row from it: one
//! vector addition, the capture if the last seed landed alone, and the successor's rank, of
//! which the mover's part is kept too when no capture changes it. A move that ends the game
//! is played in full, as is every move on rows of nine holes (a row here is a `u64`).

use super::{CaptureRule, Kalah};
use crate::build_schedule::{played_step, BuildStep};
use crate::composition;
use crate::dakon::layout::{wide_byte_sum, Lanes, LapEnd, LAYOUTS, STORE_BYTE};
use crate::dakon::Position;

/// Moves a [`RowMoveMemo`] holds: a table of 256 KiB, which stays in the cache, for the few
/// hundred moves of a run's mover's rows (each met again for every opponent's row, so two
/// that share a slot would evict each other again and again).
const SLOTS: usize = 4096;

/// What one move does to every board with the same mover's row, in one tier.
#[derive(Clone, Copy, Default)]
struct RowMove {
    /// The key: the mover's row before the move (its holes' bytes), the move in byte 8 and
    /// the tier in byte 9; 0 for a slot not filled (a move lifts seeds from the row).
    key: u128,
    /// Whether the last seed ended in the mover's store: the mover moves again.
    extra_move: bool,
    /// The byte of the mover's hole where the last seed landed alone, if it did: a capture
    /// when the rules say so.
    lone_landing: Option<u8>,
    /// Seeds sown into the mover's store.
    sown_into_store: u8,
    /// The seeds of the mover's row after the lap.
    own_after_seeds: u8,
    /// The mover's row after the lap.
    own_after: u64,
    /// What the lap adds to each of the opponent's holes.
    added: u64,
    /// The terms of the successor's rank that come from the mover's row after the lap, if
    /// nothing is captured (`composition::rank_piece_u64`).
    own_rank: u64,
}

/// The moves of recent mover's rows (see the module documentation), a table a builder
/// thread keeps; empty until the first move it is asked for.
#[derive(Default)]
pub struct RowMoveMemo {
    moves: Vec<RowMove>,
}

/// The [`BuildStep`] of move `mv` from `pos`, a position of tier `seeds`, the lap taken from
/// `memo`.
#[inline]
pub(super) fn build_step(rules: &Kalah, pos: &Position, seeds: u32, mv: u8, memo: &mut RowMoveMemo) -> BuildStep {
    let n = pos.holes();
    if n > 8 {
        return played_step(rules, pos, mv);
    }
    let row_mask = u64::MAX >> (64 - 8 * n);
    let key = u128::from(pos.lane(0) as u64 & row_mask) | u128::from(mv) << 64 | u128::from(seeds) << 72;
    if memo.moves.is_empty() {
        memo.moves = vec![RowMove::default(); SLOTS];
    }
    let slot = &mut memo.moves[slot_of(key)];
    if slot.key != key {
        *slot = row_move(n, key, seeds);
    }
    let lap = &*slot;
    // Every byte stays within 255 seeds: the addition carries nothing between holes.
    let opponent = (pos.lane(1) as u64 & row_mask) + lap.added;
    if let Some(landing) = lap.lone_landing {
        let facing = n - 1 - landing as usize;
        let taken = (opponent >> (8 * facing)) as u8;
        if taken > 0 || rules.capture == CaptureRule::Always {
            let own_after = lap.own_after & !(0xff << (8 * landing));
            let opponent_after = opponent & !(0xff << (8 * facing));
            if own_after == 0 || opponent_after == 0 {
                return played_step(rules, pos, mv); // a side is empty: the game ends
            }
            let gain = u32::from(lap.sown_into_store) + u32::from(taken) + 1;
            let successor_seeds = seeds - gain;
            let ours_before = successor_seeds as usize - (lap.own_after_seeds as usize - 1);
            let index = composition::rank_piece_u64(opponent_after, n, 0, 0).wrapping_add(composition::rank_piece_u64(
                own_after,
                n - 1,
                n,
                ours_before,
            ));
            return BuildStep { seeds: successor_seeds, index, gain: gain as i32, same_mover: false };
        }
    }
    if lap.own_after == 0 || opponent == 0 {
        return played_step(rules, pos, mv); // a side is empty: the game ends
    }
    let index = if lap.extra_move {
        // The mover's row first, then the opponent's (all but its last hole).
        lap.own_rank.wrapping_add(composition::rank_piece_u64(opponent, n - 1, n, lap.own_after_seeds as usize))
    } else {
        // The board seen by the opponent: their row first, then the mover's.
        composition::rank_piece_u64(opponent, n, 0, 0).wrapping_add(lap.own_rank)
    };
    let gain = u32::from(lap.sown_into_store);
    BuildStep { seeds: seeds - gain, index, gain: gain as i32, same_mover: lap.extra_move }
}

/// The slot of a move's key in a memo.
#[inline]
fn slot_of(key: u128) -> usize {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> (64 - SLOTS.trailing_zeros())) as usize
}

/// Sows the move of `key` (its mover's row and move, on a board of `n` holes a row in tier
/// `seeds`) onto an empty opponent's row, and keeps what every board with that row shares.
fn row_move(n: usize, key: u128, seeds: u32) -> RowMove {
    let layout = &LAYOUTS[n];
    let mut lanes = Lanes::from_u128(key & layout.row_mask, 0);
    let r = (key >> 64) as u8 as usize;
    let hand = lanes.get(r) as usize;
    let LapEnd { slot: last, byte: last_byte, landed } = layout.sow_lap(&mut lanes, r, r, hand);
    let extra_move = last_byte == STORE_BYTE;
    let own_after = (lanes.lane(0) & layout.row_mask) as u64;
    let own_after_seeds = wide_byte_sum(u128::from(own_after)) as u8;
    let sown_into_store = lanes.get(STORE_BYTE);
    let own_rank = if extra_move {
        composition::rank_piece_u64(own_after, n, 0, 0)
    } else {
        // Behind the opponent's row, which then holds the successor's seeds less the mover's.
        let successor_seeds = seeds - u32::from(sown_into_store);
        composition::rank_piece_u64(own_after, n - 1, n, (successor_seeds - u32::from(own_after_seeds)) as usize)
    };
    RowMove {
        key,
        extra_move,
        lone_landing: (last < n && landed == 1).then_some(last as u8),
        sown_into_store,
        own_after_seeds,
        own_after,
        added: (lanes.lane(1) & layout.row_mask) as u64,
        own_rank,
    }
}
