//! The transform of format version 2: each value stored as its distance above the one-ply
//! prediction ([`super::predict`]), and nothing at all where the prediction is exact.

use super::compact::TierValues;
use super::predict::{for_each_prediction, Prediction};
use crate::rules::Rules;

/// The residuals of the values of positions `first..first + values.len()` of tier `seeds`:
/// one byte `value - bound` per position whose prediction is a bound, in index order.
///
/// # Errors
/// A message if a value contradicts its prediction (the values are not a solved tier).
pub(crate) fn encode<R: Rules, T: TierValues>(rules: &R, seeds: u32, first: u64, values: &[u8], lower: &[T]) -> Result<Vec<u8>, String> {
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

/// The values of positions `first..first + len` of tier `seeds` from their `residuals`: the
/// inverse of [`encode`], given the same lower tiers.
///
/// # Errors
/// A message if `residuals` holds fewer or more bytes than the positions need, or a value
/// falls outside one byte.
pub(crate) fn decode<R: Rules, T: TierValues>(
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
