//! The engine against the independent reference implementation of the rules
//! (`tests/reference`): on random positions of every board size and along random games, every
//! legal move must give the same position, extra move, end of game, capture and gain, and both
//! must agree on which moves are legal. The random number generators are seeded, so a failure
//! reproduces; its message names the position and the move.

mod reference;

use dakon_solver::dakon::{CaptureKind, Dakon, MoveError, Player, Position};
use dakon_solver::rules::Rules;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{notation, random, Board, Kind};

/// Random positions per board size (nine sizes).
const POSITIONS_PER_SIZE: usize = 20_000;
/// Random games per board size and seeds-per-hole.
const PLAYOUTS: usize = 30;

/// What the compared moves exercised, so that a test whose positions miss a rule fails.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    finished: usize,
    moves: usize,
    relays: usize,
    long_laps: usize,
    nembak: usize,
    mikul: usize,
    extra_moves: usize,
    sweeps: usize,
}

fn player(p: usize) -> Player {
    Player::from_number(p as u8).unwrap()
}

/// The engine's position for a reference board, built without the notation parser.
fn engine_position(board: &Board) -> Position {
    let row = |holes: &[u32]| holes.iter().map(|&s| s as u8).collect::<Vec<u8>>();
    let (top, bottom) = board.holes.split_at(board.n);
    Position::from_rows(&row(top), &row(bottom), [board.stores[1] as u8, board.stores[0] as u8], player(board.to_move))
        .unwrap_or_else(|e| panic!("engine refuses {}: {e}", notation::format(board)))
}

fn kind(kind: CaptureKind) -> Kind {
    match kind {
        CaptureKind::Nembak => Kind::Nembak,
        CaptureKind::Mikul => Kind::Mikul,
    }
}

/// Compares the engine with the reference on `board` and on every legal move from it, and
/// returns the reference's positions after each legal move.
fn compare(board: &Board, context: &str, coverage: &mut Coverage) -> Vec<Board> {
    let text = notation::format(board);
    let here = format!("{context}, position '{text}'");
    let rules = Dakon::new(board.n).unwrap();
    let pos = engine_position(board);
    assert_eq!(pos.to_string(), text, "{here}: engine notation");
    assert_eq!(text.parse::<Position>().as_ref(), Ok(&pos), "{here}: engine parser");
    assert_eq!(pos.mover(), player(board.to_move), "{here}: mover");
    assert_eq!(pos.seeds_on_board(), board.seeds_on_board(), "{here}: seeds on board");
    assert_eq!(rules.seeds_on_board(&pos), board.seeds_on_board(), "{here}: Rules::seeds_on_board");
    assert_eq!(pos.is_over(), board.is_over(), "{here}: is_over");
    let moves = board.moves();
    assert_eq!(pos.legal_holes(), moves, "{here}: legal holes");
    let mut rule_moves: Vec<usize> =
        rules.legal_moves(&pos).as_slice().iter().map(|&r| pos.absolute_hole(pos.mover(), r as usize)).collect();
    rule_moves.sort_unstable();
    assert_eq!(rule_moves, moves, "{here}: Rules::legal_moves");
    coverage.positions += 1;
    if board.is_over() {
        // The opponent will take every seed left on the board.
        assert_eq!(rules.terminal_gain(&pos), -(board.seeds_on_board() as i32), "{here}: terminal gain");
        let (own, other) = (board.stores[board.to_move] as i32, board.stores[1 - board.to_move] as i32);
        assert_eq!(pos.final_difference(), own - other - board.seeds_on_board() as i32, "{here}: final difference");
        coverage.finished += 1;
    }
    for hole in 0..=2 * board.n {
        if !moves.contains(&hole) {
            let expected = if hole >= 2 * board.n {
                MoveError::NoSuchHole { hole, holes: board.n }
            } else if board.is_over() {
                MoveError::GameOver
            } else if board.owner(hole) != board.to_move {
                MoveError::NotMoversHole { hole, mover: pos.mover() }
            } else {
                MoveError::EmptyHole { hole }
            };
            assert_eq!(pos.play_hole(hole).err(), Some(expected), "{here}: illegal hole {hole}");
        }
    }
    let mut successors = Vec::with_capacity(moves.len());
    for &hole in &moves {
        let here = format!("{here}, hole {hole}");
        let (after, report) = board.play(hole);
        let (next, outcome) = pos.play_hole(hole).unwrap_or_else(|e| panic!("{here}: engine refuses the move: {e}"));
        assert_eq!(next.to_string(), notation::format(&after), "{here}: position after ({outcome:?} vs {report:?})");
        assert_eq!(outcome.extra_move, report.extra_move, "{here}: extra move");
        assert_eq!(outcome.game_over(), report.sweep.is_some(), "{here}: game over");
        assert_eq!(outcome.captured() as u32, report.capture.map_or(0, |c| c.1), "{here}: seeds captured");
        assert_eq!(outcome.capture.map(|c| (kind(c.kind), c.seeds as u32)), report.capture, "{here}: capture");
        assert_eq!(outcome.sweep.map(|s| (s.to.number() as usize, s.seeds as u32)), report.sweep, "{here}: sweep");
        assert_eq!(outcome.laps, report.laps, "{here}: laps");
        assert_eq!(outcome.sown_into_store as u32, report.sown_into_store, "{here}: seeds sown into the store");
        assert_eq!(outcome.last_hole.map(usize::from), report.last_hole, "{here}: last hole");
        assert_eq!(outcome.gain(pos.mover()), report.gain, "{here}: gain");
        let r = (0..board.n).find(|&r| pos.absolute_hole(pos.mover(), r) == hole).unwrap();
        let step = rules.play(&pos, r as u8);
        assert_eq!(step.next, next, "{here}: Rules::play position");
        assert_eq!(step.gain, report.gain, "{here}: Rules::play gain");
        assert_eq!(step.same_mover, after.to_move == board.to_move, "{here}: Rules::play same mover");
        if report.sweep.is_some() {
            assert!(next.is_over() && next.legal_holes().is_empty(), "{here}: a finished game has moves");
            assert!(rules.legal_moves(&next).is_empty(), "{here}: a finished game has Rules::legal_moves");
            coverage.sweeps += 1;
        }
        coverage.moves += 1;
        coverage.relays += (report.laps > 1) as usize;
        coverage.long_laps += (board.holes[hole] > 2 * board.n as u32) as usize;
        coverage.extra_moves += report.extra_move as usize;
        match report.capture {
            Some((Kind::Nembak, _)) => coverage.nembak += 1,
            Some((Kind::Mikul, _)) => coverage.mikul += 1,
            None => {}
        }
        successors.push(after);
    }
    successors
}

