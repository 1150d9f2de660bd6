//! Certificates written by the solver's extraction and checked by the independent checker
//! (`dakon_check`, which shares no code with the solver): every start up to 6 x 6 and random
//! positions from games on every board size, with exact values, weaker bounds and trivial
//! bounds, and every `L`; the same for Kalah (both capture rules) on smaller boards; then what
//! the extraction refuses to do.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dakon_check::{check, Report};
use dakon_solver::certificate::{default_small_seeds, extract, extract_with_turn, Certificate, Claim, ExtractError, ExtractProgress};
use dakon_solver::dakon::Position;
use dakon_solver::opening::{best_turn, TurnLimits};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn solver_of(name: RulesName, holes: usize) -> Solver<RuleSet> {
    Solver::new(RuleSet::new(name, holes).unwrap(), Config { threads: 1, tt_bytes: 16 << 20 }, None)
}

fn solver(holes: usize) -> Solver<RuleSet> {
    solver_of(RulesName::DAKON, holes)
}

/// The mover's store minus the opponent's.
fn stored(position: &Position) -> i32 {
    position.store(position.mover()) as i32 - position.store(position.mover().other()) as i32
}

/// The bounds that need no proof: every seed left lost, or won.
fn trivial(position: &Position) -> Claim {
    let left = position.seeds_on_board() as i32;
    Claim { lower: stored(position) - left, upper: stored(position) + left }
}

/// The exact value of `position` (final store difference) by the solver.
fn value(solver: &Solver<RuleSet>, position: &Position) -> i32 {
    let solution = solver.solve(position, &Limits::default());
    assert!(solution.is_exact(), "{position}");
    stored(position) + solution.lower
}

/// Extracts the certificate of `claim` with `L` = `small`, and checks its bytes with the
/// independent checker, which must confirm the claim.
fn certify(solver: &Solver<RuleSet>, position: &Position, claim: Claim, small: u8) -> (Certificate, Report) {
    let certificate = extract(solver, position, claim, small, &Limits::default()).unwrap_or_else(|e| panic!("{position}: {e}")).certificate;
    let report = check(&certificate.to_bytes()).unwrap_or_else(|e| panic!("{position}: malformed: {e}"));
    assert!(report.holds(), "{position} ({}) claim {claim:?} L = {small}:\n{report}", solver.rules().name());
    assert_eq!(report.root.rules().name(), solver.rules().name(), "{position}");
    assert_eq!((report.claimed_lower, report.claimed_upper), (claim.lower, claim.upper), "{position}");
    assert_eq!((report.checked_lower(), report.checked_upper()), (claim.lower as i64, claim.upper as i64), "{position}");
    assert_eq!((report.root.to_string(), report.small_seeds), (position.to_string(), small));
    assert_eq!((report.lower.entries, report.upper.entries), (certificate.lower_half.len(), certificate.upper_half.len()));
    // A trivial bound needs no strategy.
    let trivial = trivial(position);
    assert!(claim.lower > trivial.lower || certificate.lower_half.is_empty(), "{position}: trivial lower half with entries");
    assert!(claim.upper < trivial.upper || certificate.upper_half.is_empty(), "{position}: trivial upper half with entries");
    (certificate, report)
}

#[test]
fn every_start_up_to_six_by_six() {
    for holes in 1..=6 {
        let solver = solver(holes);
        let small = default_small_seeds(solver.rules());
        for seeds in 1..=8 {
            let start = Position::start(holes, seeds).unwrap();
            let v = value(&solver, &start);
            certify(&solver, &start, Claim { lower: v, upper: v }, small);
        }
    }
}

/// A position from a random game under `rules`: random seeds per hole, random moves until at
/// most `left` seeds are on the board or the game is over.
fn random_position(rng: &mut StdRng, rules: &RuleSet, left: u32) -> Position {
    let holes = rules.holes();
    let seeds = rng.gen_range(1..=(255 / (2 * holes as u32)).min(8));
    let mut position = Position::start(holes, seeds).unwrap();
    while position.seeds_on_board() > left && !rules.is_over(&position) {
        let holes = rules.legal_holes(&position);
        position = rules.play_hole(&position, holes[rng.gen_range(0..holes.len())]).unwrap().0;
    }
    position
}

/// A claim about a position of value `v`: exact, weaker on either side, or trivial on one.
fn random_claim(rng: &mut StdRng, v: i32, trivial: Claim) -> Claim {
    let (below, above) = (2 * rng.gen_range(0..=3), 2 * rng.gen_range(0..=3));
    match rng.gen_range(0..4) {
        0 | 1 => Claim { lower: v, upper: v },
        2 => Claim { lower: (v - below).max(trivial.lower), upper: (v + above).min(trivial.upper) },
        _ if rng.gen_bool(0.5) => Claim { lower: v, upper: trivial.upper },
        _ => Claim { lower: trivial.lower, upper: v },
    }
}

