//! The Dakon rules: board, sowing, captures, notation and encoders.
//!
//! [`Position`] is the board and [`Position::play`] the move; [`Dakon`] presents them to the
//! generic search and table builder through [`Rules`], and [`DakonBoardRules`] gives every
//! rule set on this board its key, tier layout and build schedule.

mod board_rules;
mod key;
pub mod layout;
mod notation;
mod opening_state;
mod options;
mod player;
mod position;
pub(crate) mod tiers;

pub(crate) use board_rules::step;
pub use board_rules::DakonBoardRules;
pub use key::Key;
pub use layout::MAX_HOLES;
pub use notation::NotationError;
pub use opening_state::OpeningState;
pub use options::{DakonOptions, OptionsError};
pub use player::Player;
pub use position::{Capture, CaptureKind, MoveError, Outcome, Position, PositionError, Side, Sweep, MAX_SEEDS};

use crate::rules::{MoveList, Rules, Step};

/// The Dakon rule set, with its [`DakonOptions`], for boards of one size, as the generic
/// search and tables see it.
///
/// ```
/// use dakon_solver::dakon::{Dakon, Position};
/// use dakon_solver::rules::Rules;
/// use dakon_solver::tier_layout::TierLayout;
/// let rules = Dakon::new(2).unwrap();
/// let p: Position = "1,0/0,2 0/0 0".parse().unwrap();
/// let step = rules.play(&p, 1); // hole 3: no mikul on a corner hole
/// assert_eq!(step.gain, 1);
/// assert!(!step.same_mover);
/// assert_eq!(rules.index(&rules.position_at(3, 5)), 5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dakon {
    holes: u8,
    options: DakonOptions,
}

impl Dakon {
    /// The rules for `holes` holes per row.
    ///
    /// # Errors
    /// [`PositionError::Holes`] if `holes` is outside `1..=9`.
    pub fn new(holes: usize) -> Result<Dakon, PositionError> {
        Dakon::with_options(holes, DakonOptions::NONE)
    }

    /// The rules with `options` for `holes` holes per row.
    ///
    /// # Errors
    /// [`PositionError::Holes`] if `holes` is outside `1..=9`.
    pub fn with_options(holes: usize, options: DakonOptions) -> Result<Dakon, PositionError> {
        if (1..=MAX_HOLES).contains(&holes) {
            Ok(Dakon { holes: holes as u8, options })
        } else {
            Err(PositionError::Holes(holes))
        }
    }

    /// The rules for the board of `position` (always valid: a position has 1 to 9 holes per
    /// row).
    pub fn of(position: &Position) -> Dakon {
        Dakon { holes: position.holes() as u8, options: DakonOptions::NONE }
    }

    /// The rule options.
    pub fn options(&self) -> DakonOptions {
        self.options
    }

    /// Holes per row.
    pub fn holes(&self) -> usize {
        self.holes as usize
    }
}

impl Rules for Dakon {
    type Position = Position;

    fn name(&self) -> &'static str {
        self.options.rules_name()
    }

    fn parameters(&self) -> Vec<u32> {
        vec![self.holes as u32]
    }

    #[inline]
    fn legal_moves(&self, pos: &Position) -> MoveList {
        pos.moves()
    }

    #[inline]
    fn play(&self, pos: &Position, mv: u8) -> Step<Position> {
        // One predictable branch keeps the default move free of the options' tests.
        let (next, outcome) =
            if self.options.is_none() { pos.play(mv as usize) } else { pos.play_with(mv as usize, self.options.board_rules()) };
        board_rules::step(pos, next, outcome.gain(pos.mover()))
    }

    #[inline]
    fn seeds_on_board(&self, pos: &Position) -> u32 {
        pos.seeds_on_board()
    }

    #[inline]
    fn terminal_gain(&self, pos: &Position) -> i32 {
        -(pos.side_seeds(Side::Opponent) as i32)
    }
}

impl DakonBoardRules for Dakon {
    fn holes(&self) -> usize {
        Dakon::holes(self)
    }

    /// A relay carries seeds over both rows, so a run of mover's rows would not keep the
    /// successors together: index order.
    fn solves_by_mover_rows(&self) -> bool {
        false
    }
}
