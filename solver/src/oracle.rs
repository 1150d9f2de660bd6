//! An oracle knows the exact future gain of some positions outright: the endgame tables are
//! one. The search asks it before searching a position.

use crate::rules::Rules;

/// A source of exact future gains (see [`crate::rules`]) for some positions.
pub trait Oracle<R: Rules>: Send + Sync {
    /// The exact future gain of `pos` for the player to move, or `None` if this oracle does
    /// not know it. Must be cheap to call when the answer is `None`.
    fn probe(&self, pos: &R::Position) -> Option<i32>;

    /// The most seeds on the board for which [`Oracle::probe`] may answer (the search skips
    /// the call above it).
    fn max_seeds(&self) -> u32;

    /// Asks for the memory that [`Oracle::probe`] of `pos` reads first, so that the probes of
    /// a node's children wait for their cache misses together. Only a hint: the default does
    /// nothing.
    fn prefetch(&self, _pos: &R::Position) {}
}
