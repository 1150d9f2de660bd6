//! A board as a certificate writes it: the seeds of every hole in the notation's numbering.

use crate::dakon::{Position, MAX_HOLES};

/// The seeds of holes `0..2n` in the notation's absolute numbering (player 1's row, then
/// player 0's), without the stores or the player to move: the key of a strategy entry.
/// Ordered as the file orders its entries, byte by byte from hole 0 (the unused bytes past
/// `2n` are zero, so they never change the order of boards of one size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board([u8; 2 * MAX_HOLES]);

impl Board {
    /// The board of `position`.
    pub fn of(position: &Position) -> Board {
        let mut seeds = [0; 2 * MAX_HOLES];
        for (hole, slot) in seeds[..2 * position.holes()].iter_mut().enumerate() {
            *slot = position.hole(hole);
        }
        Board(seeds)
    }

    /// The seeds of holes `0..2 * holes`.
    ///
    /// # Panics
    /// Panics if `holes` is more than 9.
    pub fn holes(&self, holes: usize) -> &[u8] {
        &self.0[..2 * holes]
    }

    /// Seeds on the board.
    pub fn seeds(&self) -> u32 {
        self.0.iter().map(|&s| s as u32).sum()
    }
}