fn random_positions(n: usize) {
    let seed = 0x5EED_0000 + n as u64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut coverage = Coverage::default();
    for i in 0..POSITIONS_PER_SIZE {
        let board = random::board(&mut rng, n);
        compare(&board, &format!("n = {n}, rng seed {seed:#x}, position #{i}"), &mut coverage);
    }
    assert!(coverage.finished > 0 && coverage.sweeps > 0 && coverage.relays > 0 && coverage.long_laps > 0, "n = {n}: {coverage:?}");
    assert!(coverage.nembak > 0 && coverage.extra_moves > 0, "n = {n}: {coverage:?}");
    assert!(n < 3 || coverage.mikul > 0, "n = {n}: no mikul: {coverage:?}");
    assert!(coverage.moves >= POSITIONS_PER_SIZE / 2, "n = {n}: too few moves compared: {coverage:?}");
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

/// Random games from every opening (n = 1..9, 1 to n+2 seeds a hole), every position along
/// the way compared on all its moves: the positions a real game reaches.
#[test]
fn random_playouts() {
    let mut coverage = Coverage::default();
    for n in 1..=9 {
        for s in 1..=n as u32 + 2 {
            let seed = 0x9A3E_0000 + 100 * n as u64 + s as u64;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for game in 0..PLAYOUTS {
                let mut board = Board::start(n, s);
                for ply in 0.. {
                    let context = format!("n = {n}, s = {s}, rng seed {seed:#x}, game {game}, ply {ply}");
                    let mut successors = compare(&board, &context, &mut coverage);
                    if successors.is_empty() {
                        break;
                    }
                    board = successors.swap_remove(rng.gen_range(0..successors.len()));
                }
            }
        }
    }
    assert!(coverage.mikul > 0 && coverage.nembak > 0 && coverage.sweeps > 0 && coverage.relays > 0, "{coverage:?}");
}

/// The rules' worked examples, through the reference: they check the reference itself.
#[test]
fn reference_follows_the_worked_examples() {
    let examples = notation::worked_examples();
    assert_eq!(examples.len(), 9);
    for (before, hole, expected) in examples {
        let board = notation::parse(before).unwrap();
        assert_eq!(notation::format(&board), before);
        let (after, _) = board.play(hole);
        assert_eq!(notation::format(&after), expected, "{before} hole {hole}");
    }
}
