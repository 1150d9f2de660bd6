//! The game itself, as the generic search and endgame tables see it: moves, what they earn,
//! and the end.
//!
//! Dakon and Kalah implement [`Rules`] ([`crate::dakon::Dakon`], [`crate::kalah::Kalah`]), and
//! the search, perft, the opening-turn proof and the endgame tables serve both unchanged. How
//! positions are stored is not the game's: the transposition key
//! ([`crate::transposition_key`]), the tables' layout ([`crate::tier_layout`]) and the
//! builder's schedule ([`crate::build_schedule`]) are traits of their own, which rule sets
//! on the same board implement once ([`crate::dakon::DakonBoardRules`]).
//!
//! The contract is that of a two-player, zero-sum, finite game scored by stores:
//! - a position is always seen from the player to move;
//! - a move is a small number (a hole on the mover's side, counted in the mover's sowing
//!   order), and [`Rules::play`] says how many seeds the move earned for the mover net of
//!   the opponent (`gain`) and whether the same player moves again;
//! - [`Rules::legal_moves`] lists the moves in the order the rules suggest trying them when
//!   nothing else tells them apart (the search keeps it among equals);
//! - the *future gain* of a position is what the player to move will still earn net of the
//!   opponent with perfect play; it lies within `±seeds_on_board`, has the parity of
//!   `seeds_on_board` (every seed on the board ends in one of the two stores, so the two
//!   players' shares add up to it; see [`parity_floor`]), and
//!   `future_gain(p) = max over moves m of gain(m) ± future_gain(next)` with `+` when the same
//!   player moves again and `-` otherwise;
//! - positions with the same number of seeds on the board form a *tier*, numbered without
//!   gaps by [`TierLayout::index`](crate::tier_layout::TierLayout::index), the layout of the
//!   endgame tables.

use std::fmt::Debug;

/// The legal moves of a position, in the order the rules suggest trying them (Dakon: the
/// mover's sowing order; Kalah: the hole nearest the store first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    len: u8,
    moves: [u8; MoveList::CAPACITY],
}

impl MoveList {
    /// The most moves any position may have.
    pub const CAPACITY: usize = 16;

    /// An empty list.
    pub const fn new() -> Self {
        MoveList { len: 0, moves: [0; Self::CAPACITY] }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// Panics if the list already holds [`MoveList::CAPACITY`] moves.
    #[inline]
    pub fn push(&mut self, mv: u8) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.moves[..self.len as usize]
    }

    /// How many moves there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no move (the game is over).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The result of one move, as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<P> {
    /// The position after the move, seen from whoever moves next.
    pub next: P,
    /// Seeds the move added to the mover's store minus seeds it added to the opponent's
    /// (including the end-of-game sweep).
    pub gain: i32,
    /// Whether the same player moves in `next` (an extra move): then the value of `next`
    /// counts for the mover as it is, otherwise negated.
    pub same_mover: bool,
}

/// The largest value `<= v` with the parity of `seeds`: what an upper bound `v` of a future
/// gain becomes on a position with `seeds` seeds on the board (its future gain has their
/// parity, see the [module documentation](self)).
///
/// ```
/// use dakon_solver::rules::{parity_ceil, parity_floor};
/// assert_eq!(parity_floor(5, 12), 4);
/// assert_eq!(parity_floor(-3, 12), -4);
/// assert_eq!(parity_floor(4, 12), 4);
/// assert_eq!(parity_ceil(-3, 12), -2);
/// assert_eq!(parity_ceil(-3, 7), -3);
/// ```
#[inline]
pub fn parity_floor(v: i32, seeds: u32) -> i32 {
    v - ((v ^ seeds as i32) & 1)
}

/// The smallest value `>= v` with the parity of `seeds`: what a lower bound `v` of a future
/// gain becomes (see [`parity_floor`]).
#[inline]
pub fn parity_ceil(v: i32, seeds: u32) -> i32 {
    v + ((v ^ seeds as i32) & 1)
}

/// A two-player zero-sum sowing game, as the generic search and table builder see it.
pub trait Rules: Send + Sync {
    /// A position, seen from the player to move.
    type Position: Copy + Eq + Send + Sync + Debug;

    /// A short stable name of the rule set, written into table headers.
    fn name(&self) -> &'static str;
    /// The parameters that, with the name, identify a family of positions (Dakon: holes per
    /// row). Written into table headers and checked when a table is read.
    fn parameters(&self) -> Vec<u32>;
    /// The legal moves, in the order to try them among moves the search cannot tell apart;
    /// empty exactly when the game is over.
    fn legal_moves(&self, pos: &Self::Position) -> MoveList;
    /// Plays a legal move.
    fn play(&self, pos: &Self::Position, mv: u8) -> Step<Self::Position>;
    /// Seeds still on the board: a bound on the absolute future gain, and the tier.
    fn seeds_on_board(&self, pos: &Self::Position) -> u32;
    /// The future gain of a position whose game is over (no legal moves).
    fn terminal_gain(&self, pos: &Self::Position) -> i32;
}
