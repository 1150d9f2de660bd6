//! A deliberately simple, independent implementation of the Dakon rules, written from the
//! rules text and not from the engine, for the engine's tests to compare against.
//!
//! Everything is in the notation's absolute numbering: holes `0..2n` (player 1 owns `0..n`,
//! player 0 owns `n..2n`, hole `i` faces hole `i + n`), stores indexed by their player. Seeds
//! are sown one at a time along an explicit counter-clockwise [`Board::next_slot`]. Nothing
//! here is clever or fast, so that it is easy to check against the rules by reading.
//!
//! Several test crates include this module and each uses a different part of it.
#![allow(dead_code)]

pub mod kalah;
pub mod notation;
pub mod opening;
pub mod random;
pub mod rules;

/// A place a seed can be dropped into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A playing hole, absolute number.
    Hole(usize),
    /// The store of player 0 or 1.
    Store(usize),
}

/// Which capture ended a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Nembak,
    Mikul,
}

/// Dakon's rule options, from the rules page's "Variants": each changes one rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// A nembak that takes the facing seeds takes the landing seed too.
    pub nembak_lander: bool,
    /// Landing in an empty hole of the opponent's side never captures.
    pub no_mikul: bool,
    /// A lap does not drop a seed into the hole it was lifted from.
    pub skip_origin: bool,
    /// The mover is in their first turn under `no-first-turn-capture`: a lap ending in an
    /// empty hole takes nothing ([`opening::Opening`] says when).
    pub no_capture: bool,
}

/// A position: `n` holes per row, seeds per hole and store, and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub n: usize,
    /// `holes[i]` = seeds in hole `i`, `i` in `0..2n`.
    pub holes: Vec<u32>,
    /// `stores[p]` = seeds in player `p`'s store (`stores[0]` is S0, `stores[1]` is S1).
    pub stores: [u32; 2],
    /// 0 or 1.
    pub to_move: usize,
}

/// Everything one move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// 1 plus the number of relays.
    pub laps: u32,
    /// Seeds dropped into the mover's store while sowing.
    pub sown_into_store: u32,
    /// Where the last seed landed: `None` for the mover's store.
    pub last_hole: Option<usize>,
    /// The capture that ended the move, when it took at least one seed.
    pub capture: Option<(Kind, u32)>,
    /// The last seed landed in the mover's store.
    pub extra_move: bool,
    /// The game ended: who took the seeds left on the board, and how many.
    pub sweep: Option<(usize, u32)>,
    /// The mover's store gain minus the opponent's, sweep included.
    pub gain: i32,
}

impl Board {
    /// Every hole holds `seeds`, stores empty, player 0 to move.
    pub fn start(n: usize, seeds: u32) -> Board {
        Board { n, holes: vec![seeds; 2 * n], stores: [0, 0], to_move: 0 }
    }

    /// The player who owns a hole.
    pub fn owner(&self, hole: usize) -> usize {
        if hole < self.n {
            1
        } else {
            0
        }
    }

    /// The holes of a player, ascending.
    pub fn side(&self, player: usize) -> std::ops::Range<usize> {
        if player == 1 {
            0..self.n
        } else {
            self.n..2 * self.n
        }
    }

    /// Seeds in a player's holes.
    pub fn side_seeds(&self, player: usize) -> u32 {
        self.side(player).map(|h| self.holes[h]).sum()
    }

    /// Seeds in all holes.
    pub fn seeds_on_board(&self) -> u32 {
        self.holes.iter().sum()
    }

    /// Seeds in holes and stores.
    pub fn total(&self) -> u32 {
        self.seeds_on_board() + self.stores[0] + self.stores[1]
    }

    /// The game is over when the player to move has no seed on their side.
    pub fn is_over(&self) -> bool {
        self.side_seeds(self.to_move) == 0
    }

    /// The legal moves: the mover's non-empty holes, ascending.
    pub fn moves(&self) -> Vec<usize> {
        self.side(self.to_move).filter(|&h| self.holes[h] > 0).collect()
    }

    /// The slot after `slot` for a seed sown by `mover`: along the bottom row to the right,
    /// into S0, along the top row to the left, into S1, and round; the opponent's store is
    /// skipped.
    pub fn next_slot(&self, slot: Slot, mover: usize) -> Slot {
        let n = self.n;
        let next = match slot {
            Slot::Hole(h) if h >= n && h < 2 * n - 1 => Slot::Hole(h + 1),
            Slot::Hole(h) if h == 2 * n - 1 => Slot::Store(0),
            Slot::Store(0) => Slot::Hole(n - 1),
            Slot::Hole(0) => Slot::Store(1),
            Slot::Hole(h) => Slot::Hole(h - 1),
            Slot::Store(_) => Slot::Hole(n),
        };
        match next {
            Slot::Store(p) if p != mover => self.next_slot(next, mover),
            _ => next,
        }
    }

