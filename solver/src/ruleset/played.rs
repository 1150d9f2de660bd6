//! What one move did, under whichever rules played it.

use crate::dakon::{self, Player};
use crate::kalah;

/// The report of one move: Dakon's or Kalah's, with what both have in common.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Played {
    /// A Dakon move: laps, nembak or mikul, the sweep.
    Dakon(dakon::Outcome),
    /// A Kalah move: one lap, a capture, the end of the game.
    Kalah(kalah::Outcome),
}

impl Played {
    /// The last seed landed in the mover's store.
    pub fn extra_move(&self) -> bool {
        match self {
            Played::Dakon(o) => o.extra_move,
            Played::Kalah(o) => o.extra_move,
        }
    }

    /// Whether the game is over after this move.
    pub fn game_over(&self) -> bool {
        match self {
            Played::Dakon(o) => o.game_over(),
            Played::Kalah(o) => o.game_over(),
        }
    }

    /// Seeds captured into the mover's store (0 when there was no capture).
    pub fn captured(&self) -> u8 {
        match self {
            Played::Dakon(o) => o.captured(),
            Played::Kalah(o) => o.captured(),
        }
    }

    /// Seeds sown into the mover's store, captures not included.
    pub fn sown_into_store(&self) -> u8 {
        match self {
            Played::Dakon(o) => o.sown_into_store,
            Played::Kalah(o) => o.sown_into_store,
        }
    }

    /// The hole (absolute number) where the last seed landed, `None` for the store.
    pub fn last_hole(&self) -> Option<u8> {
        match self {
            Played::Dakon(o) => o.last_hole,
            Played::Kalah(o) => o.last_hole,
        }
    }

    /// The mover's store gain minus the opponent's during this move, end of game included.
    pub fn gain(&self, mover: Player) -> i32 {
        match self {
            Played::Dakon(o) => o.gain(mover),
            Played::Kalah(o) => o.gain(mover),
        }
    }
}
