//! The check is the threshold walk of `docs/formats/certificates.md`: a second, recursive
//! implementation of the walk written from the document gives the same verdicts, the same
//! first failures and the same visit counts; an illegal entry beyond the threshold does not
//! count; claims are not range-limited; the checked bounds are never more than the claim.

use crate::common;

use std::collections::HashMap;

use common::{checked, exact_certificate, start, Draft, Solver};
use dakon_check::rules::{Position, Rules};
use dakon_check::{HalfReport, Shortfall};

fn difference(stores: [u8; 2], player: usize) -> i64 {
    i64::from(stores[player]) - i64::from(stores[1 - player])
}

/// The document's walk of one half, recursive as written there.
struct Walk<'a> {
    owner: usize,
    need: i64,
    small_seeds: u32,
    strategy: HashMap<Vec<u8>, u8>,
    entered: HashMap<(Vec<u8>, usize), i64>,
    visited: u64,
    solver: &'a mut Solver,
}

impl Walk<'_> {
    /// `Err` with the failing position and whether its entry's move was illegal.
    fn visit(&mut self, q: &Position) -> Result<(), (Position, bool)> {
        self.visited += 1;
        let (d, s) = (difference(q.stores(), self.owner), i64::from(q.seeds_on_board()));
        let t = self.need - d;
        if t <= -s {
            return Ok(()); // S
        }
        let key = (q.holes().to_vec(), q.player());
        if self.entered.get(&key).is_some_and(|&entered| entered >= t) {
            return Ok(()); // E
        }
        self.entered.insert(key, t);
        let fail = |illegal| Err((*q, illegal));
        if let Some(stores) = q.final_stores() {
            return if difference(stores, self.owner) >= self.need { Ok(()) } else { fail(false) };
        }
        if q.seeds_on_board() <= self.small_seeds {
            return if self.solver.value_for(q, self.owner) >= self.need { Ok(()) } else { fail(false) };
        }
        if q.player() != self.owner {
            let mut moves = q.legal_moves();
            moves.sort_unstable();
            for hole in moves {
                self.visit(&q.play(hole).expect("legal"))?;
            }
            return Ok(());
        }
        match self.strategy.get(q.holes()) {
            None => fail(false),
            Some(&hole) => match q.play(hole.into()) {
                None => fail(true),
                Some(next) => self.visit(&next),
            },
        }
    }
}

/// Walks one half of `draft` as the document does and compares with the checker's report.
fn agrees(draft: &Draft, root: &Position, half: usize, report: &HalfReport, solver: &mut Solver) {
    let owner = if half == 0 { root.player() } else { 1 - root.player() };
    let need = if half == 0 { i64::from(draft.lower) } else { -i64::from(draft.upper) };
    let strategy = draft.halves[half].iter().cloned().collect();
    let mut walk = Walk { owner, need, small_seeds: draft.small_seeds.into(), strategy, entered: HashMap::new(), visited: 0, solver };
    let verdict = walk.visit(root);
    assert_eq!(report.visited, walk.visited, "{root} half {half}: visits");
    match (verdict, &report.failure) {
        (Ok(()), None) => {}
        (Err((position, illegal)), Some(failure)) => {
            assert_eq!(failure.position, position, "{root} half {half}: the first failure");
            assert_eq!(matches!(failure.shortfall, Shortfall::IllegalMove(_)), illegal);
        }
        (verdict, failure) => panic!("{root} half {half}: the document's walk {verdict:?}, the checker {failure:?}"),
    }
}

/// Roots on boards of 2 and 3 holes, and the positions after each first move.
fn roots(rules: Rules) -> Vec<Position> {
    let mut roots = Vec::new();
    for (holes_per_row, seeds) in [(2, 2), (2, 3), (3, 1), (3, 2)] {
        let start = start(rules, holes_per_row, seeds);
        roots.push(start);
        roots.extend(start.successors().into_iter().map(|(_, next)| next));
    }
    roots
}

/// `draft` with the entry for `board` in `half` lifting `hole`.
fn with_hole(draft: &Draft, half: usize, index: usize, hole: u8) -> Draft {
    let mut tampered = draft.clone();
    tampered.halves[half][index].1 = hole;
    tampered
}

