//! `verify --certificates DIR`: a certificate of each board's result, one file per board.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dakon_solver::dakon::{OpeningState, Position};
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::Solver;

use super::board::{Board, Row};
use crate::certificate_arg::CertificateOptions;
use crate::certificate_writer::{write_certificate_until, write_opening_certificate, Written};
use crate::cli_error::CliError;
use crate::deadline;
use crate::first_turn_commands;
use crate::line::rules_line;
use crate::search_args::interrupt_flag;

/// The file of a board's certificate: rules, holes and seeds per hole, e.g. `dakon-7x7.dkc`,
/// or `dakon_skip-origin-7x7.dkc` for `dakon:skip-origin` (a `:` cannot be in a file name on
/// every system).
pub fn file_name(rules: RulesName, board: Board) -> String {
    format!("{}-{}x{}.dkc", rules.to_string().replace(':', "_"), board.holes, board.seeds)
}

/// Creates the certificates directory if needed, before any board is searched.
///
/// # Errors
/// [`CliError::Input`] if `dir` cannot be created or is not a directory.
pub fn prepare(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::Input(format!("--certificates {}: cannot create the directory: {e}", dir.display())))
}

/// Writes the certificate of `row`'s bounds into `dir`, with `solver` whose table holds the
/// board's proof (and the opening-turn proof's turn, which proves the lower bound on its own
/// when the row's lower bound is its), within `seconds` when given; a failure is kept as its
/// message, for the row to show. `None` when the time ran out first (nothing is written).
pub fn certify(
    solver: &Solver<RuleSet>,
    row: &Row,
    dir: &Path,
    options: &CertificateOptions,
    seconds: Option<f64>,
) -> Option<Result<Written, String>> {
    let start = Position::start(row.board.holes, row.board.seeds).expect("board sizes are checked before");
    // The start has empty stores: the row's bounds are final differences already.
    let claim = row.certificate_claim();
    let path = dir.join(file_name(row.rules, row.board));
    let write = |stop: Arc<AtomicBool>| match first_turn_commands::opening_options(row.rules) {
        // Through the opening (format version 2), as `solve --certificate` writes it.
        Some(rules) => {
            let start = OpeningState::start(row.board.holes, row.board.seeds).expect("board sizes are checked before");
            write_opening_certificate(solver, &start, rules, claim, options, &path, stop)
        }
        None => {
            let turn = row.turn_proof.turn.as_ref().map_or_else(Vec::new, |t| rules_line(solver.rules(), &start, &t.holes));
            write_certificate_until(solver, &start, claim, &turn, options, &path, stop)
        }
    };
    let interrupt = interrupt_flag();
    let Some(seconds) = seconds else { return Some(write(interrupt).map_err(|e| e.to_string())) };
    let written = deadline::until(Instant::now() + Duration::from_secs_f64(seconds), &interrupt, write);
    // Out of time (not Ctrl-C): the board goes without a certificate, and the run goes on.
    let timed_out = written.is_err() && !interrupt.load(Ordering::SeqCst);
    (!timed_out).then(|| written.map_err(|e| e.to_string()))
}

/// What went wrong with a row's certificate, if anything: not written, or refused by the
/// checker.
pub fn problem(row: &Row) -> Option<String> {
    match row.certificate.as_ref()? {
        Ok(written) => written.accepted().err().map(|e| e.to_string()),
        Err(error) => Some(error.clone()),
    }
}

/// The certificate column: checked (of the lower bound alone when the upper rests on the
/// walk; or only written, with `--no-check`) and its size, refused, failed, or `-` without
/// `--certificates`.
pub fn cell(row: &Row) -> String {
    match &row.certificate {
        None => "-".to_string(),
        Some(Ok(written)) => match &written.check {
            None => format!("written, {} B", written.bytes),
            Some(check) if check.holds && row.upper_by_walk => format!("checked (lower), {} B", written.bytes),
            Some(check) if check.holds => format!("checked, {} B", written.bytes),
            Some(_) => "REFUSED".to_string(),
        },
        Some(Err(_)) => "FAILED".to_string(),
    }
}

/// Whether a board kept by `--resume` keeps its certificate: the run resumed wrote it to the
/// same file in `dir`, for the same bounds, the checker did not refuse it, and the file is
/// still there with the size recorded. Any other board is searched again, since writing its
/// certificate needs the search's table.
pub fn kept(row: &Row, dir: &Path) -> bool {
    let Some(Ok(written)) = &row.certificate else { return false };
    let path = dir.join(file_name(row.rules, row.board));
    written.path == path
        && written.claim == row.certificate_claim()
        && written.accepted().is_ok()
        && std::fs::metadata(&path).is_ok_and(|m| m.len() == written.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_file_name_has_no_colon() {
        let board = Board { holes: 7, seeds: 7 };
        assert_eq!(file_name("dakon".parse().unwrap(), board), "dakon-7x7.dkc");
        let traditional = "dakon:no-first-turn-capture,traditional".parse().unwrap();
        assert_eq!(file_name(traditional, board), "dakon_no-first-turn-capture,traditional-7x7.dkc");
    }
}
