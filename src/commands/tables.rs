//! `dakon tables`: build, list and verify the endgame tables.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dakon_solver::dakon::Side;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use dakon_solver::tables::{
    build_tiers, probe_file, tier_path, BuildOptions, BuildProgress, BuildReport, CompactTier, TableError, TableFile, TierBars, TierValues,
    EXTENSION,
};
use dakon_solver::tier_layout::TierLayout;

use crate::cli_error::CliError;
use crate::cluster::Cluster;
use crate::position_arg::PositionArgs;
use crate::rules_arg::RulesArgs;
use crate::search_args::interrupt_flag;
use crate::shared_build::{self, Exchange};
use crate::tables_arg::TablesArgs;

/// Build, list, verify and probe endgame tables: the exact future gain of every position with few
/// seeds on the board, one file per board size and seed count ("tier").
#[derive(clap::Subcommand)]
pub enum Command {
    Build(BuildArgs),
    Info(InfoArgs),
    Verify(VerifyArgs),
    Probe(ProbeArgs),
}

/// Build the tiers 0..=K of a board that are missing from the tables directory.
///
/// Tiers already present are kept (their headers are checked); Ctrl-C stops after losing at
/// most the tier in progress, and running the same command again resumes there.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon tables build --holes 6 --max-seeds 12                every board of 6 holes per row with up to 12 seeds
  dakon tables build --holes 7 --max-seeds 20 --threads 2    the standard board's tiers 0..=20 (about 1.4 billion positions)
  dakon tables build --holes 4 --max-seeds 10 --tables-dir /tmp/t --json
  dakon tables build --rules kalah --holes 6 --max-seeds 20  Kalah tables (file names start with kalah-)
  mpirun -np 4 dakon tables build --holes 7 --max-seeds 20 --tables-dir /shared/t
                                  built with --features mpi: each tier partitioned among the ranks, each holding
                                  a quarter of it (docs/DISTRIBUTED.md)
  mpirun -np 4 dakon tables build --rules kalah --holes 6 --max-seeds 22 --memory-mb 300 --checkpoint-seconds 60
                                  at most 300 MiB a rank, a checkpoint a minute")]
pub struct BuildArgs {
    #[command(flatten)]
    tables: TablesArgs,
    #[command(flatten)]
    rules: RulesArgs,
    /// Holes per row (1 to 9).
    #[arg(long, value_name = "N")]
    holes: usize,
    /// Highest tier to build: seeds on the board (at most 127).
    #[arg(long, value_name = "K")]
    max_seeds: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// One JSON object with every tier instead of text.
    #[arg(long)]
    json: bool,
    /// The most memory a process (under mpirun: each rank) may hold, in MiB: a tier that would
    /// pass it is refused before it starts, with the rank count at which it would fit.
    #[arg(long, value_name = "M")]
    memory_mb: Option<u64>,
    /// Under mpirun: checkpoint the tier being built at the first level boundary after this
    /// many seconds since the last (0: at every level), so that a killed build resumes inside
    /// the tier. One process does not checkpoint.
    #[arg(long, value_name = "S", default_value_t = 600)]
    checkpoint_seconds: u64,
}

/// List the table files present: board, tier, entries, size on disk, bits per position.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon tables info
  dakon tables info --tables-dir /data/dakon --json")]
pub struct InfoArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// One JSON array of files instead of text.
    #[arg(long)]
    json: bool,
}

/// Check every table file, of any rules: header, checksum of all values, and a random sample
/// of positions re-solved by search (without tables, by the rules the header names) and
/// compared.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon tables verify                        every file, 32 positions re-solved per tier
  dakon tables verify --holes 5 --samples 100
  dakon tables verify --samples 0 --json     checksums only")]
pub struct VerifyArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// Only the files of this board (holes per row).
    #[arg(long, value_name = "N")]
    holes: Option<usize>,
    /// Positions re-solved by search per tier.
    #[arg(long, default_value_t = 32, value_name = "S")]
    samples: u32,
    /// Seed of the random choice of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON array of files instead of text.
    #[arg(long)]
    json: bool,
}

