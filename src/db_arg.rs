//! `--db FILE`: the results database of the commands that search (see `results_db`).

use std::path::PathBuf;

use clap::Args;

use crate::cli_error::CliError;
use crate::results_db::ResultsDb;

/// The file `dakon serve` and `dakon db` use when given none: `$DAKON_DB`, else this one in
/// the current directory.
pub const DEFAULT_DB: &str = "dakon-results.db";

/// The results database a command writes to when asked (`solve`, `best`, `batch`).
#[derive(Args, Clone, Debug)]
pub struct DbArgs {
    /// Keep every exact value and proven bound in this SQLite results database (created if
    /// missing), and start from what it already holds; `dakon db --db FILE` shows it.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

impl DbArgs {
    /// The database, if one was named.
    ///
    /// # Errors
    /// [`CliError::Input`] if the file cannot be opened as a results database.
    pub fn open(&self) -> Result<Option<ResultsDb>, CliError> {
        self.db.as_deref().map(ResultsDb::open).transpose().map_err(CliError::Input)
    }
}

/// The results database a command uses by default (`serve`, `db`).
#[derive(Args, Clone, Debug)]
pub struct DefaultDbArgs {
    /// The SQLite results database [default: $DAKON_DB, else ./dakon-results.db].
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

impl DefaultDbArgs {
    /// The file: `--db`, else `$DAKON_DB`, else [`DEFAULT_DB`].
    pub fn path(&self) -> PathBuf {
        self.db.clone().or_else(|| std::env::var_os("DAKON_DB").map(PathBuf::from)).unwrap_or_else(|| PathBuf::from(DEFAULT_DB))
    }
}
