//! The certificate checker's own rules (`dakon_check::rules`, written from
//! docs/formats/certificates.md) against the solver's engine: the only place the two meet. For every
//! rule set (Dakon, Kalah, Kalah with empty capture), on random positions of every board size
//! (the corner-seeking generator of the engine's own reference tests) and along random games,
//! both must agree on the legal moves, on the position after every move (holes, stores, who
//! moves), on the end of the game and on its final stores.

use crate::reference;

use dakon_check::rules::{Position as CheckerPosition, Rules as CheckerRules};
use dakon_solver::dakon::{Player, Position};
use dakon_solver::ruleset::{RuleSet, RulesName};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The checker's name for the engine's rule set.
fn checker_rules(name: RulesName) -> CheckerRules {
    match name {
        RulesName::Dakon(_) => CheckerRules::from_name(name.as_str()).expect("the checker knows every Dakon option"),
        RulesName::Kalah => CheckerRules::Kalah,
        RulesName::KalahEmptyCapture => CheckerRules::KalahEmptyCapture,
    }
}

/// The same position for the checker: holes in the notation's order, stores `[S0, S1]`.
fn for_checker(name: RulesName, position: &Position) -> CheckerPosition {
    let stores = [position.store(Player::Zero), position.store(Player::One)];
    CheckerPosition::new(checker_rules(name), &position.holes_in_notation_order(), stores, position.mover().number() as usize)
        .unwrap_or_else(|e| panic!("{position}: {e}"))
}

/// Asserts that the two positions are the same: holes, stores and player to move.
fn assert_same(engine: &Position, checker: &CheckerPosition, context: &str) {
    assert_eq!(checker.holes(), engine.holes_in_notation_order().as_slice(), "holes {context}");
    assert_eq!(checker.stores(), [engine.store(Player::Zero), engine.store(Player::One)], "stores {context}");
    assert_eq!(checker.player(), engine.mover().number() as usize, "player {context}");
}

/// Compares everything the checker's rules `name` say about `position` with the engine's, and
/// returns the positions after each legal move.
fn agree(name: RulesName, position: &Position) -> Vec<Position> {
    let rules = RuleSet::of(name, position);
    let checker = for_checker(name, position);
    let context = format!("{position} under {name}");
    assert_same(position, &checker, &format!("of {context}"));
    assert_eq!(checker.is_over(), rules.is_over(position), "game over at {context}");
    let holes = rules.legal_holes(position);
    assert_eq!(checker.legal_moves(), holes, "legal moves of {context}");
    if rules.is_over(position) {
        let final_stores = checker.final_stores().expect("a finished game has final stores");
        let mover = position.mover().number() as usize;
        let difference = final_stores[mover] as i32 - final_stores[1 - mover] as i32;
        assert_eq!(difference, rules.final_difference(position), "final stores of {context}");
    } else {
        assert_eq!(checker.final_stores(), None, "{context} is not over");
    }
    for hole in 0..2 * position.holes() {
        if !holes.contains(&hole) {
            assert_eq!(checker.play(hole), None, "hole {hole} of {context} is not legal");
        }
    }
    holes
        .iter()
        .map(|&hole| {
            let (next, _) = rules.play_hole(position, hole).expect("a legal hole");
            let after = checker.play(hole).expect("a legal hole for the checker too");
            assert_same(&next, &after, &format!("after hole {hole} of {context}"));
            next
        })
        .collect()
}

#[test]
fn random_positions_of_every_board_size() {
    let mut rng = StdRng::seed_from_u64(11);
    for name in RulesName::EVERY {
        for holes in 1..=9 {
            for _ in 0..2000 {
                let board = reference::random::board(&mut rng, holes);
                let position: Position = reference::notation::format(&board).parse().expect("the generator makes valid positions");
                agree(name, &position);
            }
        }
    }
}

#[test]
fn random_games_from_every_start() {
    let mut rng = StdRng::seed_from_u64(12);
    for name in RulesName::EVERY {
        for holes in 1..=9 {
            for _ in 0..60 {
                let seeds = rng.gen_range(1..=(255 / (2 * holes as u32)).min(12));
                let mut position = Position::start(holes, seeds).unwrap();
                loop {
                    let after = agree(name, &position);
                    if after.is_empty() {
                        break;
                    }
                    position = after[rng.gen_range(0..after.len())];
                }
            }
        }
    }
}
