//! The transform of format version 2: each value stored as its distance above the one-ply
//! prediction ([`super::predict`]), and nothing at all where the prediction is exact.
//!
//! A tier being built has its residuals worked out by the solve itself, one [`Mark`] a
//! position ([`mark`]: the solve sees every move's successor value anyway; a build partitioned
//! among processes keeps each rank's marks with its values), so that writing the file needs no
//! second pass over the tier ([`from_marks`]); [`encode`] does that pass, from the values and
//! the lower tiers, for values alone (`write_table`). Both give the same bytes.

use super::compact::TierValues;
use super::predict::{for_each_prediction, Prediction};
use crate::tier_layout::TierLayout;

/// The residuals of the values of positions `first..first + values.len()` of tier `seeds`:
/// one byte `value - bound` per position whose prediction is a bound, in index order.
///
/// # Errors
/// A message if a value contradicts its prediction (the values are not a solved tier).
pub(crate) fn encode<R: TierLayout, T: TierValues>(
    rules: &R,
    seeds: u32,
    first: u64,
    values: &[u8],
    lower: &[T],
) -> Result<Vec<u8>, String> {
    let mut residuals = Vec::with_capacity(values.len() / 2);
    for_each_prediction(rules, seeds, first, values.len(), lower, |index, prediction| {
        let value = values[(index - first) as usize] as i8 as i32;
        match prediction {
            Prediction::Exact(exact) if exact == value => {}
            Prediction::AtLeast(bound) if (0..=u8::MAX as i32).contains(&(value - bound)) => residuals.push((value - bound) as u8),
            prediction => return Err(format!("position {index}: value {value} contradicts the lower tiers ({prediction:?})")),
        }
        Ok(())
    })?;
    Ok(residuals)
}

/// One position's part of the file, found while it is solved: the residual `value - bound`
/// of a position whose prediction is a bound, or [`Mark::EXACT`] where the prediction is the
/// value (nothing is stored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark(pub u8);

impl Mark {
    /// The prediction is the value. Never a residual: those are at most `2 * seeds`, below
    /// 255 in tiers of one-byte values (at most 127 seeds).
    pub const EXACT: Mark = Mark(u8::MAX);
}

/// The mark of a position of value `value` whose best move leaving the tier is worth
/// `best_leave` (`None`: no move leaves it), where `stays` says whether some move stays in the
/// tier (neither: the game is over). The same prediction as [`for_each_prediction`] makes.
#[inline]
pub(crate) fn mark(value: i32, seeds: u32, best_leave: Option<i32>, stays: bool) -> Mark {
    if !stays {
        debug_assert!(best_leave.is_none_or(|best| best == value), "a prediction of every move is the value");
        return Mark::EXACT;
    }
    let residual = value - best_leave.unwrap_or(-(seeds as i32));
    debug_assert!((0..u8::MAX as i32).contains(&residual), "the value is at least its prediction");
    Mark(residual as u8)
}

/// The residuals of a run of positions from their marks, in index order: what [`encode`]
/// gives for the same positions.
pub(crate) fn from_marks(marks: &[u8]) -> Vec<u8> {
    marks.iter().copied().filter(|&m| m != Mark::EXACT.0).collect()
}

/// The values of positions `first..first + len` of tier `seeds` from their `residuals`: the
/// inverse of [`encode`], given the same lower tiers.
///
/// # Errors
/// A message if `residuals` holds fewer or more bytes than the positions need, or a value
/// falls outside one byte.
pub(crate) fn decode<R: TierLayout, T: TierValues>(
    rules: &R,
    seeds: u32,
    first: u64,
    len: usize,
    residuals: &[u8],
    lower: &[T],
) -> Result<Vec<u8>, String> {
    let mut next = residuals.iter();
    let mut values = Vec::with_capacity(len);
    for_each_prediction(rules, seeds, first, len, lower, |index, prediction| {
        let value = match prediction {
            Prediction::Exact(value) => value,
            Prediction::AtLeast(bound) => {
                let residual = next.next().ok_or_else(|| format!("{} residuals, fewer than the positions need", residuals.len()))?;
                bound + *residual as i32
            }
        };
        let value = i8::try_from(value).map_err(|_| format!("position {index}: value {value} out of range"))?;
        values.push(value as u8);
        Ok::<(), String>(())
    })?;
    if next.len() > 0 {
        return Err(format!("{} residuals, {} more than the positions need", residuals.len(), next.len()));
    }
    Ok(values)
}
