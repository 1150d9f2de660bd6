//! Endgame tables: the exact future gain of every position with few seeds on the board,
//! solved once by a parallel retrograde builder, stored compressed, and probed by the search.
//!
//! - [`build_tiers`] solves the tiers `0..=K` (tier `k`: every board with `k` seeds, from the
//!   mover's view, in the order of [`TierLayout::index`](crate::tier_layout::TierLayout::index)) and writes one
//!   file per tier, solving each position once in an order where its successors in the same
//!   tier come first ([`BuildSchedule::tier_order`](crate::build_schedule::BuildSchedule::tier_order)).
//! - [`TableFile`] reads one file: header and index checks, all values, or one value.
//! - [`TableSet`] loads the tiers of one board and answers [`Oracle::probe`](crate::oracle::Oracle::probe).
//!
//! The format is described byte by byte in `docs/formats/tables.md` and in [`format`](mod@format).

pub mod budget;
mod build_progress;
mod build_report;
mod builder;
mod compact;
mod error;
mod file;
pub mod format;
mod image;
mod name;
mod predict;
mod reader;
mod residual;
mod retrograde;
mod shard;
#[cfg(feature = "tier-bars")]
mod tier_bars;
mod tier_shard;

pub use build_progress::{BuildProgress, NoProgress};
pub use build_report::{BuildReport, TierReport};
pub use builder::{build_and_load, build_tiers, build_tiers_with, worker_pool, BuildOptions, TierSolver, TierTask};
pub use compact::{CompactTier, TierValues, WrongParity, LINE_POSITIONS};
pub use error::TableError;
pub use file::{table_meta, write_table, EncodedBlock, TableFile};
pub use image::{image_path, ImageRanges, IMAGE_EXTENSION};
pub use name::{file_name, tier_path, EXTENSION};
pub use reader::{probe_file, LoadOptions, LoadPlan, TableSet};
pub use retrograde::SolvedTier;
pub use shard::{foreign_leaves, FetchedTier, OwnTiers, ShardMap, SuccessorKey};
#[cfg(feature = "tier-bars")]
pub use tier_bars::TierBars;
pub use tier_shard::{Moves, TierShard};
