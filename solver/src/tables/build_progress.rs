//! How a table build reports its progress: through a small trait of the library's own, so
//! that the library draws nothing and a program shows the progress however it likes.

/// What a table build tells whoever shows its progress. Every method does nothing by default.
///
/// A build calls the methods of one tier in order: [`tier_started`](Self::tier_started), then
/// [`solved`](Self::solved) any number of times (from worker threads), then
/// [`compressing`](Self::compressing) and [`tier_finished`](Self::tier_finished), or
/// [`interrupted`](Self::interrupted) when the stop flag ended the tier.
pub trait BuildProgress: Send + Sync {
    /// Tier `seeds`, of `positions` positions, is missing and is being solved.
    fn tier_started(&self, seeds: u32, positions: u64) {
        let _ = (seeds, positions);
    }
    /// `positions` more positions of the tier in progress are solved.
    fn solved(&self, positions: u64) {
        let _ = positions;
    }
    /// The tier is solved; its file is being compressed and written.
    fn compressing(&self) {}
    /// The tier's file is written.
    fn tier_finished(&self) {}
    /// The stop flag ended the tier in progress, which is dropped.
    fn interrupted(&self) {}
}

/// Progress that nobody is shown.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl BuildProgress for NoProgress {}
