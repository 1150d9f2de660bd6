//! Writing one proof certificate: extracted from a solver's table, written atomically, read
//! back and checked by the independent checker, and reported as text or JSON.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use dakon_solver::certificate::{
    default_small_seeds, extract_opening, extract_with_turn, Claim, ExtractError, ExtractProgress, Extraction,
};
use dakon_solver::dakon::{DakonOptions, OpeningState, Position};
use dakon_solver::search::{Limits, Solver};
use dakon_solver::solvable::Solvable;
use serde::{Deserialize, Serialize};

use crate::certificate_arg::CertificateOptions;
use crate::cli_error::CliError;
use crate::search_args::interrupt_flag;
use crate::spinner::Spinner;

/// What the independent checker said about a certificate read back from its file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checked {
    /// Whether the file proves its claim.
    pub holds: bool,
    /// Positions the checker visited.
    pub visited: u64,
    pub seconds: f64,
    /// Why it does not hold (the first failure, or what is malformed).
    pub problem: Option<String>,
}

impl Checked {
    /// Checks the certificate in `path` with the independent checker.
    ///
    /// # Errors
    /// [`CliError::Failure`] if the file cannot be read back.
    fn file(path: &Path) -> Result<Checked, CliError> {
        let started = Instant::now();
        let bytes =
            std::fs::read(path).map_err(|e| CliError::Failure(format!("cannot read back the certificate {}: {e}", path.display())))?;
        let checked = match dakon_check::check(&bytes) {
            Ok(report) => {
                let failure = report.lower.failure.as_ref().or(report.upper.failure.as_ref());
                Checked { holds: report.holds(), visited: report.visited, seconds: 0.0, problem: failure.map(ToString::to_string) }
            }
            Err(error) => Checked { holds: false, visited: 0, seconds: 0.0, problem: Some(format!("malformed: {error}")) },
        };
        Ok(Checked { seconds: started.elapsed().as_secs_f64(), ..checked })
    }
}

/// What the extraction asked of the solver: the figures of a write's cost that do not depend
/// on the machine's load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Work {
    /// Null-window tests the solver searched.
    pub tests: u64,
    /// Positions the solver visited for them.
    pub solver_nodes: u64,
    /// Tests the solver's table answered without a search.
    pub table_answers: u64,
    /// Positions of a strategy's owner the extraction walked.
    pub positions: u64,
}

/// A certificate written to disk.
#[derive(Clone, Debug)]
pub struct Written {
    pub path: PathBuf,
    /// The file's size.
    pub bytes: u64,
    pub claim: Claim,
    pub small_seeds: u8,
    pub lower_entries: usize,
    pub upper_entries: usize,
    /// Extraction and writing.
    pub seconds: f64,
    /// The independent checker's verdict (`None` with `--no-check`).
    pub check: Option<Checked>,
    /// What the extraction cost (`None` in records written before it was kept).
    pub work: Option<Work>,
}

impl Written {
    /// Lines for the text output.
    pub fn describe(&self) -> String {
        let written = format!(
            "certificate: {} ({} bytes): lower bound {:+} with {} entries, upper bound {:+} with {} entries, L = {}, written in {:.3} s",
            self.path.display(),
            self.bytes,
            self.claim.lower,
            self.lower_entries,
            self.claim.upper,
            self.upper_entries,
            self.small_seeds,
            self.seconds
        );
        let checked = match &self.check {
            None => "not checked (--no-check): run `dakon check FILE`".to_string(),
            Some(c) if c.holds => format!("holds ({} positions visited in {:.3} s)", c.visited, c.seconds),
            Some(c) => format!("REFUSED: {}", c.problem.as_deref().unwrap_or("")),
        };
        format!("{written}\nchecked by the independent checker: {checked}")
    }

    /// `Ok` unless the checker refused the certificate.
    ///
    /// # Errors
    /// [`CliError::Failure`] naming the file and the checker's reason.
    pub fn accepted(&self) -> Result<(), CliError> {
        match &self.check {
            Some(c) if !c.holds => Err(CliError::Failure(format!(
                "the independent checker refused the certificate {}: {} (a bug in the certificate writer; the file is kept)",
                self.path.display(),
                c.problem.as_deref().unwrap_or("")
            ))),
            _ => Ok(()),
        }
    }

