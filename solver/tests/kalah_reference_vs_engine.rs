//! The Kalah engine against the independent reference implementation of the rules
//! (`tests/reference/kalah.rs`): on random positions of every board size and along random
//! games, under both capture rules, every legal move must give the same position, extra move,
//! capture, end of game and gain, and both must agree on which moves are legal and when the
//! game is over. The random number generators are seeded, so a failure reproduces; its
//! message names the position and the move.

mod reference;

use dakon_solver::dakon::{MoveError, Player, Position};
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::rules::Rules;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::kalah::Kalah as Reference;
use reference::{notation, random, Board};

/// Random positions per board size (nine sizes) and capture rule.
const POSITIONS_PER_SIZE: usize = 10_000;
/// Random games per board size, seeds per hole and capture rule.
const PLAYOUTS: usize = 20;

/// What the compared moves exercised, so that a test whose positions miss a rule fails.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    finished: usize,
    moves: usize,
    long_laps: usize,
    captures: usize,
    empty_captures: usize,
    extra_moves: usize,
    ends: usize,
}

fn engine_rules(reference: Reference, n: usize) -> Kalah {
    Kalah::new(n, if reference.empty_capture { CaptureRule::Always } else { CaptureRule::FacingSeeds }).unwrap()
}

/// Compares the engine with the reference on `board` and on every legal move from it, and
/// returns the reference's positions after each legal move.
fn compare(reference: Reference, board: &Board, context: &str, coverage: &mut Coverage) -> Vec<Board> {
    let text = notation::format(board);
    let here = format!("{} {context}, position '{text}'", reference.name());
    let rules = engine_rules(reference, board.n);
    let pos: Position = text.parse().unwrap_or_else(|e| panic!("{here}: engine refuses the notation: {e}"));
    assert_eq!(rules.seeds_on_board(&pos), board.seeds_on_board(), "{here}: seeds on board");
    assert_eq!(rules.is_over(&pos), reference.is_over(board), "{here}: is_over");
    let moves = reference.moves(board);
    let mut rule_moves: Vec<usize> =
        rules.legal_moves(&pos).as_slice().iter().map(|&r| pos.absolute_hole(pos.mover(), r as usize)).collect();
    rule_moves.sort_unstable();
    assert_eq!(rule_moves, moves, "{here}: Rules::legal_moves");
    coverage.positions += 1;
    if reference.is_over(board) {
        let stores = board.stores[board.to_move] as i32 - board.stores[1 - board.to_move] as i32;
        assert_eq!(stores + rules.terminal_gain(&pos), reference.final_difference(board), "{here}: terminal gain");
        coverage.finished += 1;
    }
    for hole in 0..=2 * board.n {
        if !moves.contains(&hole) {
            let expected = if hole >= 2 * board.n {
                MoveError::NoSuchHole { hole, holes: board.n }
            } else if reference.is_over(board) {
                let empty = if board.side_seeds(board.to_move) == 0 { board.to_move } else { 1 - board.to_move };
                MoveError::SideEmpty { player: Player::from_number(empty as u8).unwrap() }
            } else if board.owner(hole) != board.to_move {
                MoveError::NotMoversHole { hole, mover: pos.mover() }
            } else {
                MoveError::EmptyHole { hole }
            };
            assert_eq!(rules.play_hole(&pos, hole).err(), Some(expected), "{here}: illegal hole {hole}");
        }
    }
    let mut successors = Vec::with_capacity(moves.len());
    for &hole in &moves {
        let here = format!("{here}, hole {hole}");
        let (after, report) = reference.play(board, hole);
        let (next, outcome) = rules.play_hole(&pos, hole).unwrap_or_else(|e| panic!("{here}: engine refuses the move: {e}"));
        assert_eq!(next.to_string(), notation::format(&after), "{here}: position after ({outcome:?} vs {report:?})");
        assert_eq!(outcome.extra_move, report.extra_move, "{here}: extra move");
        assert_eq!(outcome.sown_into_store as u32, report.sown_into_store, "{here}: seeds sown into the store");
        assert_eq!(outcome.last_hole.map(usize::from), report.last_hole, "{here}: last hole");
        assert_eq!(outcome.capture.map(|c| c.seeds() as u32), report.captured, "{here}: capture");
        assert_eq!(outcome.end.map(|e| e.map(u32::from)), report.end, "{here}: end of the game");
        assert_eq!(outcome.gain(pos.mover()), report.gain, "{here}: gain");
        let r = (0..board.n).find(|&r| pos.absolute_hole(pos.mover(), r) == hole).unwrap();
        let step = rules.play(&pos, r as u8);
        assert_eq!(step.next, next, "{here}: Rules::play position");
        assert_eq!(step.gain, report.gain, "{here}: Rules::play gain");
        assert_eq!(step.same_mover, after.to_move == board.to_move, "{here}: Rules::play same mover");
        if report.end.is_some() {
            assert!(rules.legal_moves(&next).is_empty(), "{here}: a finished game has Rules::legal_moves");
            assert_eq!(rules.terminal_gain(&next), 0, "{here}: a finished game's board is empty");
            coverage.ends += 1;
        }
        coverage.moves += 1;
        coverage.long_laps += (board.holes[hole] > 2 * board.n as u32) as usize;
        coverage.extra_moves += report.extra_move as usize;
        if let Some(c) = outcome.capture {
            coverage.captures += 1;
            coverage.empty_captures += (c.facing == 0) as usize;
        }
        successors.push(after);
    }
    successors
}