#[test]
fn random_positions_of_every_board_size() {
    let mut rng = StdRng::seed_from_u64(8);
    for holes in 1..=9 {
        let solver = solver(holes);
        let most_left = if holes <= 6 { 26 } else { 20 };
        for _ in 0..200 {
            let left = rng.gen_range(4..=most_left);
            let position = random_position(&mut rng, solver.rules(), left);
            let v = value(&solver, &position);
            let claim = random_claim(&mut rng, v, trivial(&position));
            certify(&solver, &position, claim, rng.gen_range(0..=default_small_seeds(solver.rules())));
        }
    }
}

#[test]
fn kalah_starts_and_random_positions_under_both_capture_rules() {
    let mut rng = StdRng::seed_from_u64(9);
    for name in [RulesName::Kalah, RulesName::KalahEmptyCapture] {
        for holes in 1..=6 {
            let solver = solver_of(name, holes);
            let small = default_small_seeds(solver.rules());
            for seeds in 1..=(if holes <= 4 { 4 } else { 2 }) {
                let start = Position::start(holes, seeds).unwrap();
                let v = value(&solver, &start);
                certify(&solver, &start, Claim { lower: v, upper: v }, small);
            }
            for _ in 0..40 {
                let left = rng.gen_range(4..=20);
                let position = random_position(&mut rng, solver.rules(), left);
                let v = value(&solver, &position);
                let claim = random_claim(&mut rng, v, trivial(&position));
                certify(&solver, &position, claim, rng.gen_range(0..=small));
            }
        }
    }
}

#[test]
fn an_opening_turn_is_the_lower_half_without_a_search_and_a_turn_that_falls_short_is_ignored() {
    for holes in [5, 7, 8, 9] {
        let rules = RuleSet::new(RulesName::DAKON, holes).unwrap();
        let start = Position::start(holes, holes as u32).unwrap();
        let turn = best_turn(&rules, &start, TurnLimits { nodes: 2_000_000, goal: None }).best.unwrap();
        let total = 2 * holes as i32 * holes as i32;
        // No search ran: the table is empty; the upper half is the trivial one.
        let claim = Claim { lower: turn.lower, upper: total };
        // Each extraction from a fresh solver, whose table holds nothing yet.
        let from_turn = |moves: &[u8]| {
            let small = default_small_seeds(&rules);
            extract_with_turn(&solver(holes), &start, claim, small, &Limits::default(), moves, &ExtractProgress::default()).unwrap()
        };
        let extraction = from_turn(&turn.moves);
        assert!(extraction.tests <= 1, "{holes}x{holes}: {} tests", extraction.tests);
        let report = check(&extraction.certificate.to_bytes()).unwrap();
        assert!(report.holds(), "{holes}x{holes}:\n{report}");
        // One move short of the turn proves less: the solver finds the strategy instead.
        if holes <= 7 {
            let short = &turn.moves[..turn.moves.len() - 1];
            let extraction = from_turn(short);
            // Its first test searches; the table it fills may answer the rest.
            assert!(extraction.tests >= 1 && extraction.tests + extraction.table_answers > 1, "{holes}x{holes}: the short turn was taken");
            assert!(check(&extraction.certificate.to_bytes()).unwrap().holds(), "{holes}x{holes}");
        }
    }
}

#[test]
fn the_extraction_refuses_false_claims_and_bad_options() {
    let solver = solver(4);
    let start = Position::start(4, 3).unwrap();
    let v = value(&solver, &start);
    let limits = Limits::default();
    let not_proven = |claim: Claim| match extract(&solver, &start, claim, 12, &limits) {
        Err(ExtractError::NotProven { half, .. }) => half,
        other => panic!("{claim:?}: {other:?}"),
    };
    assert_eq!(not_proven(Claim { lower: v + 2, upper: v + 2 }), "lower");
    assert_eq!(not_proven(Claim { lower: v - 2, upper: v - 2 }), "upper");
    assert_eq!(
        extract(&solver, &start, Claim { lower: v, upper: v - 2 }, 12, &limits).unwrap_err(),
        ExtractError::Bounds { lower: v, upper: v - 2 }
    );
    assert_eq!(
        extract(&solver, &start, Claim { lower: v, upper: v }, 62, &limits).unwrap_err(),
        ExtractError::SmallSeeds { found: 62, most: 61 }
    );
    let stopped = Limits { stop: Some(Arc::new(AtomicBool::new(true))), ..Limits::default() };
    assert_eq!(extract(&solver, &start, Claim { lower: v, upper: v }, 4, &stopped).unwrap_err(), ExtractError::Stopped);
}

#[test]
fn written_files_are_the_certificate_bytes_and_a_bad_path_changes_nothing() {
    let solver = solver(5);
    let start = Position::start(5, 5).unwrap();
    let v = value(&solver, &start);
    let certificate = extract(&solver, &start, Claim { lower: v, upper: v }, 12, &Limits::default()).unwrap().certificate;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dakon-5x5.dkc");
    let size = certificate.write(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), certificate.to_bytes());
    assert_eq!(size, certificate.to_bytes().len() as u64);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
    let error = certificate.write(&dir.path().join("missing").join("x.dkc")).unwrap_err();
    assert!(error.to_string().contains("missing/x.dkc.tmp: cannot write"), "{error}");
}
