//! Solving one tier: every position of `k` seeds, each evaluated once, in parallel.
//!
//! A move either lowers the seeds on the board (its successor's value is in a lower tier,
//! already solved) or keeps them (a turn that stores nothing). The rules promise that the
//! second kind lowers [`Rules::tier_order`], so the tier is solved in increasing order
//! *levels*: every position of one level depends only on lower tiers and lower levels, and the
//! positions of a level are independent, so a level is solved in parallel.
//!
//! Memory stays at one byte per position plus one bit: before a position is solved its byte
//! holds its level (a first pass writes them), afterwards its value; a bitmap tells which.
//! Each level then scans the chunks whose level range contains it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::error::TableError;
use crate::rules::Rules;

/// Positions per unit of parallel work (a multiple of 64, so that each bitmap word belongs
/// to one chunk).
const CHUNK: usize = 1 << 15;

/// The values of one tier being solved, shared by the worker threads.
struct Tier<'a> {
    /// The level of a pending position, the value (two's complement) of a solved one.
    bytes: &'a [AtomicU8],
    /// Bit `i` set once position `i` is solved.
    solved: &'a [AtomicU64],
}

impl Tier<'_> {
    #[inline]
    fn is_solved(&self, index: u64) -> bool {
        self.solved[(index / 64) as usize].load(Ordering::Relaxed) & (1 << (index % 64)) != 0
    }
}

/// Solves tier `seeds` given the solved lower tiers (`lower[j]` holds tier `j`, for every
/// `j < seeds`). Returns the values, one byte each (two's complement), or `Ok(None)` if
/// `stop` was raised first.
///
/// # Errors
/// [`TableError::Unsupported`] if the tier is too large for one-byte values or levels, and
/// [`TableError::Order`] if the rules break the [`Rules::tier_order`] contract.
pub(crate) fn solve_tier<R: Rules>(
    rules: &R,
    seeds: u32,
    lower: &[Vec<u8>],
    stop: Option<&AtomicBool>,
    progress: &ProgressBar,
) -> Result<Option<Vec<u8>>, TableError> {
    debug_assert_eq!(lower.len(), seeds as usize);
    if seeds > i8::MAX as u32 {
        return Err(TableError::Unsupported { seeds, detail: format!("values need more than one byte above {} seeds", i8::MAX) });
    }
    let size = usize::try_from(rules.tier_size(seeds)).map_err(|_| TableError::Unsupported { seeds, detail: "tier too large".into() })?;
    let mut bytes = vec![0u8; size];
    let solved: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let tier = Tier { bytes: as_atomic_u8(&mut bytes), solved: &solved };
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));

    // First pass: every position's level, and each chunk's range of levels.
    progress.set_message("ordering by level");
    let ranges: Vec<(u8, u8)> = tier
        .bytes
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut range = (u8::MAX, 0u8);
            if stopped() {
                return Ok(range);
            }
            for (j, byte) in chunk.iter().enumerate() {
                let pos = rules.position_at(seeds, (c * CHUNK + j) as u64);
                let level = u8::try_from(rules.tier_order(&pos))
                    .map_err(|_| TableError::Unsupported { seeds, detail: "the rules' tier_order exceeds 255 in this tier".into() })?;
                byte.store(level, Ordering::Relaxed);
                range = (range.0.min(level), range.1.max(level));
            }
            Ok(range)
        })
        .collect::<Result<_, TableError>>()?;
    let (first, last) = ranges.iter().fold((u8::MAX, 0), |(lo, hi), &(a, b)| (lo.min(a), hi.max(b)));

    progress.set_message("");
    for level in first..=last {
        if stopped() {
            break;
        }
        tier.bytes.par_chunks(CHUNK).enumerate().filter(|(c, _)| (ranges[*c].0..=ranges[*c].1).contains(&level)).try_for_each(
            |(c, chunk)| {
                if stopped() {
                    return Ok(()); // the tier is dropped anyway
                }
                let mut done = 0;
                for (j, byte) in chunk.iter().enumerate() {
                    let index = (c * CHUNK + j) as u64;
                    if byte.load(Ordering::Relaxed) != level || tier.is_solved(index) {
                        continue;
                    }
                    let value = solve_position(rules, seeds, index, lower, &tier)?;
                    byte.store(value as u8, Ordering::Relaxed);
                    tier.solved[(index / 64) as usize].fetch_or(1 << (index % 64), Ordering::Relaxed);
                    done += 1;
                }
                progress.inc(done);
                Ok::<(), TableError>(())
            },
        )?;
    }
    Ok(if stopped() { None } else { Some(bytes) })
}

/// The value of one position: the best move's gain plus (or minus, when the turn passes)
/// the successor's value.
#[inline]
fn solve_position<R: Rules>(rules: &R, seeds: u32, index: u64, lower: &[Vec<u8>], tier: &Tier) -> Result<i8, TableError> {
    let pos = rules.position_at(seeds, index);
    let moves = rules.legal_moves(&pos);
    if moves.is_empty() {
        return Ok(rules.terminal_gain(&pos) as i8);
    }
    let mut best = i32::MIN;
    for &mv in moves.as_slice() {
        let step = rules.play(&pos, mv);
        let next_seeds = rules.seeds_on_board(&step.next);
        let next_index = rules.index(&step.next);
        let next = if next_seeds == seeds {
            if !tier.is_solved(next_index) {
                return Err(TableError::Order { seeds, index, successor: next_index });
            }
            tier.bytes[next_index as usize].load(Ordering::Relaxed) as i8
        } else {
            lower[next_seeds as usize][next_index as usize] as i8
        } as i32;
        best = best.max(step.gain + if step.same_mover { next } else { -next });
    }
    Ok(best as i8)
}

fn as_atomic_u8(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size and alignment of `u8`, and the exclusive borrow
    // guarantees that no other access bypasses the atomics while the result lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}
