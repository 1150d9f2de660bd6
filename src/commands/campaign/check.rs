//! `dakon campaign check`: the root's bounds again, from the certificates alone. Each file
//! named by a record is read back, compared with its recorded size and XXH3 and checked by the
//! independent checker; the tree is rebuilt with the *checker's* rules and the one-ply
//! minimax taken over it, so the certified root bounds rest on the checker and this short
//! derivation, not on the solver.

use std::path::Path;

use dakon_check::rules::{Position as CheckedPosition, Rules as CheckerRules};
use serde_json::json;

use super::bounds::{Bounds, Side};
use super::derive::{derive, Proven};
use super::file::CampaignFile;
use super::record::{xxh3_hex, BoundRecord, Record};
use super::status::{positions_json, positions_text};
use super::tree::{line_name, Game, Tree};
use crate::cli_error::CliError;

/// The checker's rules as the tree sees them.
struct CheckerGame;

impl Game for CheckerGame {
    type Position = CheckedPosition;

    fn successors(&self, position: &CheckedPosition) -> Vec<(usize, CheckedPosition, bool)> {
        position.successors().into_iter().map(|(hole, next)| (hole, next, next.player() == position.player())).collect()
    }

    fn final_difference(&self, position: &CheckedPosition) -> Option<i32> {
        let stores = position.final_stores()?;
        let mover = position.player();
        Some(i32::from(stores[mover]) - i32::from(stores[1 - mover]))
    }

    fn trivial(&self, position: &CheckedPosition) -> Bounds {
        let mover = position.player();
        let stores = position.stores();
        let stored = i32::from(stores[mover]) - i32::from(stores[1 - mover]);
        let left = position.seeds_on_board() as i32;
        Bounds { lower: stored - left, upper: stored + left }
    }

    /// The notation, written here from the checker's position: `holes top/holes bottom S1/S0 player`.
    fn notation(&self, position: &CheckedPosition) -> String {
        let holes = position.holes();
        let n = position.holes_per_row();
        let row = |r: &[u8]| r.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        let [s0, s1] = position.stores();
        format!("{}/{} {s1}/{s0} {}", row(&holes[..n]), row(&holes[n..]), position.player())
    }
}

/// What the check of one record's certificate found.
struct Verdict<'a> {
    record: &'a BoundRecord,
    file_line: usize,
    /// The checked bounds of the certificate's position, or why it does not count.
    result: Result<Bounds, String>,
}