    /// The JSON object of the certificate (read back by [`Written::from_json`]).
    pub fn json(&self) -> serde_json::Value {
        let record = WrittenRecord {
            file: self.path.display().to_string(),
            bytes: self.bytes,
            lower: self.claim.lower,
            upper: self.claim.upper,
            small_seeds: self.small_seeds,
            lower_entries: self.lower_entries,
            upper_entries: self.upper_entries,
            seconds: self.seconds,
            checked: self.check.as_ref().map(|c| c.holds),
            check: self.check.clone(),
            work: self.work.clone(),
        };
        serde_json::to_value(record).expect("a certificate's record is plain data")
    }

    /// The certificate a [`Written::json`] object stands for.
    ///
    /// # Errors
    /// What is wrong with `value`, if it is not such an object.
    pub fn from_json(value: serde_json::Value) -> Result<Written, String> {
        let r: WrittenRecord = serde_json::from_value(value).map_err(|e| format!("not a certificate record ({e})"))?;
        Ok(Written {
            path: PathBuf::from(r.file),
            bytes: r.bytes,
            claim: Claim { lower: r.lower, upper: r.upper },
            small_seeds: r.small_seeds,
            lower_entries: r.lower_entries,
            upper_entries: r.upper_entries,
            seconds: r.seconds,
            check: r.check,
            work: r.work,
        })
    }
}

/// A [`Written`] as JSON. `checked` repeats `check.holds` for scripts (null: not checked).
#[derive(Serialize, Deserialize)]
struct WrittenRecord {
    file: String,
    bytes: u64,
    lower: i32,
    upper: i32,
    small_seeds: u8,
    lower_entries: usize,
    upper_entries: usize,
    seconds: f64,
    checked: Option<bool>,
    check: Option<Checked>,
    #[serde(default)]
    work: Option<Work>,
}

/// The claim of bounds on the future gain of `position` (what the solver proves), as final
/// store differences.
pub fn claim(position: &Position, future_lower: i32, future_upper: i32) -> Claim {
    let stored = position.store_difference();
    Claim { lower: stored + future_lower, upper: stored + future_upper }
}

/// Extracts the certificate of `claim` about `root` with `solver` (whose table holds the
/// proof just found; `turn`, rules-level moves of the mover, is tried first for the lower
/// half, see [`extract_with_turn`]), writes it to `path` atomically and, unless `--no-check`, reads it back
/// and checks it with the independent checker. Ctrl-C stops the extraction, writing nothing.
///
/// # Errors
/// [`CliError::Failure`] if Ctrl-C stopped the extraction, the solver could not back the claim
/// (a bug) or the file cannot be written or read back. A file the checker refuses is not an
/// error here: see [`Written::accepted`].
pub fn write_certificate<R>(
    solver: &Solver<R>,
    root: &Position,
    claim: Claim,
    turn: &[u8],
    options: &CertificateOptions,
    path: &Path,
) -> Result<Written, CliError>
where
    R: Solvable<Position = Position>,
{
    write_certificate_until(solver, root, claim, turn, options, path, interrupt_flag())
}

/// [`write_certificate`], stopped (writing nothing) when `stop` is raised rather than only by
/// Ctrl-C: for callers with a deadline.
///
/// # Errors
/// As [`write_certificate`]; a raised `stop` is reported as an interruption.
pub fn write_certificate_until<R>(
    solver: &Solver<R>,
    root: &Position,
    claim: Claim,
    turn: &[u8],
    options: &CertificateOptions,
    path: &Path,
    stop: Arc<AtomicBool>,
) -> Result<Written, CliError>
where
    R: Solvable<Position = Position>,
{
    let small_seeds = options.small_seeds.unwrap_or_else(|| default_small_seeds(solver.rules()));
    write_extracted(options, path, root.holes(), stop, |limits, progress| {
        extract_with_turn(solver, root, claim, small_seeds, limits, turn, progress)
    })
}

