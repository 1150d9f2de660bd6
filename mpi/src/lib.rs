//! `dakon` over MPI: the endgame-table build shared by the ranks of an MPI job.
//!
//! The MPI code lives here so that `dakon-solver` stays free of it; the `dakon` binary
//! uses this crate only when built with `--features mpi`, and only when a launcher
//! (`mpirun`, `srun`) started it with more than one rank.
//!
//! - [`Cluster`]: joining the job, this rank's number, aborting every rank on an error.
//! - [`build_tiers`]: `dakon tables build` shared by the ranks ([`SharedBuild`]): each tier's
//!   positions dealt out in blocks, solved level by level of `tier_order`, the values of each
//!   level gathered on every rank; rank 0 writes the files through the solver's writer.
//! - [`serve_jobs`] and [`work_jobs`]: jobs (batch positions, atlas boards) handed out by
//!   rank 0 to whichever rank is free, answers sent back to it; [`broadcast_bytes`] gives
//!   every rank rank 0's input.
//!
//! `docs/DISTRIBUTED.md` says how to run it on a cluster and what it costs.

mod cluster;
mod jobs;
mod level_message;
mod ownership;
mod shared_build;

pub use cluster::Cluster;
pub use jobs::{broadcast_bytes, serve_jobs, work_jobs};
pub use shared_build::{build_tiers, SharedBuild, SharedBuildReport};
