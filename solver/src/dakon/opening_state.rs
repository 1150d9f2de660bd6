//! A position of the opening under `no-first-turn-capture`: the board and which players have
//! not finished their first turn, the only thing that option needs beyond the board.
//!
//! Its notation is a position's, with a fourth field naming the players still in their first
//! turn (`docs/rules.md`, "Positions"); without that field every first turn is over.
//!
//! ```
//! use dakon_solver::dakon::{DakonOptions, OpeningState, Player};
//! let start = OpeningState::start(7, 7).unwrap();
//! assert_eq!(start.to_string(), "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0 first:0,1");
//! // Hole 13 relays through hole 1 and stops in the empty hole 6: no nembak in a first turn.
//! let (after, outcome) = start.play_hole_with(13, DakonOptions::NO_FIRST_TURN_CAPTURE).unwrap();
//! assert!(outcome.capture.is_none());
//! assert!(!after.in_first_turn(Player::Zero) && after.in_first_turn(Player::One));
//! ```

use std::fmt;
use std::str::FromStr;

use super::notation::NotationError;
use super::{DakonOptions, MoveError, Outcome, Player, Position, PositionError};

/// The prefix of the notation's fourth field.
const FIRST: &str = "first:";

/// A position and the players who have not finished their first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpeningState {
    /// The board.
    pub position: Position,
    /// Bit `p` set: player `p` has not finished their first turn.
    pending: u8,
}

/// The bit of `player` in [`OpeningState::pending`].
const fn bit(player: Player) -> u8 {
    match player {
        Player::Zero => 1,
        Player::One => 2,
    }
}

impl OpeningState {
    /// The start of a game: `seeds` in each of `holes` holes per row, neither player has moved.
    ///
    /// # Errors
    /// As [`Position::start`].
    pub fn start(holes: usize, seeds: u32) -> Result<OpeningState, PositionError> {
        Ok(OpeningState { position: Position::start(holes, seeds)?, pending: 3 })
    }

    /// `position` with `players` still in their first turn (none once the game is over).
    pub fn new(position: Position, players: &[Player]) -> OpeningState {
        let pending = if position.is_over() { 0 } else { players.iter().fold(0, |bits, &p| bits | bit(p)) };
        OpeningState { position, pending }
    }

    /// `position` with every first turn over: an ordinary position.
    pub fn after_opening(position: Position) -> OpeningState {
        OpeningState { position, pending: 0 }
    }

    /// Whether `player` has not finished their first turn.
    pub fn in_first_turn(&self, player: Player) -> bool {
        self.pending & bit(player) != 0
    }

    /// Whether some player has not finished their first turn (the opening is not over).
    pub fn is_opening(&self) -> bool {
        self.pending != 0
    }

    /// The pending bits, for keys: bit 0 player 0, bit 1 player 1.
    pub fn pending_bits(&self) -> u8 {
        self.pending
    }

    /// Plays `hole` under `options`: with `no-first-turn-capture` among them and the mover in
    /// their first turn, no lap captures; the mover's first turn is over once the other player
    /// is to move (or the game is).
    ///
    /// # Errors
    /// As [`Position::play_hole`].
    pub fn play_hole_with(&self, hole: usize, options: DakonOptions) -> Result<(OpeningState, Outcome), MoveError> {
        let (position, outcome) = self.position.play_hole_with(hole, self.move_options(options))?;
        Ok((self.after(position), outcome))
    }

    /// [`OpeningState::play_hole_with`] for the mover's hole `r`, counted as
    /// [`Position::play`] counts it.
    ///
    /// # Panics
    /// As [`Position::play`].
    pub fn play_with(&self, r: usize, options: DakonOptions) -> (OpeningState, Outcome) {
        let (position, outcome) = self.position.play_with(r, self.move_options(options));
        (self.after(position), outcome)
    }

