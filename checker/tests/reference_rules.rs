//! The checker's rules against a second, deliberately different reading of the same text, on
//! random positions of every board size and along random games: every hole played (legal or
//! not), the legal moves, the end of the game and its final stores must agree.
//!
//! The reference keeps all pits in one array (holes `0..2n`, then S0, S1), sows along an
//! explicit list of the mover's pits, and ends a `dakon` game literally as the text says (the
//! other player takes every seed left) rather than side by side.

use crate::common;

use dakon_check::rules::{DakonOptions, Position, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Clone)]
struct Reference {
    rules: Rules,
    n: usize,
    /// Holes `0..2n`, then S0 at `2n` and S1 at `2n + 1`.
    pits: Vec<u8>,
    player: usize,
}

impl Reference {
    fn of(position: &Position) -> Reference {
        let mut pits = position.holes().to_vec();
        pits.extend(position.stores());
        Reference { rules: position.rules(), n: position.holes_per_row(), pits, player: position.player() }
    }

    fn store(&self, player: usize) -> usize {
        2 * self.n + player
    }

    /// `player`'s holes in sowing order.
    fn row(&self, player: usize) -> Vec<usize> {
        if player == 0 {
            (self.n..2 * self.n).collect()
        } else {
            (0..self.n).rev().collect()
        }
    }

    /// Every pit `player` sows into, in order, from player 0's leftmost hole.
    fn cycle(&self, player: usize) -> Vec<usize> {
        let mut cycle = self.row(0);
        if player == 0 {
            cycle.push(self.store(0));
        }
        cycle.extend(self.row(1));
        if player == 1 {
            cycle.push(self.store(1));
        }
        cycle
    }

    fn side_empty(&self, player: usize) -> bool {
        self.row(player).iter().all(|&hole| self.pits[hole] == 0)
    }

    fn over(&self) -> bool {
        match self.rules {
            Rules::Dakon(_) => self.side_empty(self.player),
            _ => self.side_empty(0) || self.side_empty(1),
        }
    }

    fn finished(&self) -> Reference {
        let mut end = self.clone();
        for hole in 0..2 * self.n {
            let taker = match self.rules {
                Rules::Dakon(_) => 1 - self.player,
                _ => usize::from(hole < self.n),
            };
            end.pits[2 * self.n + taker] += end.pits[hole];
            end.pits[hole] = 0;
        }
        end
    }

    fn play(&self, hole: usize) -> Option<Reference> {
        let mover = self.player;
        if self.over() || !self.row(mover).contains(&hole) || self.pits[hole] == 0 {
            return None;
        }
        let mut next = self.clone();
        let cycle = self.cycle(mover);
        let mut at = cycle.iter().position(|&pit| pit == hole).expect("own hole");
        let options = match self.rules {
            Rules::Dakon(options) => options,
            _ => DakonOptions::default(),
        };
        let extra = loop {
            let origin = at;
            let mut hand = next.pits[cycle[at]];
            next.pits[cycle[at]] = 0;
            while hand > 0 {
                at = (at + 1) % cycle.len();
                if options.skip_origin && at == origin {
                    continue;
                }
                next.pits[cycle[at]] += 1;
                hand -= 1;
            }
            let last = cycle[at];
            if last == self.store(mover) {
                break true;
            }
            let facing = (last + self.n) % (2 * self.n);
            let own = self.row(mover).contains(&last);
            match self.rules {
                Rules::Dakon(_) if next.pits[last] > 1 => continue,
                Rules::Dakon(_) if own => {
                    let taken = next.pits[facing];
                    next.pits[self.store(mover)] += taken;
                    next.pits[facing] = 0;
                    if options.nembak_lander && taken > 0 {
                        next.pits[self.store(mover)] += 1;
                        next.pits[last] = 0;
                    }
                }
                Rules::Dakon(_) if options.no_mikul => {}
                Rules::Dakon(_) => {
                    let row = self.row(1 - mover);
                    let index = row.iter().position(|&pit| pit == last).expect("in its row");
                    if index > 0 && index + 1 < row.len() {
                        let (a, b) = (row[index - 1], row[index + 1]);
                        if next.pits[a] == next.pits[b] && next.pits[a] != 0 {
                            next.pits[self.store(mover)] += next.pits[a] + next.pits[b] + 1;
                            (next.pits[a], next.pits[b], next.pits[last]) = (0, 0, 0);
                        }
                    }
                }
                _ if own && next.pits[last] == 1 && (next.pits[facing] > 0 || self.rules == Rules::KalahEmptyCapture) => {
                    next.pits[self.store(mover)] += next.pits[facing] + 1;
                    (next.pits[facing], next.pits[last]) = (0, 0);
                }
                _ => {}
            }
            break false;
        };
        next.player = if extra { mover } else { 1 - mover };
        Some(if next.over() { next.finished() } else { next })
    }

