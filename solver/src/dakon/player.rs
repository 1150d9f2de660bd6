//! The two players.

use std::fmt;

/// One of the two players. Player 0 sits at the bottom (holes `n..2n`), player 1 at the top
/// (holes `0..n`); player 0 moves first from the opening position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The bottom player, who owns holes `n..2n` and store S0.
    Zero,
    /// The top player, who owns holes `0..n` and store S1.
    One,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::Zero => Player::One,
            Player::One => Player::Zero,
        }
    }

    /// `0` or `1`, as written in the notation.
    #[inline]
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The player written as `0` or `1`, or `None` for any other number.
    pub const fn from_number(number: u8) -> Option<Player> {
        match number {
            0 => Some(Player::Zero),
            1 => Some(Player::One),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}
