//! Certificates of Dakon's variants: the writer names the variant in the header, the
//! independent checker plays each variant by its own rules, and a certificate whose rules
//! field is changed to another variant (where that variant's value differs) is refused, as is
//! one naming a Dakon option the checker does not know (exit status 3).

use dakon_check::check;
use dakon_solver::certificate::{extract, Certificate, Claim};
use dakon_solver::dakon::Position;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};

use crate::run_dakon::checker_status;

fn solver(name: RulesName, holes: usize) -> Solver<RuleSet> {
    Solver::new(RuleSet::new(name, holes).unwrap(), Config { threads: 1, tt_bytes: 16 << 20 }, None)
}

/// The exact value (stores included) of `position` under `name`.
fn value(name: RulesName, position: &Position) -> i32 {
    position.store_difference() + solver(name, position.holes()).solve(position, &Limits::default()).lower
}

/// The exact certificate of `position` under `name` (`L` = 4, so that boards have entries).
fn exact_certificate(name: RulesName, position: &Position) -> Certificate {
    let v = value(name, position);
    extract(&solver(name, position.holes()), position, Claim { lower: v, upper: v }, 4, &Limits::default()).unwrap().certificate
}

const BOARDS: [(usize, u32); 6] = [(3, 3), (3, 4), (4, 2), (4, 3), (5, 2), (2, 5)];

#[test]
fn every_variant_certificate_holds_and_names_its_variant() {
    for name in RulesName::EVERY.into_iter().filter(|name| name.is_dakon()) {
        for (holes, seeds) in BOARDS {
            let start = Position::start(holes, seeds).unwrap();
            let certificate = exact_certificate(name, &start);
            assert_eq!(certificate.rules, name.as_str());
            let report = check(&certificate.to_bytes()).unwrap_or_else(|e| panic!("{name} {holes}x{seeds}: {e}"));
            assert!(report.holds(), "{name} {holes}x{seeds}: {report}");
            assert_eq!(report.rules().name(), name.as_str());
        }
    }
}

#[test]
fn a_rules_field_changed_to_another_variant_is_refused() {
    let mut refused = 0;
    for name in RulesName::EVERY.into_iter().filter(|name| name.is_dakon()) {
        for other in RulesName::EVERY.into_iter().filter(|other| other.is_dakon() && *other != name) {
            for (holes, seeds) in BOARDS {
                let start = Position::start(holes, seeds).unwrap();
                // Only where the values differ must the certificate fail; elsewhere the same
                // strategies may well prove the same value under both readings.
                if value(name, &start) == value(other, &start) {
                    continue;
                }
                let mut certificate = exact_certificate(name, &start);
                certificate.rules = other.as_str();
                let (status, message) = checker_status(&certificate.to_bytes());
                assert_eq!(status, 1, "{name} certificate of {holes}x{seeds} relabelled {other}: {message}");
                assert!(message.contains(other.as_str()) && message.contains("FAILS"), "{message}");
                refused += 1;
            }
        }
    }
    assert!(refused >= 20, "only {refused} relabelled certificates whose values differ");
}

#[test]
fn an_unknown_dakon_option_is_unsupported_not_checked() {
    let mut certificate = exact_certificate(RulesName::DAKON, &Position::start(3, 3).unwrap());
    certificate.rules = "dakon:no-first-capture";
    let (status, message) = checker_status(&certificate.to_bytes());
    assert_eq!(status, 3, "{message}");
    assert!(
        message.contains("unsupported") && message.contains("dakon:no-first-capture") && message.contains("unknown to this checker"),
        "{message}"
    );
    // A name that is not Dakon's is still a malformed file.
    certificate.rules = "oware";
    let (status, message) = checker_status(&certificate.to_bytes());
    assert_eq!(status, 2, "{message}");
}
