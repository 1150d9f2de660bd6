//! A deliberately simple implementation of the Kalah rules, written from the rules text
//! (issue 11 and `docs/formats/certificates.md`), not from the engine, on the same [`Board`] as the
//! Dakon reference: absolute numbering, one seed at a time along [`Board::next_slot`].
//!
//! - one lap, no relay; last seed in the mover's store: the mover moves again;
//! - last seed in an empty hole of the mover's side (it now holds one): that seed and the
//!   facing hole's seeds go to the mover's store if the facing hole holds seeds, or always
//!   under the empty-capture rule;
//! - after any move that leaves either side without seeds, and in any position where a side
//!   is empty, the game is over: each player adds their own side's seeds to their own store.

use super::{perft_with, Board, Slot};

/// The Kalah rules, standard or with the empty-capture rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kalah {
    /// Capture a lone last seed even when the facing hole is empty.
    pub empty_capture: bool,
}

/// Everything one Kalah move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KalahReport {
    /// Seeds dropped into the mover's store while sowing.
    pub sown_into_store: u32,
    /// Where the last seed landed: `None` for the mover's store.
    pub last_hole: Option<usize>,
    /// Seeds captured (the facing hole's and the landed seed), when there was a capture.
    pub captured: Option<u32>,
    /// The last seed landed in the mover's store.
    pub extra_move: bool,
    /// The game ended: the seeds each player moved from their own side to their own store,
    /// `[player 0, player 1]`.
    pub end: Option<[u32; 2]>,
    /// The mover's store gain minus the opponent's.
    pub gain: i32,
}

impl Kalah {
    pub const STANDARD: Kalah = Kalah { empty_capture: false };
    pub const EMPTY_CAPTURE: Kalah = Kalah { empty_capture: true };

    /// The name of these rules in table and certificate headers.
    pub fn name(&self) -> &'static str {
        if self.empty_capture {
            "kalah-empty-capture"
        } else {
            "kalah"
        }
    }

    /// The game is over when either side has no seed.
    pub fn is_over(&self, b: &Board) -> bool {
        b.side_seeds(0) == 0 || b.side_seeds(1) == 0
    }

    /// The legal moves: the mover's non-empty holes, ascending; none once the game is over.
    pub fn moves(&self, b: &Board) -> Vec<usize> {
        if self.is_over(b) {
            return Vec::new();
        }
        b.side(b.to_move).filter(|&h| b.holes[h] > 0).collect()
    }

    /// The final store difference, player to move minus opponent, of a finished game: each
    /// player adds their own side.
    pub fn final_difference(&self, b: &Board) -> i32 {
        let (me, other) = (b.to_move, 1 - b.to_move);
        (b.stores[me] + b.side_seeds(me)) as i32 - (b.stores[other] + b.side_seeds(other)) as i32
    }

    /// Plays `hole` (which must be a legal move) and reports what happened.
    pub fn play(&self, board: &Board, hole: usize) -> (Board, KalahReport) {
        assert!(self.moves(board).contains(&hole), "hole {hole} is not a legal move");
        let mover = board.to_move;
        let mut b = board.clone();
        let mut report = KalahReport { sown_into_store: 0, last_hole: None, captured: None, extra_move: false, end: None, gain: 0 };
        let mut hand = b.holes[hole];
        b.holes[hole] = 0;
        let mut slot = Slot::Hole(hole);
        while hand > 0 {
            slot = b.next_slot(slot, mover);
            match slot {
                Slot::Store(p) => {
                    b.stores[p] += 1;
                    report.sown_into_store += 1;
                }
                Slot::Hole(h) => b.holes[h] += 1,
            }
            hand -= 1;
        }
        match slot {
            Slot::Store(_) => report.extra_move = true,
            Slot::Hole(h) => {
                report.last_hole = Some(h);
                let facing = b.facing(h);
                if b.owner(h) == mover && b.holes[h] == 1 && (b.holes[facing] > 0 || self.empty_capture) {
                    let taken = b.holes[h] + b.holes[facing];
                    b.holes[h] = 0;
                    b.holes[facing] = 0;
                    b.stores[mover] += taken;
                    report.captured = Some(taken);
                }
            }
        }
        b.to_move = if report.extra_move { mover } else { 1 - mover };
        if self.is_over(&b) {
            let mut end = [0; 2];
            for (player, seeds) in end.iter_mut().enumerate() {
                *seeds = b.side_seeds(player);
                for h in b.side(player) {
                    b.holes[h] = 0;
                }
                b.stores[player] += *seeds;
            }
            report.end = Some(end);
        }
        let opponent = 1 - mover;
        report.gain = (b.stores[mover] as i32 - board.stores[mover] as i32) - (b.stores[opponent] as i32 - board.stores[opponent] as i32);
        (b, report)
    }

    /// Leaves of the move tree at `depth` plies (an extra move is a ply of its own).
    pub fn perft(&self, board: &Board, depth: u32) -> u64 {
        perft_with(board, depth, &|b| self.moves(b), &|b, h| self.play(b, h).0)
    }
}
