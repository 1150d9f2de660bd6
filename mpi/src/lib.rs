//! `dakon` over MPI: the endgame-table build shared by the ranks of an MPI job.
//!
//! The MPI code lives here so that `dakon-solver` stays free of it; the `dakon` binary
//! uses this crate only when built with `--features mpi`, and only when a launcher
//! (`mpirun`, `srun`) started it with more than one rank.
//!
//! - [`Cluster`]: joining the job, this rank's number, aborting every rank on an error.
//! - [`build_tiers`]: `dakon tables build` partitioned among the ranks: each tier's file
//!   blocks dealt out to the ranks, each rank holding only its own of every tier, solving them
//!   level by level of `tier_order` with the successors it lacks asked of their owners
//!   (`MPI_Alltoallv`), writing its blocks of the one tier file at their offsets, and
//!   checkpointing inside a tier.
//! - [`serve_jobs`] and [`work_jobs`]: jobs (batch positions, atlas boards) handed out by
//!   rank 0 to whichever rank is free, answers sent back to it; [`broadcast_bytes`] gives
//!   every rank rank 0's input.
//! - [`solve`]: `dakon solve` of one position by every rank: each of the driver's tests is
//!   searched by every rank at once in one table ([`NodeMemory`]: a file of huge pages
//!   that the ranks of a node map, whose shallow entries live on their owner node, reached by one-sided atomics:
//!   `cluster_region.rs`), the first rank to finish answering for all (`test_messages.rs`: the orders and
//!   reports).
//!
//! `docs/DISTRIBUTED.md` says how to run it on a cluster and what it costs.

mod checkpoint;
mod cluster;
mod cluster_region;
mod distributed_solve;
mod huge_shared_file;
mod jobs;
mod node_memory;
mod owner_order;
mod partition;
mod phases;
mod shard_file;
mod shard_load;
mod shared_build;
mod successor_exchange;
mod test_messages;

pub use cluster::Cluster;
pub use cluster_region::{one_sided_traffic, OneSidedTraffic, SHALLOW_SEEDS, SHARED_SEEDS};
pub use distributed_solve::{solve, Cut, Distributed};
pub use jobs::{broadcast_bytes, serve_jobs, work_jobs};
pub use node_memory::{separate_ranks, shared_memory_in_huge_pages, NodeMemory, CROSS_NODE, HUGE_FILES, SEPARATE_RANKS};
pub use phases::{Phases, Spent};
pub use shared_build::{build_tiers, PartitionOptions, RankFigures, SharedBuildReport};
