//! Perft (leaf counts of the move tree) of the engine against the reference implementation,
//! on openings of every size, on random mid-game positions, and against the counts stored in
//! `tests/data/perft.txt` (made with the reference; see the file's header).

mod reference;

use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::perft::perft;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{notation, Board};

/// Leaf count above which a perft check stops going deeper, to keep the tests quick.
const LEAF_BUDGET: u64 = 60_000;

fn engine_perft(board: &Board, depth: u32) -> u64 {
    let pos: Position = notation::format(board).parse().unwrap();
    perft(&Dakon::new(board.n).unwrap(), &pos, depth)
}

/// Compares the two perfts at depths 1, 2, ... until the count passes [`LEAF_BUDGET`];
/// returns the deepest depth compared.
fn agree_up_to_budget(board: &Board) -> u32 {
    for depth in 1.. {
        let expected = reference::perft(board, depth);
        assert_eq!(engine_perft(board, depth), expected, "perft({}, {depth})", notation::format(board));
        if expected > LEAF_BUDGET || expected == 0 {
            return depth;
        }
    }
    unreachable!()
}

#[test]
fn openings_of_every_size() {
    for n in 1..=9 {
        for s in [1, 2, n as u32, n as u32 + 2] {
            let depth = agree_up_to_budget(&Board::start(n, s));
            assert!(depth >= 3 || n == 1, "n = {n}, s = {s}: only depth {depth}");
        }
    }
}

/// Positions reached by random games from openings (both players to move), then the same
/// positions with the players exchanged.
#[test]
fn random_mid_game_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xBE_F7);
    for n in 2..=9 {
        for _ in 0..6 {
            let mut board = Board::start(n, rng.gen_range(1..=n as u32 + 2));
            for _ in 0..rng.gen_range(2..30) {
                let moves = board.moves();
                if moves.is_empty() {
                    break;
                }
                board = board.play(moves[rng.gen_range(0..moves.len())]).0;
            }
            agree_up_to_budget(&board);
            agree_up_to_budget(&board.mirror());
        }
    }
}

/// One line of the data file: position, depth, leaf count.
struct Line {
    position: String,
    depth: u32,
    nodes: u64,
}

fn data_file() -> Vec<Line> {
    notation::data_lines(include_str!("data/perft.txt"))
        .into_iter()
        .map(|f| {
            assert_eq!(f.len(), 3, "perft.txt: malformed line {f:?}");
            Line { position: f[0].to_string(), depth: f[1].parse().unwrap(), nodes: f[2].parse().unwrap() }
        })
        .collect()
}

fn check_data_file(max_nodes: u64) -> usize {
    let mut checked = 0;
    for line in data_file().iter().filter(|l| l.nodes <= max_nodes) {
        let board = notation::parse(&line.position).unwrap();
        assert_eq!(engine_perft(&board, line.depth), line.nodes, "perft.txt: {} ; {}", line.position, line.depth);
        checked += 1;
    }
    checked
}

/// Every line of the data file up to 300,000 leaves, which includes the 7x7 opening to
/// depth 7.
#[test]
fn data_file_quick_lines() {
    let opening = "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0";
    let lines = data_file();
    for depth in 1..=10 {
        assert!(lines.iter().any(|l| l.position == opening && l.depth == depth), "perft.txt lacks the 7x7 opening at depth {depth}");
    }
    assert!(check_data_file(300_000) >= 50, "too few perft.txt lines checked");
}

/// Every line of the data file (a minute or so):
/// `cargo test --release -p dakon-solver --test perft_agreement -- --ignored data_file_all_lines`.
#[test]
#[ignore]
fn data_file_all_lines() {
    check_data_file(u64::MAX);
}

/// The reference also reproduces the cheap lines of the data file it made.
#[test]
fn data_file_matches_the_reference() {
    for line in data_file().iter().filter(|l| l.nodes <= 20_000) {
        let board = notation::parse(&line.position).unwrap();
        assert_eq!(reference::perft(&board, line.depth), line.nodes, "perft.txt: {} ; {}", line.position, line.depth);
    }
}

/// Writes the data file's lines with the reference implementation:
/// `cargo test --release -p dakon-solver --test perft_agreement -- --ignored --nocapture print_perft_data | grep ' ; '`.
#[test]
#[ignore]
fn print_perft_data() {
    let mut positions: Vec<(Board, u64)> = vec![(Board::start(7, 7), 50_000_000)];
    for n in 1..=9 {
        for s in [1, 3, n as u32] {
            positions.push((Board::start(n, s), 2_000_000));
        }
    }
    for text in [
        "0,3,0,2,2/1,0,0,0,2 0/0 0",
        "2,1,2,0,0/0,0,0,0,4 0/0 0",
        "1,1,2,0,1/0,0,0,0,3 0/0 0",
        "1,0,0/2,0,0 0/0 1",
        "0,0,0,0,0,0,0,0,0/255,0,0,0,0,0,0,0,0 0/0 0",
        "28,28,28,28,28,28,28,28,28/0,0,0,0,0,0,0,0,3 0/0 1",
    ] {
        positions.push((notation::parse(text).unwrap(), 2_000_000));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0xDA7A);
    for n in [3, 5, 7, 9] {
        for _ in 0..3 {
            let mut board = Board::start(n, n as u32);
            for _ in 0..rng.gen_range(4..20) {
                let moves = board.moves();
                if moves.is_empty() {
                    break;
                }
                board = board.play(moves[rng.gen_range(0..moves.len())]).0;
            }
            positions.push((board, 2_000_000));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (board, budget) in positions {
        if !seen.insert(notation::format(&board)) {
            continue;
        }
        for depth in 1.. {
            let nodes = reference::perft(&board, depth);
            println!("{} ; {depth} ; {nodes}", notation::format(&board));
            if nodes == 0 || nodes > budget / 6 || depth == 12 {
                break;
            }
        }
    }
}
