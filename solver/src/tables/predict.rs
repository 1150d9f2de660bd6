//! The one-ply prediction that format version 2 stores values against: what the lower tiers
//! alone say about a position.
//!
//! A move that stores or captures lowers the seeds on the board, so its successor's value is
//! in a lower tier. The best such move (its gain, plus the successor's value when the mover
//! moves again, minus it when the turn passes) is a lower bound on the position's value, and
//! the value itself when every move leaves the tier (or the game is over). For most positions
//! the bound is the value, and for many it is known to be (no move stays in the tier): those
//! cost nothing on disk.
//!
//! The successors' values are random reads from the lower tiers, so positions are taken
//! [`BATCH`] at a time and every value a batch needs is requested before any is read.

use super::compact::TierValues;
use crate::rules::MoveList;
use crate::tier_layout::TierLayout;

/// Positions whose lower-tier successors are requested from memory together.
const BATCH: usize = 8;

/// What the lower tiers say about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prediction {
    /// The value: every move leaves the tier, or the game is over.
    Exact(i32),
    /// A lower bound on the value: some move stays in the tier. With no move leaving it, the
    /// bound is `-seeds`.
    AtLeast(i32),
}

/// A move to a lower tier: its gain, whether the mover moves again, where its successor is.
#[derive(Clone, Copy)]
struct Leave {
    gain: i32,
    same_mover: bool,
    seeds: u32,
    index: u64,
}

/// Calls `each(seeds, index)` for the successor of every move of the positions
/// `first..first + len` of tier `seeds` that leaves the tier: the lower-tier values that
/// [`for_each_prediction`] reads for them.
pub(crate) fn for_each_leave<R: TierLayout>(rules: &R, seeds: u32, first: u64, len: usize, mut each: impl FnMut(u32, u64)) {
    let mut previous: Option<R::Position> = None;
    for index in first..first + len as u64 {
        let pos = match &previous {
            Some(previous) => rules.position_after(seeds, index - 1, previous),
            None => rules.position_at(seeds, index),
        };
        previous = Some(pos);
        for &mv in rules.legal_moves(&pos).as_slice() {
            let next = rules.play(&pos, mv).next;
            let next_seeds = rules.seeds_on_board(&next);
            if next_seeds != seeds {
                each(next_seeds, rules.index(&next));
            }
        }
    }
}

/// The prediction for each position `first..first + len` of tier `seeds`, in order, from
/// `lower[j]`, the values of tier `j < seeds`, handed to `each(index, prediction)`.
///
/// # Errors
/// The first error of `each`.
pub(crate) fn for_each_prediction<R: TierLayout, T: TierValues, E>(
    rules: &R,
    seeds: u32,
    first: u64,
    len: usize,
    lower: &[T],
    mut each: impl FnMut(u64, Prediction) -> Result<(), E>,
) -> Result<(), E> {
    let end = first + len as u64;
    let mut leaves: Vec<Leave> = Vec::with_capacity(BATCH * MoveList::CAPACITY);
    // Per position of the batch: the end of its leaves, and its value if the game is over or
    // whether a move stays in the tier.
    let mut batch: Vec<(usize, Option<i32>, bool)> = Vec::with_capacity(BATCH);
    // The positions in index order, each stepped to from the one before.
    let mut previous: Option<R::Position> = None;
    for start in (first..end).step_by(BATCH) {
        leaves.clear();
        batch.clear();
        for index in start..(start + BATCH as u64).min(end) {
            let pos = match &previous {
                Some(previous) => rules.position_after(seeds, index - 1, previous),
                None => rules.position_at(seeds, index),
            };
            previous = Some(pos);
            let moves = rules.legal_moves(&pos);
            let over = moves.is_empty().then(|| rules.terminal_gain(&pos));
            let mut stays = false;
            for &mv in moves.as_slice() {
                let step = rules.play(&pos, mv);
                let next_seeds = rules.seeds_on_board(&step.next);
                if next_seeds == seeds {
                    stays = true;
                    continue;
                }
                let leave = Leave { gain: step.gain, same_mover: step.same_mover, seeds: next_seeds, index: rules.index(&step.next) };
                lower[next_seeds as usize].prefetch(leave.index);
                leaves.push(leave);
            }
            batch.push((leaves.len(), over, stays));
        }
        let mut from = 0;
        for (index, &(to, over, stays)) in (start..).zip(&batch) {
            let best = leaves[from..to]
                .iter()
                .map(|l| {
                    let next = lower[l.seeds as usize].value_at(l.index) as i32;
                    l.gain + if l.same_mover { next } else { -next }
                })
                .max();
            from = to;
            let prediction = match (over, best) {
                (Some(value), _) => Prediction::Exact(value),
                (None, Some(value)) if !stays => Prediction::Exact(value),
                (None, best) => Prediction::AtLeast(best.unwrap_or(-(seeds as i32))),
            };
            each(index, prediction)?;
        }
    }
    Ok(())
}
