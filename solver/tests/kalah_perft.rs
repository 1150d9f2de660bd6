//! Kalah perft (leaf counts of the move tree) of the engine against the reference
//! implementation, under both capture rules: openings of every size, random mid-game
//! positions, and the counts stored in `tests/data/kalah_perft.txt` (made with the reference;
//! see the file's header).

mod reference;

use dakon_solver::dakon::Position;
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::perft::perft;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::kalah::Kalah as Reference;
use reference::{notation, Board};

/// Leaf count above which a perft check stops going deeper, to keep the tests quick.
const LEAF_BUDGET: u64 = 30_000;

const BOTH: [Reference; 2] = [Reference::STANDARD, Reference::EMPTY_CAPTURE];

fn engine_perft(reference: Reference, board: &Board, depth: u32) -> u64 {
    let pos: Position = notation::format(board).parse().unwrap();
    let rule = if reference.empty_capture { CaptureRule::Always } else { CaptureRule::FacingSeeds };
    perft(&Kalah::new(board.n, rule).unwrap(), &pos, depth)
}

/// Compares the two perfts at depths 1, 2, ... until the count passes [`LEAF_BUDGET`];
/// returns the deepest depth compared.
fn agree_up_to_budget(reference: Reference, board: &Board) -> u32 {
    for depth in 1.. {
        let expected = reference.perft(board, depth);
        assert_eq!(engine_perft(reference, board, depth), expected, "{} perft({}, {depth})", reference.name(), notation::format(board));
        if expected > LEAF_BUDGET || expected == 0 {
            return depth;
        }
    }
    unreachable!()
}

#[test]
fn openings_of_every_size() {
    for reference in BOTH {
        for n in 1..=9 {
            for s in [1, 2, 3, 4, 6] {
                let depth = agree_up_to_budget(reference, &Board::start(n, s));
                assert!(depth >= 3 || n == 1, "n = {n}, s = {s}: only depth {depth}");
            }
        }
    }
}

/// Positions reached by random games from openings (both players to move), then the same
/// positions with the players exchanged.
#[test]
fn random_mid_game_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4A_F7);
    for reference in BOTH {
        for n in 2..=9 {
            for _ in 0..4 {
                let mut board = Board::start(n, rng.gen_range(1..=6));
                for _ in 0..rng.gen_range(2..30) {
                    let moves = reference.moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    board = reference.play(&board, moves[rng.gen_range(0..moves.len())]).0;
                }
                agree_up_to_budget(reference, &board);
                agree_up_to_budget(reference, &board.mirror());
            }
        }
    }
}

/// One line of the data file: rules, position, depth, leaf count.
struct Line {
    reference: Reference,
    position: String,
    depth: u32,
    nodes: u64,
}

fn data_file() -> Vec<Line> {
    notation::data_lines(include_str!("data/kalah_perft.txt"))
        .into_iter()
        .map(|f| {
            assert_eq!(f.len(), 4, "kalah_perft.txt: malformed line {f:?}");
            let reference = BOTH.into_iter().find(|r| r.name() == f[0]).unwrap_or_else(|| panic!("kalah_perft.txt: rules {}", f[0]));
            Line { reference, position: f[1].to_string(), depth: f[2].parse().unwrap(), nodes: f[3].parse().unwrap() }
        })
        .collect()
}

fn check_data_file(max_nodes: u64) -> usize {
    let mut checked = 0;
    for line in data_file().iter().filter(|l| l.nodes <= max_nodes) {
        let board = notation::parse(&line.position).unwrap();
        assert_eq!(
            engine_perft(line.reference, &board, line.depth),
            line.nodes,
            "kalah_perft.txt: {} ; {} ; {}",
            line.reference.name(),
            line.position,
            line.depth
        );
        checked += 1;
    }
    checked
}

/// Every line of the data file up to 2,000,000 leaves, which includes the 6 x 4 opening to
/// depth 8 under both rules.
#[test]
fn data_file_quick_lines() {
    let opening = "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0";
    let lines = data_file();
    for reference in BOTH {
        for depth in 1..=8 {
            assert!(
                lines.iter().any(|l| l.reference == reference && l.position == opening && l.depth == depth),
                "kalah_perft.txt lacks the {} 6x4 opening at depth {depth}",
                reference.name()
            );
        }
    }
    assert!(check_data_file(2_000_000) >= 100, "too few kalah_perft.txt lines checked");
}

/// Every line of the data file:
/// `cargo test --release -p dakon-solver --test kalah_perft -- --ignored data_file_all_lines`.
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
        assert_eq!(
            line.reference.perft(&board, line.depth),
            line.nodes,
            "kalah_perft.txt: {} ; {} ; {}",
            line.reference.name(),
            line.position,
            line.depth
        );
    }
}

/// Writes the data file's lines with the reference implementation:
/// `cargo test --release -p dakon-solver --test kalah_perft -- --ignored --nocapture print_perft_data | grep ' ; '`.
#[test]
#[ignore]
fn print_perft_data() {
    for reference in BOTH {
        let mut positions: Vec<(Board, u64)> = vec![(Board::start(6, 4), 30_000_000), (Board::start(6, 6), 12_000_000)];
        for n in 1..=9 {
            for s in [1, 3, n as u32] {
                positions.push((Board::start(n, s), 2_000_000));
            }
        }
        for text in [
            "0,3,0,0,0,1/1,0,0,0,0,2 0/0 0",
            "1,1,1,1,1,1/13,1,1,1,1,1 0/0 0",
            "0,0,1/8,0,1 0/0 0",
            "0,0,0,0,0,0,0,0,1/200,0,0,0,0,0,0,0,0 0/0 0",
        ] {
            positions.push((notation::parse(text).unwrap(), 2_000_000));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0x4A7A);
        for n in [3, 5, 6, 7, 9] {
            for _ in 0..3 {
                let mut board = Board::start(n, rng.gen_range(3..=6));
                for _ in 0..rng.gen_range(4..20) {
                    let moves = reference.moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    board = reference.play(&board, moves[rng.gen_range(0..moves.len())]).0;
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
                let nodes = reference.perft(&board, depth);
                println!("{} ; {} ; {depth} ; {nodes}", reference.name(), notation::format(&board));
                if nodes == 0 || nodes > budget / 6 || depth == 12 {
                    break;
                }
            }
        }
    }
}
