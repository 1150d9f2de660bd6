//! Test helpers: the notation parser, a test-only certificate writer (it encodes bytes,
//! nothing more), and a small minimax that finds optimal strategies on tiny boards.
#![allow(dead_code)] // each test file uses some of these

use std::collections::{HashMap, HashSet};

use dakon_check::rules::{Position, Rules};
use xxhash_rust::xxh3::xxh3_64;

/// Parses the notation `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player>`.
pub fn parse(rules: Rules, text: &str) -> Position {
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields.len(), 3, "three fields in {text:?}");
    let holes: Vec<u8> = fields[0].split(['/', ',']).map(|seeds| seeds.parse().expect("a hole count")).collect();
    let (store1, store0) = fields[1].split_once('/').expect("stores S1/S0");
    let stores = [store0.parse().expect("S0"), store1.parse().expect("S1")];
    Position::new(rules, &holes, stores, fields[2].parse().expect("a player")).expect("a valid position")
}

/// The start: `seeds` in each of `2 * holes_per_row` holes, player 0 to move.
pub fn start(rules: Rules, holes_per_row: usize, seeds: u8) -> Position {
    Position::new(rules, &vec![seeds; 2 * holes_per_row], [0, 0], 0).expect("a valid start")
}

/// A certificate before encoding; every field can be set to anything, to make bad files too.
#[derive(Clone, Debug)]
pub struct Draft {
    pub version: u32,
    pub rules: Vec<u8>,
    pub holes_per_row: u8,
    pub holes: Vec<u8>,
    /// `[S0, S1]`, written S1 first as the format says.
    pub stores: [u8; 2],
    pub player: u8,
    pub lower: i32,
    pub upper: i32,
    pub small_seeds: u8,
    /// The entries of the lower and upper halves, written in this order.
    pub halves: [Vec<(Vec<u8>, u8)>; 2],
}

impl Draft {
    /// A draft for `root` claiming `lower..=upper` with these halves.
    pub fn new(root: &Position, lower: i32, upper: i32, small_seeds: u8, halves: [Vec<(Vec<u8>, u8)>; 2]) -> Draft {
        Draft {
            version: 1,
            rules: root.rules().name().as_bytes().to_vec(),
            holes_per_row: root.holes_per_row() as u8,
            holes: root.holes().to_vec(),
            stores: root.stores(),
            player: root.player() as u8,
            lower,
            upper,
            small_seeds,
            halves,
        }
    }

    /// The file, with correct checksums and one zstd frame per section.
    pub fn bytes(&self) -> Vec<u8> {
        let mut bytes = b"DKNCERT\0".to_vec();
        bytes.extend(self.version.to_le_bytes());
        bytes.push(self.rules.len() as u8);
        bytes.extend(&self.rules);
        bytes.push(self.holes_per_row);
        bytes.extend(&self.holes);
        bytes.extend([self.stores[1], self.stores[0], self.player]);
        bytes.extend(self.lower.to_le_bytes());
        bytes.extend(self.upper.to_le_bytes());
        bytes.push(self.small_seeds);
        for half in &self.halves {
            let entries: Vec<u8> = half.iter().flat_map(|(board, hole)| board.iter().copied().chain([*hole])).collect();
            bytes.extend(section(half.len() as u64, &entries, &frame(&entries)));
        }
        with_checksum(bytes)
    }
}

/// The report of a certificate that must be well formed.
pub fn checked(bytes: &[u8]) -> dakon_check::Report {
    dakon_check::check(bytes).unwrap_or_else(|error| panic!("a well-formed certificate, but: {error}"))
}

/// One zstd frame of `decoded` that states its content size, as the format requires.
pub fn frame(decoded: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(decoded, 3).expect("zstd")
}

/// A section: entry count, compressed length, entries checksum, frame.
pub fn section(entries: u64, decoded: &[u8], frame: &[u8]) -> Vec<u8> {
    let mut bytes = entries.to_le_bytes().to_vec();
    bytes.extend((frame.len() as u64).to_le_bytes());
    bytes.extend(xxh3_64(decoded).to_le_bytes());
    bytes.extend(frame);
    bytes
}

