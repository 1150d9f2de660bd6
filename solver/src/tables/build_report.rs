//! What a table build did: each tier it finished, built now or found on disk. Shared by the
//! builder, which makes the report, and the reader, which packs the tiers it lists.

use std::path::PathBuf;
use std::time::Duration;

/// One tier in a [`BuildReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct TierReport {
    /// Seeds on the board.
    pub seeds: u32,
    /// Its file.
    pub path: PathBuf,
    /// Positions in the tier.
    pub entries: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// Whether this run built it (`false`: it was already there).
    pub built: bool,
    /// Time spent building it (zero when it was already there).
    pub elapsed: Duration,
}

/// What [`build_tiers`](super::build_tiers) did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    /// Every finished tier, built now or found, in increasing order.
    pub tiers: Vec<TierReport>,
    /// Whether the stop flag ended the build before the last tier (the tier in progress was
    /// dropped; running the build again resumes there).
    pub interrupted: bool,
}

impl BuildReport {
    /// Positions solved by this run.
    pub fn built_entries(&self) -> u64 {
        self.tiers.iter().filter(|t| t.built).map(|t| t.entries).sum()
    }

    /// Time spent building by this run.
    pub fn built_time(&self) -> Duration {
        self.tiers.iter().map(|t| t.elapsed).sum()
    }
}
