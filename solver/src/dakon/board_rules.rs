//! What every rule set played on the Dakon board shares: the transposition key, the tiers'
//! layout and the builder's schedule follow from the board, not from the moves, so they are
//! implemented once, here, for every [`DakonBoardRules`].

use super::{tiers, Key, Position};
use crate::build_schedule::{index_runs, played_step, walk_index_run, BuildSchedule, BuildStep};
use crate::kalah::RowMoveMemo;
use crate::rules::{Rules, Step};
use crate::tier_layout::TierLayout;
use crate::transposition_key::TranspositionKey;

/// Rules played on [`Position`]: Dakon, Kalah and the rule set chosen at run time.
///
/// Their moves differ, but a turn that stores nothing moves seeds nearer their owner's store
/// in both, so one tier order (the board's distance to the stores) serves them all.
pub trait DakonBoardRules: Rules<Position = Position> {
    /// Holes per row.
    fn holes(&self) -> usize;
    /// Whether the table builder solves a tier in runs of mover's rows
    /// (`dakon::tiers::walk_row_run`) rather than in index order: right for rules whose
    /// moves change the mover's row alone, apart from the seeds sown past the store and a
    /// capture, since the successors of a run then lie in a few small blocks of their tiers.
    fn solves_by_mover_rows(&self) -> bool;
    /// The table builder's [`BuildStep`] of move `mv` from `pos`, a position of tier `seeds`
    /// ([`BuildSchedule::build_step`]): by default the move played in full; Kalah answers
    /// from what `memo` kept of the same mover's row.
    #[inline]
    fn build_step_with(&self, pos: &Position, seeds: u32, mv: u8, memo: &mut RowMoveMemo) -> BuildStep
    where
        Self: Sized,
    {
        let _ = (seeds, memo);
        played_step(self, pos, mv)
    }
}

impl<R: DakonBoardRules> TranspositionKey for R {
    type Key = Key;

    #[inline]
    fn key(&self, pos: &Position) -> Key {
        Key::of(pos)
    }
}

impl<R: DakonBoardRules> TierLayout for R {
    fn tier_size(&self, seeds: u32) -> u64 {
        tiers::tier_size(self.holes(), seeds)
    }

    #[inline]
    fn index(&self, pos: &Position) -> u64 {
        tiers::index(pos)
    }

    fn position_at(&self, seeds: u32, index: u64) -> Position {
        tiers::position_at(self.holes(), seeds, index)
    }

    #[inline]
    fn position_after(&self, _seeds: u32, _index: u64, pos: &Position) -> Position {
        tiers::position_after(pos)
    }
}

impl<R: DakonBoardRules> BuildSchedule for R {
    type StepMemo = RowMoveMemo;

    #[inline]
    fn build_step(&self, pos: &Position, seeds: u32, mv: u8, memo: &mut RowMoveMemo) -> BuildStep {
        self.build_step_with(pos, seeds, mv, memo)
    }

    #[inline]
    fn tier_order(&self, pos: &Position) -> u32 {
        tiers::distance_to_stores(pos)
    }

    fn tier_orders(&self, seeds: u32, first: u64, orders: &mut [u32]) {
        tiers::distances_to_stores(self.holes(), seeds, first, orders);
    }

    fn solve_runs(&self, seeds: u32) -> u64 {
        if self.solves_by_mover_rows() {
            tiers::row_runs(self.holes(), seeds)
        } else {
            index_runs(self, seeds)
        }
    }

    fn solve_run(&self, seeds: u32, run: u64, visit: &mut dyn FnMut(u64, &Position)) {
        if self.solves_by_mover_rows() {
            tiers::walk_row_run(self.holes(), seeds, run, visit);
        } else {
            walk_index_run(self, seeds, run, visit);
        }
    }
}

/// The [`Step`] of a move from `before` to `next` that earned the mover `gain`: the same
/// player moves again exactly when `next`'s mover is `before`'s.
#[inline]
pub(crate) fn step(before: &Position, next: Position, gain: i32) -> Step<Position> {
    Step { next, gain, same_mover: next.mover() == before.mover() }
}
