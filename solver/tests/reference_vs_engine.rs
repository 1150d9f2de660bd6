//! The engine against the independent reference implementations of the rules
//! (`tests/reference`), for every rule set: on random positions of every board size and along
//! random games, every legal move must give the same position, extra move, capture, end of
//! game and gain (and, by the rules' own terms, Dakon's laps, nembak, mikul and sweep, Kalah's
//! end of game), and both must agree on which moves are legal and when the game is over. The
//! random number generators are seeded, so a failure reproduces; its message names the rules,
//! the position and the move.

use crate::reference;

use dakon_solver::dakon::{CaptureKind, MoveError, Player, Position};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{Played, RuleSet};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::rules::RefRules;
use reference::{notation, random, Board, Kind};

/// What each rule set's tests do: the same assertions, with each rule set's budgets and seeds.
struct Plan {
    rules: RefRules,
    /// Random positions per board size (nine sizes).
    positions_per_size: usize,
    /// Generator seed of the random positions on `n` holes per row.
    positions_seed: fn(usize) -> u64,
    /// Random games per board size and seeds per hole, and the most seeds per hole on `n`.
    playouts: usize,
    most_seeds: fn(usize) -> u32,
    /// Generator seed of the random games on `n` holes with `s` seeds a hole.
    playout_seed: fn(usize, u32) -> u64,
}

/// The plans of the base rule sets, then one per Dakon variant (fewer positions each: the
/// options change only how a lap, a nembak or a mikul ends).
fn plans() -> Vec<Plan> {
    let [dakon, kalah, empty_capture] = RefRules::ALL;
    let variant_plan = |rules| Plan {
        rules,
        positions_per_size: 4_000,
        positions_seed: |n| 0x0B7_0000 + n as u64,
        playouts: 8,
        most_seeds: |n| n as u32 + 2,
        playout_seed: |n, s| 0x0B8_0000 + 100 * n as u64 + u64::from(s),
    };
    let kalah_plan = |rules, offset| Plan {
        rules,
        positions_per_size: 10_000,
        positions_seed: if offset == 0 { |n| 0x4A1A_0000 + n as u64 } else { |n| 0x4A1A_0000 + n as u64 + 100 },
        playouts: 20,
        most_seeds: |_| 6,
        playout_seed: |n, s| 0x4A1B_0000 + 100 * n as u64 + u64::from(s),
    };
    let mut plans = vec![
        Plan {
            rules: dakon,
            positions_per_size: 20_000,
            positions_seed: |n| 0x5EED_0000 + n as u64,
            playouts: 30,
            most_seeds: |n| n as u32 + 2,
            playout_seed: |n, s| 0x9A3E_0000 + 100 * n as u64 + u64::from(s),
        },
        kalah_plan(kalah, 0),
        kalah_plan(empty_capture, 100),
    ];
    plans.extend(RefRules::VARIANTS.map(variant_plan));
    plans
}

/// What the compared moves exercised, so that a test whose positions miss a rule fails.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    finished: usize,
    moves: usize,
    long_laps: usize,
    extra_moves: usize,
    /// Moves that ended the game (Dakon's sweep, Kalah's end).
    ends: usize,
    captures: usize,
    /// Kalah: captures of a lone seed whose facing hole was empty.
    empty_captures: usize,
    relays: usize,
    nembak: usize,
    mikul: usize,
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

/// Why the engine must refuse `hole`, which the reference does not list as legal.
fn expected_error(rules: RefRules, board: &Board, hole: usize) -> MoveError {
    let over = rules.moves(board).is_empty();
    if hole >= 2 * board.n {
        MoveError::NoSuchHole { hole, holes: board.n }
    } else if over && rules.is_dakon() {
        MoveError::GameOver
    } else if over {
        let empty = if board.side_seeds(board.to_move) == 0 { board.to_move } else { 1 - board.to_move };
        MoveError::SideEmpty { player: player(empty) }
    } else if board.owner(hole) != board.to_move {
        MoveError::NotMoversHole { hole, mover: player(board.to_move) }
    } else {
        MoveError::EmptyHole { hole }
    }
}

