//! `dakon tables build` shared by the ranks of an MPI job, and what the ranks exchanged.

use std::path::Path;

use dakon_solver::ruleset::RuleSet;
use dakon_solver::tables::{BuildOptions, BuildReport};

use crate::cli_error::CliError;
use crate::cluster::Cluster;

/// The level messages of a shared build.
pub struct Exchange {
    /// Ranks in the job.
    pub ranks: usize,
    /// Bytes of all level messages, each counted once.
    pub sent_bytes: u64,
    /// Bytes received, summed over the ranks.
    pub received_bytes: u64,
    /// Exchange rounds (levels).
    pub rounds: u64,
}

impl Exchange {
    /// The `exchange` object of `tables build --json`.
    pub fn json(&self, positions: u64) -> serde_json::Value {
        serde_json::json!({
            "ranks": self.ranks,
            "rounds": self.rounds,
            "sent_bytes": self.sent_bytes,
            "received_bytes": self.received_bytes,
            "sent_bytes_per_position": per_position(self.sent_bytes, positions),
            "received_bytes_per_position": per_position(self.received_bytes, positions),
        })
    }

    /// One line for the text output.
    pub fn summary(&self, positions: u64) -> String {
        format!(
            "exchanged {} bytes in {} rounds ({:.2} bytes/position sent, {:.2} received over all ranks)",
            self.sent_bytes,
            self.rounds,
            per_position(self.sent_bytes, positions),
            per_position(self.received_bytes, positions)
        )
    }
}

fn per_position(bytes: u64, positions: u64) -> f64 {
    if positions == 0 {
        0.0
    } else {
        bytes as f64 / positions as f64
    }
}

/// Builds the tiers `0..=max_seeds` missing from `dir`, shared by the ranks of `cluster`.
///
/// # Errors
/// [`CliError::Failure`] with the table error (the caller then ends every rank).
pub fn build(
    cluster: &Cluster,
    rules: &RuleSet,
    dir: &Path,
    max_seeds: u32,
    options: &BuildOptions,
) -> Result<(BuildReport, Exchange), CliError> {
    #[cfg(feature = "mpi")]
    {
        let shared = dakon_mpi::build_tiers(cluster, rules, dir, max_seeds, options).map_err(|e| CliError::Failure(e.to_string()))?;
        let exchange =
            Exchange { ranks: cluster.size(), sent_bytes: shared.sent_bytes, received_bytes: shared.received_bytes, rounds: shared.rounds };
        Ok((shared.build, exchange))
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (rules, dir, max_seeds, options);
        match *cluster {}
    }
}
