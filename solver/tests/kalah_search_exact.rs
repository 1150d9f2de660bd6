//! The search under the Kalah rules (both capture rules) against a plain memoized minimax:
//! every small start, random positions with few seeds, threads and table sizes, and the
//! run-time rules choice (`RuleSet`) giving what the concrete rules give.

mod minimax;
mod random;

use dakon_solver::dakon::Position;
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use minimax::Minimax;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use random::random_position;

const RULES: [CaptureRule; 2] = [CaptureRule::FacingSeeds, CaptureRule::Always];

fn solver<R: Rules>(rules: R, threads: usize, tt_bytes: usize) -> Solver<R> {
    Solver::new(rules, Config { threads, tt_bytes }, None)
}

/// Checks everything `solve` and `analyse_moves` claim about `pos` against the minimax.
fn check<R: Rules<Position = Position>>(solver: &Solver<R>, reference: &mut Minimax<R>, pos: &Position) {
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
    for m in &moves {
        let v = reference.move_value(pos, m.mv);
        assert_eq!((m.lower, m.upper), (v, v), "move {} of {here}", m.mv);
    }
}

#[test]
fn every_small_start_agrees_with_minimax() {
    for rule in RULES {
        for holes in 1..=4 {
            let rules = Kalah::new(holes, rule).unwrap();
            let mut reference = Minimax::new(rules);
            let solver = solver(rules, 1, 1 << 22);
            // Up to 24 seeds: the minimax of 4 x 4 alone takes a minute.
            for seeds in (1..=4u32).filter(|&s| holes as u32 * s <= 12) {
                check(&solver, &mut reference, &Position::start(holes, seeds).unwrap());
            }
        }
    }
}

#[test]
fn random_positions_agree_with_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for rule in RULES {
        for holes in 2..=6 {
            let rules = Kalah::new(holes, rule).unwrap();
            let mut reference = Minimax::new(rules);
            // A small table shared by all positions of a size, as `batch` shares one.
            let solver = solver(rules, 1, 1 << 16);
            for _ in 0..200 {
                check(&solver, &mut reference, &random_position(&mut rng, holes, 14));
            }
        }
    }
}

#[test]
fn value_does_not_depend_on_threads_or_table_size() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for rule in RULES {
        let rules = Kalah::new(4, rule).unwrap();
        let pos = Position::start(4, 3).unwrap();
        let mut reference = Minimax::new(rules);
        let want = reference.value(&pos);
        for threads in [1, 2] {
            for tt_bytes in [64, 1 << 10, 1 << 24] {
                let solution = solver(rules, threads, tt_bytes).solve(&pos, &Limits::default());
                assert_eq!((solution.lower, solution.upper), (want, want), "{threads} threads, {tt_bytes} bytes");
            }
        }
        let two = solver(Kalah::new(5, rule).unwrap(), 2, 1 << 12);
        let mut reference = Minimax::new(Kalah::new(5, rule).unwrap());
        for _ in 0..150 {
            check(&two, &mut reference, &random_position(&mut rng, 5, 16));
        }
    }
}

/// The run-time choice of rules dispatches to the same rules: same values, same moves, same
/// nodes (the search sees the same game).
#[test]
fn the_rules_chosen_at_run_time_are_the_same_rules() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for (name, rule) in [(RulesName::Kalah, CaptureRule::FacingSeeds), (RulesName::KalahEmptyCapture, CaptureRule::Always)] {
        for holes in [3, 4, 5] {
            let concrete = solver(Kalah::new(holes, rule).unwrap(), 1, 1 << 20);
            let chosen = solver(RuleSet::new(name, holes).unwrap(), 1, 1 << 20);
            assert_eq!(chosen.rules().name(), name.as_str());
            for _ in 0..30 {
                let pos = random_position(&mut rng, holes, 12);
                let (a, b) = (concrete.solve(&pos, &Limits::default()), chosen.solve(&pos, &Limits::default()));
                assert_eq!((a.lower, a.upper, a.pv, a.nodes), (b.lower, b.upper, b.pv, b.nodes), "{name} {pos}");
            }
        }
    }
}

/// The six-hole starts with one and two seeds a hole: one seed against the minimax under
/// both rules, and under the empty-capture rule the published values (Irving, Donkers and
/// Uiterwijk 2000: Kalah(6,1) = +2, Kalah(6,2) = +10; the larger boards are compared in the
/// README). (The minimax of 6 x 2 would need gigabytes.)
#[test]
fn six_hole_starts_with_one_and_two_seeds() {
    for rule in RULES {
        let rules = Kalah::new(6, rule).unwrap();
        let solver = solver(rules, 1, 1 << 22);
        let start = Position::start(6, 1).unwrap();
        assert_eq!(solver.solve(&start, &Limits::default()).lower, Minimax::new(rules).value(&start), "{} 6x1", rules.name());
        if rule == CaptureRule::Always {
            for (seeds, published) in [(1, 2), (2, 10)] {
                let value = solver.solve(&Position::start(6, seeds).unwrap(), &Limits::default()).lower;
                assert_eq!(value, published, "{} 6x{seeds}: the published value", rules.name());
            }
        }
    }
}
