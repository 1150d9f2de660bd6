//! Probing: the tiers of one rule set, decoded in memory, as an [`Oracle`] for the search.

use std::path::Path;

use rayon::prelude::*;

use super::error::TableError;
use super::file::TableFile;
use super::name::tier_path;
use crate::oracle::Oracle;
use crate::rules::Rules;

/// The tiers `0..=K` of one rule set found in a directory, each decoded in memory (one byte
/// per position), so that a probe is an index computation and a load.
pub struct TableSet<R: Rules> {
    rules: R,
    /// `tiers[k]`: the values of tier `k`, two's complement.
    tiers: Vec<Box<[u8]>>,
}

impl<R: Rules> TableSet<R> {
    /// Loads the tiers of `rules` present in `dir`, from tier 0 up to the first missing one.
    /// Returns `None` when tier 0 is missing (no tables for this board).
    ///
    /// # Errors
    /// [`TableError`] if a file of these tiers cannot be read, is damaged (checksums are
    /// verified) or belongs to other rules, another board or another tier.
    pub fn open(rules: &R, dir: &Path) -> Result<Option<TableSet<R>>, TableError>
    where
        R: Clone,
    {
        TableSet::open_up_to(rules, dir, u32::MAX)
    }

    /// As [`TableSet::open`], loading no tier above `max_seeds` (a position with `s` seeds
    /// never needs a tier above `s`).
    ///
    /// # Errors
    /// As [`TableSet::open`].
    pub fn open_up_to(rules: &R, dir: &Path, max_seeds: u32) -> Result<Option<TableSet<R>>, TableError>
    where
        R: Clone,
    {
        let files: Vec<TableFile> = (0..=max_seeds.min(i8::MAX as u32))
            .map(|k| (k, tier_path(rules, dir, k)))
            .take_while(|(_, path)| path.exists())
            .map(|(k, path)| TableFile::open(rules, &path, k))
            .collect::<Result<_, _>>()?;
        if files.is_empty() {
            return Ok(None);
        }
        let tiers = files.par_iter().map(|f| f.read_values().map(Vec::into_boxed_slice)).collect::<Result<_, _>>()?;
        Ok(Some(TableSet { rules: rules.clone(), tiers }))
    }

    /// The exact future gain of the position at `index` in tier `seeds`, if that tier is
    /// loaded.
    pub fn value(&self, seeds: u32, index: u64) -> Option<i32> {
        self.tiers.get(seeds as usize).and_then(|t| t.get(index as usize)).map(|&v| v as i8 as i32)
    }
}

impl<R: Rules> Oracle<R> for TableSet<R> {
    #[inline]
    fn probe(&self, pos: &R::Position) -> Option<i32> {
        let tier = self.tiers.get(self.rules.seeds_on_board(pos) as usize)?;
        Some(tier[self.rules.index(pos) as usize] as i8 as i32)
    }

    fn max_seeds(&self) -> u32 {
        self.tiers.len() as u32 - 1
    }
}
