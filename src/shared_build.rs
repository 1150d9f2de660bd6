//! `dakon tables build` shared by the ranks of an MPI job, and what the ranks exchanged.

use std::path::Path;

use dakon_solver::ruleset::RuleSet;
use dakon_solver::tables::{BuildOptions, BuildReport};

use crate::cli_error::CliError;
use crate::cluster::Cluster;

/// What the ranks of a partitioned build exchanged, and what each held.
pub struct Exchange {
    /// Ranks in the job.
    pub ranks: usize,
    /// Bytes sent, summed over the ranks.
    pub sent_bytes: u64,
    /// Bytes received, summed over the ranks.
    pub received_bytes: u64,
    /// Exchange rounds of one rank (every rank takes part in each).
    pub rounds: u64,
    /// Rank 0's wall and CPU seconds in each phase: sort, solve, exchange (waiting for the
    /// slowest rank and the transfers), record, encode, write.
    pub seconds: [(&'static str, f64, f64); 6],
    /// The CPU seconds of each level's slowest rank's solving, summed.
    pub slowest_solve_cpu: f64,
    /// What the build would take with every rank on idle cores of its own, from the CPU times.
    pub on_idle_cores: f64,
    /// Each rank's peak resident memory, bytes sent, bytes received, and the most bytes it was
    /// estimated to need for a tier under `--memory-mb` (0 without), by rank.
    pub per_rank: Vec<[u64; 4]>,
    /// Tiers resumed inside, with the level.
    pub resumed: Vec<(u32, u32)>,
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
            "seconds": self
                .seconds
                .iter()
                .map(|&(phase, wall, cpu)| (phase.to_string(), serde_json::json!({ "wall": wall, "cpu": cpu })))
                .collect::<serde_json::Map<_, _>>(),
            "slowest_rank_solve_cpu_seconds": self.slowest_solve_cpu,
            "on_idle_cores_seconds": self.on_idle_cores,
            "per_rank": self
                .per_rank
                .iter()
                .enumerate()
                .map(|(rank, &[peak, sent, received, estimated])| serde_json::json!({
                    "rank": rank,
                    "peak_rss_bytes": peak,
                    "estimated_bytes": (estimated > 0).then_some(estimated),
                    "sent_bytes": sent,
                    "received_bytes": received,
                    "received_bytes_per_position": per_position(received, positions),
                }))
                .collect::<Vec<_>>(),
            "max_peak_rss_bytes": self.per_rank.iter().map(|r| r[0]).max().unwrap_or(0),
            "max_estimated_bytes": self.per_rank.iter().map(|r| r[3]).max().filter(|&e| e > 0),
            "resumed": self.resumed.iter().map(|&(tier, level)| serde_json::json!({ "tier": tier, "level": level })).collect::<Vec<_>>(),
        })
    }

    /// Some lines for the text output.
    pub fn summary(&self, positions: u64) -> String {
        let phases: Vec<String> = self.seconds.iter().map(|(phase, wall, cpu)| format!("{phase} {wall:.1} s ({cpu:.1} s CPU)")).collect();
        let ranks: Vec<String> = self
            .per_rank
            .iter()
            .enumerate()
            .map(|(rank, &[peak, sent, received, _])| {
                format!("rank {rank}: peak {:.1} MiB, sent {sent} bytes, received {received} bytes", peak as f64 / (1 << 20) as f64)
            })
            .collect();
        format!(
            "{}\nexchanged {} bytes in {} rounds ({:.2} bytes/position sent, {:.2} received over all ranks)\nrank 0's time: {}\nthe slowest rank's solving, level by level: {:.1} s CPU; on idle cores of their own the ranks would take about {:.1} s",
            ranks.join("\n"),
            self.sent_bytes,
            self.rounds,
            per_position(self.sent_bytes, positions),
            per_position(self.received_bytes, positions),
            phases.join(", "),
            self.slowest_solve_cpu,
            self.on_idle_cores
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
    checkpoint_every: Option<std::time::Duration>,
) -> Result<(BuildReport, Exchange), CliError> {
    #[cfg(feature = "mpi")]
    {
        let partition = dakon_mpi::PartitionOptions { checkpoint_every };
        let shared =
            dakon_mpi::build_tiers(cluster, rules, dir, max_seeds, options, &partition).map_err(|e| CliError::Failure(e.to_string()))?;
        let p = shared.phases;
        let seconds = [
            ("sort", p.sort),
            ("solve", p.solve),
            ("exchange", p.exchange),
            ("record", p.record),
            ("encode", p.encode),
            ("write", p.write),
        ]
        .map(|(phase, spent)| (phase, spent.wall.as_secs_f64(), spent.cpu.as_secs_f64()));
        let exchange = Exchange {
            ranks: cluster.size(),
            sent_bytes: shared.sent_bytes,
            received_bytes: shared.received_bytes,
            rounds: shared.rounds,
            seconds,
            slowest_solve_cpu: p.slowest_solve_cpu.as_secs_f64(),
            on_idle_cores: p.on_idle_cores(options.threads).as_secs_f64(),
            per_rank: shared.ranks.iter().map(|r| [r.peak_bytes, r.sent_bytes, r.received_bytes, r.estimated_bytes]).collect(),
            resumed: shared.resumed,
        };
        Ok((shared.build, exchange))
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (rules, dir, max_seeds, options, checkpoint_every);
        match *cluster {}
    }
}
