//! Perft (leaf counts of the move tree) of the engine against the reference implementations,
//! for every rule set: openings of every size, random mid-game positions, and the counts
//! stored in `tests/data/perft.txt` (made with the references; each line names its rules).

use crate::reference;

use dakon_solver::dakon::Position;
use dakon_solver::perft::perft;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::rules::RefRules;
use reference::{notation, Board};

/// The data file's plan: openings with their leaf budgets, hand-picked positions, and random
/// games (generator seed, board sizes, seeds per hole at the start).
type PrintPlan = (&'static [(usize, u32, u64)], &'static [&'static str], u64, &'static [usize], fn(&mut ChaCha8Rng, u32) -> u32);

/// What each rule set's tests do: the same assertions, on sizes that fit each rule set's tree.
struct Plan {
    rules: RefRules,
    /// Leaf count above which a perft check stops going deeper, to keep the tests quick.
    leaf_budget: u64,
    /// The seeds per hole of the openings compared on `n` holes per row.
    opening_seeds: fn(u32) -> Vec<u32>,
    /// The random games: generator seed, games per board size, most seeds per hole at the start.
    random: (u64, usize, fn(u32) -> u32),
    /// The data file's lines checked by the quick test: at most this many leaves, at least
    /// this many lines, and this opening at depths `1..=depth`.
    quick: (u64, usize, &'static str, u32),
    /// For writing the data file: openings with their leaf budgets, hand-picked positions,
    /// and random games (generator seed, board sizes, seeds per hole at the start).
    print: PrintPlan,
}

const KALAH_OPENINGS: &[(usize, u32, u64)] = &[(6, 4, 30_000_000), (6, 6, 12_000_000)];
const KALAH_POSITIONS: &[&str] = &[
    "0,3,0,0,0,1/1,0,0,0,0,2 0/0 0",
    "1,1,1,1,1,1/13,1,1,1,1,1 0/0 0",
    "0,0,1/8,0,1 0/0 0",
    "0,0,0,0,0,0,0,0,1/200,0,0,0,0,0,0,0,0 0/0 0",
];

fn kalah_plan(rules: RefRules, random_seed: u64) -> Plan {
    Plan {
        rules,
        leaf_budget: 30_000,
        opening_seeds: |_| vec![1, 2, 3, 4, 6],
        random: (random_seed, 2, |_| 6),
        quick: (2_000_000, 100, "4,4,4,4,4,4/4,4,4,4,4,4 0/0 0", 8),
        print: (KALAH_OPENINGS, KALAH_POSITIONS, 0x4A7A, &[3, 5, 6, 7, 9], |rng, _| rng.gen_range(3..=6)),
    }
}

fn plans() -> [Plan; 3] {
    let [dakon, kalah, empty_capture] = RefRules::ALL;
    [
        Plan {
            rules: dakon,
            leaf_budget: 60_000,
            opening_seeds: |n| vec![1, 2, n, n + 2],
            random: (0xBE_F7, 3, |n| n + 2),
            quick: (300_000, 50, "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 10),
            print: (
                &[(7, 7, 50_000_000)],
                &[
                    "0,3,0,2,2/1,0,0,0,2 0/0 0",
                    "2,1,2,0,0/0,0,0,0,4 0/0 0",
                    "1,1,2,0,1/0,0,0,0,3 0/0 0",
                    "1,0,0/2,0,0 0/0 1",
                    "0,0,0,0,0,0,0,0,0/255,0,0,0,0,0,0,0,0 0/0 0",
                    "28,28,28,28,28,28,28,28,28/0,0,0,0,0,0,0,0,3 0/0 1",
                ],
                0xDA7A,
                &[3, 5, 7, 9],
                |_, n| n,
            ),
        },
        kalah_plan(kalah, 0x4A_F7),
        kalah_plan(empty_capture, 0x4A_F8),
    ]
}

fn engine_perft(rules: RefRules, board: &Board, depth: u32) -> u64 {
    let pos: Position = notation::format(board).parse().unwrap();
    perft(&rules.engine(board.n), &pos, depth)
}

/// Compares the two perfts at depths 1, 2, ... until the count passes the plan's leaf budget;
/// returns the deepest depth compared.
fn agree_up_to_budget(plan: &Plan, board: &Board) -> u32 {
    for depth in 1.. {
        let expected = plan.rules.perft(board, depth);
        assert_eq!(engine_perft(plan.rules, board, depth), expected, "{} perft({}, {depth})", plan.rules.name(), notation::format(board));
        if expected > plan.leaf_budget || expected == 0 {
            return depth;
        }
    }
    unreachable!()
}

#[test]
fn openings_of_every_size() {
    for plan in plans() {
        for n in 1..=9 {
            for s in (plan.opening_seeds)(n as u32) {
                let depth = agree_up_to_budget(&plan, &Board::start(n, s));
                assert!(depth >= 3 || n == 1, "{}: n = {n}, s = {s}: only depth {depth}", plan.rules.name());
            }
        }
    }
}

/// Positions reached by random games from openings (both players to move), then the same
/// positions with the players exchanged.
#[test]
fn random_mid_game_positions() {
    for plan in plans() {
        let (seed, games, most_seeds) = plan.random;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for n in 2..=9 {
            for _ in 0..games {
                let mut board = Board::start(n, rng.gen_range(1..=most_seeds(n as u32)));
                for _ in 0..rng.gen_range(2..30) {
                    let moves = plan.rules.moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    board = plan.rules.play(&board, moves[rng.gen_range(0..moves.len())]);
                }
                agree_up_to_budget(&plan, &board);
                agree_up_to_budget(&plan, &board.mirror());
            }
        }
    }
}

/// One line of the data file: rules, position, depth, leaf count.
struct Line {
    rules: RefRules,
    position: String,
    depth: u32,
    nodes: u64,
}

fn data_file() -> Vec<Line> {
    notation::data_lines(include_str!("data/perft.txt"))
        .into_iter()
        .map(|f| {
            assert_eq!(f.len(), 4, "perft.txt: malformed line {f:?}");
            Line { rules: RefRules::named(f[0]), position: f[1].to_string(), depth: f[2].parse().unwrap(), nodes: f[3].parse().unwrap() }
        })
        .collect()
}

/// Checks the engine against the lines of `rules` with at most `max_nodes` leaves; returns how
/// many.
fn check_data_file(rules: RefRules, max_nodes: u64) -> usize {
    let mut checked = 0;
    for line in data_file().iter().filter(|l| l.rules == rules && l.nodes <= max_nodes) {
        let board = notation::parse(&line.position).unwrap();
        assert_eq!(engine_perft(rules, &board, line.depth), line.nodes, "perft.txt: {} ; {} ; {}", rules.name(), line.position, line.depth);
        checked += 1;
    }
    checked
}

/// Every line of the data file up to each rule set's budget, which includes the 7x7 Dakon
/// opening to depth 7 and the 6x4 Kalah opening to depth 8 under both capture rules.
#[test]
fn data_file_quick_lines() {
    let lines = data_file();
    for plan in plans() {
        let (max_nodes, at_least, opening, depths) = plan.quick;
        for depth in 1..=depths {
            assert!(
                lines.iter().any(|l| l.rules == plan.rules && l.position == opening && l.depth == depth),
                "perft.txt lacks the {} opening {opening} at depth {depth}",
                plan.rules.name()
            );
        }
        assert!(check_data_file(plan.rules, max_nodes) >= at_least, "too few {} lines of perft.txt checked", plan.rules.name());
    }
}

/// Every line of the data file (a few minutes):
/// `cargo test --release -p dakon-solver --test all -- --ignored data_file_all_lines`.
#[test]
#[ignore]
fn data_file_all_lines() {
    for rules in RefRules::ALL.into_iter().chain(RefRules::VARIANTS) {
        check_data_file(rules, u64::MAX);
    }
}

/// The references also reproduce the cheap lines of the data file they made.
#[test]
fn data_file_matches_the_reference() {
    for line in data_file().iter().filter(|l| l.nodes <= 20_000) {
        let board = notation::parse(&line.position).unwrap();
        assert_eq!(
            line.rules.perft(&board, line.depth),
            line.nodes,
            "perft.txt: {} ; {} ; {}",
            line.rules.name(),
            line.position,
            line.depth
        );
    }
}

/// The three positions each Dakon variant's perft is counted on: the standard opening, a
/// small board whose laps come round (so `skip-origin` matters), and a middle game with a
/// nembak and a mikul in reach.
const VARIANT_POSITIONS: [(&str, u32); 3] =
    [("7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", 6), ("9,9,9/9,9,9 0/0 0", 8), ("1,1,2,0,1/3,0,2,0,3 0/0 0", 8)];

/// Every Dakon variant has its three positions in the data file, at every depth, and the
/// engine agrees with each line.
#[test]
fn variants_agree_with_the_data_file() {
    let lines = data_file();
    for rules in RefRules::VARIANTS {
        for (position, depths) in VARIANT_POSITIONS {
            for depth in 1..=depths {
                assert!(
                    lines.iter().any(|l| l.rules == rules && l.position == position && l.depth == depth),
                    "perft.txt lacks {} {position} at depth {depth}",
                    rules.name()
                );
            }
        }
        assert!(check_data_file(rules, 2_000_000) >= 3 * 6, "too few {} lines checked", rules.name());
    }
}

/// Writes the Dakon variants' lines of the data file with the reference:
/// `cargo test --release -p dakon-solver --test all -- --ignored --nocapture print_variant_perft_data | grep ' ; '`.
#[test]
#[ignore]
fn print_variant_perft_data() {
    for rules in RefRules::VARIANTS {
        for (position, depths) in VARIANT_POSITIONS {
            let board = notation::parse(position).unwrap();
            for depth in 1..=depths {
                println!("{} ; {position} ; {depth} ; {}", rules.name(), rules.perft(&board, depth));
            }
        }
    }
}

/// Writes the data file's lines with the reference implementations:
/// `cargo test --release -p dakon-solver --test all -- --ignored --nocapture print_perft_data | grep ' ; '`.
#[test]
#[ignore]
fn print_perft_data() {
    for plan in plans() {
        let (openings, texts, seed, sizes, seeds_per_hole) = plan.print;
        let mut positions: Vec<(Board, u64)> = openings.iter().map(|&(n, s, budget)| (Board::start(n, s), budget)).collect();
        for n in 1..=9 {
            for s in [1, 3, n as u32] {
                positions.push((Board::start(n, s), 2_000_000));
            }
        }
        positions.extend(texts.iter().map(|text| (notation::parse(text).unwrap(), 2_000_000)));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for &n in sizes {
            for _ in 0..3 {
                let mut board = Board::start(n, seeds_per_hole(&mut rng, n as u32));
                for _ in 0..rng.gen_range(4..20) {
                    let moves = plan.rules.moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    board = plan.rules.play(&board, moves[rng.gen_range(0..moves.len())]);
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
                let nodes = plan.rules.perft(&board, depth);
                println!("{} ; {} ; {depth} ; {nodes}", plan.rules.name(), notation::format(&board));
                if nodes == 0 || nodes > budget / 6 || depth == 12 {
                    break;
                }
            }
        }
    }
}
