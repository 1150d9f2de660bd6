//! `dakon campaign`: a campaign of proven bounds on one position and the positions of its
//! first turns, kept in a JSON Lines file that every run adds to (`run`), from which the
//! root's bounds follow by minimax (`status`), and whose certificates back them (`check`).

mod aim;
mod bounds;
mod check;
mod cpu_time;
mod derive;
mod driver;
mod file;
mod in_progress;
mod prove;
mod record;
mod solver_game;
mod status;
mod tree;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use serde_json::json;

use self::derive::{derive, Derived};
use self::driver::{drive, End, Plan};
use self::file::CampaignFile;
use self::prove::{file_prefix, recorded_dir, Lab};
use self::record::{Header, Record, VERSION};
use self::status::{positions_json, positions_text, record_json, record_words, source_words};
use self::tree::Tree;
use crate::certificate_arg::CertificateOptions;
use crate::cli_error::CliError;
use crate::commands::verify::report::utc_now;
use crate::position_arg::PositionArgs;
use crate::search_args::{interrupt_flag, parse_seconds, solver_for, SearchArgs};
use crate::tables_arg::ProbeArgs;

/// Prove bounds on a hard position in a campaign of many runs: every bound proven for the
/// position or for a position of its first turns (the positions after each first move, and
/// after each move of a turn that earned an extra move) is appended to a JSON Lines file with
/// how it was proven, its certificate and its cost; the root's bounds follow from them by
/// minimax, each with where it came from.
#[derive(clap::Subcommand)]
#[command(after_help = "Examples:
  dakon campaign run start --rules kalah --holes 6 --seeds 6 --campaign atlas/kalah-6x6/bounds.jsonl \\
      --certificates atlas/kalah-6x6/certificates --time-limit 3600 --threads 2 --tt-mb 16384
  dakon campaign status --campaign atlas/kalah-6x6/bounds.jsonl
  dakon campaign check --campaign atlas/kalah-6x6/bounds.jsonl     every certificate, and the root from them")]
pub enum Command {
    Run(RunArgs),
    Status(StatusArgs),
    Check(CheckArgs),
}

/// Run tests for the campaign until the root's value is exact or the budget is spent: cheap,
/// loose tests first (one step past the root's proven bound, the step doubling with each
/// proof, up to --aim-lower and --aim-upper), then tighter ones, each on the position of the
/// tree whose bound would move the root's. A test gets --test-seconds at first; each test a
/// budget stops halves the next step of its goal and doubles its budget. Every answer (a bound, or a stopped test) is appended to the file
/// and synced before the next test starts, so a run killed after hours loses only the test in
/// progress; run the same command again to go on.
///
/// With --certificates DIR every bound gets a certificate (the first player's strategy for a
/// lower bound, the second player's for an upper bound), checked by the independent checker as
/// soon as it is written; the record names the file, its size and XXH3.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon campaign run start --rules kalah --holes 4 --seeds 3 --campaign k43.jsonl --certificates k43
  dakon campaign run start --rules kalah --holes 6 --seeds 6 --campaign atlas/kalah-6x6/bounds.jsonl \\
      --certificates atlas/kalah-6x6/certificates --time-limit 600 --threads 1 --tt-mb 2048
  (the same command again goes on from the file)

Values are final store differences, the player to move minus the opponent, as `dakon solve`
prints them; the positions after a move are seen from their own player to move.

