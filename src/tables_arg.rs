//! Where the endgame tables live, for every command that reads or writes them.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::tables::{LoadOptions, LoadPlan, TableError, TableSet};

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
    /// Most memory the endgame tables may take, in MiB (about 3.6 bits a position): tiers load
    /// from 0 upwards, and the first that does not fit and those above it are not used (said
    /// on stderr at start-up) [default: no bound].
    #[arg(long, value_name = "MB", conflicts_with = "no_tables")]
    pub tables_mb: Option<u64>,
}

impl ProbeArgs {
    /// The tables present for this board, loaded before it returns, as an oracle for the
    /// search (`None` with `--no-tables` or when there are none).
    ///
    /// # Errors
    /// [`CliError::Failure`] if a table file is present but unreadable or corrupt;
    /// [`CliError::Input`] if `--tables-mb` holds not even tier 0.
    pub fn open(&self, rules: RuleSet) -> Result<Option<Arc<dyn Oracle<RuleSet>>>, CliError> {
        if self.no_tables {
            return Ok(None);
        }
        let opened = TableSet::open_with(&rules, &self.tables.dir(), &self.load_options()?).map_err(damaged)?;
        Ok(opened.map(|(tables, plan)| {
            self.say_plan(&rules, &plan);
            Arc::new(tables) as Arc<dyn Oracle<RuleSet>>
        }))
    }

    /// As [`ProbeArgs::open`], but the tiers are decoded by a thread of their own while the
    /// search starts (headers are checked now): a tier answers once it is in memory. A tier
    /// found damaged while loading is reported on stderr and not used.
    ///
    /// # Errors
    /// As [`ProbeArgs::open`], for what the headers show.
    pub fn open_in_background(&self, rules: RuleSet) -> Result<Option<Arc<dyn Oracle<RuleSet>>>, CliError> {
        if self.no_tables {
            return Ok(None);
        }
        let report = |e: TableError| match e {
            TableError::ImageRefused { .. } => eprintln!("dakon: note: {e}"),
            e => eprintln!("dakon: warning: {e}; the search goes on without that tier and those above it"),
        };
        let opened = TableSet::open_in_background(&rules, &self.tables.dir(), &self.load_options()?, report).map_err(damaged)?;
        Ok(opened.map(|(tables, plan)| {
            self.say_plan(&rules, &plan);
            tables as Arc<dyn Oracle<RuleSet>>
        }))
    }

    fn load_options(&self) -> Result<LoadOptions, CliError> {
        if self.tables_mb == Some(0) {
            return Err(CliError::Input(
                "--tables-mb 0: holds no tier of the endgame tables; give at least 1 (MiB), or --no-tables".into(),
            ));
        }
        // The command line keeps memory images beside the tables: its next load reads them.
        Ok(LoadOptions { max_seeds: u32::MAX, max_bytes: self.tables_mb.map(|mb| mb.saturating_mul(1 << 20)), write_images: true })
    }

    /// Says on stderr which tiers `--tables-mb` leaves out, if any, and which memory images
    /// were refused and made again.
    fn say_plan(&self, rules: &RuleSet, plan: &LoadPlan) {
        for refused in &plan.refused_images {
            eprintln!("dakon: note: {refused}");
        }
        if plan.beyond_bound > 0 {
            let mb = self.tables_mb.unwrap_or_default();
            let (first, last) = (plan.loaded, plan.loaded + plan.beyond_bound - 1);
            eprintln!(
                "dakon: endgame tables of {} {} holes: tiers 0..{} ({} positions) within --tables-mb {mb}; tiers {first}..={last} present but not loaded",
                rules.name(),
                rules.holes(),
                plan.loaded,
                plan.positions,
            );
        }
    }
}

fn damaged(e: TableError) -> CliError {
    CliError::Failure(format!("{e} (use --no-tables to search without tables)"))
}
