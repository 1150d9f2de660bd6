//! Kalah, the second rule set, played on the Dakon board: the same holes, numbering,
//! notation, [`Key`](crate::dakon::Key) and perfect index ([`crate::dakon`]), other moves.
//!
//! - One lap only (no relay). Last seed in the mover's store: the mover moves again.
//! - Last seed alone in an empty hole of the mover's side: it and the facing hole's seeds go
//!   to the mover's store, provided the facing hole holds seeds ([`CaptureRule::FacingSeeds`],
//!   standard Kalah) or always ([`CaptureRule::Always`], the "empty capture" variant that
//!   Irving, Donkers and Uiterwijk solved in 2000).
//! - After any move that leaves either side empty, and in any position where a side is empty,
//!   the game is over: each player adds the seeds on their own side to their own store.
//!
//! [`Kalah`] presents these rules to the generic search and tables through [`Rules`], and
//! [`Kalah::play_hole`] plays a move given as the user writes it, saying what happened.
//!
//! ```
//! use dakon_solver::dakon::Position;
//! use dakon_solver::kalah::{CaptureRule, Kalah};
//! let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
//! let start = Position::start(6, 4).unwrap();
//! // Hole 8 holds 4 seeds: 9, 10, 11 and the store. An extra move.
//! let (after, outcome) = rules.play_hole(&start, 8).unwrap();
//! assert!(outcome.extra_move);
//! assert_eq!(after.to_string(), "4,4,4,4,4,4/4,4,0,5,5,5 0/1 0");
//! ```

mod outcome;
mod row_moves;
mod sowing;

pub use outcome::{Capture, Outcome};
pub use row_moves::RowMoveMemo;

use crate::build_schedule::BuildStep;
use crate::dakon::layout::{LAYOUTS, MAX_HOLES};
use crate::dakon::{step, DakonBoardRules, MoveError, Position, PositionError, Side};
use crate::rules::{MoveList, Rules, Step};

/// When the last seed landing alone in an empty hole of the mover's side captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureRule {
    /// Only when the facing hole holds seeds (standard Kalah; rule name `kalah`).
    FacingSeeds,
    /// Always: the landed seed is taken even when the facing hole is empty (rule name
    /// `kalah-empty-capture`).
    Always,
}

/// The Kalah rules for boards of one size, as the generic search and tables see them.
///
/// ```
/// use dakon_solver::dakon::Position;
/// use dakon_solver::kalah::{CaptureRule, Kalah};
/// use dakon_solver::rules::Rules;
/// let rules = Kalah::new(2, CaptureRule::FacingSeeds).unwrap();
/// // Hole 2's seed lands alone in hole 3, whose facing hole 1 is empty: no capture.
/// let p: Position = "1,0/1,0 0/0 0".parse().unwrap();
/// let step = rules.play(&p, 0);
/// assert_eq!((step.gain, step.same_mover), (0, false));
/// // Under the empty-capture rule the lone seed is taken, which empties player 0's side:
/// // player 1 stores their own seed and the game is over.
/// let empty_capture = Kalah::new(2, CaptureRule::Always).unwrap();
/// assert_eq!(empty_capture.play(&p, 0).gain, 0);
/// // Any position with an empty side is over: each player keeps their own side.
/// let over: Position = "2,1/0,0 0/0 0".parse().unwrap();
/// assert!(rules.legal_moves(&over).is_empty());
/// assert_eq!(rules.terminal_gain(&over), -3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kalah {
    holes: u8,
    capture: CaptureRule,
}

impl Kalah {
    /// The rules for `holes` holes per row.
    ///
    /// # Errors
    /// [`PositionError::Holes`] if `holes` is outside `1..=9`.
    pub fn new(holes: usize, capture: CaptureRule) -> Result<Kalah, PositionError> {
        if (1..=MAX_HOLES).contains(&holes) {
            Ok(Kalah { holes: holes as u8, capture })
        } else {
            Err(PositionError::Holes(holes))
        }
    }