Exit status: 0 when the root is exact or the budget is spent, 1 on Ctrl-C (the finished tests
are kept) or a failure, 2 for bad options or a campaign file of another campaign.")]
pub struct RunArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The campaign file (JSON Lines), created if missing.
    #[arg(long, value_name = "FILE")]
    campaign: PathBuf,
    /// Write a certificate of every bound into this directory (created if needed).
    #[arg(long, value_name = "DIR")]
    certificates: Option<PathBuf>,
    /// Turns of the tree below the root (a move that earns an extra move stays in its turn);
    /// fixed when the file is created.
    #[arg(long, default_value_t = 1, value_name = "TURNS")]
    depth: u32,
    /// The first lower bound of the root to aim at.
    #[arg(long, default_value_t = 0, value_name = "V", allow_negative_numbers = true)]
    aim_lower: i32,
    /// The first upper bound of the root to aim at.
    #[arg(long, default_value_t = 20, value_name = "V", allow_negative_numbers = true)]
    aim_upper: i32,
    /// The budget of a test before any was stopped, in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS", value_parser = parse_seconds)]
    test_seconds: f64,
    /// The longest one certificate may take to write, in seconds (never past --time-limit); a
    /// bound whose certificate is not written in time is kept, proven by the search alone.
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS", value_parser = parse_seconds)]
    certificate_seconds: f64,
    /// How often a running test says so, in seconds.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS", value_parser = parse_seconds)]
    progress_seconds: f64,
    /// Threads, table memory, and the whole run's --time-limit and --node-limit.
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    probe: ProbeArgs,
    #[command(flatten)]
    certificate_options: CertificateOptions,
    /// One JSON object per test, then the status, instead of text.
    #[arg(long)]
    json: bool,
}

/// The bounds of the campaign's root and of every position of its tree, derived from the
/// file's records by minimax, each with where it came from.
#[derive(clap::Args)]
#[command(after_help = "Example:
  dakon campaign status --campaign atlas/kalah-6x6/bounds.jsonl --json")]
pub struct StatusArgs {
    #[arg(long, value_name = "FILE")]
    campaign: PathBuf,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Check every certificate the campaign file names with the independent checker (after
/// comparing each file with its recorded size and XXH3), then derive the root's bounds from
/// the checked certificates alone, by minimax over the tree built with the checker's own
/// rules: the certified bounds of the root. Exit status 1 if any certificate is missing,
/// changed or refused.
#[derive(clap::Args)]
#[command(after_help = "Example:
  dakon campaign check --campaign atlas/kalah-6x6/bounds.jsonl --certificates atlas/kalah-6x6/certificates")]
pub struct CheckArgs {
    #[arg(long, value_name = "FILE")]
    campaign: PathBuf,
    /// Look for the certificates in this directory, by file name [default: where the records
    /// say, relative to the campaign file's directory].
    #[arg(long, value_name = "DIR")]
    certificates: Option<PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs a `campaign` subcommand.
///
/// # Errors
/// As each subcommand says.
pub fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Run(args) => run_tests(args),
        Command::Status(args) => {
            let file = CampaignFile::read(&args.campaign)?;
            let (tree, derived) = derived(&file)?;
            report(&file, &tree, &derived, args.json);
            Ok(())
        }
        Command::Check(args) => {
            let file = CampaignFile::read(&args.campaign)?;
            derived(&file)?;
            check::run(&file, args.certificates.as_deref(), args.json)
        }
    }
}

/// # Errors
/// [`CliError::Input`] for a bad position, options or campaign file; [`CliError::Failure`]
/// when a file cannot be written, a certificate fails, or on Ctrl-C.
fn run_tests(args: RunArgs) -> Result<(), CliError> {
    let (root, rules) = args.position.position_and_rules()?;
    let tree = Tree::build(&rules, root, args.depth).map_err(CliError::Input)?;
    if let Some(dir) = &args.certificates {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Input(format!("--certificates {}: cannot create the directory: {e}", dir.display())))?;
    }
    let header = Header { version: VERSION, rules: rules.name().to_string(), root: root.to_string(), depth: args.depth, date: utc_now() };
    let mut file = CampaignFile::open_for_run(&args.campaign, header)?;
    file.validate(&tree)?;
    let (solver, tables) = solver_for(rules, &args.search, &args.probe)?;
    let time = args.search.time_limit.map(Duration::from_secs_f64);
    let lab = Lab {
        solver: &solver,
        tables,
        tt_mb: args.search.tt_mb,
        certificates: args.certificates.as_deref(),
        recorded_dir: args.certificates.as_deref().map_or_else(PathBuf::new, |dir| recorded_dir(&args.campaign, dir)),
        certificate_options: &args.certificate_options,
        file_prefix: file_prefix(&rules, &root),
        certificate_time: Duration::from_secs_f64(args.certificate_seconds),
        deadline: time.map(|t| Instant::now() + t),
        interrupt: interrupt_flag(),
    };
    let plan = Plan {
        aim_lower: args.aim_lower,
        aim_upper: args.aim_upper,
        first_budget: Duration::from_secs_f64(args.test_seconds.max(0.001)),
        time,
        nodes: args.search.node_limit,
        progress_every: Duration::from_secs_f64(args.progress_seconds.max(0.1)),
        stop: interrupt_flag(),
        json: args.json,
    };
    let end = drive(&lab, &tree, &mut file, &plan)?;
    let derived = derive(&tree, &file.proven(&tree)).map_err(CliError::Failure)?;
    report(&file, &tree, &derived, args.json);
    match end {
        End::Exact | End::Budget => Ok(()),
        End::Interrupted => Err(CliError::Failure(format!(
            "interrupted: every finished test is in {}; run the same command to go on",
            args.campaign.display()
        ))),
    }
}

