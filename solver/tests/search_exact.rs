//! The search against a plain memoized minimax: small board starts, random positions with few
//! seeds, thread counts and table sizes under every rule set; finished games, an oracle,
//! limits and concurrent callers under Dakon's.

use std::collections::HashMap;
use std::sync::Arc;

use dakon_solver::dakon::{Dakon, Key, Position};
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, SolveOptions, Solver};
use dakon_solver::solvable::Solvable;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use minimax::Minimax;
use random::random_position;

use crate::minimax;
use crate::random;

/// The memoized minimax of `holes` holes per row.
fn minimax_of(holes: usize) -> Minimax<Dakon> {
    Minimax::new(Dakon::new(holes).unwrap())
}

fn solver(holes: usize, threads: usize, tt_bytes: usize) -> Solver<Dakon> {
    Solver::new(Dakon::new(holes).unwrap(), Config { threads, tt_bytes }, None)
}

fn solver_of<R: Solvable>(rules: R, threads: usize, tt_bytes: usize) -> Solver<R> {
    Solver::new(rules, Config { threads, tt_bytes }, None)
}

/// Checks everything `solve` and `analyse_moves` claim about `pos` against the minimax.
fn check<R: Solvable<Position = Position>>(solver: &Solver<R>, reference: &mut Minimax<R>, pos: &Position) {
    let here = format!("{} {pos}", solver.rules().name());
    let rules = solver.rules();
    let want = reference.value(pos);
    let solution = solver.solve(pos, &Limits::default());
    assert!(solution.is_exact(), "{here}");
    assert_eq!(solution.lower, want, "value of {here}");
    match solution.best_move {
        Some(mv) => assert_eq!(reference.move_value(pos, mv), want, "best move {mv} of {here}"),
        None => assert!(rules.legal_moves(pos).is_empty(), "no best move in {here}"),
    }
    // Every move of the principal variation is optimal, and it ends the game.
    let mut p = *pos;
    for &mv in &solution.pv {
        let value = reference.value(&p);
        assert_eq!(reference.move_value(&p, mv), value, "pv move {mv} at {p} (from {here})");
        p = rules.play(&p, mv).next;
    }
    assert!(rules.legal_moves(&p).is_empty(), "pv of {here} stops at {p}");
    let moves = solver.analyse_moves(pos, &Limits::default());
    assert_eq!(moves.len(), rules.legal_moves(pos).len(), "{here}");
    for pair in moves.windows(2) {
        assert!((pair[0].lower, std::cmp::Reverse(pair[0].mv)) > (pair[1].lower, std::cmp::Reverse(pair[1].mv)), "order of {here}");
    }
    for m in &moves {
        let v = reference.move_value(pos, m.mv);
        assert_eq!((m.lower, m.upper), (v, v), "move {} of {here}", m.mv);
    }
}

/// What each rule set's comparisons with the minimax cover: the same assertions, on the
/// sizes each rule set's minimax can afford.
struct Plan {
    name: RulesName,
    /// Whether the start of `holes` with `seeds` a hole is compared (1 to 4 holes and seeds).
    small_start: fn(usize, u32) -> bool,
    /// Random positions: generator seed, board sizes, positions per size.
    random: (u64, std::ops::RangeInclusive<usize>, usize),
    /// Threads and table sizes: the 4-hole start's seeds a hole, a generator seed and how many
    /// random 5-hole positions.
    threads: (u32, u64, usize),
}

fn plans() -> [Plan; 3] {
    let kalah = |name, offset: u64| Plan {
        name,
        // Up to 24 seeds: the minimax of 4 x 4 alone takes a minute.
        small_start: |holes, seeds| holes as u32 * seeds <= 12,
        random: (11 + offset, 2..=6, 200),
        threads: (3, 12 + offset, 150),
    };
    [
        Plan { name: RulesName::DAKON, small_start: |_, _| true, random: (3, 2..=7, 400), threads: (4, 4, 300) },
        kalah(RulesName::Kalah, 0),
        kalah(RulesName::KalahEmptyCapture, 100),
    ]
}