/// Look one position up in the tables (decoding only its block of its tier's file, after the
/// tiers below it, which a block of format 2 is decoded against).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon tables probe '0,1,0,2,0,0,1/1,0,3,0,0,0,0 40/47 0'
  dakon tables probe '1,0,1/0,2,0 3/4 1' --json
  dakon tables probe '0,1,0,2,0,0/1,0,3,0,0,0 10/12 0' --rules kalah")]
pub struct ProbeArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    tables: TablesArgs,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(command: Command, cluster: Option<&Cluster>) -> Result<(), CliError> {
    match command {
        Command::Build(args) => build(args, cluster),
        Command::Info(args) => info(args),
        Command::Verify(args) => verify(args),
        Command::Probe(args) => probe(args),
    }
}

fn build(args: BuildArgs, cluster: Option<&Cluster>) -> Result<(), CliError> {
    let rules = args.rules.for_holes(args.holes)?;
    if args.max_seeds > i8::MAX as u32 {
        return Err(CliError::Input(format!("--max-seeds {}: tables hold at most {} seeds", args.max_seeds, i8::MAX)));
    }
    let threads = args.threads.unwrap_or_else(|| crate::cluster::default_threads(cluster));
    let prints = crate::cluster::prints(cluster);
    if args.memory_mb == Some(0) {
        return Err(CliError::Input("--memory-mb 0: give the most MiB a process may hold, at least 1".into()));
    }
    let memory_limit = args.memory_mb.map(|m| m << 20);
    let progress = (!args.json && prints).then(|| Arc::new(TierBars::default()) as Arc<dyn BuildProgress>);
    let options = BuildOptions { threads, progress, stop: Some(interrupt_flag()), memory_limit, write_images: true };
    let dir = args.tables.dir();
    let checkpoint_every = Some(std::time::Duration::from_secs(args.checkpoint_seconds));
    let (report, exchange) = match cluster {
        None => (build_tiers(&rules, &dir, args.max_seeds, &options).map_err(failure)?, None),
        Some(cluster) => {
            shared_build::build(cluster, &rules, &dir, args.max_seeds, &options, checkpoint_every).map(|(r, e)| (r, Some(e)))?
        }
    };
    if prints {
        print_build(&report, exchange.as_ref(), threads, args.json);
    }
    if report.interrupted {
        let kept = report.tiers.len();
        return Err(CliError::Failure(format!(
            "interrupted while building tier {kept}; tiers 0..{kept} are kept in {}: run the same command again to resume",
            dir.display()
        )));
    }
    Ok(())
}

/// Prints what a build did: text, or one JSON object.
fn print_build(report: &BuildReport, exchange: Option<&Exchange>, threads: usize, json: bool) {
    if json {
        let mut json = build_json(report);
        if let Some(exchange) = exchange {
            json["exchange"] = exchange.json(report.built_entries());
        }
        println!("{json}");
    } else {
        for tier in &report.tiers {
            let how = if tier.built {
                format!("built in {:.1} s ({:.0} positions/s)", tier.elapsed.as_secs_f64(), rate(tier.entries, tier.elapsed.as_secs_f64()))
            } else {
                "already present".to_string()
            };
            println!(
                "tier {:>3}: {:>13} positions, {:>12} bytes, {:.3} bits/position, {how}",
                tier.seeds,
                tier.entries,
                tier.bytes,
                bits_per_position(tier.bytes, tier.entries)
            );
        }
        let built = report.built_time().as_secs_f64();
        println!(
            "built {} positions in {built:.1} s ({:.0} positions/s, {threads} threads{})",
            report.built_entries(),
            rate(report.built_entries(), built),
            exchange.map_or(String::new(), |e| format!(" on each of {} ranks", e.ranks))
        );
        if let Some(exchange) = exchange {
            println!("{}", exchange.summary(report.built_entries()));
        }
    }
}

fn build_json(report: &BuildReport) -> serde_json::Value {
    let tiers: Vec<_> = report
        .tiers
        .iter()
        .map(|t| {
            serde_json::json!({
                "seeds": t.seeds,
                "file": t.path,
                "entries": t.entries,
                "bytes": t.bytes,
                "bits_per_position": bits_per_position(t.bytes, t.entries),
                "built": t.built,
                "seconds": t.elapsed.as_secs_f64(),
            })
        })
        .collect();
    let seconds = report.built_time().as_secs_f64();
    serde_json::json!({
        "tiers": tiers,
        "built_entries": report.built_entries(),
        "built_seconds": seconds,
        "positions_per_second": rate(report.built_entries(), seconds),
        "interrupted": report.interrupted,
    })
}

