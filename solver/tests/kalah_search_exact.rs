//! The search under the Kalah rules (both capture rules): the run-time rules choice
//! (`RuleSet`) giving what the concrete rules give, and the six-hole starts. (Their agreement
//! with the minimax on small starts, random positions, threads and table sizes is tested with
//! every rule set's in `search_exact.rs`.)

use crate::minimax;
use crate::random;

use dakon_solver::dakon::Position;
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use dakon_solver::solvable::Solvable;
use minimax::Minimax;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use random::random_position;

const RULES: [CaptureRule; 2] = [CaptureRule::FacingSeeds, CaptureRule::Always];

fn solver<R: Solvable>(rules: R, threads: usize, tt_bytes: usize) -> Solver<R> {
    Solver::new(rules, Config { threads, tt_bytes }, None)
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
