//! The endgame-table builder's schedule: in which order it may solve the positions of a tier,
//! and in which runs it shares them among threads.
//!
//! Within a tier, a move that stores nothing leads to another position of the same tier; the
//! builder solves such a successor first, which needs an order that every such move lowers.

use crate::tier_layout::TierLayout;

/// Positions a run of the default [`BuildSchedule::solve_run`].
pub const SOLVE_RUN: u64 = 1 << 15;

/// What the table builder needs of a move: where its successor's value lives (its tier and
/// index there), what the move earns the mover, and whether the mover moves again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildStep {
    /// Seeds on the successor's board: its tier.
    pub seeds: u32,
    /// The successor's index in its tier.
    pub index: u64,
    /// What the move earns the mover ([`crate::rules::Step::gain`]).
    pub gain: i32,
    /// Whether the mover moves again.
    pub same_mover: bool,
}

/// The order and the units of work in which the table builder solves a tier.
pub trait BuildSchedule: TierLayout {
    /// What a builder thread keeps from one [`BuildSchedule::build_step`] to the next (`()`
    /// for rules that play every move in full).
    type StepMemo: Default;
    /// The [`BuildStep`] of move `mv` from `pos`, a position of `seeds` seeds on the board.
    /// The default plays the move and ranks the successor; rules whose moves repeat their
    /// effect across boards may answer from what `memo` kept of earlier moves.
    #[inline]
    fn build_step(&self, pos: &Self::Position, seeds: u32, mv: u8, memo: &mut Self::StepMemo) -> BuildStep {
        let _ = (seeds, memo);
        played_step(self, pos, mv)
    }
    /// The order in which the endgame-table builder solves the positions of one tier: for
    /// every legal move of `pos` whose successor has as many seeds on the board as `pos`,
    /// `tier_order(next) < tier_order(pos)`. (Dakon: the seeds weighted by their distance to
    /// their owner's store, which every turn that stores nothing lowers.)
    fn tier_order(&self, pos: &Self::Position) -> u32;
    /// The [`BuildSchedule::tier_order`] of the positions at indices
    /// `first..first + orders.len()` of tier `seeds`, written into `orders`: what a build
    /// shared among processes sorts its positions by. Each position is unranked here; rules
    /// whose boards follow each other cheaply in index order do better.
    fn tier_orders(&self, seeds: u32, first: u64, orders: &mut [u32]) {
        for (index, order) in (first..).zip(orders.iter_mut()) {
            *order = self.tier_order(&self.position_at(seeds, index));
        }
    }
    /// How many runs [`BuildSchedule::solve_run`] splits tier `seeds` into: the table
    /// builder's units of parallel work. The default: runs of [`SOLVE_RUN`] positions in
    /// index order.
    fn solve_runs(&self, seeds: u32) -> u64 {
        index_runs(self, seeds)
    }
    /// Calls `visit(index, position)` for each position of run `run` (below
    /// [`BuildSchedule::solve_runs`]) of tier `seeds`, in the order the table builder solves
    /// them; together the runs visit every position of the tier once. A good order keeps the
    /// successors of consecutive positions near each other in their tiers (the builder reads
    /// a value at each). The default: positions `SOLVE_RUN * run..` in index order.
    fn solve_run(&self, seeds: u32, run: u64, visit: &mut dyn FnMut(u64, &Self::Position)) {
        walk_index_run(self, seeds, run, visit);
    }
}

/// The [`BuildStep`] of move `mv` from `pos`, the move played in full.
#[inline]
pub(crate) fn played_step<L: TierLayout + ?Sized>(layout: &L, pos: &L::Position, mv: u8) -> BuildStep {
    let step = layout.play(pos, mv);
    BuildStep { seeds: layout.seeds_on_board(&step.next), index: layout.index(&step.next), gain: step.gain, same_mover: step.same_mover }
}

/// How many runs of [`SOLVE_RUN`] positions in index order tier `seeds` holds.
pub(crate) fn index_runs<L: TierLayout + ?Sized>(layout: &L, seeds: u32) -> u64 {
    layout.tier_size(seeds).div_ceil(SOLVE_RUN)
}

/// Visits positions `SOLVE_RUN * run..` of tier `seeds` in index order, each made from the one
/// before with [`TierLayout::position_after`].
pub(crate) fn walk_index_run<L: TierLayout + ?Sized>(layout: &L, seeds: u32, run: u64, visit: &mut dyn FnMut(u64, &L::Position)) {
    let first = run * SOLVE_RUN;
    let end = (first + SOLVE_RUN).min(layout.tier_size(seeds));
    let mut pos = layout.position_at(seeds, first);
    for index in first..end {
        if index > first {
            pos = layout.position_after(seeds, index - 1, &pos);
        }
        visit(index, &pos);
    }
}