fn probe(args: ProbeArgs) -> Result<(), CliError> {
    let (position, rules) = args.position.position_and_rules()?;
    let (seeds, index) = (rules.seeds_on_board(&position), rules.index(&position));
    let path = tier_path(&rules, &args.tables.dir(), seeds);
    if !path.exists() {
        return Err(CliError::Failure(format!(
            "{}: no table for {seeds} seeds on a board of {} holes per row (rules {})",
            path.display(),
            position.holes(),
            rules.name()
        )));
    }
    let gain = probe_file(&rules, &args.tables.dir(), seeds, index).map_err(failure)? as i32;
    let stores = position.store_of_side(Side::Mover) as i32 - position.store_of_side(Side::Opponent) as i32;
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "position": position.to_string(), "seeds": seeds, "index": index, "future_gain": gain, "value": stores + gain })
        );
    } else {
        println!("value {} (future gain {gain:+}; tier {seeds}, index {index})", stores + gain);
    }
    Ok(())
}

fn info(args: InfoArgs) -> Result<(), CliError> {
    let files = table_files(&args.tables.dir())?;
    let mut damaged = 0;
    let mut rows = Vec::new();
    for path in &files {
        match TableFile::inspect(path) {
            Ok(file) => {
                let h = file.header();
                let row = serde_json::json!({
                    "file": path,
                    "rules": h.rules,
                    "parameters": h.parameters,
                    "seeds": h.seeds,
                    "entries": h.entries,
                    "bytes": file.size(),
                    "bits_per_position": bits_per_position(file.size(), h.entries),
                });
                if !args.json {
                    println!(
                        "{}: {} {} holes, tier {:>3}, {:>13} positions, {:>12} bytes, {:.3} bits/position",
                        path.display(),
                        h.rules,
                        h.parameters.iter().map(u32::to_string).collect::<Vec<_>>().join("x"),
                        h.seeds,
                        h.entries,
                        file.size(),
                        bits_per_position(file.size(), h.entries)
                    );
                }
                rows.push(row);
            }
            Err(e) => {
                damaged += 1;
                if !args.json {
                    println!("{e}");
                }
                rows.push(serde_json::json!({ "file": path, "error": e.to_string() }));
            }
        }
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows));
    } else if files.is_empty() {
        println!("no table files in {}", args.tables.dir().display());
    }
    if damaged > 0 {
        return Err(CliError::Failure(format!("{damaged} of {} table files are unreadable", files.len())));
    }
    Ok(())
}

fn verify(args: VerifyArgs) -> Result<(), CliError> {
    let dir = args.tables.dir();
    let stop = interrupt_flag();
    let mut failed = 0;
    let mut rows = Vec::new();
    let mut random = SplitMix64(args.seed);
    let mut lower = LowerTiers::default();
    for path in table_files(&dir)? {
        let result = verify_file(&path, &args, &mut random, &stop, &mut lower);
        let row = match &result {
            Ok(None) => continue, // another board
            Ok(Some((rules, seeds, solved))) => {
                serde_json::json!({ "file": path, "rules": rules.name(), "holes": rules.holes(), "seeds": seeds, "checksum": "ok", "samples": solved })
            }
            Err(e) => {
                failed += 1;
                serde_json::json!({ "file": path, "error": e })
            }
        };
        if !args.json {
            match result {
                Ok(Some((rules, seeds, solved))) => println!(
                    "{}: {} {} holes, tier {seeds}: checksum ok, {solved} positions re-solved by search agree",
                    path.display(),
                    rules.name(),
                    rules.holes()
                ),
                Err(e) => println!("{e}"),
                Ok(None) => {}
            }
        }
        rows.push(row);
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(CliError::Failure("interrupted".to_string()));
        }
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows.clone()));
    } else if rows.is_empty() {
        println!("no table files to verify in {}", dir.display());
    }
    if failed > 0 {
        return Err(CliError::Failure(format!("{failed} of {} table files failed verification", rows.len())));
    }
    Ok(())
}

