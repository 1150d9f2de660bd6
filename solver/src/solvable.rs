//! Everything the generic search and endgame tables need of a game, under one name.

use crate::build_schedule::BuildSchedule;
use crate::transposition_key::TranspositionKey;

/// A game the solver can solve: its [`Rules`](crate::rules::Rules), its
/// [`TranspositionKey`], its [`TierLayout`](crate::tier_layout::TierLayout) and its
/// [`BuildSchedule`]. Implemented for every type that has them all.
pub trait Solvable: TranspositionKey + BuildSchedule {}

impl<R: TranspositionKey + BuildSchedule> Solvable for R {}
