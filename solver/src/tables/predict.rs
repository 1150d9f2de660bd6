//! The one-ply prediction that format version 2 stores values against: what the lower tiers
//! alone say about a position.
//!
//! A move that stores or captures lowers the seeds on the board, so its successor's value is
//! in a lower tier. The best such move (its gain, plus the successor's value when the mover
//! moves again, minus it when the turn passes) is a lower bound on the position's value, and
//! the value itself when every move leaves the tier (or the game is over). Measured on Dakon's
//! 7-hole tier 12, the bound is the value at 90 % of the positions, and at 42 % it is known to
//! be (no move stays in the tier): those cost nothing on disk.

use super::compact::TierValues;
use crate::rules::Rules;

/// What the lower tiers say about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prediction {
    /// The value: every move leaves the tier, or the game is over.
    Exact(i32),
    /// A lower bound on the value: some move stays in the tier. With no move leaving it, the
    /// bound is `-seeds`.
    AtLeast(i32),
}

/// The prediction for `pos`, in tier `seeds`, from `lower[j]`, the values of tier `j < seeds`.
pub(crate) fn predict<R: Rules, T: TierValues>(rules: &R, seeds: u32, pos: &R::Position, lower: &[T]) -> Prediction {
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return Prediction::Exact(rules.terminal_gain(pos));
    }
    let mut best = None;
    let mut stays = false;
    for &mv in moves.as_slice() {
        let step = rules.play(pos, mv);
        let next_seeds = rules.seeds_on_board(&step.next);
        if next_seeds == seeds {
            stays = true;
            continue;
        }
        let next = lower[next_seeds as usize].value_at(rules.index(&step.next)) as i32;
        best = best.max(Some(step.gain + if step.same_mover { next } else { -next }));
    }
    match best {
        Some(value) if !stays => Prediction::Exact(value),
        best => Prediction::AtLeast(best.unwrap_or(-(seeds as i32))),
    }
}
