//! Proof certificates: files that prove bounds on the value of a position, so that anyone can
//! confirm a result of this crate with a small checker that shares no code with it.
//!
//! A certificate names a root position and claimed bounds `lower <= value <= upper` of its
//! value (the final store difference, player to move minus opponent), and holds two
//! strategies: the mover's, which guarantees at least `lower` whatever the opponent plays, and
//! the opponent's, which holds the mover to at most `upper`. Positions with at most `L` seeds
//! on the board are left to the checker's own minimax. `docs/formats/certificates.md` defines the
//! claim and the file byte by byte; it is the contract with the checker (`dakon check`).
//!
//! - [`extract`]: the certificate of proven bounds, each strategy chosen move by move for a
//!   small proof and checked with the solver's null-window test;
//! - [`extract_opening`]: the same under `no-first-turn-capture`, through the opening;
//! - [`Certificate::to_bytes`] and [`Certificate::write`]: the file.
//!
//! The extraction needs the absolute board and hole numbers, so it serves every rule set on
//! the board of [`Position`] (`R: TierLayout<Position = Position>`); the rules' name goes into the
//! header.

mod board;
mod choose;
mod error;
mod extract;
mod format;
mod opening;
mod progress;
mod prune;
mod shared_walk;
mod strategy;
mod walk;

use std::path::Path;

pub use board::Board;
pub use error::ExtractError;
pub use extract::{extract, extract_with_turn, Extraction};
pub use format::{max_small_seeds, MAGIC, MAX_SMALL_BOARDS, OPENING_VERSION, VERSION};
pub use opening::{extract_opening, Opening, OpeningStrategy};
pub use progress::ExtractProgress;
pub use strategy::Strategy;

use crate::atomic_file::{write_atomically, WriteFailure};
use crate::dakon::Position;
use crate::tier_layout::TierLayout;

/// The number of boards with `L` seeds above which [`default_small_seeds`] takes a smaller
/// `L`.
pub const CHECKER_TIER_LIMIT: u64 = 1 << 21;

/// The largest `L` [`default_small_seeds`] gives: a larger one (up to [`max_small_seeds`]) is
/// asked for by hand, since its check solves millions of boards (Kalah's larger starts).
const DEFAULT_MOST_SMALL_SEEDS: u8 = 12;

/// The usual `L` for a rule set's board: the largest, up to 12, for which the
/// boards with `L` seeds number at most [`CHECKER_TIER_LIMIT`] (Dakon: 12 up to 6 holes per
/// row, 10 for 7, 9 for 8, 8 for 9).
///
/// A larger `L` leaves more to the checker's own minimax: smaller files, slower checks; this
/// rule keeps the checker's time a position about the same on every board size (figures:
/// `docs/benchmarks/certificates.md`).
///
/// ```
/// use dakon_solver::certificate::default_small_seeds;
/// use dakon_solver::dakon::Dakon;
/// let l: Vec<u8> = (1..=9).map(|n| default_small_seeds(&Dakon::new(n).unwrap())).collect();
/// assert_eq!(l, [12, 12, 12, 12, 12, 12, 10, 9, 8]);
/// ```
pub fn default_small_seeds<R: TierLayout>(rules: &R) -> u8 {
    (0..=DEFAULT_MOST_SMALL_SEEDS).take_while(|&seeds| rules.tier_size(seeds as u32) <= CHECKER_TIER_LIMIT).last().unwrap_or(0)
}

/// Claimed bounds of the value of a position: final store differences, the player to move
/// minus the opponent, `lower <= upper` (equal when the value is exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The mover can make sure of at least this.
    pub lower: i32,
    /// The opponent can hold the mover to at most this.
    pub upper: i32,
}

/// A certificate: the claim about a root position and the two strategies that prove it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The rules' name (`Rules::name`), written into the header.
    pub rules: &'static str,
    /// The root position, stores and player to move included.
    pub root: Position,
    /// The claimed bounds.
    pub claim: Claim,
    /// `L`: positions with at most this many seeds on the board have no entries.
    pub small_seeds: u8,
    /// The strategy of the player to move at the root: proves `claim.lower`.
    pub lower_half: Strategy,
    /// The strategy of the other player: proves `claim.upper`.
    pub upper_half: Strategy,
    /// Under `no-first-turn-capture`: the first turns pending at the root and each half's
    /// moves in the opening (format version 2); `None` for every other rule set.
    pub opening: Option<Opening>,
}

impl Certificate {
    /// Writes the certificate to `path` atomically (a temporary file renamed into place) and
    /// returns its size in bytes.
    ///
    /// # Errors
    /// [`WriteFailure`] if the file cannot be written; `path` is then untouched.
    pub fn write(&self, path: &Path) -> Result<u64, WriteFailure> {
        let bytes = self.to_bytes();
        write_atomically(path, |file| std::io::Write::write_all(file, &bytes))?;
        Ok(bytes.len() as u64)
    }
}