/// Compares one move both ways, as far as the rule set says more than the common report;
/// returns the reference's position after it.
fn compare_move(rules: RefRules, board: &Board, hole: usize, played: &Played, here: &str, coverage: &mut Coverage) -> Board {
    let mover = player(board.to_move);
    match (rules, played) {
        (RefRules::Dakon(options), Played::Dakon(outcome)) => {
            let (after, report) = board.play_with(hole, options);
            assert_eq!(outcome.extra_move, report.extra_move, "{here}: extra move");
            assert_eq!(outcome.game_over(), report.sweep.is_some(), "{here}: game over");
            assert_eq!(outcome.captured() as u32, report.capture.map_or(0, |c| c.1), "{here}: seeds captured");
            assert_eq!(outcome.capture.map(|c| (kind(c.kind), c.seeds as u32)), report.capture, "{here}: capture");
            assert_eq!(outcome.sweep.map(|s| (s.to.number() as usize, s.seeds as u32)), report.sweep, "{here}: sweep");
            assert_eq!(outcome.laps, report.laps, "{here}: laps");
            assert_eq!(outcome.sown_into_store as u32, report.sown_into_store, "{here}: seeds sown into the store");
            assert_eq!(outcome.last_hole.map(usize::from), report.last_hole, "{here}: last hole");
            assert_eq!(outcome.gain(mover), report.gain, "{here}: gain");
            coverage.relays += (report.laps > 1) as usize;
            match report.capture {
                Some((Kind::Nembak, _)) => coverage.nembak += 1,
                Some((Kind::Mikul, _)) => coverage.mikul += 1,
                None => {}
            }
            coverage.captures += report.capture.is_some() as usize;
            after
        }
        (RefRules::Kalah(kalah), Played::Kalah(outcome)) => {
            let (after, report) = kalah.play(board, hole);
            assert_eq!(outcome.extra_move, report.extra_move, "{here}: extra move");
            assert_eq!(outcome.sown_into_store as u32, report.sown_into_store, "{here}: seeds sown into the store");
            assert_eq!(outcome.last_hole.map(usize::from), report.last_hole, "{here}: last hole");
            assert_eq!(outcome.capture.map(|c| c.seeds() as u32), report.captured, "{here}: capture");
            assert_eq!(outcome.end.map(|e| e.map(u32::from)), report.end, "{here}: end of the game");
            assert_eq!(outcome.gain(mover), report.gain, "{here}: gain");
            if let Some(c) = outcome.capture {
                coverage.captures += 1;
                coverage.empty_captures += (c.facing == 0) as usize;
            }
            after
        }
        (rules, played) => panic!("{here}: {} played by the engine as {played:?}", rules.name()),
    }
}

/// Compares the engine with the reference on `board` and on every legal move from it, and
/// returns the reference's positions after each legal move.
fn compare(rules: RefRules, board: &Board, context: &str, coverage: &mut Coverage) -> Vec<Board> {
    let text = notation::format(board);
    let here = format!("{} {context}, position '{text}'", rules.name());
    let engine: RuleSet = rules.engine(board.n);
    let pos = engine_position(board);
    assert_eq!(pos.to_string(), text, "{here}: engine notation");
    assert_eq!(text.parse::<Position>().as_ref(), Ok(&pos), "{here}: engine parser");
    assert_eq!(pos.mover(), player(board.to_move), "{here}: mover");
    assert_eq!(pos.seeds_on_board(), board.seeds_on_board(), "{here}: seeds on board");
    assert_eq!(engine.seeds_on_board(&pos), board.seeds_on_board(), "{here}: Rules::seeds_on_board");
    let moves = rules.moves(board);
    let over = moves.is_empty();
    assert_eq!(engine.is_over(&pos), over, "{here}: is_over");
    assert_eq!(engine.legal_holes(&pos), moves, "{here}: Rules::legal_moves");
    if rules == RefRules::DAKON {
        assert_eq!(pos.is_over(), board.is_over(), "{here}: Position::is_over");
        assert_eq!(pos.legal_holes(), moves, "{here}: Position::legal_holes");
    }
    coverage.positions += 1;
    if over {
        let stores = board.stores[board.to_move] as i32 - board.stores[1 - board.to_move] as i32;
        assert_eq!(stores + engine.terminal_gain(&pos), rules.final_difference(board), "{here}: terminal gain");
        assert_eq!(engine.final_difference(&pos), rules.final_difference(board), "{here}: final difference");
        coverage.finished += 1;
    }
    for hole in (0..=2 * board.n).filter(|hole| !moves.contains(hole)) {
        assert_eq!(engine.play_hole(&pos, hole).err(), Some(expected_error(rules, board, hole)), "{here}: illegal hole {hole}");
    }
    let mut successors = Vec::with_capacity(moves.len());
    for &hole in &moves {
        let here = format!("{here}, hole {hole}");
        let (next, played) = engine.play_hole(&pos, hole).unwrap_or_else(|e| panic!("{here}: engine refuses the move: {e}"));
        let after = compare_move(rules, board, hole, &played, &here, coverage);
        assert_eq!(next.to_string(), notation::format(&after), "{here}: position after ({played:?})");
        let gain = played.gain(pos.mover());
        let r = (0..board.n).find(|&r| pos.absolute_hole(pos.mover(), r) == hole).unwrap();
        let step = engine.play(&pos, r as u8);
        assert_eq!(step.next, next, "{here}: Rules::play position");
        assert_eq!(step.gain, gain, "{here}: Rules::play gain");
        assert_eq!(step.same_mover, after.to_move == board.to_move, "{here}: Rules::play same mover");
        if played.game_over() {
            assert!(engine.legal_moves(&next).is_empty(), "{here}: a finished game has Rules::legal_moves");
            if rules == RefRules::DAKON {
                assert!(next.is_over() && next.legal_holes().is_empty(), "{here}: a finished game has moves");
            } else {
                assert_eq!(engine.terminal_gain(&next), 0, "{here}: a finished game's board is empty");
            }
            coverage.ends += 1;
        }
        coverage.moves += 1;
        coverage.long_laps += (board.holes[hole] > 2 * board.n as u32) as usize;
        coverage.extra_moves += played.extra_move() as usize;
        successors.push(after);
    }
    successors
}

