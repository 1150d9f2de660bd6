//! What the search and the endgame tables need to know about a game, and nothing more.
//!
//! Dakon and Kalah implement [`Rules`] ([`crate::dakon::Dakon`], [`crate::kalah::Kalah`]), and
//! the search, perft, the opening-turn proof and the endgame tables serve both unchanged.
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
//!   gaps by [`Rules::index`], the layout of the endgame tables.

use std::fmt::Debug;
use std::hash::Hash;

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

    /// The moves as a mutable slice (for reordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.moves[..self.len as usize]
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

/// Positions a run of the default [`Rules::solve_run`].
pub const SOLVE_RUN: u64 = 1 << 15;

/// A two-player zero-sum sowing game, as the generic search and table builder see it.
pub trait Rules: Send + Sync {
    /// A position, seen from the player to move.
    type Position: Copy + Eq + Send + Sync + Debug;
    /// A lossless fixed-width key of everything in a position that its future gain depends
    /// on (for transposition tables): at most 128 bits, which the table stores whole.
    type Key: Copy + Eq + Hash + Send + Sync + Debug + Into<u128>;

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
    /// The transposition key.
    fn key(&self, pos: &Self::Position) -> Self::Key;
    /// How many positions hold exactly `seeds` seeds on the board.
    ///
    /// # Panics
    /// May panic if the tier has `2^64` positions or more (far beyond any table).
    fn tier_size(&self, seeds: u32) -> u64;
    /// The index of a position within its tier, in `0..tier_size(seeds_on_board(pos))`.
    ///
    /// # Panics
    /// May panic if the position's tier has `2^64` positions or more.
    fn index(&self, pos: &Self::Position) -> u64;
    /// The position at `index` in tier `seeds`: the inverse of [`Rules::index`], with empty
    /// stores (they do not change the future gain).
    fn position_at(&self, seeds: u32, index: u64) -> Self::Position;
    /// `position_at(seeds, index + 1)`, given `pos`, the position [`Rules::position_at`] gives
    /// at `index`: a walk over a tier in index order (the table builder, the decoder of format
    /// 2) steps from each position to the next, which costs less than unranking it.
    fn position_after(&self, seeds: u32, index: u64, pos: &Self::Position) -> Self::Position {
        let _ = pos;
        self.position_at(seeds, index + 1)
    }
    /// How many runs [`Rules::solve_run`] splits tier `seeds` into: the table builder's units
    /// of parallel work. The default: runs of [`SOLVE_RUN`] positions in index order.
    fn solve_runs(&self, seeds: u32) -> u64 {
        self.tier_size(seeds).div_ceil(SOLVE_RUN)
    }
    /// Calls `visit(index, position)` for each position of run `run` (below
    /// [`Rules::solve_runs`]) of tier `seeds`, in the order the table builder solves them;
    /// together the runs visit every position of the tier once. A good order keeps the
    /// successors of consecutive positions near each other in their tiers (the builder reads a
    /// value at each). The default: positions `SOLVE_RUN * run..` in index order.
    fn solve_run(&self, seeds: u32, run: u64, visit: &mut dyn FnMut(u64, &Self::Position)) {
        let first = run * SOLVE_RUN;
        let end = (first + SOLVE_RUN).min(self.tier_size(seeds));
        let mut pos = self.position_at(seeds, first);
        for index in first..end {
            if index > first {
                pos = self.position_after(seeds, index - 1, &pos);
            }
            visit(index, &pos);
        }
    }
    /// The order in which the endgame-table builder solves the positions of one tier: for
    /// every legal move of `pos` whose successor has as many seeds on the board as `pos`,
    /// `tier_order(next) < tier_order(pos)`. (Dakon: the seeds weighted by their distance to
    /// their owner's store, which every turn that stores nothing lowers.)
    fn tier_order(&self, pos: &Self::Position) -> u32;
    /// The [`Rules::tier_order`] of the positions at indices `first..first + orders.len()` of
    /// tier `seeds`, written into `orders`: what a build shared among processes sorts its
    /// positions by. Each position is unranked here; rules whose boards follow each other
    /// cheaply in index order do better.
    fn tier_orders(&self, seeds: u32, first: u64, orders: &mut [u32]) {
        for (index, order) in (first..).zip(orders.iter_mut()) {
            *order = self.tier_order(&self.position_at(seeds, index));
        }
    }
}
