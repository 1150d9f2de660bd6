//! `dakon db`: what the results database holds, and all of it as JSON Lines.

use std::io::Write;
use std::path::PathBuf;

use crate::cli_error::CliError;
use crate::db_arg::DefaultDbArgs;
use crate::results_db::ResultsDb;

/// Show what the results database holds: rows per rule set and proof, how many are exact and
/// what they cost, and whether SQLite finds the file sound. `--export` writes every row as
/// one JSON object per line: the rules, the position (its holes and mover, stores empty: a
/// result holds for any stores), the future gain (what the mover will still store minus what
/// the opponent will; add the stores' difference for the final difference), or its bounds,
/// the best line (mover-relative moves), the proof, nodes and seconds.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon db                                     the default database (./dakon-results.db)
  dakon db --db games.db --json                {\"rows\": N, \"exact\": E, \"by\": [..], \"sound\": true}
  dakon db --db games.db --export rows.jsonl   every row as JSON Lines
  dakon db --export - | head                   ... or on standard output")]
pub struct Args {
    #[command(flatten)]
    db: DefaultDbArgs,
    /// Write every row as JSON Lines to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let path = args.db.path();
    if !path.exists() {
        return Err(CliError::Input(format!("no results database at {} (dakon serve makes one; or name one with --db)", path.display())));
    }
    let db = ResultsDb::open(&path).map_err(CliError::Input)?;
    if let Some(target) = &args.export {
        if target.as_os_str() == "-" {
            let stdout = std::io::stdout();
            write_rows(&db, &mut stdout.lock())?;
        } else {
            let mut file = std::io::BufWriter::new(
                std::fs::File::create(target).map_err(|e| CliError::Failure(format!("cannot create {}: {e}", target.display())))?,
            );
            let count = write_rows(&db, &mut file)?;
            file.flush().map_err(|e| CliError::Failure(format!("cannot write {}: {e}", target.display())))?;
            eprintln!("dakon db: {count} rows written to {}", target.display());
        }
        return Ok(());
    }
    let summary = db.summary().map_err(CliError::Failure)?;
    let problems = db.integrity().map_err(CliError::Failure)?;
    let (rows, exact) = summary.iter().fold((0, 0), |(rows, exact), row| (rows + row.rows, exact + row.exact));
    if args.json {
        let by: Vec<_> = summary
            .iter()
            .map(|row| {
                serde_json::json!({"rules": row.rules, "proof": row.proof, "rows": row.rows, "exact": row.exact, "nodes": row.nodes, "seconds": row.seconds})
            })
            .collect();
        let json = serde_json::json!({"db": path.display().to_string(), "rows": rows, "exact": exact, "by": by, "sound": problems.is_empty(), "problems": problems});
        println!("{json}");
    } else {
        println!("results database: {}", path.display());
        println!("{rows} positions, {exact} exact, {} with bounds only", rows - exact);
        for row in &summary {
            println!(
                "  {:<20} {:<14} {:>8} rows  {:>8} exact  {:>14} nodes  {:>10.1} s",
                row.rules, row.proof, row.rows, row.exact, row.nodes, row.seconds
            );
        }
        if problems.is_empty() {
            println!("SQLite integrity check: ok");
        } else {
            println!("SQLite integrity check: {}", problems.join("; "));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failure(format!("{} is damaged: {}", path.display(), problems.join("; "))))
    }
}

/// Writes every row of `db` as a JSON line to `out`; returns how many.
fn write_rows(db: &ResultsDb, out: &mut impl Write) -> Result<u64, CliError> {
    db.export(|row| writeln!(out, "{row}").map_err(|e| format!("cannot write the export: {e}"))).map_err(CliError::Failure)
}
