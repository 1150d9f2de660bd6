//! The rules chosen at run time: one type that is Dakon or Kalah, implements [`Rules`] by
//! dispatch, and offers what a program needs beyond the search (play a hole and say what
//! happened, whether the game is over, its final result), so that the commands need not be
//! generic.
//!
//! The dispatch is one predictable branch per call; measured against the concrete rule sets
//! on single-thread solves it costs little (see `docs/benchmarks/race-cmancala.md`).
//!
//! ```
//! use dakon_solver::dakon::Position;
//! use dakon_solver::ruleset::{RuleSet, RulesName};
//! use dakon_solver::rules::Rules;
//! let start = Position::start(6, 4).unwrap();
//! let kalah = RuleSet::new(RulesName::Kalah, 6).unwrap();
//! assert_eq!(kalah.name(), "kalah");
//! let (after, played) = kalah.play_hole(&start, 8).unwrap();
//! assert!(played.extra_move());
//! assert_eq!(after.to_string(), "4,4,4,4,4,4/4,4,0,5,5,5 0/1 0");
//! assert!(!kalah.is_over(&after));
//! ```

mod line;
mod name;
mod played;
mod solution_record;

pub use line::absolute_line;
pub use name::{RulesName, UnknownRules};
pub use played::Played;
pub use solution_record::{outcome, MoveRecord, SolutionRecord};

use crate::build_schedule::BuildStep;
use crate::dakon::{Dakon, DakonBoardRules, MoveError, Position, PositionError};
use crate::kalah::{CaptureRule, Kalah, RowMoveMemo};
use crate::rules::{MoveList, Rules, Step};

/// Dakon (with its options) or Kalah, for boards of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Dakon rules.
    Dakon(Dakon),
    /// The Kalah rules (either capture rule).
    Kalah(Kalah),
}

impl RuleSet {
    /// The rules `name` for `holes` holes per row.
    ///
    /// # Errors
    /// [`PositionError::Holes`] if `holes` is outside `1..=9`.
    pub fn new(name: RulesName, holes: usize) -> Result<RuleSet, PositionError> {
        Ok(match name {
            RulesName::Dakon(options) => RuleSet::Dakon(Dakon::with_options(holes, options)?),
            RulesName::Kalah => RuleSet::Kalah(Kalah::new(holes, CaptureRule::FacingSeeds)?),
            RulesName::KalahEmptyCapture => RuleSet::Kalah(Kalah::new(holes, CaptureRule::Always)?),
        })
    }

    /// The rules `name` for the board of `position` (always valid).
    pub fn of(name: RulesName, position: &Position) -> RuleSet {
        RuleSet::new(name, position.holes()).expect("a position has 1 to 9 holes per row")
    }

    /// Which rules these are.
    pub fn rules_name(&self) -> RulesName {
        match self {
            RuleSet::Dakon(d) => RulesName::Dakon(d.options()),
            RuleSet::Kalah(k) if k.capture_rule() == CaptureRule::FacingSeeds => RulesName::Kalah,
            RuleSet::Kalah(_) => RulesName::KalahEmptyCapture,
        }
    }

    /// Holes per row.
    pub fn holes(&self) -> usize {
        match self {
            RuleSet::Dakon(r) => r.holes(),
            RuleSet::Kalah(r) => r.holes(),
        }
    }

    /// Plays the hole numbered `hole` in the notation.
    ///
    /// # Errors
    /// [`MoveError`] if the hole does not exist, the game is over, the hole is not the
    /// mover's, or it is empty.
    pub fn play_hole(&self, pos: &Position, hole: usize) -> Result<(Position, Played), MoveError> {
        match self {
            RuleSet::Dakon(r) => pos.play_hole_with(hole, r.options()).map(|(next, o)| (next, Played::Dakon(o))),
            RuleSet::Kalah(r) => r.play_hole(pos, hole).map(|(next, o)| (next, Played::Kalah(o))),
        }
    }

    /// Whether the game is over (no legal move).
    pub fn is_over(&self, pos: &Position) -> bool {
        self.legal_moves(pos).is_empty()
    }

    /// The legal moves in the absolute numbering of the notation, ascending.
    pub fn legal_holes(&self, pos: &Position) -> Vec<usize> {
        let mut holes: Vec<usize> = self.legal_moves(pos).as_slice().iter().map(|&r| pos.absolute_hole(pos.mover(), r as usize)).collect();
        holes.sort_unstable();
        holes
    }

    /// The final store difference (mover minus opponent) of a finished game, after the
    /// rules' end of game: the stores plus what the end gives each player.
    pub fn final_difference(&self, pos: &Position) -> i32 {
        pos.store_difference() + self.terminal_gain(pos)
    }
}

/// Calls `$call` on the rule set inside.
macro_rules! dispatch {
    ($self:ident, $rules:ident => $call:expr) => {
        match $self {
            RuleSet::Dakon($rules) => $call,
            RuleSet::Kalah($rules) => $call,
        }
    };
}

impl Rules for RuleSet {
    type Position = Position;

    fn name(&self) -> &'static str {
        dispatch!(self, r => r.name())
    }

    fn parameters(&self) -> Vec<u32> {
        dispatch!(self, r => r.parameters())
    }

    #[inline]
    fn legal_moves(&self, pos: &Position) -> MoveList {
        dispatch!(self, r => r.legal_moves(pos))
    }

    #[inline(always)]
    fn play(&self, pos: &Position, mv: u8) -> Step<Position> {
        dispatch!(self, r => r.play(pos, mv))
    }

    #[inline]
    fn seeds_on_board(&self, pos: &Position) -> u32 {
        pos.seeds_on_board()
    }

    #[inline]
    fn terminal_gain(&self, pos: &Position) -> i32 {
        dispatch!(self, r => r.terminal_gain(pos))
    }
}

impl DakonBoardRules for RuleSet {
    fn holes(&self) -> usize {
        RuleSet::holes(self)
    }

    fn solves_by_mover_rows(&self) -> bool {
        dispatch!(self, r => r.solves_by_mover_rows())
    }

    #[inline]
    fn build_step_with(&self, pos: &Position, seeds: u32, mv: u8, memo: &mut RowMoveMemo) -> BuildStep {
        dispatch!(self, r => r.build_step_with(pos, seeds, mv, memo))
    }
}