    /// The rules for the board of `position` (always valid: a position has 1 to 9 holes per
    /// row).
    pub fn of(position: &Position, capture: CaptureRule) -> Kalah {
        Kalah { holes: position.holes() as u8, capture }
    }

    /// Holes per row.
    pub fn holes(&self) -> usize {
        self.holes as usize
    }

    /// When a lone last seed captures.
    pub fn capture_rule(&self) -> CaptureRule {
        self.capture
    }

    /// Whether the game is over: either side has no seed.
    #[inline]
    pub fn is_over(&self, pos: &Position) -> bool {
        let row = LAYOUTS[pos.holes()].row_mask;
        pos.lanes().lane(0) & row == 0 || pos.lanes().lane(1) & row == 0
    }

    /// Plays the hole numbered `hole` in the notation.
    ///
    /// # Errors
    /// [`MoveError`] if the hole does not exist, the game is over, the hole is not the
    /// mover's, or it is empty.
    pub fn play_hole(&self, pos: &Position, hole: usize) -> Result<(Position, Outcome), MoveError> {
        let over = self.is_over(pos).then(|| {
            let empty = if pos.side_seeds(Side::Mover) == 0 { pos.mover() } else { pos.mover().other() };
            MoveError::SideEmpty { player: empty }
        });
        let r = pos.hole_to_lift(hole, over)?;
        Ok(sowing::play(pos, r, self.capture))
    }
}

/// The mover's non-empty holes, the one nearest the store first: the order the search keeps
/// among moves it cannot tell apart. In Kalah the hole nearest the store is the one to empty
/// first, since it cannot spoil the extra moves of the holes behind it (the 6 x 3 start takes
/// 20 times fewer nodes than in sowing order).
#[inline]
fn nearest_store_first(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    let mut holes = pos.lanes().nonzero_mask() & ((1 << pos.holes()) - 1);
    while holes != 0 {
        let r = 31 - holes.leading_zeros();
        list.push(r as u8);
        holes &= !(1 << r);
    }
    list
}

impl Rules for Kalah {
    type Position = Position;

    fn name(&self) -> &'static str {
        match self.capture {
            CaptureRule::FacingSeeds => "kalah",
            CaptureRule::Always => "kalah-empty-capture",
        }
    }

    fn parameters(&self) -> Vec<u32> {
        vec![self.holes as u32]
    }

    #[inline]
    fn legal_moves(&self, pos: &Position) -> MoveList {
        if self.is_over(pos) {
            MoveList::new()
        } else {
            nearest_store_first(pos)
        }
    }

    #[inline]
    fn play(&self, pos: &Position, mv: u8) -> Step<Position> {
        let (next, outcome) = sowing::play(pos, mv as usize, self.capture);
        step(pos, next, outcome.gain(pos.mover()))
    }

    #[inline]
    fn seeds_on_board(&self, pos: &Position) -> u32 {
        pos.seeds_on_board()
    }

    /// Each player stores their own side's seeds.
    #[inline]
    fn terminal_gain(&self, pos: &Position) -> i32 {
        pos.side_seeds(Side::Mover) as i32 - pos.side_seeds(Side::Opponent) as i32
    }
}

impl DakonBoardRules for Kalah {
    fn holes(&self) -> usize {
        Kalah::holes(self)
    }

    /// A Kalah move changes the mover's row alone, except for the seeds it sows past the store
    /// and a capture, so the successors of a run of mover's rows lie in a few small blocks of
    /// their tiers.
    fn solves_by_mover_rows(&self) -> bool {
        true
    }

    #[inline]
    fn build_step_with(&self, pos: &Position, seeds: u32, mv: u8, memo: &mut RowMoveMemo) -> BuildStep {
        row_moves::build_step(self, pos, seeds, mv, memo)
    }
}
