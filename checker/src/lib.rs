//! `dakon-check`: the independent checker of `dakon` proof certificates.
//!
//! A certificate (format: `docs/formats/certificates.md`, the whole contract) claims bounds
//! `lower <= value <= upper` on the value of one position and proves them with two strategies,
//! one for each player. This crate checks such a file without trusting the solver that wrote
//! it: it shares no code with `dakon-solver` and depends only on zstd, xxhash, serde_json and
//! libc. It has
//!
//! - its own plain [`rules`], written from the text one seed at a time;
//! - its own reader of the format ([`Certificate::read`]), which refuses anything malformed
//!   with a [`FormatError`] (and never panics, whatever the bytes);
//! - the check of each half ([`check`]): follow the owner's strategy, try every reply of the
//!   other player, score finished games, solve positions with at most `L` seeds by a memoised
//!   minimax into tables of their own, and require the claimed result everywhere.
//!
//! ```
//! let report = dakon_check::check(b"not a certificate");
//! assert!(report.unwrap_err().to_string().starts_with("not a certificate"));
//! ```
//!
//! The command line is [`run`]: the binary `dakon-check` and `dakon check` both call it.

mod cli;
mod format;
mod half;
mod minimax;
mod report;
pub mod rules;
mod strategy;

use std::sync::atomic::AtomicU64;
use std::time::Instant;

pub use cli::run;
pub use format::{max_small_seeds, Certificate, FormatError, Opening, MAGIC, MAX_ENTRY_BYTES, MAX_SMALL_BOARDS, OPENING_VERSION, VERSION};
pub use half::{Failure, HalfReport, Shortfall};
pub use report::Report;
pub use strategy::Strategy;

use half::{check_half, OpeningWalk, Strategies};
use minimax::Minimax;

/// Reads one certificate and checks both halves (see [`Certificate::check`]).
///
/// # Errors
///
/// [`FormatError`] when the bytes are not a well-formed certificate (exit status 2); a
/// well-formed one that does not prove its claim is an `Ok` [`Report`] whose
/// [`Report::holds`] is false (exit status 1).
pub fn check(bytes: &[u8]) -> Result<Report, FormatError> {
    let started = Instant::now();
    let report = Certificate::read(bytes)?.check();
    Ok(Report { elapsed: started.elapsed(), ..report })
}

impl Certificate {
    /// Walks both halves, the lower one first, each with its own record of entered boards;
    /// the positions of at most `L` seeds are solved by one memoised minimax shared by the two.
    pub fn check(&self) -> Report {
        self.check_counted(&AtomicU64::new(0))
    }

    /// [`Certificate::check`], adding every visit to `visits` as it goes, so that another
    /// thread can show the progress of a long check.
    pub fn check_counted(&self, visits: &AtomicU64) -> Report {
        let started = Instant::now();
        let root = self.root;
        let small_seeds = u32::from(self.small_seeds);
        let mut minimax = Minimax::new(root.holes_per_row(), small_seeds);
        let mover = root.player();
        let openings = self.opening.as_ref().map(|opening| {
            let walk = |strategy| OpeningWalk { first_turns: opening.first_turns, strategy };
            [walk(&opening.lower_half), walk(&opening.upper_half)]
        });
        let [lower_opening, upper_opening] = [0, 1].map(|half| openings.as_ref().map(|walks| &walks[half]));
        let lower_strategies = Strategies { ordinary: &self.lower_half, opening: lower_opening };
        let upper_strategies = Strategies { ordinary: &self.upper_half, opening: upper_opening };
        let lower = check_half(&root, mover, self.lower.into(), lower_strategies, small_seeds, &mut minimax, visits);
        let upper = check_half(&root, 1 - mover, -i64::from(self.upper), upper_strategies, small_seeds, &mut minimax, visits);
        let rules_name = match self.opening {
            Some(_) => rules::first_turn_name(root.rules()).unwrap_or_default(),
            None => root.rules().name().to_string(),
        };
        Report {
            root,
            rules_name,
            claimed_lower: self.lower,
            claimed_upper: self.upper,
            small_seeds: self.small_seeds,
            visited: lower.visited + upper.visited,
            solved_small: minimax.solved(),
            lower,
            upper,
            elapsed: started.elapsed(),
        }
    }
}
