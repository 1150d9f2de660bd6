//! What one Kalah move did, for players and for the CLI.

use crate::dakon::Player;

/// A capture: the last seed landed alone in an empty hole of the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capture {
    /// Seeds taken from the facing hole (0 only under the empty-capture rule).
    pub facing: u8,
}

impl Capture {
    /// Seeds that went to the mover's store: the facing hole's and the landed seed.
    pub fn seeds(&self) -> u8 {
        self.facing + 1
    }
}

/// Everything that happened during one Kalah move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Seeds dropped into the mover's store while sowing (the capture not included).
    pub sown_into_store: u8,
    /// The hole (absolute number) where the last seed landed, or `None` for the store.
    pub last_hole: Option<u8>,
    /// The capture that ended the move, if any.
    pub capture: Option<Capture>,
    /// The last seed landed in the mover's store: the same player moves again (unless the
    /// game is over).
    pub extra_move: bool,
    /// The game ended after this move: the seeds each player then moved from their own side
    /// into their own store, indexed by player number (`[player 0, player 1]`).
    pub end: Option<[u8; 2]>,
}

impl Outcome {
    /// Whether the game is over after this move.
    pub fn game_over(&self) -> bool {
        self.end.is_some()
    }

    /// Seeds captured (0 when there was no capture).
    pub fn captured(&self) -> u8 {
        self.capture.map_or(0, |c| c.seeds())
    }

    /// The mover's store gain minus the opponent's during this move, the end of the game
    /// included.
    pub fn gain(&self, mover: Player) -> i32 {
        let own = self.sown_into_store as i32 + self.captured() as i32;
        match self.end {
            Some(end) => own + end[mover.number() as usize] as i32 - end[mover.other().number() as usize] as i32,
            None => own,
        }
    }
}
