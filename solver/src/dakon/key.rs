//! The transposition key: a lossless 128-bit code of the board seen from the player to move.
//!
//! The key leaves out the stores and the name of the player to move, since the future gain
//! does not depend on them (see [`crate::rules`]). Two layouts, chosen by the board size:
//!
//! ```text
//! n <= 8: each hole in one byte, the mover's row in the low half, the opponent's in the high
//!   bit 127                    64 63                      0
//!        | 0.. | opp h(n-1) .. opp h0 | 0.. | own h(n-1) .. own h0 |
//!
//! n == 9: 18 holes do not fit in bytes, so the board is written as its perfect index
//!   bit 127  104..96         88 .. 0
//!        | 1 | 0.. | seeds k | 0 | rank of the board among boards of k seeds (< 2^89) |
//! ```
//!
//! Holes are counted in their owner's sowing direction, as in [`super::layout`].
//!
//! ```
//! use dakon_solver::dakon::{Key, Player, Position};
//! let p: Position = "1,2,3/4,5,6 9/8 1".parse().unwrap();
//! let key = Key::of(&p);
//! let back = key.board(3);
//! assert_eq!(Key::of(&back), key);
//! assert_eq!(back, p.board_only().with_mover(Player::Zero));
//! ```

use super::layout::LAYOUTS;
use super::{Player, Position};
use crate::composition;

/// A lossless code of a board, from the mover's view, for one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key(pub u128);

const RANKED: u128 = 1 << 127;

impl Key {
    /// The key of a position's board.
    #[inline(always)]
    pub fn of(position: &Position) -> Key {
        let n = position.holes();
        let (own, opp) = (position.lane(0), position.lane(1));
        if n <= 8 {
            let mask = LAYOUTS[n].row_mask;
            Key((own & mask) | ((opp & mask) << 64))
        } else {
            Self::ranked(position)
        }
    }

    /// The key of a board of 9 holes a row (out of line: the search asks for the key of
    /// every child, nearly always of a smaller board).
    #[cold]
    #[inline(never)]
    fn ranked(position: &Position) -> Key {
        let holes = board_bytes(position);
        let seeds: u32 = holes.iter().map(|&h| h as u32).sum();
        Key(RANKED | (seeds as u128) << 96 | composition::rank(&holes[..2 * position.holes()]))
    }

    /// The board this key stands for on a board of `holes` holes per row: empty stores,
    /// player 0 to move.
    ///
    /// # Panics
    /// Panics if `holes` is outside `1..=9` or the key was not made for that size.
    pub fn board(self, holes: usize) -> Position {
        assert!((1..=9).contains(&holes), "holes must be 1..=9");
        let mut bytes = [0u8; 18];
        if holes <= 8 {
            assert!(self.0 & RANKED == 0, "key of a 9-hole board");
            for r in 0..holes {
                bytes[r] = (self.0 >> (8 * r)) as u8;
                bytes[holes + r] = (self.0 >> (64 + 8 * r)) as u8;
            }
        } else {
            assert!(self.0 & RANKED != 0, "key of a board of at most 8 holes");
            let seeds = ((self.0 >> 96) & 0xFF) as usize;
            composition::unrank(seeds, self.0 & ((1 << 96) - 1), &mut bytes[..2 * holes]);
        }
        Position::from_sides(&bytes[..holes], &bytes[holes..2 * holes], [0, 0], Player::Zero)
    }
}

/// The mover's row then the opponent's, each in its owner's sowing direction.
impl From<Key> for u128 {
    #[inline]
    fn from(key: Key) -> u128 {
        key.0
    }
}

pub(crate) fn board_bytes(position: &Position) -> [u8; 18] {
    let n = position.holes();
    let mut bytes = [0u8; 18];
    for r in 0..n {
        bytes[r] = position.seeds(super::Side::Mover, r);
        bytes[n + r] = position.seeds(super::Side::Opponent, r);
    }
    bytes
}
