//! Worked examples of the rules, as a table: position, hole, position after.

use crate::common;

use common::parse;
use dakon_check::rules::{DakonOptions, Position, Rules};

/// (rules, position, hole, after, game over after).
const EXAMPLES: &[(Rules, &str, usize, &str, bool)] = &[
    // The project's worked examples of the dakon rules.
    (Rules::DAKON, "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 7, "7,7,7,7,7,7,7/0,8,8,8,8,8,8 0/1 0", false),
    (Rules::DAKON, "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 13, "8,0,8,8,8,8,0/8,8,8,8,8,8,1 0/9 1", false),
    (Rules::DAKON, "0,3,0,2,2/1,0,0,0,2 0/0 0", 9, "1,0,0,3,0/2,1,1,0,0 0/2 1", false),
    (Rules::DAKON, "2,1,2,0,0/0,0,0,0,4 0/0 0", 9, "0,2,0,1,1/1,0,0,0,0 0/4 1", false),
    (Rules::DAKON, "1,1,2,0,1/0,0,0,0,3 0/0 0", 9, "1,1,0,0,0/0,0,0,0,0 0/6 1", false),
    (Rules::DAKON, "1,0/0,2 0/0 0", 3, "1,1/0,0 0/1 1", false),
    (Rules::DAKON, "0,0/6,0 0/0 0", 2, "2,0/0,1 0/3 0", false),
    (Rules::DAKON, "0,1/0,1 5/5 0", 3, "0,0/0,0 6/6 0", true),
    (Rules::DAKON, "1,0,0/2,0,0 0/0 1", 0, "0,0,0/0,0,0 1/2 1", true),
    // Player 1 sows right to left into S1: 2 seeds from hole 1 fall in 0 and S1, an extra move.
    (Rules::DAKON, "0,2/0,1 0/0 1", 1, "1,0/0,1 1/0 1", false),
    // Player 1's 2 seeds from hole 0 fall in S1 and player 0's empty hole 3, the left end of
    // its row: with one neighbour only, nothing is taken.
    (Rules::DAKON, "2,0,0/0,1,1 0/0 1", 0, "0,0,0/1,1,1 1/0 0", false),
    // Mikul on player 0's row: 3 seeds from hole 0 fall in S1, 3 and 4; hole 4 was empty, its
    // neighbours 3 and 5 hold 2 each: 2 + 2 + 1 go to S1. Player 0 then has no seed: player 1
    // takes hole 1's seed too.
    (Rules::DAKON, "3,1,0/1,0,2 0/0 1", 0, "0,0,0/0,0,0 7/0 0", true),
    // Kalah, 6 x 4: 4 seeds from hole 8 end in S0, an extra move.
    (Rules::Kalah, "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0", 8, "4,4,4,4,4,4/4,4,0,5,5,5 0/1 0", false),
    // 4 seeds from hole 6 end in hole 10, which held seeds: one lap only, no relay.
    (Rules::Kalah, "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0", 6, "4,4,4,4,4,4/0,5,5,5,5,4 0/0 1", false),
    // 1 seed from hole 3 ends in player 0's empty hole 4, facing hole 1 (3 seeds): 3 + 1 to S0.
    (Rules::Kalah, "2,3,1/1,0,2 0/0 0", 3, "2,0,1/0,0,2 0/4 1", false),
    // The same landing with the facing hole empty: kalah takes nothing...
    (Rules::Kalah, "2,0,1/1,0,2 0/0 0", 3, "2,0,1/0,1,2 0/0 1", false),
    // ...kalah-empty-capture puts the landed seed in S0.
    (Rules::KalahEmptyCapture, "2,0,1/1,0,2 0/0 0", 3, "2,0,1/0,0,2 0/1 1", false),
    // 13 seeds from hole 6 go round (7-11, S0, 5-0, skipping S1) into hole 6 itself, emptied by
    // the lift: a capture of hole 0 (1 + 1 seeds) with the landed seed: S0 = 1 + 3.
    (Rules::Kalah, "1,0,0,0,0,0/13,0,0,0,0,0 0/0 0", 6, "0,1,1,1,1,1/0,1,1,1,1,1 0/4 1", false),
    // Player 1, 5 seeds from hole 1: 0, S1, 2, 3, S0 skipped, 1 (emptied): captures hole 3
    // (2 seeds) with the landed seed: S1 = 1 + 3.
    (Rules::Kalah, "0,5/0,1 0/0 1", 1, "1,0/1,0 4/0 0", false),
    // 1 seed from hole 3 into S0 empties player 0's side: each side's seeds go to its owner.
    (Rules::Kalah, "1,0/0,1 0/0 0", 3, "0,0/0,0 1/1 0", true),
    // Player 1's 3 seeds from hole 0: S1, 3, 4, leaving player 1's side empty: the game is over
    // and player 0 adds 2 + 2 + 1.
    (Rules::Kalah, "3,0,0/1,1,1 0/0 1", 0, "0,0,0/0,0,0 1/5 0", true),
    // A capture that empties player 1's side ends the game.
    (Rules::KalahEmptyCapture, "0,2/1,0 0/0 0", 2, "0,0/0,0 0/3 1", true),
    // Dakon's options, the rows of the rules page's "Dakon's variants": 6 seeds from hole 2
    // skip hole 2 (3, S0, 1, 0, 3, S0): an extra move instead of the default's relay.
    (SKIP_ORIGIN, "0,0/6,0 0/0 0", 2, "1,1/0,2 0/2 0", false),
    // No mikul: the landing seed stays in hole 3, its neighbours keep 2 each.
    (NO_MIKUL, "1,1,2,0,1/0,0,0,0,3 0/0 0", 9, "1,1,2,1,2/0,0,0,0,0 0/1 1", false),
    // Nembak takes hole 0's 3 seeds and the landed seed in hole 5.
    (NEMBAK_LANDER, "2,1,2,0,0/0,0,0,0,4 0/0 0", 9, "0,2,0,1,1/0,0,0,0,0 0/5 1", false),
    // Facing an empty hole the landed seed stays.
    (NEMBAK_LANDER, "1,0/1,0 0/0 0", 2, "1,0/0,1 0/0 1", false),
    (TRADITIONAL, "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 13, "8,0,8,8,8,8,0/8,8,8,8,8,8,0 0/10 1", false),
];

const fn dakon(nembak_lander: bool, no_mikul: bool, skip_origin: bool) -> Rules {
    Rules::Dakon(DakonOptions { nembak_lander, no_mikul, skip_origin })
}
const NEMBAK_LANDER: Rules = dakon(true, false, false);
const NO_MIKUL: Rules = dakon(false, true, false);
const SKIP_ORIGIN: Rules = dakon(false, false, true);
const TRADITIONAL: Rules = dakon(true, true, true);

#[test]
fn every_dakon_name_is_known_and_round_trips() {
    assert_eq!(TRADITIONAL.name(), "dakon:traditional");
    assert_eq!(dakon(true, false, true).name(), "dakon:nembak-lander,skip-origin");
    for rules in Rules::ALL {
        assert_eq!(Rules::from_name(rules.name()), Some(rules));
    }
    // Only the canonical spelling is a name of the format.
    assert_eq!(Rules::from_name("dakon:skip-origin,nembak-lander"), None);
    assert_eq!(Rules::from_name("dakon:nembak-lander,no-mikul,skip-origin"), None);
}

#[test]
fn worked_examples() {
    for &(rules, before, hole, after, over) in EXAMPLES {
        let position = parse(rules, before);
        assert_eq!(position.to_string(), before, "the notation round trip");
        let played = position.play(hole).unwrap_or_else(|| panic!("{before}: hole {hole} is legal"));
        assert_eq!(played.to_string(), after, "{} {before} hole {hole}", rules.name());
        assert_eq!(played.is_over(), over, "{} {before} hole {hole}: over", rules.name());
        assert_eq!(played.final_stores(), over.then(|| played.stores()), "the board is empty once over");
    }
}

/// Rules, position, legal moves, final stores `[S0, S1]` if over.
type MovesExample = (Rules, &'static str, &'static [usize], Option<[u8; 2]>);

const MOVES: &[MovesExample] = &[
    (Rules::DAKON, "7,7,7/7,7,7 0/0 0", &[3, 4, 5], None),
    (Rules::DAKON, "7,0,7/7,0,7 0/0 1", &[0, 2], None),
    // Player 0 to move has no seed: player 1 takes the 3 left.
    (Rules::DAKON, "1,0,2/0,0,0 4/5 0", &[], Some([5, 7])),
    // In dakon only the player to move matters: player 1 has no seed, but it is not their turn.
    (Rules::DAKON, "0,0,0/1,0,2 4/5 0", &[3, 5], None),
    // In kalah either empty side ends the game, each player keeping their own side's seeds.
    (Rules::Kalah, "0,0,0/1,0,2 4/5 0", &[], Some([8, 4])),
    (Rules::KalahEmptyCapture, "1,0,2/0,0,0 4/5 0", &[], Some([5, 7])),
    (Rules::Kalah, "0,0,1/1,0,2 4/5 1", &[2], None),
];

#[test]
fn legal_moves_and_the_end_of_the_game() {
    for &(rules, text, moves, final_stores) in MOVES {
        let position = parse(rules, text);
        assert_eq!(position.legal_moves(), moves, "{} {text}", rules.name());
        assert_eq!(position.final_stores(), final_stores, "{} {text}", rules.name());
        assert_eq!(position.is_over(), final_stores.is_some());
        for hole in 0..=2 * position.holes_per_row() {
            assert_eq!(position.play(hole).is_some(), moves.contains(&hole), "{text} hole {hole}");
        }
    }
}

#[test]
fn invalid_positions_are_refused() {
    for (holes, stores, player, message) in [
        (&[1, 2, 3][..], [0, 0], 0, "3 holes, expected two rows of 1 to 9"),
        (&[][..], [0, 0], 0, "0 holes, expected two rows of 1 to 9"),
        (&[1; 20][..], [0, 0], 0, "20 holes, expected two rows of 1 to 9"),
        (&[1, 1][..], [0, 0], 2, "player 2 to move, expected 0 or 1"),
        (&[100, 100][..], [50, 6], 0, "256 seeds, expected at most 255"),
    ] {
        let refused = Position::new(Rules::DAKON, holes, stores, player).expect_err("refused");
        assert_eq!(refused.to_string(), message);
    }
    assert!(Position::new(Rules::DAKON, &[100, 100], [50, 5], 1).is_ok(), "255 seeds are fine");
}

#[test]
fn rules_names_round_trip() {
    for rules in Rules::ALL {
        assert_eq!(Rules::from_name(rules.name()), Some(rules));
    }
    assert_eq!(Rules::from_name("oware"), None);
}

/// The worked examples of `no-first-turn-capture` (the project's rules page and the format
/// document): (rules, position, hole, after, whether the same move captures after the first
/// turn), each played as a first turn.
const FIRST_TURN_EXAMPLES: &[(&str, &str, usize, &str, bool)] = &[
    // The lap's last seed lands in hole 13, emptied by the lift: no nembak in a first turn.
    ("dakon:no-first-turn-capture", "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 13, "8,0,8,8,8,8,8/8,8,8,8,8,8,1 0/1 1", true),
    // ...nor with the traditional options (no lander taken either).
    ("dakon:no-first-turn-capture,traditional", "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 13, "8,0,8,8,8,8,8/8,8,8,8,8,8,1 0/1 1", true),
    // No mikul in a first turn.
    ("dakon:no-first-turn-capture", "1,1,2,0,1/0,0,0,0,3 0/0 0", 9, "1,1,2,1,2/0,0,0,0,0 0/1 1", true),
    // Relays and the extra move are unchanged.
    ("dakon:no-first-turn-capture", "0,0/6,0 0/0 0", 2, "2,0/0,1 0/3 0", false),
];

#[test]
fn first_turns_without_capture() {
    use dakon_check::rules::{first_turn_name, split_first_turn_option, Turn};
    for &(name, text, hole, after, captures_later) in FIRST_TURN_EXAMPLES {
        let (rules, option) = split_first_turn_option(name).unwrap();
        assert!(option, "{name}");
        assert_eq!(first_turn_name(rules).as_deref(), Some(name));
        let played = parse(rules, text).play_in_turn(hole, Turn::FirstWithoutCapture).unwrap();
        assert_eq!(played.to_string(), parse(rules, after).to_string(), "{name} {text} hole {hole}");
        // The same move after the first turn captures: the option changes only first turns.
        let later = parse(rules, text).play(hole).unwrap().to_string();
        assert_eq!(later != played.to_string(), captures_later, "{name} {text} hole {hole}");
    }
    // The option's names: alphabetical among the others, and not a rule set of its own.
    assert_eq!(split_first_turn_option("dakon:no-first-turn-capture,no-mikul").map(|(r, o)| (r.name(), o)), Some(("dakon:no-mikul", true)));
    for wrong in
        ["dakon:no-mikul,no-first-turn-capture", "dakon:no-first-turn-capture,no-first-turn-capture", "kalah:no-first-turn-capture"]
    {
        assert!(split_first_turn_option(wrong).is_none(), "{wrong}");
    }
}