fn random_positions(n: usize) {
    for reference in [Reference::STANDARD, Reference::EMPTY_CAPTURE] {
        let seed = 0x4A1A_0000 + n as u64 + if reference.empty_capture { 100 } else { 0 };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut coverage = Coverage::default();
        for i in 0..POSITIONS_PER_SIZE {
            let board = random::board(&mut rng, n);
            compare(reference, &board, &format!("n = {n}, rng seed {seed:#x}, position #{i}"), &mut coverage);
        }
        let here = format!("{} n = {n}: {coverage:?}", reference.name());
        assert!(coverage.finished > 0 && coverage.ends > 0 && coverage.long_laps > 0, "{here}");
        assert!(coverage.captures > 0 && coverage.extra_moves > 0, "{here}");
        // With one hole a side, an empty facing hole means the game is already over.
        assert_eq!(coverage.empty_captures > 0, reference.empty_capture && n > 1, "{here}");
        assert!(coverage.moves >= POSITIONS_PER_SIZE / 3, "{here}: too few moves compared");
    }
}

#[test]
fn random_positions_n1() {
    random_positions(1);
}
#[test]
fn random_positions_n2() {
    random_positions(2);
}
#[test]
fn random_positions_n3() {
    random_positions(3);
}
#[test]
fn random_positions_n4() {
    random_positions(4);
}
#[test]
fn random_positions_n5() {
    random_positions(5);
}
#[test]
fn random_positions_n6() {
    random_positions(6);
}
#[test]
fn random_positions_n7() {
    random_positions(7);
}
#[test]
fn random_positions_n8() {
    random_positions(8);
}
#[test]
fn random_positions_n9() {
    random_positions(9);
}

/// Random games from every opening (n = 1..9, 1 to 6 seeds a hole), every position along the
/// way compared on all its moves: the positions a real game reaches.
#[test]
fn random_playouts() {
    for reference in [Reference::STANDARD, Reference::EMPTY_CAPTURE] {
        let mut coverage = Coverage::default();
        for n in 1..=9 {
            for s in 1..=6 {
                let seed = 0x4A1B_0000 + 100 * n as u64 + s as u64;
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for game in 0..PLAYOUTS {
                    let mut board = Board::start(n, s);
                    for ply in 0.. {
                        let context = format!("n = {n}, s = {s}, rng seed {seed:#x}, game {game}, ply {ply}");
                        let mut successors = compare(reference, &board, &context, &mut coverage);
                        if successors.is_empty() {
                            break;
                        }
                        board = successors.swap_remove(rng.gen_range(0..successors.len()));
                    }
                }
            }
        }
        assert!(coverage.captures > 0 && coverage.ends > 0 && coverage.extra_moves > 0, "{}: {coverage:?}", reference.name());
    }
}

/// The rules' worked examples, through the reference: they check the reference itself.
#[test]
fn reference_follows_the_worked_examples() {
    let examples = notation::data_lines(include_str!("data/kalah_worked_examples.txt"));
    assert_eq!(examples.len(), 13);
    for fields in examples {
        let [rules, before, hole, expected] = fields[..] else { panic!("malformed line {fields:?}") };
        let reference = [Reference::STANDARD, Reference::EMPTY_CAPTURE].into_iter().find(|r| r.name() == rules).unwrap();
        let board = notation::parse(before).unwrap();
        let (after, _) = reference.play(&board, hole.parse().unwrap());
        assert_eq!(notation::format(&after), expected, "{rules} {before} hole {hole}");
    }
}