    fn notation(&self) -> String {
        let row = |holes: &[u8]| holes.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let (n, pits) = (self.n, &self.pits);
        format!("{}/{} {}/{} {}", row(&pits[..n]), row(&pits[n..2 * n]), pits[2 * n + 1], pits[2 * n], self.player)
    }
}

/// Everything the rules say about `position`, compared with the reference.
fn compare(position: &Position) {
    let reference = Reference::of(position);
    assert_eq!(position.to_string(), reference.notation());
    let context = format!("{} {position}", position.rules().name());
    assert_eq!(position.is_over(), reference.over(), "{context}: over");
    let final_stores = reference.over().then(|| {
        let end = reference.finished();
        [end.pits[end.store(0)], end.pits[end.store(1)]]
    });
    assert_eq!(position.final_stores(), final_stores, "{context}: final stores");
    let mut legal = Vec::new();
    for hole in 0..2 * position.holes_per_row() + 2 {
        let played = position.play(hole).map(|next| next.to_string());
        assert_eq!(played, reference.play(hole).map(|next| next.notation()), "{context}: hole {hole}");
        if played.is_some() {
            legal.push(hole);
        }
    }
    assert_eq!(position.legal_moves(), legal, "{context}: legal moves");
    let successors: Vec<(usize, String)> = position.successors().iter().map(|(hole, next)| (*hole, next.to_string())).collect();
    let expected: Vec<(usize, String)> = legal.iter().map(|&hole| (hole, position.play(hole).expect("legal").to_string())).collect();
    assert_eq!(successors, expected, "{context}: successors");
}

/// A random position: many empty holes (captures need them), sometimes many seeds in one hole
/// (laps that go round), at most 255 seeds in all.
fn random_position(random: &mut StdRng, rules: Rules) -> Position {
    let n = random.gen_range(1..=9);
    let mut seeds_left: u32 = 255;
    let mut holes = vec![0u8; 2 * n];
    for hole in &mut holes {
        let most = match random.gen_range(0..10) {
            0..=3 => 0,
            4..=8 => 6,
            _ => 40,
        };
        *hole = random.gen_range(0..=most.min(seeds_left)) as u8;
        seeds_left -= u32::from(*hole);
    }
    let store0 = random.gen_range(0..=seeds_left.min(30));
    let store1 = random.gen_range(0..=(seeds_left - store0).min(30));
    Position::new(rules, &holes, [store0 as u8, store1 as u8], random.gen_range(0..2)).expect("at most 255 seeds")
}

#[test]
fn random_positions_agree_with_the_reference() {
    let mut random = StdRng::seed_from_u64(8);
    for rules in Rules::ALL {
        for _ in 0..30_000 {
            compare(&random_position(&mut random, rules));
        }
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut random = StdRng::seed_from_u64(9);
    for rules in Rules::ALL {
        for n in 1..=9 {
            for seeds in 1..=8 {
                for _ in 0..5 {
                    let mut position = common::start(rules, n, seeds);
                    compare(&position);
                    while !position.is_over() {
                        let moves = position.legal_moves();
                        position = position.play(moves[random.gen_range(0..moves.len())]).expect("legal");
                        compare(&position);
                    }
                }
            }
        }
    }
}
