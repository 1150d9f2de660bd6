//! Move ordering: every child of a node, played once, strongest-looking first.
//!
//! The order is: the move the transposition table remembers, then extra moves (they keep the
//! turn, and the mover usually gains from the moves that follow), then by seeds gained
//! (captures and seeds sown into the store), then by the history of refutations (each worker
//! counts, per move, the cutoffs it caused, weighted by the seeds on the board), then in
//! the order of the rules' move list.
//!
//! Each key of this order, and weighting a cutoff by the seeds on the board, was kept because
//! it searched fewer nodes than the orders tried without it (`docs/benchmarks/code-notes.md`).

use std::mem::MaybeUninit;

use crate::rules::{MoveList, Rules, Step};

/// A child of a node: the move and what it did.
#[derive(Clone, Copy)]
pub(crate) struct Child<P> {
    pub mv: u8,
    pub step: Step<P>,
}

impl<P> Child<P> {
    /// What a child's future gain of `v` is worth to the mover of its parent.
    #[inline]
    pub fn value(&self, v: i32) -> i32 {
        if self.step.same_mover {
            self.step.gain + v
        } else {
            self.step.gain - v
        }
    }
}

/// The children of a node, in search order: kept in the order they were played, with the
/// search order beside them as indices, so that sorting moves a byte a child, not a board
/// (fewer instructions than sorting the children themselves).
pub(crate) struct Children<P> {
    len: usize,
    /// `order[i]`: where the `i`-th child in search order sits in `items`.
    order: [u8; MoveList::CAPACITY],
    items: [MaybeUninit<Child<P>>; MoveList::CAPACITY],
}

/// How often each move (a hole, counted in the mover's sowing order) refuted a position,
/// weighted by the seeds on the board there: the tie-break among moves of equal gain.
#[derive(Clone)]
pub(crate) struct History([u32; MoveList::CAPACITY]);

/// Scores are halved once one reaches this, keeping recent refutations weightier.
const HISTORY_CAP: u32 = 1 << 23;

impl History {
    /// A history with no refutation yet.
    pub fn new() -> Self {
        History([0; MoveList::CAPACITY])
    }

    /// Records that `mv` refuted a position with `seeds` seeds on the board.
    #[inline]
    pub fn reward(&mut self, mv: u8, seeds: u32) {
        let slot = &mut self.0[mv as usize];
        *slot += seeds;
        if *slot >= HISTORY_CAP {
            self.0.iter_mut().for_each(|s| *s /= 2);
        }
    }

    #[inline]
    fn score(&self, mv: u8) -> i64 {
        self.0[mv as usize] as i64
    }
}

impl<P: Copy> Children<P> {
    /// Plays every move of `moves` from `pos` and orders the children, `first` (the table's
    /// move) first.
    #[inline]
    pub fn new<R: Rules<Position = P>>(rules: &R, pos: &P, moves: &MoveList, first: Option<u8>) -> Self {
        let mut children = Self::empty();
        children.play(rules, pos, moves, first, None, |_, _| ());
        children
    }

    /// No children yet: [`Children::play`] fills it in place (the list is 1.3 kB, not to be
    /// copied on the search's every node).
    #[inline(always)]
    pub fn empty() -> Self {
        Children { len: 0, order: [0; MoveList::CAPACITY], items: [const { MaybeUninit::uninit() }; MoveList::CAPACITY] }
    }

    /// Replaces the children by those of `pos`: plays every move of `moves` and orders them as
    /// [`Children::new`] does, moves of equal gain by `history`; `played(i, step)` hears of
    /// each child as soon as it is played (the `i`-th).
    #[inline(always)]
    pub fn play<R: Rules<Position = P>>(
        &mut self,
        rules: &R,
        pos: &P,
        moves: &MoveList,
        first: Option<u8>,
        history: Option<&History>,
        mut played: impl FnMut(usize, &Step<P>),
    ) {
        let mut scores = [0i64; MoveList::CAPACITY];
        for (i, &mv) in moves.as_slice().iter().enumerate() {
            let step = rules.play(pos, mv);
            played(i, &step);
            let score = history.map_or(0, |h| h.score(mv))
                | ((step.gain + 256) as i64) << 24
                | (step.same_mover as i64) << 40
                | ((first == Some(mv)) as i64) << 48;
            self.items[i] = MaybeUninit::new(Child { mv, step });
            // Insertion sort of the indices, highest score first, stable for equal scores.
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                scores[j] = scores[j - 1];
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            scores[j] = score;
            self.order[j] = i as u8;
        }
        self.len = moves.len();
    }

    /// How many children there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Where each child sits in play order ([`Children::played`]), in search order.
    #[inline]
    pub fn order(&self) -> &[u8] {
        &self.order[..self.len]
    }

    /// The child whose move was played `i`-th.
    ///
    /// # Panics
    /// Panics if `i >= self.len()`.
    #[inline]
    pub fn played(&self, i: usize) -> &Child<P> {
        assert!(i < self.len);
        // SAFETY: the first `len` items were written by `play`.
        unsafe { self.items[i].assume_init_ref() }
    }

    /// The children in search order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &Child<P>> {
        self.order().iter().map(|&i| self.played(i as usize))
    }
}
