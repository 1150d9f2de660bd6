//! The worked examples of the rules, as a table test: position, hole lifted, position after.

use dakon_solver::dakon::{CaptureKind, Position};

struct Example {
    what: &'static str,
    before: &'static str,
    hole: usize,
    after: &'static str,
    extra_move: bool,
    game_over: bool,
    capture: Option<(CaptureKind, u8)>,
}

const EXAMPLES: &[Example] = &[
    Example {
        what: "extra move: last seed in own store",
        before: "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0",
        hole: 7,
        after: "7,7,7,7,7,7,7/0,8,8,8,8,8,8 0/1 0",
        extra_move: true,
        game_over: false,
        capture: None,
    },
    Example {
        what: "relay through hole 1, then nembak from hole 13 takes hole 6",
        before: "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0",
        hole: 13,
        after: "8,0,8,8,8,8,0/8,8,8,8,8,8,1 0/9 1",
        extra_move: false,
        game_over: false,
        capture: Some((CaptureKind::Nembak, 8)),
    },
    Example {
        what: "two relays, then nembak takes 1",
        before: "0,3,0,2,2/1,0,0,0,2 0/0 0",
        hole: 9,
        after: "1,0,0,3,0/2,1,1,0,0 0/2 1",
        extra_move: false,
        game_over: false,
        capture: Some((CaptureKind::Nembak, 1)),
    },
    Example {
        what: "relay on the opponent's side, then nembak takes 3",
        before: "2,1,2,0,0/0,0,0,0,4 0/0 0",
        hole: 9,
        after: "0,2,0,1,1/1,0,0,0,0 0/4 1",
        extra_move: false,
        game_over: false,
        capture: Some((CaptureKind::Nembak, 3)),
    },
    Example {
        what: "mikul: hole 3 empty, neighbours 2 and 4 both hold 2",
        before: "1,1,2,0,1/0,0,0,0,3 0/0 0",
        hole: 9,
        after: "1,1,0,0,0/0,0,0,0,0 0/6 1",
        extra_move: false,
        game_over: false,
        capture: Some((CaptureKind::Mikul, 5)),
    },
    Example {
        what: "no mikul on a corner hole",
        before: "1,0/0,2 0/0 0",
        hole: 3,
        after: "1,1/0,0 0/1 1",
        extra_move: false,
        game_over: false,
        capture: None,
    },
    Example {
        what: "long lap drops into its own origin hole, relays, ends in store",
        before: "0,0/6,0 0/0 0",
        hole: 2,
        after: "2,0/0,1 0/3 0",
        extra_move: true,
        game_over: false,
        capture: None,
    },
    Example {
        what: "extra move with an empty side ends the game; player 1 sweeps",
        before: "0,1/0,1 5/5 0",
        hole: 3,
        after: "0,0/0,0 6/6 0",
        extra_move: true,
        game_over: true,
        capture: None,
    },
    Example {
        what: "the same for player 1; player 0 sweeps",
        before: "1,0,0/2,0,0 0/0 1",
        hole: 0,
        after: "0,0,0/0,0,0 1/2 1",
        extra_move: true,
        game_over: true,
        capture: None,
    },
];

#[test]
fn worked_examples_of_the_rules() {
    for example in EXAMPLES {
        let before: Position = example.before.parse().unwrap_or_else(|e| panic!("{}: {e}", example.what));
        let (after, outcome) = before.play_hole(example.hole).unwrap_or_else(|e| panic!("{}: {e}", example.what));
        assert_eq!(after.to_string(), example.after, "{}", example.what);
        assert_eq!(outcome.extra_move, example.extra_move, "{}: extra move", example.what);
        assert_eq!(outcome.game_over(), example.game_over, "{}: game over", example.what);
        assert_eq!(outcome.capture.map(|c| (c.kind, c.seeds)), example.capture, "{}: capture", example.what);
        assert_eq!(after.legal_holes().is_empty(), example.game_over, "{}: moves after", example.what);
    }
}

#[test]
fn seeds_are_conserved_by_the_examples() {
    for example in EXAMPLES {
        let before: Position = example.before.parse().unwrap();
        let (after, _) = before.play_hole(example.hole).unwrap();
        let total = |p: &Position| {
            p.holes_in_notation_order().iter().map(|&s| s as u32).sum::<u32>()
                + p.store(dakon_solver::dakon::Player::Zero) as u32
                + p.store(dakon_solver::dakon::Player::One) as u32
        };
        assert_eq!(total(&before), total(&after), "{}", example.what);
    }
}

/// Every line of the worked-examples data file (every rule set and Dakon variant, as the rules
/// page shows them) through the engine's rule set of that name.
#[test]
fn every_data_file_line_through_the_engine() {
    use dakon_solver::ruleset::{RuleSet, RulesName};
    let mut variants = 0;
    for line in include_str!("data/worked_examples.txt").lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(" ; ").collect();
        let [rules, before, hole, after] = fields[..] else { panic!("malformed line {line:?}") };
        let name: RulesName = rules.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let position: Position = before.parse().unwrap();
        let (next, _) = RuleSet::of(name, &position).play_hole(&position, hole.parse().unwrap()).unwrap();
        assert_eq!(next.to_string(), after, "{line}");
        variants += usize::from(rules.starts_with("dakon:"));
    }
    assert!(variants >= 7, "the Dakon variants' examples are missing");
}