/// Checks one file; `Ok(None)` when it belongs to a board not asked for, else its rules, tier
/// and number of positions re-solved.
fn verify_file(
    path: &Path,
    args: &VerifyArgs,
    random: &mut SplitMix64,
    stop: &Arc<std::sync::atomic::AtomicBool>,
    lower: &mut LowerTiers,
) -> Result<Option<(RuleSet, u32, u32)>, String> {
    let header = TableFile::inspect(path).map_err(|e| e.to_string())?.header().clone();
    let (name, holes) = match (header.rules.parse::<RulesName>(), header.parameters.as_slice()) {
        (Ok(name), [holes]) => (name, *holes as usize),
        _ => return Err(format!("{}: not a table of a known board ({} {:?})", path.display(), header.rules, header.parameters)),
    };
    if args.holes.is_some_and(|h| h != holes) {
        return Ok(None);
    }
    let rules = RuleSet::new(name, holes).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = TableFile::open(&rules, path, header.seeds).map_err(|e| e.to_string())?;
    let below = lower.below(rules, header.seeds);
    let values = file.read_compact(&rules, below).map_err(|e| e.to_string())?;
    let solver = Solver::new(rules, Config { threads: 1, tt_bytes: 64 << 20 }, None);
    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
    let mut solved = 0;
    for _ in 0..args.samples {
        let index = random.next() % values.entries();
        let pos = rules.position_at(header.seeds, index);
        let solution = solver.solve(&pos, &limits);
        if !solution.is_exact() {
            break; // interrupted
        }
        let stored = values.value_at(index) as i32;
        if solution.lower != stored {
            return Err(format!("{}: position {index} ({pos}): the table says {stored}, search says {}", path.display(), solution.lower));
        }
        solved += 1;
    }
    lower.push(rules, header.seeds, values);
    Ok(Some((rules, header.seeds, solved)))
}

/// The tiers `0..k` of one board verified so far (files come sorted by board, then tier): what
/// a file of format 2 decodes against.
#[derive(Default)]
struct LowerTiers {
    board: Option<RuleSet>,
    tiers: Vec<CompactTier>,
}

impl LowerTiers {
    /// The tiers below `seeds` of `rules`' board that were verified (all of them, or fewer
    /// when one was missing or damaged, which a file of format 2 then reports).
    fn below(&mut self, rules: RuleSet, seeds: u32) -> &[CompactTier] {
        if self.board != Some(rules) {
            (self.board, self.tiers) = (Some(rules), Vec::new());
        }
        &self.tiers[..self.tiers.len().min(seeds as usize)]
    }

    /// Keeps tier `seeds`, when it extends the tiers without a gap.
    fn push(&mut self, rules: RuleSet, seeds: u32, tier: CompactTier) {
        if self.board == Some(rules) && self.tiers.len() == seeds as usize {
            self.tiers.push(tier);
        }
    }
}

/// The table files in `dir`, sorted by name (an absent directory holds none).
fn table_files(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(CliError::Failure(format!("{}: cannot list: {e}", dir.display()))),
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| CliError::Failure(format!("{}: cannot list: {e}", dir.display())))?.path();
        if path.extension().is_some_and(|e| e == EXTENSION) {
            files.push(path);
        }
    }
    files.sort_by_key(|p| tier_sort_key(p));
    Ok(files)
}

/// Sorts `dakon-7-k12.dkt` after `dakon-7-k2.dkt`.
fn tier_sort_key(path: &Path) -> (String, u32) {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match stem.rsplit_once("-k") {
        Some((board, tier)) => (board.to_string(), tier.parse().unwrap_or(u32::MAX)),
        None => (stem, u32::MAX),
    }
}

fn failure(error: TableError) -> CliError {
    CliError::Failure(error.to_string())
}

fn rate(entries: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        entries as f64 / seconds
    } else {
        0.0
    }
}

fn bits_per_position(bytes: u64, entries: u64) -> f64 {
    8.0 * bytes as f64 / entries.max(1) as f64
}

/// A small deterministic generator for choosing sample positions (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
