//! Where the endgame tables live, for every command that reads or writes them.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use dakon_solver::oracle::Oracle;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::tables::TableSet;

use crate::cli_error::CliError;

/// The endgame tables directory.
#[derive(Args, Clone, Debug)]
pub struct TablesArgs {
    /// Directory of the endgame table files [default: $DAKON_TABLES, else ./tables].
    #[arg(long, value_name = "DIR")]
    pub tables_dir: Option<PathBuf>,
}

impl TablesArgs {
    /// The tables directory: `--tables-dir`, else `$DAKON_TABLES`, else `tables`.
    pub fn dir(&self) -> PathBuf {
        self.tables_dir.clone().or_else(|| std::env::var_os("DAKON_TABLES").map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("tables"))
    }
}

/// Table options of the commands that search: the directory, or none at all.
#[derive(Args, Clone, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub tables: TablesArgs,
    /// Do not use endgame tables even when present.
    #[arg(long)]
    pub no_tables: bool,
}

impl ProbeArgs {
    /// The tables present for this board, as an oracle for the search (`None` with
    /// `--no-tables` or when there are none).
    ///
    /// # Errors
    /// [`CliError::Failure`] if a table file is present but unreadable or corrupt.
    pub fn open(&self, rules: RuleSet) -> Result<Option<Arc<dyn Oracle<RuleSet>>>, CliError> {
        if self.no_tables {
            return Ok(None);
        }
        let tables = TableSet::open(&rules, &self.tables.dir())
            .map_err(|e| CliError::Failure(format!("{e} (use --no-tables to search without tables)")))?;
        Ok(tables.map(|t| Arc::new(t) as Arc<dyn Oracle<RuleSet>>))
    }
}