    /// The hole facing `hole` across the board.
    pub fn facing(&self, hole: usize) -> usize {
        if hole < self.n {
            hole + self.n
        } else {
            hole - self.n
        }
    }

    /// Plays `hole` (which must be a legal move) and reports what happened.
    pub fn play(&self, hole: usize) -> (Board, Report) {
        self.play_with(hole, Options::default())
    }

    /// Plays `hole` (which must be a legal move) under `options` and reports what happened.
    pub fn play_with(&self, hole: usize, options: Options) -> (Board, Report) {
        assert!(self.moves().contains(&hole), "hole {hole} is not a legal move");
        let mover = self.to_move;
        let mut b = self.clone();
        let mut report = Report { laps: 1, sown_into_store: 0, last_hole: None, capture: None, extra_move: false, sweep: None, gain: 0 };
        let mut hand = b.holes[hole];
        b.holes[hole] = 0;
        let mut slot = Slot::Hole(hole);
        loop {
            // One lap, seed by seed; remember what the last hole held before its seed came.
            let origin = slot;
            let mut held_before = 0;
            while hand > 0 {
                slot = b.next_slot(slot, mover);
                if options.skip_origin && slot == origin {
                    continue;
                }
                match slot {
                    Slot::Store(p) => {
                        b.stores[p] += 1;
                        report.sown_into_store += 1;
                    }
                    Slot::Hole(h) => {
                        held_before = b.holes[h];
                        b.holes[h] += 1;
                    }
                }
                hand -= 1;
            }
            let h = match slot {
                Slot::Store(_) => {
                    report.last_hole = None;
                    report.extra_move = true;
                    break;
                }
                Slot::Hole(h) => h,
            };
            report.last_hole = Some(h);
            if held_before > 0 {
                // Relay: lift the whole hole and sow on from the next hole.
                hand = b.holes[h];
                b.holes[h] = 0;
                report.laps += 1;
                continue;
            }
            if options.no_capture {
                // A first turn under no-first-turn-capture: the turn ends, nothing is taken.
            } else if b.owner(h) == mover {
                // Nembak: the facing hole goes to the mover's store; the landed seed stays.
                let f = b.facing(h);
                let mut taken = b.holes[f];
                if taken > 0 {
                    b.holes[f] = 0;
                    if options.nembak_lander {
                        // The option: the landed seed goes with them.
                        taken += b.holes[h];
                        b.holes[h] = 0;
                    }
                    b.stores[mover] += taken;
                    report.capture = Some((Kind::Nembak, taken));
                }
            } else if !options.no_mikul {
                // Mikul: both row neighbours exist and hold the same, non-zero number of seeds.
                let column = h % b.n;
                if column >= 1 && column + 1 < b.n {
                    let (left, right) = (b.holes[h - 1], b.holes[h + 1]);
                    if left == right && left > 0 {
                        let taken = left + right + 1;
                        b.holes[h - 1] = 0;
                        b.holes[h] = 0;
                        b.holes[h + 1] = 0;
                        b.stores[mover] += taken;
                        report.capture = Some((Kind::Mikul, taken));
                    }
                }
            }
            break;
        }
        b.to_move = if report.extra_move { mover } else { 1 - mover };
        if b.is_over() {
            // The player who still has seeds takes everything left on the board.
            let taker = 1 - b.to_move;
            let seeds = b.seeds_on_board();
            b.holes.iter_mut().for_each(|h| *h = 0);
            b.stores[taker] += seeds;
            report.sweep = Some((taker, seeds));
        }
        let opponent = 1 - mover;
        report.gain = (b.stores[mover] as i32 - self.stores[mover] as i32) - (b.stores[opponent] as i32 - self.stores[opponent] as i32);
        (b, report)
    }

    /// The same position with the players' names exchanged: hole `i` becomes hole `2n-1-i`,
    /// the stores swap, the other player moves.
    pub fn mirror(&self) -> Board {
        Board {
            n: self.n,
            holes: self.holes.iter().rev().copied().collect(),
            stores: [self.stores[1], self.stores[0]],
            to_move: 1 - self.to_move,
        }
    }
}

/// Leaves of the move tree at `depth` plies (an extra move is a ply of its own).
pub fn perft(board: &Board, depth: u32) -> u64 {
    perft_with(board, depth, &|b| b.moves(), &|b, h| b.play(h).0)
}

/// Perft under any rules, given their legal moves and their move.
pub fn perft_with(board: &Board, depth: u32, moves: &dyn Fn(&Board) -> Vec<usize>, play: &dyn Fn(&Board, usize) -> Board) -> u64 {
    if depth == 0 {
        return 1;
    }
    moves(board).into_iter().map(|h| perft_with(&play(board, h), depth - 1, moves, play)).sum()
}
