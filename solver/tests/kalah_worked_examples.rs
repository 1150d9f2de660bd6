//! The worked examples of the Kalah rules, as a table test: rules, position, hole lifted,
//! position after, and what the move did.

use dakon_solver::dakon::{MoveError, Player, Position};
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::rules::Rules;

struct Example {
    what: &'static str,
    rule: CaptureRule,
    before: &'static str,
    hole: usize,
    after: &'static str,
    extra_move: bool,
    /// Seeds each player stored from their own side when the game ended, `[player 0, player 1]`.
    end: Option<[u8; 2]>,
    /// Seeds taken from the facing hole by a capture.
    capture: Option<u8>,
}

const STANDARD: CaptureRule = CaptureRule::FacingSeeds;

const EXAMPLES: &[Example] = &[
    Example {
        what: "extra move: 4 seeds from hole 8 end in the store",
        rule: STANDARD,
        before: "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0",
        hole: 8,
        after: "4,4,4,4,4,4/4,4,0,5,5,5 0/1 0",
        extra_move: true,
        end: None,
        capture: None,
    },
    Example {
        what: "a lap inside the own row; the turn passes",
        rule: STANDARD,
        before: "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0",
        hole: 6,
        after: "4,4,4,4,4,4/0,5,5,5,5,4 0/0 1",
        extra_move: false,
        end: None,
        capture: None,
    },
    Example {
        what: "past the own store onto the opponent's row, right to left",
        rule: STANDARD,
        before: "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0",
        hole: 11,
        after: "4,4,4,5,5,5/4,4,4,4,4,0 0/1 1",
        extra_move: false,
        end: None,
        capture: None,
    },
    Example {
        what: "capture: the lone seed in hole 7 takes facing hole 1's 3 seeds",
        rule: STANDARD,
        before: "0,3,0,0,0,1/1,0,0,0,0,2 0/0 0",
        hole: 6,
        after: "0,0,0,0,0,1/0,0,0,0,0,2 0/4 1",
        extra_move: false,
        end: None,
        capture: Some(3),
    },
    Example {
        what: "no capture when the facing hole is empty",
        rule: STANDARD,
        before: "0,0,0,0,0,1/1,0,0,0,0,2 0/0 0",
        hole: 6,
        after: "0,0,0,0,0,1/0,1,0,0,0,2 0/0 1",
        extra_move: false,
        end: None,
        capture: None,
    },
    Example {
        what: "empty-capture rule: the lone seed is taken anyway",
        rule: CaptureRule::Always,
        before: "0,0,0,0,0,1/1,0,0,0,0,2 0/0 0",
        hole: 6,
        after: "0,0,0,0,0,1/0,0,0,0,0,2 0/1 1",
        extra_move: false,
        end: None,
        capture: Some(0),
    },
    Example {
        what: "last seed in an occupied own hole: no capture and no relay",
        rule: STANDARD,
        before: "0,0,0,0,0,1/2,0,1,0,0,2 0/0 0",
        hole: 6,
        after: "0,0,0,0,0,1/0,1,2,0,0,2 0/0 1",
        extra_move: false,
        end: None,
        capture: None,
    },
    Example {
        what: "the mover's side empties: player 1 stores their own 3 seeds",
        rule: STANDARD,
        before: "0,0,0,0,0,1/0,0,0,0,0,3 0/0 0",
        hole: 11,
        after: "0,0,0,0,0,0/0,0,0,0,0,0 3/1 1",
        extra_move: false,
        end: Some([0, 3]),
        capture: None,
    },
    Example {
        what: "13 seeds go round once, the last into the emptied origin, which captures",
        rule: STANDARD,
        before: "1,1,1,1,1,1/13,1,1,1,1,1 0/0 0",
        hole: 6,
        after: "0,2,2,2,2,2/0,2,2,2,2,2 0/4 1",
        extra_move: false,
        end: None,
        capture: Some(2),
    },
    Example {
        what: "an extra move that empties the mover's side ends the game (a draw)",
        rule: STANDARD,
        before: "0,0,0,0,0,2/0,0,0,0,0,1 3/4 0",
        hole: 11,
        after: "0,0,0,0,0,0/0,0,0,0,0,0 5/5 0",
        extra_move: true,
        end: Some([0, 2]),
        capture: None,
    },
    Example {
        what: "player 1 captures with their last seed; their side is empty, player 0 stores 1",
        rule: STANDARD,
        before: "0,0,0,1,0,0/0,0,5,0,0,1 0/0 1",
        hole: 3,
        after: "0,0,0,0,0,0/0,0,0,0,0,0 6/1 0",
        extra_move: false,
        end: Some([1, 0]),
        capture: Some(5),
    },
    Example {
        what: "one hole per row: into the store, and the game is over",
        rule: STANDARD,
        before: "1/1 0/0 0",
        hole: 1,
        after: "0/0 1/1 0",
        extra_move: true,
        end: Some([0, 1]),
        capture: None,
    },
    Example {
        what: "3 holes: 8 seeds lap the 7 slots once and land in hole 4, which held a seed",
        rule: STANDARD,
        before: "0,0,1/8,0,1 0/0 0",
        hole: 3,
        after: "1,1,2/1,2,2 0/1 1",
        extra_move: false,
        end: None,
        capture: None,
    },
];