/// What random positions of `n` holes must have exercised under `rules`.
fn assert_covered(rules: RefRules, n: usize, positions: usize, coverage: &Coverage) {
    let here = format!("{} n = {n}: {coverage:?}", rules.name());
    assert!(coverage.finished > 0 && coverage.ends > 0 && coverage.long_laps > 0, "{here}");
    // With one hole a side and skip-origin, no lap can end in the mover's only hole empty.
    let captures_possible = !(n == 1 && matches!(rules, RefRules::Dakon(o) if o.skip_origin));
    assert!((coverage.captures > 0) == captures_possible && coverage.extra_moves > 0, "{here}");
    match rules {
        RefRules::Dakon(options) => {
            assert!(coverage.relays > 0 && (coverage.nembak > 0) == captures_possible, "{here}");
            if options.no_mikul {
                assert_eq!(coverage.mikul, 0, "{here}: a mikul under no-mikul");
            } else {
                assert!(n < 3 || coverage.mikul > 0, "{here}: no mikul");
            }
            assert!(coverage.moves >= positions / 2, "{here}: too few moves compared");
        }
        RefRules::Kalah(kalah) => {
            // With one hole a side, an empty facing hole means the game is already over.
            assert_eq!(coverage.empty_captures > 0, kalah.empty_capture && n > 1, "{here}");
            assert!(coverage.moves >= positions / 3, "{here}: too few moves compared");
        }
    }
}

fn random_positions(n: usize) {
    for plan in plans() {
        let seed = (plan.positions_seed)(n);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut coverage = Coverage::default();
        for i in 0..plan.positions_per_size {
            let board = random::board(&mut rng, n);
            compare(plan.rules, &board, &format!("n = {n}, rng seed {seed:#x}, position #{i}"), &mut coverage);
        }
        assert_covered(plan.rules, n, plan.positions_per_size, &coverage);
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

/// Random games from every opening (n = 1..9, 1 to the plan's most seeds a hole), every
/// position along the way compared on all its moves: the positions a real game reaches.
#[test]
fn random_playouts() {
    for plan in plans() {
        let mut coverage = Coverage::default();
        for n in 1..=9 {
            for s in 1..=(plan.most_seeds)(n) {
                let seed = (plan.playout_seed)(n, s);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for game in 0..plan.playouts {
                    let mut board = Board::start(n, s);
                    for ply in 0.. {
                        let context = format!("n = {n}, s = {s}, rng seed {seed:#x}, game {game}, ply {ply}");
                        let mut successors = compare(plan.rules, &board, &context, &mut coverage);
                        if successors.is_empty() {
                            break;
                        }
                        board = successors.swap_remove(rng.gen_range(0..successors.len()));
                    }
                }
            }
        }
        let here = format!("{}: {coverage:?}", plan.rules.name());
        assert!(coverage.captures > 0 && coverage.ends > 0 && coverage.extra_moves > 0, "{here}");
        if let RefRules::Dakon(options) = plan.rules {
            assert!((coverage.mikul > 0) != options.no_mikul && coverage.nembak > 0 && coverage.relays > 0, "{here}");
        }
    }
}

/// The rules' worked examples, through the references: they check the references themselves.
#[test]
fn reference_follows_the_worked_examples() {
    let examples = notation::worked_examples();
    let counts = RefRules::ALL.map(|rules| examples.iter().filter(|example| example.0 == rules).count());
    assert_eq!(counts, [9, 12, 1], "examples of dakon, kalah, kalah-empty-capture");
    for (rules, before, hole, expected) in examples {
        let board = notation::parse(before).unwrap();
        assert_eq!(notation::format(&board), before);
        let after = rules.play(&board, hole);
        assert_eq!(notation::format(&after), expected, "{} {before} hole {hole}", rules.name());
    }
}
