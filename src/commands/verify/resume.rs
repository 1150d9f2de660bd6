//! `--resume`: the boards an earlier run of the same atlas already decided, read back from
//! the records file beside its report.

use std::path::{Path, PathBuf};

use dakon_solver::ruleset::RulesName;

use super::board::{Board, Row};
use super::record;
use crate::cli_error::CliError;
use crate::records_file::{complete_lines, numbered_lines};

/// The records file of the Markdown report `report`: the same name ending in `.jsonl`.
///
/// # Errors
/// [`CliError::Input`] if the report itself is named `.jsonl` (its records would overwrite it).
pub fn records_path(report: &Path) -> Result<PathBuf, CliError> {
    if report.extension().is_some_and(|e| e == "jsonl") {
        return Err(CliError::Input(format!(
            "--out {}: names the Markdown report (e.g. atlas.md); the records of the boards go beside it, ending in .jsonl",
            report.display()
        )));
    }
    Ok(report.with_extension("jsonl"))
}

/// Whether a row read back needs no new search under a run with search budget `budget`
/// (`None`: opening turns only): it is exact, or it finished a budget at least as large.
pub fn decided(row: &Row, budget: Option<f64>) -> bool {
    row.exact() || (!row.interrupted && row.budget.unwrap_or(0.0) >= budget.unwrap_or(0.0))
}

/// The rows of the records file `path`, in file order (a board recorded twice keeps its last
/// record): the [`decided`] ones are kept, the others searched again within their proven
/// bounds. An unfinished last line is cut off; a missing file has no rows.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be read; [`CliError::Input`] naming the line if
/// a line is not a record or records a board this run does not ask for, or under other rules.
pub fn earlier_rows(path: &Path, boards: &[Board], rules: RulesName) -> Result<Vec<Row>, CliError> {
    let Some(bytes) = complete_lines(path)? else { return Ok(Vec::new()) };
    let mut rows: Vec<Row> = Vec::new();
    for (number, raw) in numbered_lines(&bytes) {
        let bad = |why: String| CliError::Input(format!("--resume: line {number} of {}: {why}", path.display()));
        let row = std::str::from_utf8(raw).map_err(|_| bad("not text".to_string())).and_then(|line| record::parse(line).map_err(bad))?;
        if row.rules != rules {
            return Err(bad(format!(
                "records a board played under {}, but this run plays {rules} (--rules must be that of the run resumed)",
                row.rules
            )));
        }
        if !boards.contains(&row.board) {
            return Err(bad(format!(
                "records board {}x{}, which this run does not ask for (--holes and --seeds must be those of the run resumed)",
                row.board.holes, row.board.seeds
            )));
        }
        rows.retain(|r| r.board != row.board);
        rows.push(row);
    }
    Ok(rows)
}

/// Rewrites the records file `path` with `rows` alone, one record per board, through a
/// temporary file so that a crash leaves the old or the new file.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be written.
pub fn rewrite(path: &Path, rows: &[Row]) -> Result<(), CliError> {
    let text: String = rows.iter().map(|row| record::json(row) + "\n").collect();
    let temporary = path.with_extension("jsonl.tmp");
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| CliError::Failure(format!("cannot write the records {}: {e}", path.display())))
}