    /// The options one move of the mover is played with.
    fn move_options(&self, options: DakonOptions) -> DakonOptions {
        let board = options.board_rules();
        if options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE) && self.in_first_turn(self.position.mover()) {
            board.with(DakonOptions::NO_FIRST_TURN_CAPTURE)
        } else {
            board
        }
    }

    /// The state after a move of this state's mover led to `position`.
    fn after(&self, position: Position) -> OpeningState {
        let mover = self.position.mover();
        let pending = if position.is_over() {
            0
        } else if position.mover() != mover {
            self.pending & !bit(mover)
        } else {
            self.pending
        };
        OpeningState { position, pending }
    }
}

impl fmt::Display for OpeningState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.position)?;
        if self.is_opening() {
            let players: Vec<&str> = [(Player::Zero, "0"), (Player::One, "1")]
                .into_iter()
                .filter(|&(p, _)| self.in_first_turn(p))
                .map(|(_, name)| name)
                .collect();
            write!(f, " {FIRST}{}", players.join(","))?;
        }
        Ok(())
    }
}

impl FromStr for OpeningState {
    type Err = NotationError;

    /// A position, optionally followed by ` first:0,1`, ` first:0` or ` first:1`.
    ///
    /// # Errors
    /// [`NotationError`] as for [`Position`], or for a fourth field that is not one of those.
    fn from_str(line: &str) -> Result<OpeningState, NotationError> {
        let trimmed = line.trim_end();
        let Some(at) = trimmed.rfind(" first:").or_else(|| trimmed.rfind(" first")) else {
            return Ok(OpeningState::after_opening(line.parse()?));
        };
        let position: Position = line[..at].parse()?;
        let field = &trimmed[at + 1..];
        let column = line[..at + 1].chars().count() + 1;
        let players = match field.strip_prefix(FIRST) {
            Some("0,1") => vec![Player::Zero, Player::One],
            Some("0") => vec![Player::Zero],
            Some("1") => vec![Player::One],
            _ => {
                return Err(NotationError {
                    column,
                    message: format!(
                        "'{field}': the fourth field names the players still in their first turn: 'first:0,1', 'first:0' or 'first:1'"
                    ),
                })
            }
        };
        if position.is_over() {
            return Err(NotationError { column, message: format!("'{field}': the game is over, so no first turn is pending") });
        }
        Ok(OpeningState::new(position, &players))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_refuses_bad_fields() {
        for text in ["1,2/3,4 0/0 0 first:0,1", "1,2/3,4 0/0 1 first:1", "1,2/3,4 0/0 0"] {
            assert_eq!(text.parse::<OpeningState>().unwrap().to_string(), text);
        }
        let error = "1,2/3,4 0/0 0 first:2".parse::<OpeningState>().unwrap_err();
        assert_eq!(error.column, 15);
        assert!(error.message.contains("'first:0,1', 'first:0' or 'first:1'"), "{}", error.message);
        assert!("1,2/3,4 0/0 0 first".parse::<OpeningState>().is_err());
    }

    #[test]
    fn a_first_turn_ends_when_the_other_player_moves() {
        let mut state: OpeningState = "2,2/2,2 0/0 0 first:0,1".parse().unwrap();
        // Hole 2's two seeds end in the store: an extra move, the first turn goes on.
        state = state.play_hole_with(2, DakonOptions::NO_FIRST_TURN_CAPTURE).unwrap().0;
        assert_eq!(state.position.mover(), Player::Zero);
        assert!(state.in_first_turn(Player::Zero));
        while state.position.mover() == Player::Zero && !state.position.is_over() {
            let hole = state.position.legal_holes()[0];
            state = state.play_hole_with(hole, DakonOptions::NO_FIRST_TURN_CAPTURE).unwrap().0;
        }
        assert!(!state.in_first_turn(Player::Zero));
        assert_eq!(state.in_first_turn(Player::One), !state.position.is_over());
    }
}