fn rules(example: &Example, position: &Position) -> Kalah {
    Kalah::of(position, example.rule)
}

#[test]
fn worked_examples_of_the_rules() {
    for example in EXAMPLES {
        let before: Position = example.before.parse().unwrap_or_else(|e| panic!("{}: {e}", example.what));
        let kalah = rules(example, &before);
        let (after, outcome) = kalah.play_hole(&before, example.hole).unwrap_or_else(|e| panic!("{}: {e}", example.what));
        assert_eq!(after.to_string(), example.after, "{}", example.what);
        assert_eq!(outcome.extra_move, example.extra_move, "{}: extra move", example.what);
        assert_eq!(outcome.end, example.end, "{}: end of the game", example.what);
        assert_eq!(outcome.capture.map(|c| c.facing), example.capture, "{}: capture", example.what);
        assert_eq!(kalah.legal_moves(&after).is_empty(), example.end.is_some(), "{}: moves after", example.what);
        let total = |p: &Position| {
            p.holes_in_notation_order().iter().map(|&s| s as u32).sum::<u32>() + p.store(Player::Zero) as u32 + p.store(Player::One) as u32
        };
        assert_eq!(total(&before), total(&after), "{}: seeds conserved", example.what);
        let stores = |p: &Position| p.store(p.mover()) as i32 - p.store(p.mover().other()) as i32;
        let sign = if after.mover() == before.mover() { 1 } else { -1 };
        assert_eq!(outcome.gain(before.mover()), sign * stores(&after) - stores(&before), "{}: gain", example.what);
    }
}

#[test]
fn the_data_file_lists_the_same_examples() {
    let lines: Vec<Vec<&str>> = include_str!("data/worked_examples.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("dakon"))
        .map(|l| l.split(';').map(str::trim).collect())
        .collect();
    assert_eq!(lines.len(), EXAMPLES.len());
    for (line, example) in lines.iter().zip(EXAMPLES) {
        let name = Kalah::new(1, example.rule).unwrap().name();
        assert_eq!(line[..], [name, example.before, &example.hole.to_string(), example.after], "{}", example.what);
    }
}

#[test]
fn finished_games_and_illegal_holes_are_refused_with_the_reason() {
    let kalah = Kalah::new(3, STANDARD).unwrap();
    let p: Position = "0,0,0/1,2,0 0/0 0".parse().unwrap();
    assert_eq!(kalah.play_hole(&p, 3), Err(MoveError::SideEmpty { player: Player::One }));
    assert_eq!(kalah.play_hole(&p, 3).unwrap_err().to_string(), "the game is over: player 1 has no seeds on their side");
    let p: Position = "1,0,0/1,2,0 0/0 0".parse().unwrap();
    assert_eq!(kalah.play_hole(&p, 6), Err(MoveError::NoSuchHole { hole: 6, holes: 3 }));
    assert_eq!(kalah.play_hole(&p, 0), Err(MoveError::NotMoversHole { hole: 0, mover: Player::Zero }));
    assert_eq!(kalah.play_hole(&p, 5), Err(MoveError::EmptyHole { hole: 5 }));
    let p: Position = "1,0,0/0,0,0 0/0 0".parse().unwrap();
    assert_eq!(kalah.play_hole(&p, 0), Err(MoveError::SideEmpty { player: Player::Zero }));
}
