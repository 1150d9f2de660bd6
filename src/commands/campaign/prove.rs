//! One test of the campaign: "is the value of this position at least `target`?", answered by
//! the solver within a budget, then its certificate, written and checked.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dakon_solver::certificate::Claim;
use dakon_solver::dakon::Position;
use dakon_solver::rules::{parity_ceil, parity_floor, Rules};
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Limits, Solver};

use super::bounds::{Bounds, Side};
use super::cpu_time::process_cpu_seconds;
use super::record::{xxh3_hex, BoundRecord, CertificateRef, Record, StoppedRecord, Work};
use super::tree::{line_name, Node};
use crate::certificate_arg::CertificateOptions;
use crate::certificate_writer::{write_certificate_until, Written};
use crate::cli_error::CliError;
use crate::commands::verify::report::{machine, utc_now};
use crate::deadline;

/// What every test of a run shares.
pub struct Lab<'a> {
    pub solver: &'a Solver<RuleSet>,
    pub tables: bool,
    pub tt_mb: usize,
    /// Where certificates go (`None`: no certificates).
    pub certificates: Option<&'a Path>,
    /// The same directory as records name it: relative to the campaign file's directory
    /// when inside it, so that the campaign can be moved as a whole.
    pub recorded_dir: PathBuf,
    pub certificate_options: &'a CertificateOptions,
    /// The start of every certificate's file name, e.g. `kalah-6x6`.
    pub file_prefix: String,
    /// The longest a certificate may take to write; a bound whose certificate is not written
    /// in time is kept, proven by the search alone.
    pub certificate_time: Duration,
    /// The end of the run: no certificate is written past it.
    pub deadline: Option<Instant>,
    /// Ctrl-C.
    pub interrupt: Arc<AtomicBool>,
}

/// A test to run on a node: its target and budget.
pub struct Test {
    /// "Is the value (final store difference, the node's mover minus the opponent) at least
    /// `target`?"
    pub target: i32,
    pub budget: Duration,
}

/// What became of a test.
pub enum Outcome {
    /// Answered: the record of the bound, and the error to stop the run with if its
    /// certificate could not be written to disk or the checker refused it (the bound itself
    /// is proven by the search and kept).
    Proven(BoundRecord, Option<CliError>),
    /// Its budget ran out first.
    Stopped(StoppedRecord),
    /// Ctrl-C: nothing to record.
    Interrupted,
}

impl Outcome {
    /// The record to append, if any.
    pub fn record(&self) -> Option<Record> {
        match self {
            Outcome::Proven(r, _) => Some(Record::Bound(r.clone())),
            Outcome::Stopped(r) => Some(Record::Stopped(r.clone())),
            Outcome::Interrupted => None,
        }
    }
}