/// A hole of the other player: never a legal move of the owner of the entry's half.
fn foreign_hole(root: &Position, half: usize) -> u8 {
    let owner = if half == 0 { root.player() } else { 1 - root.player() };
    if owner == 0 {
        0
    } else {
        root.holes_per_row() as u8
    }
}

#[test]
fn visit_counts_and_first_failures_are_the_documents_walk() {
    let mut compared = 0;
    for rules in Rules::ALL {
        let mut solver = Solver::default();
        for root in roots(rules) {
            for small_seeds in [0, 2] {
                let (value, draft) = exact_certificate(&mut solver, &root, small_seeds);
                let value = value as i32;
                let mut drafts = vec![
                    draft.clone(),
                    Draft { lower: value - 3, upper: value + 1, ..draft.clone() },
                    Draft { lower: value + 1, upper: value + 1, ..draft.clone() },
                    Draft { lower: value - 1, upper: value - 1, ..draft.clone() },
                ];
                for half in 0..2 {
                    let foreign = foreign_hole(&root, half);
                    drafts.extend((0..draft.halves[half].len()).map(|index| with_hole(&draft, half, index, foreign)));
                }
                for draft in drafts {
                    let report = checked(&draft.bytes());
                    agrees(&draft, &root, 0, &report.lower, &mut solver);
                    agrees(&draft, &root, 1, &report.upper, &mut solver);
                    assert_eq!(report.visited, report.lower.visited + report.upper.visited, "minimax positions are not visits");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 500, "{compared} certificates compared");
}

#[test]
fn an_illegal_entry_beyond_the_threshold_does_not_count() {
    // For each entry of each exact lower half: made illegal, it fails the exact claim where the
    // walk uses it; with the claim weakened until the stores settle the need before the walk
    // gets there, the same file holds, though the entry is still reachable.
    let mut beyond = 0;
    for rules in Rules::ALL {
        let mut solver = Solver::default();
        for root in roots(rules) {
            let (value, draft) = exact_certificate(&mut solver, &root, 0);
            for index in 0..draft.halves[0].len() {
                let tampered = with_hole(&draft, 0, index, foreign_hole(&root, 0));
                let report = checked(&tampered.bytes());
                let Some(failure) = &report.lower.failure else { continue };
                assert!(matches!(failure.shortfall, Shortfall::IllegalMove(_)), "{failure}");
                assert_eq!(failure.position.holes(), &draft.halves[0][index].0[..]);
                let weakened = (1..=2 * root.seeds_on_board() as i32)
                    .map(|by| Draft { lower: value as i32 - by, ..tampered.clone() })
                    .find(|weak| checked(&weak.bytes()).holds());
                if let Some(weak) = weakened {
                    // Not the trivial claim: the walk still uses entries, just not this one.
                    let trivial = difference(root.stores(), root.player()) - i64::from(root.seeds_on_board());
                    if i64::from(weak.lower) > trivial {
                        let report = checked(&weak.bytes());
                        assert!(report.lower.visited > 1);
                        assert_eq!(report.checked_lower(), i64::from(weak.lower), "the claim, never more");
                        beyond += 1;
                    }
                }
            }
        }
    }
    assert!(beyond >= 10, "{beyond} reachable illegal entries beyond a non-trivial threshold");
}

#[test]
fn claims_are_not_range_limited() {
    let root = start(Rules::DAKON, 2, 2);
    let (value, draft) = exact_certificate(&mut Solver::default(), &root, 0);
    let wide = Draft { lower: -1000, upper: 1000, ..draft.clone() };
    let report = checked(&wide.bytes());
    assert!(report.holds(), "{report}");
    assert_eq!((report.lower.visited, report.upper.visited), (1, 1), "settled at the roots by step S");
    assert_eq!((report.checked_lower(), report.checked_upper()), (-1000, 1000), "the claim, as claimed");
    let impossible = Draft { lower: 1000, upper: 1000, ..draft.clone() };
    let report = checked(&impossible.bytes());
    assert!(!report.lower.holds() && report.upper.holds(), "{report}");
    assert_eq!(report.checked_lower(), -8, "the trivial bound: every seed lost");
    let extreme = Draft { lower: i32::MIN, upper: i32::MAX, ..draft };
    assert!(checked(&extreme.bytes()).holds());
    assert!(value.abs() <= 8);
}