#[test]
fn every_small_start_agrees_with_minimax() {
    for plan in plans() {
        for holes in 1..=4 {
            let rules = RuleSet::new(plan.name, holes).unwrap();
            let mut reference = Minimax::new(rules);
            let solver = solver_of(rules, 1, 1 << 22);
            for seeds in (1..=4).filter(|&seeds| (plan.small_start)(holes, seeds)) {
                check(&solver, &mut reference, &Position::start(holes, seeds).unwrap());
            }
        }
    }
}

#[test]
fn thousands_of_random_positions_agree_with_minimax() {
    for plan in plans() {
        let (seed, sizes, count) = plan.random;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for holes in sizes {
            let rules = RuleSet::new(plan.name, holes).unwrap();
            let mut reference = Minimax::new(rules);
            // A small table, shared by all positions of a size, as `batch` shares one.
            let solver = solver_of(rules, 1, 1 << 16);
            for _ in 0..count {
                check(&solver, &mut reference, &random_position(&mut rng, holes, 14));
            }
        }
    }
}

#[test]
fn value_does_not_depend_on_threads_or_table_size() {
    for plan in plans() {
        let (seeds, seed, count) = plan.threads;
        let rules = RuleSet::new(plan.name, 4).unwrap();
        let pos = Position::start(4, seeds).unwrap();
        let mut reference = Minimax::new(rules);
        let want = reference.value(&pos);
        for threads in [1, 2] {
            // Powers of two and sizes that are none (3 buckets, 1,562 and a remainder, 3 MiB,
            // 100 MiB and 257 MiB, the last two in a first stage while the search is small).
            for tt_bytes in [64, 3 * 64, 1 << 10, 100_007, 3 << 20, 1 << 24, 100 << 20, 257 << 20] {
                let solution = solver_of(rules, threads, tt_bytes).solve(&pos, &Limits::default());
                let here = format!("{} {threads} threads, {tt_bytes} bytes", plan.name);
                assert_eq!((solution.lower, solution.upper), (want, want), "{here}");
                assert_eq!(reference.move_value(&pos, solution.best_move.unwrap()), want, "{here}");
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rules = RuleSet::new(plan.name, 5).unwrap();
        let two = solver_of(rules, 2, 1 << 12);
        let mut reference = Minimax::new(rules);
        for _ in 0..count {
            check(&two, &mut reference, &random_position(&mut rng, 5, 16));
        }
    }
}

#[test]
fn the_turn_bound_is_proven_and_changes_nothing_but_the_work() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for holes in [3, 5, 7] {
        let mut reference = minimax_of(holes);
        let solver = solver(holes, 1, 1 << 16);
        for _ in 0..200 {
            let pos = random_position(&mut rng, holes, 14);
            let want = reference.value(&pos);
            assert!(solver.turn_bound(&pos).is_none_or(|bound| bound <= want), "{pos}");
            let unbounded = solver.solve_with(&pos, &Limits::default(), SolveOptions::default());
            assert_eq!((unbounded.lower, unbounded.upper), (want, want), "{pos}");
        }
    }
    // 5 x 9: the value (-60) is the first player's best turn's bound, the second player
    // taking every seed left; starting from it saves most of the work.
    let start = Position::start(5, 9).unwrap();
    let (bounded, unbounded) = (solver(5, 1, 1 << 24), solver(5, 1, 1 << 24));
    assert_eq!(bounded.turn_bound(&start), Some(-60));
    let a = bounded.solve(&start, &Limits::default());
    let b = unbounded.solve_with(&start, &Limits::default(), SolveOptions::default());
    assert_eq!((a.lower, a.upper, b.lower, b.upper), (-60, -60, -60, -60));
    assert!(a.nodes < b.nodes, "the bound saves work: {} vs {} nodes", a.nodes, b.nodes);
    // The bottom test, asked move by move, gives the same value on 2 threads and a tiny table.
    for (threads, tt_bytes) in [(2, 1 << 24), (1, 1 << 10), (2, 1 << 10)] {
        let s = solver(5, threads, tt_bytes).solve(&start, &Limits::default());
        assert_eq!((s.lower, s.upper), (-60, -60), "{threads} threads, {tt_bytes} bytes");
    }
}

#[test]
fn a_finished_game_solves_to_its_final_difference_without_a_move() {
    let solver = solver(2, 1, 1 << 12);
    for text in ["0,0/0,0 6/6 0", "0,0,0/0,0,0 1/2 1", "3,1/0,0 2/5 0"] {
        let pos: Position = text.parse().unwrap();
        let solution = solver.solve(&pos, &Limits::default());
        let value = pos.store(pos.mover()) as i32 - pos.store(pos.mover().other()) as i32 + solution.lower;
        assert_eq!(value, pos.final_difference(), "{text}");
        assert!(solution.is_exact());
        assert_eq!((solution.best_move, solution.pv.len()), (None, 0), "{text}");
        assert!(solver.analyse_moves(&pos, &Limits::default()).is_empty());
    }
}

/// An oracle that knows every position with at most `max` seeds, from the reference.
struct MinimaxOracle {
    values: HashMap<Key, i32>,
    max: u32,
}

impl Oracle<Dakon> for MinimaxOracle {
    fn probe(&self, pos: &Position) -> Option<i32> {
        self.values.get(&Key::of(pos)).copied()
    }

    fn max_seeds(&self) -> u32 {
        self.max
    }
}

#[test]
fn an_oracle_changes_nothing_but_the_work() {
    let holes = 4;
    let rules = Dakon::new(holes).unwrap();
    let mut reference = minimax_of(holes);
    let pos = Position::start(holes, 3).unwrap();
    let want = reference.value(&pos);
    let values = reference.memo.iter().filter(|(key, _)| rules.seeds_on_board(&key.board(holes)) <= 6).map(|(k, v)| (*k, *v)).collect();
    let oracle = Arc::new(MinimaxOracle { values, max: 6 });
    let with = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 20 }, Some(oracle));
    let without = solver(holes, 1, 1 << 20);
    let (a, b) = (with.solve(&pos, &Limits::default()), without.solve(&pos, &Limits::default()));
    assert_eq!((a.lower, a.upper, b.lower, b.upper), (want, want, want, want));
    assert!(a.nodes < b.nodes, "the oracle saves work: {} vs {} nodes", a.nodes, b.nodes);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..300 {
        let p = random_position(&mut rng, holes, 10);
        assert_eq!(with.solve(&p, &Limits::default()).lower, reference.value(&p), "{p}");
    }
}