/// Checks every certificate of `file` (where its records say, relative to the file's
/// directory, or in `dir` if given) and derives the root's certified bounds.
///
/// # Errors
/// [`CliError::Input`] for a campaign file that cannot be used, [`CliError::Failure`] if any
/// certificate is missing, changed or refused (after printing the report).
pub fn run(file: &CampaignFile, dir: Option<&Path>, json: bool) -> Result<(), CliError> {
    let home = file.path.parent().unwrap_or(Path::new(""));
    let (root, _) = file.root()?;
    let rules = CheckerRules::from_name(&file.header.rules)
        .ok_or_else(|| CliError::Input(format!("the checker does not know the rules {}", file.header.rules)))?;
    let stores = [root.store(dakon_solver::dakon::Player::Zero), root.store(dakon_solver::dakon::Player::One)];
    let checked_root =
        CheckedPosition::new(rules, &root.holes_in_notation_order(), stores, usize::from(root.mover() == dakon_solver::dakon::Player::One))
            .map_err(|e| CliError::Input(format!("the campaign's root: {}", e.0)))?;
    let tree = Tree::build(&CheckerGame, checked_root, file.header.depth).map_err(CliError::Input)?;
    let verdicts: Vec<Verdict> = file
        .records
        .iter()
        .filter_map(|(line, r)| match r {
            Record::Bound(b) if b.certificate.is_some() => {
                Some(Verdict { record: b, file_line: *line, result: check_one(&tree, b, home, dir) })
            }
            _ => None,
        })
        .collect();
    let mut proven = vec![Proven::default(); tree.nodes.len()];
    for (n, verdict) in verdicts.iter().enumerate() {
        if let Ok(bounds) = verdict.result {
            for &node in tree.nodes_of(&verdict.record.position) {
                proven[node].add(true, bounds.lower, n);
                proven[node].add(false, bounds.upper, n);
            }
        }
    }
    let derived = derive(&tree, &proven).map_err(|e| CliError::Failure(format!("the certificates: {e}")))?;
    let uncertified = file.records.iter().filter(|(_, r)| matches!(r, Record::Bound(b) if b.certificate.is_none())).count();
    let refused: Vec<&Verdict> = verdicts.iter().filter(|v| v.result.is_err()).collect();
    let name = |n: usize| verdicts[n].record.certificate.as_ref().map_or_else(String::new, |c| c.file.clone());
    if json {
        let out = json!({
            "campaign": file.path.display().to_string(),
            "checked": verdicts.len() - refused.len(), "refused": refused.iter().map(|v| json!({
                "file_line": v.file_line, "certificate": v.record.certificate.as_ref().map(|c| &c.file),
                "problem": v.result.as_ref().err(),
            })).collect::<Vec<_>>(),
            "without_certificate": uncertified,
            "root": {"lower": derived[0].bounds.lower, "upper": derived[0].bounds.upper, "exact": derived[0].bounds.is_exact()},
            "positions": positions_json(&tree, &derived, |p| p.player(), &|n| json!({"kind": "certificate", "certificate": name(n)})),
        });
        println!("{out}");
    } else {
        println!("campaign {}: {} certificates", file.path.display(), verdicts.len());
        for v in &verdicts {
            let file_name = v.record.certificate.as_ref().map_or("", |c| c.file.as_str());
            match &v.result {
                Ok(b) => println!("  holds   {file_name}: {} is {}", line_name(&v.record.line), b.describe()),
                Err(problem) => println!("  REFUSED {file_name} (line {}): {problem}", v.file_line),
            }
        }
        if uncertified > 0 {
            println!("{uncertified} bounds of the file have no certificate (proven by search only) and are left out");
        }
        println!(
            "root, from the checked certificates and the one-ply minimax over the checker's own rules: {}",
            derived[0].bounds.describe()
        );
        print!("{}", positions_text(&tree, &derived, |p| p.player(), &|n| format!("certificate {}", name(n))));
    }
    if refused.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failure(format!("{} of {} certificates did not pass (see above)", refused.len(), verdicts.len())))
    }
}

/// The bounds the certificate of `record` proves, checked: its file is the one recorded (size
/// and XXH3), the independent checker accepts it, its position is the record's (a position of
/// `tree`) and its claim implies the recorded bound.
fn check_one(tree: &Tree<CheckedPosition>, record: &BoundRecord, home: &Path, dir: Option<&Path>) -> Result<Bounds, String> {
    let reference = record.certificate.as_ref().expect("records with certificates only");
    let path = match dir {
        Some(dir) => dir.join(Path::new(&reference.file).file_name().unwrap_or_default()),
        None => home.join(&reference.file),
    };
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 != reference.bytes || xxh3_hex(&bytes) != reference.xxh3 {
        return Err(format!(
            "{} is not the file recorded ({} bytes, XXH3 {}; recorded {} bytes, XXH3 {})",
            path.display(),
            bytes.len(),
            xxh3_hex(&bytes),
            reference.bytes,
            reference.xxh3
        ));
    }
    let report = dakon_check::check(&bytes).map_err(|e| format!("malformed: {e}"))?;
    if !report.holds() {
        let failure = report.lower.failure.as_ref().or(report.upper.failure.as_ref());
        return Err(format!("does not prove its claim: {}", failure.map_or_else(String::new, ToString::to_string)));
    }
    let nodes = tree.nodes_of(&CheckerGame.notation(&report.root));
    if nodes.is_empty() || CheckerGame.notation(&report.root) != record.position {
        return Err(format!("is about {}, not the record's position {}", CheckerGame.notation(&report.root), record.position));
    }
    let bounds = Bounds { lower: report.checked_lower() as i32, upper: report.checked_upper() as i32 };
    let implied = match record.bound {
        Side::AtLeast => bounds.lower >= record.value,
        Side::AtMost => bounds.upper <= record.value,
    };
    if !implied {
        return Err(format!("proves {}, not the record's {} {:+}", bounds.describe(), record.bound.words(), record.value));
    }
    Ok(bounds)
}
