//! Move ordering: every child of a node, played once, strongest-looking first.
//!
//! The order is: the move the transposition table remembers, then extra moves (they keep the
//! turn, and the mover usually gains from the moves that follow), then by seeds gained
//! (captures and seeds sown into the store), then in the order of the rules' move list.
//!
//! Measured (nodes to solve 30 random 6 x 6 middle games): gains before extra moves needs 3
//! times the nodes, and preferring holes nearer the store among equals 3.4 times; without
//! the gain key, 5 random 7 x 7 middle games took over 100 times longer.

use std::mem::MaybeUninit;

use crate::rules::{MoveList, Rules, Step};

/// A child of a node: the move and what it did.
#[derive(Clone, Copy)]
pub(crate) struct Child<P> {
    pub mv: u8,
    pub step: Step<P>,
}

/// The children of a node, in search order.
pub(crate) struct Children<P> {
    len: usize,
    items: [MaybeUninit<Child<P>>; MoveList::CAPACITY],
}

impl<P: Copy> Children<P> {
    /// Plays every move of `moves` from `pos` and orders the children, `first` (the table's
    /// move) first.
    #[inline]
    pub fn new<R: Rules<Position = P>>(rules: &R, pos: &P, moves: &MoveList, first: Option<u8>) -> Self {
        let mut items = [const { MaybeUninit::uninit() }; MoveList::CAPACITY];
        let mut scores = [0i32; MoveList::CAPACITY];
        for (i, &mv) in moves.as_slice().iter().enumerate() {
            let step = rules.play(pos, mv);
            let score = (step.gain + 256) | (step.same_mover as i32) << 12 | ((first == Some(mv)) as i32) << 20;
            // Insertion sort, highest score first, stable for equal scores.
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                scores[j] = scores[j - 1];
                items[j] = items[j - 1];
                j -= 1;
            }
            scores[j] = score;
            items[j] = MaybeUninit::new(Child { mv, step });
        }
        Children { len: moves.len(), items }
    }

    /// The children in search order.
    #[inline]
    pub fn as_slice(&self) -> &[Child<P>] {
        // SAFETY: the first `len` items were written by `new`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const Child<P>, self.len) }
    }
}