#[test]
fn a_stopped_search_returns_proven_bounds() {
    let pos = Position::start(5, 5).unwrap();
    let exact = solver(5, 1, 1 << 22).solve(&pos, &Limits::default());
    assert!(exact.is_exact());
    for nodes in [1, 100, 2000] {
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let s = solver(5, 2, 1 << 22).solve(&pos, &limits);
        assert!(s.lower <= exact.lower && exact.lower <= s.upper, "{nodes} nodes: [{}, {}] vs {}", s.lower, s.upper, exact.lower);
        assert!(!s.is_exact(), "{nodes} nodes are not enough");
        assert!(s.best_move.is_some());
        let moves = solver(5, 1, 1 << 22).analyse_moves(&pos, &limits);
        assert_eq!(moves.len(), 5);
    }
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stopped = solver(5, 1, 1 << 20);
    let s = stopped.solve(&pos, &Limits { stop: Some(stop.clone()), ..Limits::default() });
    assert_eq!((s.lower, s.upper), (stopped.turn_bound(&pos).unwrap(), 50), "a raised stop flag proves nothing beyond the best turn");
    assert_eq!(solver(5, 1, 1 << 20).at_least(&pos, 1, &Limits { stop: Some(stop), ..Limits::default() }), None);
}

#[test]
fn a_best_move_marked_proven_achieves_the_lower_bound() {
    // Searches stopped at many node counts, on random positions: whenever the solution marks
    // its best move proven, the minimax value of that move is at least the proven lower bound
    // (and the value itself when exact); unmarked moves are guesses, claimed as nothing.
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let (mut proven, mut guessed) = (0, 0);
    for holes in [4, 5] {
        let mut reference = minimax_of(holes);
        for _ in 0..60 {
            let pos = random_position(&mut rng, holes, 16);
            for nodes in [1, 30, 300, 3000] {
                let s = solver(holes, 1, 1 << 16).solve(&pos, &Limits { nodes: Some(nodes), ..Limits::default() });
                let Some(mv) = s.best_move else { continue };
                if !s.best_move_proven {
                    guessed += 1;
                    continue;
                }
                proven += 1;
                let value = reference.move_value(&pos, mv);
                assert!(value >= s.lower, "{pos} after {nodes} nodes: move {mv} is worth {value}, below the bound {}", s.lower);
                if s.is_exact() {
                    assert_eq!(value, s.lower, "{pos}: the exact best move");
                }
            }
        }
    }
    assert!(proven > 50 && guessed > 20, "both kinds occur: {proven} proven, {guessed} guesses");
}

