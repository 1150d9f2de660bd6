//! A table build's progress on stderr, an indicatif bar per tier, behind [`BuildProgress`]:
//! what `dakon tables build` and the Python binding's `build_tables(progress=True)` draw
//! (feature `tier-bars`).

use std::sync::Mutex;

use super::build_progress::BuildProgress;
use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar for each tier a build solves, drawn on stderr.
pub struct TierBars {
    /// The bar of the tier in progress (hidden before the first).
    bar: Mutex<ProgressBar>,
}

impl Default for TierBars {
    fn default() -> Self {
        TierBars { bar: Mutex::new(ProgressBar::hidden()) }
    }
}

impl TierBars {
    /// The bar of the tier in progress.
    fn bar(&self) -> ProgressBar {
        self.bar.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl BuildProgress for TierBars {
    fn tier_started(&self, seeds: u32, positions: u64) {
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template(
                "tier {prefix:>3} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta} {msg}",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(seeds.to_string());
        *self.bar.lock().unwrap_or_else(|e| e.into_inner()) = bar;
    }

    fn solved(&self, positions: u64) {
        self.bar().inc(positions);
    }

    fn compressing(&self) {
        self.bar().set_message("compressing");
    }

    fn tier_finished(&self) {
        self.bar().finish_with_message("done");
    }

    fn interrupted(&self) {
        self.bar().abandon_with_message("interrupted");
    }
}