/// [`write_certificate`] of an opening state under `no-first-turn-capture` (`rules`, which
/// have it): the extraction goes through the opening with the opening search, then on with
/// `solver`, which plays the rules without the option. Stopped (writing nothing) when `stop`
/// is raised: Ctrl-C's [`interrupt_flag`], or a caller's deadline.
///
/// # Errors
/// As [`write_certificate`]; a raised `stop` is reported as an interruption.
pub fn write_opening_certificate<R>(
    solver: &Solver<R>,
    root: &OpeningState,
    rules: DakonOptions,
    claim: Claim,
    options: &CertificateOptions,
    path: &Path,
    stop: Arc<AtomicBool>,
) -> Result<Written, CliError>
where
    R: Solvable<Position = Position>,
{
    let small_seeds = options.small_seeds.unwrap_or_else(|| default_small_seeds(solver.rules()));
    write_extracted(options, path, root.position.holes(), stop, |limits, progress| {
        extract_opening(solver, root, rules, claim, small_seeds, limits, progress)
    })
}

/// Runs `extract` (with limits stopped by `stop`, and a progress to raise), writes its
/// certificate of a board of `holes` holes a row to `path` atomically and, unless
/// `--no-check`, reads it back and checks it.
///
/// # Errors
/// As [`write_certificate`].
fn write_extracted<F>(
    options: &CertificateOptions,
    path: &Path,
    holes: usize,
    stop: Arc<AtomicBool>,
    extract: F,
) -> Result<Written, CliError>
where
    F: FnOnce(&Limits, &ExtractProgress) -> Result<Extraction, ExtractError> + Send,
{
    let started = Instant::now();
    let spinner = Spinner::with_ctrl_c(&format!("writing the certificate {}", path.display()), "stops it, writing nothing");
    let limits = Limits { stop: Some(stop), ..Limits::default() };
    let progress = ExtractProgress::default();
    let entry_bytes = 2 * holes as u64 + 1;
    let extraction = watched(&spinner, path, entry_bytes, &progress, || extract(&limits, &progress)).map_err(|e| match e {
        ExtractError::Stopped => CliError::Failure(format!("certificate {}: interrupted, nothing written", path.display())),
        e => CliError::Failure(format!("certificate {}: {e}", path.display())),
    })?;
    let work = Work {
        tests: extraction.tests,
        solver_nodes: extraction.nodes,
        table_answers: extraction.table_answers,
        positions: progress.positions(),
    };
    let certificate = extraction.certificate;
    let bytes = certificate.write(path).map_err(|e| CliError::Failure(format!("cannot write the certificate: {e}")))?;
    drop(spinner);
    let seconds = started.elapsed().as_secs_f64();
    let check = if options.no_check {
        None
    } else {
        let _spinner =
            Spinner::with_ctrl_c(&format!("checking the certificate {}", path.display()), "twice ends the program, keeping the file");
        Some(Checked::file(path)?)
    };
    Ok(Written {
        path: path.to_path_buf(),
        bytes,
        claim: certificate.claim,
        small_seeds: certificate.small_seeds,
        lower_entries: certificate.lower_half.len() + certificate.opening.as_ref().map_or(0, |o| o.lower_half.moves.len()),
        upper_entries: certificate.upper_half.len() + certificate.opening.as_ref().map_or(0, |o| o.upper_half.moves.len()),
        seconds,
        check,
        work: Some(work),
    })
}

/// Runs `extract` while `spinner` shows `progress` (positions walked, entries chosen and their
/// bytes of `entry_bytes` each before compression, tests searched) twice a second: a big tree's extraction takes minutes.
fn watched<F>(spinner: &Spinner, path: &Path, entry_bytes: u64, progress: &ExtractProgress, extract: F) -> Result<Extraction, ExtractError>
where
    F: FnOnce() -> Result<Extraction, ExtractError> + Send,
{
    // The watcher waits on a channel, not a sleep, so that a quick extraction is not kept
    // waiting for the watcher's next wake-up.
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(Duration::from_millis(500)) {
                spinner.set_message(&format!(
                    "writing the certificate {}: {} positions walked, {} entries chosen (about {} MB before compression), {} tests searched",
                    path.display(),
                    progress.positions(),
                    progress.entries(),
                    progress.entries() * entry_bytes / 1_000_000,
                    progress.tests()
                ));
            }
        });
        let extraction = extract();
        drop(done);
        extraction
    })
}
