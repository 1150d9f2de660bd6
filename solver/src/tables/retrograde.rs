//! Solving one tier: every position of `k` seeds, in parallel.
//!
//! A move either lowers the seeds on the board (its successor's value is in a lower tier,
//! already solved) or keeps them (a turn that stores nothing). The rules promise that the
//! second kind lowers [`BuildSchedule::tier_order`], so the moves within a tier form no cycle: a
//! position whose successor in the tier is not solved yet solves that successor first, depth
//! first (at most `tier_order` deep). Two threads may meet the same unsolved position and both
//! solve it; they write the same value.
//!
//! Memory is two bytes per position: its value, [`UNSOLVED`] until it is solved, and its
//! [`Mark`] (what format 2 stores for it), which the solve finds from the successor values
//! it reads anyway: the file is then written without a second pass. A value byte that says
//! whether it is set spares a bitmap of solved positions: one line read a successor in the
//! tier instead of two, and no locked instruction a position.
//!
//! Walked in index order, the work is memory-bound: a successor's value is a random access
//! into a tier of up to hundreds of megabytes. So positions are taken in small batches, and
//! all the cache lines a batch's successors need are requested before any is read. Walked in
//! the runs Kalah gives (successors in a few blocks of their tiers), it is bound by its
//! instructions instead, and the batch size hardly matters.
//!
//! Depth first, with batched prefetching and the tiers in huge pages, builds a tier much
//! faster than solving it level by level of `tier_order` with a barrier between levels
//! (`docs/benchmarks/code-notes.md`).

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use rayon::prelude::*;

use super::build_progress::BuildProgress;
use super::error::TableError;
use super::residual::{mark, Mark};
use crate::build_schedule::BuildSchedule;
use crate::prefetch::prefetch;
use crate::rules::MoveList;

/// Positions whose successors are requested from memory together.
const BATCH: usize = 8;

/// The value byte of a position not solved yet: -128, which no value takes (a value lies in
/// `-seeds..=seeds`, and a tier of one-byte values has at most 127 seeds).
const UNSOLVED: u8 = i8::MIN as u8;

/// `size` value bytes, each [`UNSOLVED`].
fn unsolved_values(size: usize) -> Vec<u8> {
    let mut bytes = crate::memory::zeroed_bytes(size);
    bytes.fill(UNSOLVED);
    bytes
}

/// A solved tier: its values (one byte each, two's complement, in index order) and each
/// position's `Mark`.
pub struct SolvedTier {
    /// The values.
    pub values: Vec<u8>,
    /// The marks, one a position (the residuals of format 2 and where there are none).
    pub(crate) marks: Vec<u8>,
}

