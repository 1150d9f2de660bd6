//! A large certificate with one strategy move changed is refused, naming the position: the
//! test of issue 46 on Kalah(6,4), too slow for CI (a few minutes and gigabytes of checking),
//! so it runs only when `DAKON_TAMPER` names a certificate: `scripts/tamper-certificate FILE`.

use crate::common::{checked, Draft};
use dakon_check::{Certificate, Shortfall};

#[test]
#[ignore = "minutes: needs a large certificate, run by scripts/tamper-certificate"]
fn a_certificate_with_the_first_move_changed_is_refused_naming_the_position() {
    let path = std::env::var("DAKON_TAMPER").expect("DAKON_TAMPER: the certificate to tamper with");
    let bytes = std::fs::read(&path).expect("a readable certificate");
    let certificate = Certificate::read(&bytes).expect("a well-formed certificate");
    let root = certificate.root;
    let halves = [&certificate.lower_half, &certificate.upper_half]
        .map(|half| half.entries().map(|(board, hole)| (board.to_vec(), hole)).collect::<Vec<_>>());
    let mut draft = Draft::new(&root, certificate.lower, certificate.upper, certificate.small_seeds, halves);
    // The lower half's move at the root: its first move, which every line of the walk follows.
    let entry = draft.halves[0].iter_mut().find(|(board, _)| board == root.holes()).expect("an entry for the root");
    let played = entry.1;
    let changed = root.legal_moves().into_iter().find(|&hole| hole != usize::from(played)).expect("another move");
    entry.1 = changed as u8;
    let report = checked(&draft.bytes());
    println!("{path}: the move at the root changed from hole {played} to hole {changed}:\n{report}");
    let failure = report.lower.failure.as_ref().expect("the lower half is refused");
    assert_eq!(failure.line.first(), Some(&changed), "the walk fails on the changed line");
    assert!(!matches!(failure.shortfall, Shortfall::IllegalMove(_)), "a legal move, refused for what it proves");
    assert!(report.upper.holds(), "the other half is untouched");
    assert!(report.to_string().contains(&failure.position.to_string()), "the report names the position");
}