/// `body` followed by its file checksum.
pub fn with_checksum(mut body: Vec<u8>) -> Vec<u8> {
    let checksum = xxh3_64(&body);
    body.extend(checksum.to_le_bytes());
    body
}

/// `file` with its last 8 bytes replaced by the checksum of the rest, so that a change made
/// to it is judged by what it changed, not refused as damage.
pub fn rechecksummed(file: &[u8]) -> Vec<u8> {
    with_checksum(file[..file.len().saturating_sub(8)].to_vec())
}

/// Plain memoized minimax over the checker's rules, to find strategies for test certificates.
#[derive(Default)]
pub struct Solver {
    gains: HashMap<(Rules, Vec<u8>, usize), i64>,
}

fn difference(stores: [u8; 2], player: usize) -> i64 {
    i64::from(stores[player]) - i64::from(stores[1 - player])
}

impl Solver {
    /// The final store difference for `player` with perfect play from `position`.
    pub fn value_for(&mut self, position: &Position, player: usize) -> i64 {
        if let Some(stores) = position.final_stores() {
            return difference(stores, player);
        }
        let key = (position.rules(), position.holes().to_vec(), position.player());
        let gain = match self.gains.get(&key) {
            Some(&gain) => gain,
            None => {
                let mover = position.player();
                let best = position.successors().iter().map(|(_, next)| self.value_for(next, mover)).max().expect("a move");
                let gain = best - difference(position.stores(), mover);
                self.gains.insert(key, gain);
                gain
            }
        };
        let mover_value = difference(position.stores(), position.player()) + gain;
        if position.player() == player {
            mover_value
        } else {
            -mover_value
        }
    }

    /// The first of the best moves for the player to move.
    pub fn best_move(&mut self, position: &Position) -> usize {
        let mover = position.player();
        let successors = position.successors();
        let best = successors.iter().map(|(_, next)| self.value_for(next, mover)).max().expect("a move");
        successors.iter().find(|(_, next)| self.value_for(next, mover) == best).expect("a best move").0
    }

    /// An optimal strategy for `owner` from `root`: the best move on every board with `owner`
    /// to move reachable when `owner` follows it and the other player plays anything, except
    /// where the game is over or at most `small_seeds` seeds are left. Sorted by board.
    pub fn strategy(&mut self, root: &Position, owner: usize, small_seeds: u32) -> Vec<(Vec<u8>, u8)> {
        let mut entries = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![*root];
        while let Some(position) = stack.pop() {
            if position.is_over()
                || position.seeds_on_board() <= small_seeds
                || !seen.insert((position.holes().to_vec(), position.player()))
            {
                continue;
            }
            if position.player() == owner {
                let hole = self.best_move(&position);
                entries.push((position.holes().to_vec(), hole as u8));
                stack.push(position.play(hole).expect("legal"));
            } else {
                stack.extend(position.successors().into_iter().map(|(_, next)| next));
            }
        }
        entries.sort();
        entries
    }

    /// The positions of the principal variation from `root` (both sides playing their first
    /// best move), root first, up to where the game is over.
    pub fn principal_variation(&mut self, root: &Position) -> Vec<Position> {
        let mut line = vec![*root];
        while let Some(last) = line.last().filter(|last| !last.is_over()).copied() {
            line.push(last.play(self.best_move(&last)).expect("legal"));
        }
        line
    }
}

/// An exact certificate of `root` with optimal strategies for both players.
pub fn exact_certificate(solver: &mut Solver, root: &Position, small_seeds: u8) -> (i64, Draft) {
    let mover = root.player();
    let value = solver.value_for(root, mover);
    let halves = [solver.strategy(root, mover, small_seeds.into()), solver.strategy(root, 1 - mover, small_seeds.into())];
    (value, Draft::new(root, value as i32, value as i32, small_seeds, halves))
}