impl Lab<'_> {
    /// Runs `test` on `node` with `limits` (its budget and the run's Ctrl-C flag). A proven
    /// bound is rounded to the parity every value of the position has.
    pub fn run(&self, node: &Node<Position>, test: &Test, limits: &Limits) -> Outcome {
        let position = &node.position;
        let (stored, seeds) = (position.store_difference(), position.seeds_on_board());
        let cpu_before = process_cpu_seconds();
        let answer = self.solver.prove_at_least(position, test.target - stored, limits);
        let work = Work {
            target: test.target,
            budget_seconds: test.budget.as_secs_f64(),
            nodes: answer.nodes,
            seconds: answer.elapsed.as_secs_f64(),
            cpu_seconds: process_cpu_seconds() - cpu_before,
            threads: self.solver.threads(),
            tt_mb: self.tt_mb,
            tables: self.tables,
            machine: machine(),
            date: utc_now(),
        };
        let rules = self.solver.rules().name().to_string();
        let (side, value) = match answer.holds {
            Some(true) => (Side::AtLeast, stored + parity_ceil(test.target - stored, seeds)),
            Some(false) => (Side::AtMost, stored + parity_floor(test.target - stored - 1, seeds)),
            None if self.interrupt.load(Ordering::SeqCst) => return Outcome::Interrupted,
            None => return Outcome::Stopped(StoppedRecord { position: node.notation.clone(), line: node.line.clone(), rules, work }),
        };
        let (certificate, problem) = match self.certify(node, side, value) {
            Ok(None) => (None, None),
            Ok(Some(written)) => {
                let refused = written.accepted().err();
                (certificate_ref(&written, &self.recorded_dir), refused)
            }
            Err(e) => (None, Some(e)),
        };
        let record = BoundRecord {
            position: node.notation.clone(),
            line: node.line.clone(),
            rules,
            bound: side,
            value,
            proof: "search".to_string(),
            certificate,
            work,
        };
        Outcome::Proven(record, problem)
    }

    /// The certificate of "the value of `node` is `side` `value`", right after the test that
    /// proved it (the solver's table holds the proof), when certificates are asked for and it
    /// can be written by the deadline (`Ok(None)` otherwise, saying so).
    ///
    /// # Errors
    /// [`CliError::Failure`] if it cannot be written to disk or read back.
    fn certify(&self, node: &Node<Position>, side: Side, value: i32) -> Result<Option<Written>, CliError> {
        let Some(dir) = self.certificates else { return Ok(None) };
        let Bounds { lower, upper } = node.trivial;
        let claim = match side {
            Side::AtLeast => Claim { lower: value, upper },
            Side::AtMost => Claim { lower, upper: value },
        };
        let path = dir.join(self.file_name(node, side, value));
        let own = Instant::now() + self.certificate_time;
        let deadline = self.deadline.map_or(own, |end| end.min(own));
        let written = deadline::until(deadline, &self.interrupt, |stop| {
            let result = write_certificate_until(self.solver, &node.position, claim, &[], self.certificate_options, &path, stop.clone());
            (result, stop.load(Ordering::SeqCst))
        });
        match written {
            (Ok(written), _) => Ok(Some(written)),
            (Err(_), true) => {
                let why = if self.interrupt.load(Ordering::SeqCst) { "Ctrl-C" } else { "its deadline" };
                eprintln!("certificate {}: stopped by {why}, not written; the bound is kept, proven by the search alone", path.display());
                Ok(None)
            }
            (Err(e), false) => Err(e),
        }
    }

    /// `kalah-6x6-start-ge+4.dkc`, `kalah-6x6-8-le+20.dkc`: the campaign, the line, the bound.
    pub fn file_name(&self, node: &Node<Position>, side: Side, value: i32) -> String {
        let side = match side {
            Side::AtLeast => "ge",
            Side::AtMost => "le",
        };
        format!("{}-{}-{side}{value:+}.dkc", self.file_prefix, line_name(&node.line))
    }
}

/// The record of a certificate written into `recorded_dir`, with the XXH3 of the file as it
/// is on disk.
fn certificate_ref(written: &Written, recorded_dir: &Path) -> Option<CertificateRef> {
    let bytes = std::fs::read(&written.path).ok()?;
    let name = written.path.file_name()?;
    Some(CertificateRef {
        file: recorded_dir.join(name).display().to_string(),
        bytes: bytes.len() as u64,
        xxh3: xxh3_hex(&bytes),
        lower: written.claim.lower,
        upper: written.claim.upper,
        small_seeds: written.small_seeds,
        write_seconds: written.seconds,
        checked: written.check.as_ref().map(|c| c.holds),
        check_seconds: written.check.as_ref().map(|c| c.seconds),
    })
}

/// `certificates` as records name it: relative to the directory of `campaign` when inside
/// it, else absolute.
pub fn recorded_dir(campaign: &Path, certificates: &Path) -> PathBuf {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let home = absolute(campaign.parent().unwrap_or(Path::new("")));
    let dir = absolute(certificates);
    dir.strip_prefix(&home).map_or(dir.clone(), Path::to_path_buf)
}

/// The start of the certificates' names for a campaign about `root`: the rules and, for a
/// start position, the board (`kalah-6x6`), else the holes per row and a hash of the root
/// (`kalah-6-1f0c3a2b`), so that the certificates of campaigns on different positions can
/// share a directory.
pub fn file_prefix(rules: &RuleSet, root: &Position) -> String {
    let holes = root.holes_in_notation_order();
    let per_hole = holes[0];
    let is_start = holes.iter().all(|&h| h == per_hole) && root.store_difference() == 0 && root.store(root.mover()) == 0;
    if is_start {
        format!("{}-{}x{per_hole}", rules.name(), root.holes())
    } else {
        format!("{}-{}-{}", rules.name(), root.holes(), &xxh3_hex(root.to_string().as_bytes())[..8])
    }
}
