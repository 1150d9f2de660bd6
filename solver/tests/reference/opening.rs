//! The reference's opening under `no-first-turn-capture`: a board and which players have not
//! finished their first turn, written from the rules page ("Variants") alone.

use super::{notation, Board, Options, Report};

/// A board and, by player, whether that player's first turn is still going on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub board: Board,
    pub pending: [bool; 2],
}

impl Opening {
    /// Plays `hole` under `options` (the option `no-first-turn-capture` set): the mover
    /// captures nothing while their first turn lasts, which is until the other player is to
    /// move or the game is over.
    pub fn play(&self, hole: usize, options: Options) -> (Opening, Report) {
        let mover = self.board.to_move;
        let (board, report) = self.board.play_with(hole, Options { no_capture: self.pending[mover], ..options });
        let mut pending = self.pending;
        if board.to_move != mover {
            pending[mover] = false;
        }
        if report.sweep.is_some() {
            pending = [false, false];
        }
        (Opening { board, pending }, report)
    }

    /// Leaves of the move tree at `depth` plies.
    pub fn perft(&self, depth: u32, options: Options) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.board.moves().into_iter().map(|h| self.play(h, options).0.perft(depth - 1, options)).sum()
    }

    /// The notation: the board's, then ` first:` and the pending players (nothing when none).
    pub fn format(&self) -> String {
        let players: Vec<&str> = [(0, "0"), (1, "1")].into_iter().filter(|&(p, _)| self.pending[p]).map(|(_, s)| s).collect();
        let board = notation::format(&self.board);
        if players.is_empty() {
            board
        } else {
            format!("{board} first:{}", players.join(","))
        }
    }

    /// Reads a well-formed line of test data.
    ///
    /// # Errors
    /// A short description of the problem.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let (board, pending) = match line.split_once(" first:") {
            None => (line, [false, false]),
            Some((board, players)) => (board, [players.split(',').any(|p| p == "0"), players.split(',').any(|p| p == "1")]),
        };
        Ok(Opening { board: notation::parse(board)?, pending })
    }
}
