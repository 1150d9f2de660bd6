//! Certificates under `no-first-turn-capture` (format version 2): written through the opening,
//! they pass the independent checker, which plays the first turn without capture by its own
//! rules; the same certificate under other rules, or with one move changed, is refused.

use dakon_check::check;
use dakon_solver::certificate::{extract_opening, Board, Certificate, Claim, ExtractProgress};
use dakon_solver::dakon::{Dakon, DakonOptions, OpeningState};
use dakon_solver::first_turn_search::solve_opening;
use dakon_solver::search::{Config, Limits, Solver};

use crate::run_dakon::checker_status;

/// The exact certificate of the start of `holes` × `seeds` under `rules` (with `L` = 4, so that
/// the ordinary halves have entries too).
fn exact_certificate(rules: &str, holes: usize, seeds: u32) -> Certificate {
    let options: DakonOptions = rules.strip_prefix("dakon:").unwrap().parse().unwrap();
    let solver = Solver::new(Dakon::with_options(holes, options.board_rules()).unwrap(), Config { threads: 1, tt_bytes: 16 << 20 }, None);
    let start = OpeningState::start(holes, seeds).unwrap();
    let solution = solve_opening(&solver, &start, options, &Limits::default());
    assert_eq!(solution.lower, solution.upper);
    let claim = Claim { lower: solution.lower, upper: solution.upper };
    extract_opening(&solver, &start, options, claim, 4, &Limits::default(), &ExtractProgress::default()).unwrap().certificate
}

const RULES: [&str; 2] = ["dakon:no-first-turn-capture", "dakon:no-first-turn-capture,traditional"];

#[test]
fn certificates_of_small_boards_hold_and_name_the_option() {
    for rules in RULES {
        for (holes, seeds) in [(2, 2), (3, 3), (4, 4)] {
            let certificate = exact_certificate(rules, holes, seeds);
            let opening = certificate.opening.as_ref().unwrap();
            assert_eq!(opening.first_turns, 3);
            assert!(!opening.lower_half.moves.is_empty(), "{rules} {holes}x{seeds}: the first move is in the opening");
            let bytes = certificate.to_bytes();
            assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "format version 2");
            let report = check(&bytes).unwrap_or_else(|e| panic!("{rules} {holes}x{seeds}: {e}"));
            assert!(report.holds(), "{rules} {holes}x{seeds}: {report}");
            assert_eq!(report.rules_name, rules);
            assert_eq!(checker_status(&bytes).0, 0);
        }
    }
}

#[test]
fn the_same_certificate_under_other_rules_is_refused() {
    let certificate = exact_certificate("dakon:no-first-turn-capture", 4, 4);
    // The option removed, the file otherwise the same: version 2 is for the option only.
    let renamed = Certificate { rules: "dakon", ..certificate.clone() };
    let (status, said) = checker_status(&renamed.to_bytes());
    assert_eq!(status, 2, "{said}");
    assert!(said.contains("format version 2 is for rules with no-first-turn-capture") && said.contains("\"dakon\""), "{said}");
    // The option removed as a version 1 file would have it: the opening's moves are gone, and
    // under the default rules (4x4 is +32 there, +28 with the option) the proof falls short.
    let ordinary = Certificate { rules: "dakon", opening: None, ..certificate.clone() };
    let (status, said) = checker_status(&ordinary.to_bytes());
    assert_eq!(status, 1, "{said}");
    // Another variant with the option, whose value differs (+26): the lower half fails.
    let traditional = Certificate { rules: "dakon:no-first-turn-capture,traditional", ..certificate.clone() };
    let report = check(&traditional.to_bytes()).unwrap();
    assert!(!report.lower.holds(), "{report}");
    // The option's name out of its alphabetical place is no name of the format.
    let misspelt = Certificate { rules: "dakon:traditional,no-first-turn-capture", ..certificate };
    let (status, said) = checker_status(&misspelt.to_bytes());
    assert_eq!(status, 3, "{said}");
}

#[test]
fn one_opening_move_changed_is_refused_naming_the_position() {
    let certificate = exact_certificate("dakon:no-first-turn-capture", 4, 4);
    let opening = certificate.opening.as_ref().unwrap();
    let root_key = (Board::of(&certificate.root), 3);
    let best = opening.lower_half.moves[&root_key];
    let mut refused = 0;
    for hole in (4..8).filter(|&hole| hole != best) {
        let mut changed = certificate.clone();
        changed.opening.as_mut().unwrap().lower_half.moves.insert(root_key, hole);
        let report = check(&changed.to_bytes()).unwrap();
        if let Some(failure) = &report.lower.failure {
            refused += 1;
            let said = failure.to_string();
            assert!(said.contains(&failure.position.to_string()), "{said}");
            assert_eq!(failure.line.first(), Some(&usize::from(hole)), "{said}");
        }
    }
    assert!(refused > 0, "some other first move of 4x4 is worse than +28");
    // A move of player 1's row at the start: illegal, refused at the root itself.
    let mut illegal = certificate.clone();
    illegal.opening.as_mut().unwrap().lower_half.moves.insert(root_key, 0);
    let report = check(&illegal.to_bytes()).unwrap();
    let failure = report.lower.failure.unwrap();
    assert!(failure.line.is_empty() && failure.to_string().contains("4,4,4,4/4,4,4,4"), "{failure}");
}