/// The tree of the file's campaign and its derived bounds, after checking every record.
///
/// # Errors
/// [`CliError::Input`] if the file names unknown rules, a bad root, a position outside the
/// tree, or bounds that contradict each other.
fn derived(file: &CampaignFile) -> Result<(Tree<Position>, Vec<Derived>), CliError> {
    let (root, rules) = file.root()?;
    let tree = Tree::build(&rules, root, file.header.depth).map_err(CliError::Input)?;
    file.validate(&tree)?;
    let derived = derive(&tree, &file.proven(&tree)).map_err(|e| CliError::Input(format!("--campaign {}: {e}", file.path.display())))?;
    Ok((tree, derived))
}

/// Prints the campaign's status: the root's bounds with where each came from, every position,
/// and what the records cost.
fn report(file: &CampaignFile, tree: &Tree<Position>, derived: &[Derived], json: bool) {
    let records = &file.records;
    let (bounds, stopped) = records.iter().fold((0, 0), |(b, s), (_, r)| match r {
        Record::Bound(_) => (b + 1, s),
        Record::Stopped(_) => (b, s + 1),
        Record::Campaign(_) => (b, s),
    });
    let (nodes, cpu) = records.iter().fold((0u64, 0.0f64), |(n, c), (_, r)| match r {
        Record::Bound(b) => (n + b.work.nodes, c + b.work.cpu_seconds),
        Record::Stopped(s) => (n + s.work.nodes, c + s.work.cpu_seconds),
        Record::Campaign(_) => (n, c),
    });
    let mover = |p: &Position| usize::from(p.mover() == dakon_solver::dakon::Player::One);
    let root = derived[0];
    if json {
        let evidence = |n: usize| record_json(records[n].0, &records[n].1);
        let out = json!({
            "campaign": file.path.display().to_string(), "rules": file.header.rules, "root": file.header.root,
            "depth": file.header.depth, "bounds_records": bounds, "stopped_records": stopped,
            "nodes": nodes, "cpu_seconds": cpu,
            "lower": root.bounds.lower, "upper": root.bounds.upper, "exact": root.bounds.is_exact(),
            "positions": positions_json(tree, derived, mover, &evidence),
        });
        println!("{out}");
        return;
    }
    let evidence = |n: usize| record_words(records[n].0, &records[n].1);
    println!(
        "campaign {}: rules {}, root '{}', {} turn(s) deep: {} positions; {bounds} bounds and {stopped} stopped tests recorded ({nodes} nodes, {cpu:.1} CPU s)",
        file.path.display(),
        file.header.rules,
        file.header.root,
        file.header.depth,
        tree.nodes.len()
    );
    println!("root: {}", root.bounds.describe());
    println!("  at least {:+}: {}", root.bounds.lower, source_words(root.lower_from, &evidence));
    println!("  at most {:+}: {}", root.bounds.upper, source_words(root.upper_from, &evidence));
    print!("{}", positions_text(tree, derived, mover, &evidence));
}
