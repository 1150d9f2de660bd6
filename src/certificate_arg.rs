//! Proof certificates from the command line: the options shared by `solve` and `verify`, and
//! writing one certificate.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use dakon_solver::certificate::{extract, Claim, ExtractError, DEFAULT_SMALL_SEEDS, MAX_SMALL_SEEDS};
use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::search::{Limits, Solver};

use crate::cli_error::CliError;
use crate::commands::solve::store_difference;
use crate::search_args::interrupt_flag;
use crate::spinner::Spinner;

/// How certificates are written.
#[derive(Args, Clone, Debug)]
pub struct CertificateOptions {
    /// Positions with at most L seeds on the board get no entry in a certificate: the checker
    /// solves them by its own minimax. 0 to 12; a smaller L makes larger files.
    #[arg(long = "certificate-small-seeds", value_name = "L", default_value_t = DEFAULT_SMALL_SEEDS,
          value_parser = clap::value_parser!(u8).range(0..=MAX_SMALL_SEEDS as i64))]
    pub small_seeds: u8,
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
}

impl Written {
    /// One line for the text output.
    pub fn describe(&self) -> String {
        format!(
            "certificate: {} ({} bytes): lower bound {:+} with {} entries, upper bound {:+} with {} entries, L = {}, written in {:.3} s",
            self.path.display(),
            self.bytes,
            self.claim.lower,
            self.lower_entries,
            self.claim.upper,
            self.upper_entries,
            self.small_seeds,
            self.seconds
        )
    }

    /// The JSON object of the certificate.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.path.display().to_string(),
            "bytes": self.bytes,
            "lower": self.claim.lower,
            "upper": self.claim.upper,
            "small_seeds": self.small_seeds,
            "lower_entries": self.lower_entries,
            "upper_entries": self.upper_entries,
            "seconds": self.seconds,
        })
    }
}

/// The claim of bounds on the future gain of `position` (what the solver proves), as final
/// store differences.
pub fn claim(position: &Position, future_lower: i32, future_upper: i32) -> Claim {
    let stored = store_difference(position);
    Claim { lower: stored + future_lower, upper: stored + future_upper }
}

/// Checks, before any work, that a certificate can be written to `path`: its directory exists
/// and it is not itself a directory.
///
/// # Errors
/// [`CliError::Input`] saying what is wrong with `path`.
pub fn check_destination(path: &Path) -> Result<(), CliError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if path.is_dir() {
        return Err(CliError::Input(format!("--certificate {}: is a directory, expected a file name", path.display())));
    }
    if !dir.is_dir() {
        return Err(CliError::Input(format!("--certificate {}: the directory {} does not exist", path.display(), dir.display())));
    }
    Ok(())
}

/// Extracts the certificate of `claim` about `root` with `solver` (whose table holds the
/// proof just found) and writes it to `path` atomically. Ctrl-C stops it, writing nothing.
///
/// # Errors
/// [`CliError::Failure`] if Ctrl-C stopped the extraction, the solver could not back the claim
/// (a bug) or the file cannot be written.
pub fn write_certificate<R>(
    solver: &Solver<R>,
    root: &Position,
    claim: Claim,
    options: &CertificateOptions,
    path: &Path,
) -> Result<Written, CliError>
where
    R: Rules<Position = Position>,
{
    let started = Instant::now();
    let spinner = Spinner::with_ctrl_c(&format!("writing the certificate {}", path.display()), "stops it, writing nothing");
    let limits = Limits { stop: Some(interrupt_flag()), ..Limits::default() };
    let extraction = extract(solver, root, claim, options.small_seeds, &limits).map_err(|e| match e {
        ExtractError::Stopped => CliError::Failure(format!("certificate {}: interrupted, nothing written", path.display())),
        e => CliError::Failure(format!("certificate {}: {e}", path.display())),
    })?;
    let certificate = extraction.certificate;
    let bytes = certificate.write(path).map_err(|e| CliError::Failure(format!("cannot write the certificate: {e}")))?;
    drop(spinner);
    Ok(Written {
        path: path.to_path_buf(),
        bytes,
        claim,
        small_seeds: options.small_seeds,
        lower_entries: certificate.lower_half.len(),
        upper_entries: certificate.upper_half.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
