//! `no-first-turn-capture` against the reference (`tests/reference/opening.rs`): the rules
//! page's worked examples, every move of random opening states under every combination of
//! options, and perft counts from the reference (`data/perft_first_turn.txt`).

use crate::reference;

use dakon_solver::dakon::{DakonOptions, OpeningState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::opening::Opening;
use reference::{notation, random, Options};

/// The reference's options and the engine's of a rules name carrying `no-first-turn-capture`.
fn options(name: &str) -> (Options, DakonOptions) {
    let engine: DakonOptions = name.strip_prefix("dakon:").expect("a Dakon variant").parse().unwrap();
    assert!(engine.contains(DakonOptions::NO_FIRST_TURN_CAPTURE), "{name}");
    let reference = Options {
        nembak_lander: engine.contains(DakonOptions::NEMBAK_LANDER),
        no_mikul: engine.contains(DakonOptions::NO_MIKUL),
        skip_origin: engine.contains(DakonOptions::SKIP_ORIGIN),
        no_capture: false,
    };
    (reference, engine)
}

/// The engine's perft of an opening state.
fn engine_perft(state: &OpeningState, depth: u32, options: DakonOptions) -> u64 {
    if depth == 0 {
        return 1;
    }
    state.position.legal_holes().into_iter().map(|h| engine_perft(&state.play_hole_with(h, options).unwrap().0, depth - 1, options)).sum()
}

#[test]
fn worked_examples_by_the_reference_and_the_engine() {
    let lines = notation::data_lines(include_str!("data/first_turn_examples.txt"));
    assert!(lines.len() >= 6);
    for f in lines {
        let [rules, before, hole, after] = f[..] else { panic!("malformed line {f:?}") };
        let (by_reference, by_engine) = options(rules);
        let hole: usize = hole.parse().unwrap();
        let reference = Opening::parse(before).unwrap().play(hole, by_reference).0;
        assert_eq!(reference.format(), after, "reference: {rules} ; {before} ; {hole}");
        let state: OpeningState = before.parse().unwrap();
        let (engine, _) = state.play_hole_with(hole, by_engine).unwrap();
        assert_eq!(engine.to_string(), after, "engine: {rules} ; {before} ; {hole}");
    }
}

#[test]
fn random_states_play_as_the_reference_under_every_combination() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xF1257);
    let mut first_turn_moves = 0;
    for board_options in DakonOptions::ALL {
        let name = board_options.with(DakonOptions::NO_FIRST_TURN_CAPTURE).rules_name();
        let (by_reference, by_engine) = options(name);
        for n in 1..=9 {
            for _ in 0..300 {
                let board = random::board(&mut rng, n);
                let pending = if board.is_over() { [false, false] } else { [rng.r#gen(), rng.r#gen()] };
                let opening = Opening { board, pending };
                let state: OpeningState = opening.format().parse().unwrap();
                assert_eq!(state.to_string(), opening.format());
                for hole in opening.board.moves() {
                    let (reference, report) = opening.play(hole, by_reference);
                    let (engine, outcome) = state.play_hole_with(hole, by_engine).unwrap();
                    let context = format!("{name} ; {} ; {hole}", opening.format());
                    assert_eq!(engine.to_string(), reference.format(), "{context}");
                    assert_eq!(outcome.gain(state.position.mover()), report.gain, "{context}");
                    if state.in_first_turn(state.position.mover()) {
                        assert!(outcome.capture.is_none(), "{context}");
                        first_turn_moves += 1;
                    }
                }
            }
        }
    }
    assert!(first_turn_moves > 10_000, "too few first-turn moves: {first_turn_moves}");
}

/// The perft data file: `rules ; state ; depth ; nodes`, counted by the reference.
fn perft_lines() -> Vec<(String, String, u32, u64)> {
    notation::data_lines(include_str!("data/perft_first_turn.txt"))
        .into_iter()
        .map(|f| (f[0].to_string(), f[1].to_string(), f[2].parse().unwrap(), f[3].parse().unwrap()))
        .collect()
}

#[test]
fn perft_matches_the_reference_data() {
    let lines = perft_lines();
    assert!(lines.len() >= 12, "perft_first_turn.txt is short");
    for (rules, state, depth, nodes) in lines {
        let (_, by_engine) = options(&rules);
        assert_eq!(engine_perft(&state.parse().unwrap(), depth, by_engine), nodes, "{rules} ; {state} ; {depth}");
    }
}

/// Writes `data/perft_first_turn.txt`'s lines with the reference: three starts, each until a
/// depth passes 200,000 leaves.
#[test]
#[ignore]
fn print_perft_data() {
    for rules in ["dakon:no-first-turn-capture", "dakon:no-first-turn-capture,traditional"] {
        let (by_reference, _) = options(rules);
        for (n, s) in [(3, 3), (5, 5), (7, 7)] {
            let start = Opening { board: reference::Board::start(n, s), pending: [true, true] };
            for depth in 1.. {
                let nodes = start.perft(depth, by_reference);
                println!("{rules} ; {} ; {depth} ; {nodes}", start.format());
                if nodes > 200_000 || nodes == 0 {
                    break;
                }
            }
        }
    }
}

#[test]
fn the_start_is_both_players_first_turns() {
    let start = OpeningState::start(7, 7).unwrap();
    assert!(start.in_first_turn(Player::Zero) && start.in_first_turn(Player::One));
}