#[test]
fn moves_valued_in_rounds_agree_with_minimax_and_only_narrow() {
    for plan in plans() {
        let (seed, _, _) = plan.random;
        let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
        let rules = RuleSet::new(plan.name, 5).unwrap();
        let mut reference = Minimax::new(rules);
        let solver = solver_of(rules, 1, 1 << 14);
        for _ in 0..20 {
            let pos = random_position(&mut rng, 5, 16);
            let here = format!("{} {pos}", plan.name);
            let truth: Vec<i32> = rules.legal_moves(&pos).as_slice().iter().map(|&mv| reference.move_value(&pos, mv)).collect();
            let mut analysis = solver.move_analysis(&pos, &[]);
            let mut nodes = 8;
            let mut last = analysis.values();
            while !analysis.is_done() {
                analysis.round(&solver, &Limits { nodes: Some(nodes), ..Limits::default() });
                let now = analysis.values();
                for ((m, before), want) in now.iter().zip(&last).zip(&truth) {
                    assert!(m.lower <= *want && *want <= m.upper, "move {} of {here}: {want} in [{}, {}]", m.mv, m.lower, m.upper);
                    assert!(m.lower >= before.lower && m.upper <= before.upper, "move {} of {here} widened", m.mv);
                }
                last = now;
                nodes *= 2;
            }
            assert_eq!(last.iter().map(|m| m.lower).collect::<Vec<_>>(), truth, "{here}");
        }
    }
}

#[test]
fn concurrent_callers_share_one_solver() {
    for threads in [1, 2, 3] {
        concurrent_callers(threads);
    }
}

fn concurrent_callers(threads: usize) {
    let holes = 5;
    // Three threads: each test takes 1, 2 or 3 of them in turn, as a server's share changes.
    let turn = std::sync::atomic::AtomicUsize::new(0);
    let width = move || turn.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 3 + 1;
    let shared = if threads == 3 { solver(holes, threads, 1 << 14).with_width(Arc::new(width)) } else { solver(holes, threads, 1 << 14) };
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let positions: Vec<Position> = (0..400).map(|_| random_position(&mut rng, holes, 16)).collect();
    let mut reference = minimax_of(holes);
    let want: Vec<i32> = positions.iter().map(|p| reference.value(p)).collect();
    std::thread::scope(|scope| {
        for part in 0..4 {
            let (shared, positions, want) = (&shared, &positions, &want);
            scope.spawn(move || {
                for (p, &v) in positions.iter().zip(want).skip(part).step_by(4) {
                    assert_eq!(shared.solve(p, &Limits::default()).lower, v, "{p}");
                    assert_eq!(shared.at_least(p, v, &Limits::default()), Some(true), "{p}");
                    assert_eq!(shared.at_least(p, v + 1, &Limits::default()), Some(false), "{p}");
                }
            });
        }
    });
}