/// Solves tier `seeds` given the solved lower tiers (`lower[j]` holds tier `j`, for every
/// `j < seeds`). Returns the values and marks, or `Ok(None)` if `stop` was raised first.
///
/// # Errors
/// [`TableError::Unsupported`] if the tier is too large for one-byte values, and
/// [`TableError::Order`] if the rules break the [`BuildSchedule::tier_order`] contract.
pub(crate) fn solve_tier<R: BuildSchedule>(
    rules: &R,
    seeds: u32,
    lower: &[Vec<u8>],
    stop: Option<&AtomicBool>,
    progress: &dyn BuildProgress,
) -> Result<Option<SolvedTier>, TableError> {
    debug_assert_eq!(lower.len(), seeds as usize);
    let size = checked_tier_size(rules, seeds)?;
    let (mut bytes, mut marks) = (unsolved_values(size), crate::memory::zeroed_bytes(size));
    let tier = Tier { rules, seeds, lower, bytes: as_atomic_u8(&mut bytes), marks: as_atomic_u8(&mut marks) };
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    // The rules' runs (see [`BuildSchedule::solve_run`]), in parallel, each one a unit another thread
    // may take: Kalah's differ in size a thousandfold (its first runs hold most of a tier), and
    // halving the range of runs left them to one thread.
    // Each worker keeps its memo of moves (`BuildSchedule::build_step`) from run to run.
    (0..rules.solve_runs(seeds) as usize).into_par_iter().with_max_len(1).try_for_each_init(R::StepMemo::default, |memo, run| {
        let run = run as u64;
        if stopped() {
            return Ok(()); // the tier is dropped anyway
        }
        let mut batch = Batch::new();
        let mut failed = None;
        let mut visited = 0;
        rules.solve_run(seeds, run, &mut |index, pos| {
            visited += 1;
            if failed.is_none() {
                failed = tier.push(&mut batch, memo, index, pos).err();
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        tier.finish(&mut batch, memo)?;
        progress.solved(visited);
        Ok(())
    })?;
    Ok(if stopped() { None } else { Some(SolvedTier { values: bytes, marks }) })
}

/// The positions of tier `seeds`, if values of one byte hold them and memory can address them.
fn checked_tier_size<R: BuildSchedule>(rules: &R, seeds: u32) -> Result<usize, TableError> {
    if seeds > i8::MAX as u32 {
        return Err(TableError::Unsupported { seeds, detail: format!("values need more than one byte above {} seeds", i8::MAX) });
    }
    usize::try_from(rules.tier_size(seeds)).map_err(|_| TableError::Unsupported { seeds, detail: "tier too large".into() })
}

/// The tier being solved and the lower ones, shared by the worker threads.
struct Tier<'a, R: BuildSchedule> {
    rules: &'a R,
    seeds: u32,
    /// `lower[j]`: the values of tier `j`.
    lower: &'a [Vec<u8>],
    /// The value (two's complement) of each position of this tier, [`UNSOLVED`] until it is
    /// solved (written after its mark, with release order).
    bytes: &'a [AtomicU8],
    /// The [`Mark`] of each solved position.
    marks: &'a [AtomicU8],
}

/// Positions whose successors' lines have been requested, solved together: each with its
/// index and the end of its moves in `edges`.
struct Batch<P> {
    positions: Vec<(u64, P, usize)>,
    edges: Vec<Edge>,
}

impl<P> Batch<P> {
    fn new() -> Self {
        Batch { positions: Vec::with_capacity(BATCH), edges: Vec::with_capacity(BATCH * MoveList::CAPACITY) }
    }
}

/// A move of a position being solved, what it earns and where its successor's value lives:
/// not the successor itself, which is made again when it must be solved first: a 16-byte
/// edge keeps a batch in the cache, which saves more time than remaking a few successors costs.
#[derive(Clone, Copy)]
struct Edge {
    index: u64,
    seeds: u32,
    gain: i16,
    mv: u8,
    same_mover: bool,
}

/// A placeholder in an array of edges, before it is filled.
const EMPTY_EDGE: Edge = Edge { index: 0, seeds: 0, gain: 0, mv: 0, same_mover: false };

impl<R: BuildSchedule> Tier<'_, R> {
    /// The value of position `index` of this tier, if it is solved.
    #[inline]
    fn solved_value(&self, index: u64) -> Option<i8> {
        let value = self.bytes[index as usize].load(Ordering::Acquire);
        (value != UNSOLVED).then_some(value as i8)
    }

    #[inline]
    fn is_solved(&self, index: u64) -> bool {
        self.solved_value(index).is_some()
    }

    #[inline]
    fn record(&self, index: u64, value: i8, mark: Mark) {
        debug_assert_ne!(value as u8, UNSOLVED, "position {index}: a value of -128");
        self.marks[index as usize].store(mark.0, Ordering::Relaxed);
        self.bytes[index as usize].store(value as u8, Ordering::Release);
    }

    #[inline]
    fn edge(&self, memo: &mut R::StepMemo, pos: &R::Position, mv: u8) -> Edge {
        let step = self.rules.build_step(pos, self.seeds, mv, memo);
        Edge { index: step.index, seeds: step.seeds, gain: step.gain as i16, mv, same_mover: step.same_mover }
    }

    /// Requests the cache lines that reading `edge`'s successor will touch.
    #[inline]
    fn prefetch(&self, edge: &Edge) {
        if edge.seeds == self.seeds {
            prefetch(&self.bytes[edge.index as usize]);
        } else {
            prefetch(&self.lower[edge.seeds as usize][edge.index as usize]);
        }
    }

    /// Adds position `index` of this tier, `pos`, to `batch` unless it is solved already: its
    /// successors' lines are requested now, and a full batch is solved.
    fn push(&self, batch: &mut Batch<R::Position>, memo: &mut R::StepMemo, index: u64, pos: &R::Position) -> Result<(), TableError> {
        if self.is_solved(index) {
            return Ok(());
        }
        for &mv in self.rules.legal_moves(pos).as_slice() {
            let edge = self.edge(memo, pos, mv);
            self.prefetch(&edge);
            batch.edges.push(edge);
        }
        batch.positions.push((index, *pos, batch.edges.len()));
        if batch.positions.len() == BATCH {
            self.finish(batch, memo)?;
        }
        Ok(())
    }

    /// Solves the positions of `batch` and empties it.
    fn finish(&self, batch: &mut Batch<R::Position>, memo: &mut R::StepMemo) -> Result<(), TableError> {
        let mut from = 0;
        for &(index, pos, to) in &batch.positions {
            // An earlier position of the batch may have solved this one on its way.
            if !self.is_solved(index) {
                self.evaluate(memo, index, &pos, &batch.edges[from..to])?;
            }
            from = to;
        }
        batch.positions.clear();
        batch.edges.clear();
        Ok(())
    }

    /// Solves `pos`, at `index` in this tier, and records its value.
    fn solve(&self, memo: &mut R::StepMemo, index: u64, pos: &R::Position) -> Result<i8, TableError> {
        let moves = self.rules.legal_moves(pos);
        let mut edges = [EMPTY_EDGE; MoveList::CAPACITY];
        for (edge, &mv) in edges.iter_mut().zip(moves.as_slice()) {
            *edge = self.edge(memo, pos, mv);
        }
        self.evaluate(memo, index, pos, &edges[..moves.as_slice().len()])
    }

    /// Records and returns the value of `pos` (at `index` in this tier) from its moves, `edges`
    /// (none: the game is over): the best move's gain plus (or minus, when the turn passes)
    /// its successor's value. Its mark comes from the same values: the best of the moves that
    /// leave the tier, and whether any stays.
    fn evaluate(&self, memo: &mut R::StepMemo, index: u64, pos: &R::Position, edges: &[Edge]) -> Result<i8, TableError> {
        let (mut best, mut best_leave, mut stays) = (None, None, false);
        for edge in edges {
            let next = self.successor_value(memo, index, pos, edge)? as i32;
            let value = edge.gain as i32 + if edge.same_mover { next } else { -next };
            best = best.max(Some(value));
            if edge.seeds == self.seeds {
                stays = true;
            } else {
                best_leave = best_leave.max(Some(value));
            }
        }
        let value = best.unwrap_or_else(|| self.rules.terminal_gain(pos)) as i8;
        self.record(index, value, mark(value as i32, self.seeds, best_leave, stays));
        Ok(value)
    }

    /// The value of `edge`'s successor; one in this tier not solved yet is solved first.
    #[inline]
    fn successor_value(&self, memo: &mut R::StepMemo, index: u64, pos: &R::Position, edge: &Edge) -> Result<i8, TableError> {
        if edge.seeds != self.seeds {
            return Ok(self.lower[edge.seeds as usize][edge.index as usize] as i8);
        }
        if let Some(value) = self.solved_value(edge.index) {
            return Ok(value);
        }
        let next = self.rules.play(pos, edge.mv).next;
        if self.rules.tier_order(&next) >= self.rules.tier_order(pos) {
            return Err(TableError::Order { seeds: self.seeds, index, successor: edge.index });
        }
        self.solve(memo, edge.index, &next)
    }
}

fn as_atomic_u8(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size and alignment of `u8`, and the exclusive borrow
    // guarantees that no other access bypasses the atomics while the result lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}
