//! `dakon verify`: on which boards does the first player have a forced win, by how much, and
//! with which opening?

mod board;
mod certificate;
mod heatmap;
mod number_list;
mod opening_board;
mod record;
pub(crate) mod report;
mod resume;
mod shared;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use dakon_solver::dakon::{Position, MAX_HOLES, MAX_SEEDS};
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Config, Progress, Solver};
use dakon_solver::tables::{build_tiers, BuildOptions};
use indicatif::{ProgressBar, ProgressStyle};

use self::board::{Board, Plan, Row};
use self::number_list::NumberList;
use crate::certificate_arg::CertificateOptions;
use crate::cli_error::CliError;
use crate::cluster::{self, Cluster};
use crate::first_turn_commands;
use crate::rules_arg::RulesArgs;
use crate::search_args::{interrupt_flag, parse_seconds, SearchArgs};
use crate::tables_arg::{ProbeArgs, TablesArgs};
use dakon_solver::search::Limits;
use dakon_solver::tier_layout::TierLayout;
use dakon_solver::tt_budget;

/// Decide the opening of each board with the first player (player 0) to move: the value (final
/// store difference, first player minus second) or proven bounds, the verdict, and the best
/// opening turn found.
///
/// Each board gets two proofs in turn. First the opening-turn proof (milliseconds): the first
/// player's first turn (a move and every extra move it earns) that stores the most; if it
/// stores more than half of all seeds, the first player wins, since stores never shrink. Then
/// an exact search within --budget; when the budget runs out it reports the bounds it proved.
/// Every opening is printed as hole numbers that `dakon play start --holes N --seeds S ...`
/// replays.
///
/// With --certificates DIR each board's result also gets a proof certificate,
/// DIR/dakon-NxS.dkc, that the independent checker (`dakon check`) confirms without trusting
/// the solver.
///
/// Under `--rules dakon:no-first-turn-capture` (alone or with other options) each start has
/// both first turns pending: it is solved by the opening search of `dakon solve` within
/// --budget (no opening-turn proof, which would capture in a first turn), and its certificate
/// goes through the opening (format version 2). Where the upper bound rests on the
/// enumeration of every first turn (no turn takes every seed: billions of states on large
/// boards), the certificate holds the lower bound alone, shown as `checked (lower)`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon verify                                  boards 1..9 with n seeds per hole (a few minutes)
  dakon verify --holes 5..7 --budget 30         fewer boards, 30 s each
  dakon verify --holes 7 --seeds 3,4,5 --json   one JSON object per board per line
  dakon verify --opening-only                   only the opening-turn proofs (instant)
  dakon verify --out results.md                 also write a Markdown report (and results.jsonl)
  dakon verify --certificates certs             a certificate per board: certs/dakon-7x7.dkc, ...
  dakon verify --rules kalah --holes 6 --seeds 1..4   Kalah(6,1) to Kalah(6,4)
  dakon verify --rules dakon:no-first-turn-capture --holes 1..5 --budget 2 --certificates certs
                                                no capture in either player's first turn
  dakon verify --holes 1..9 --seeds 1..14 --out atlas/atlas.md --svg atlas/atlas.svg
                                                the whole atlas, as a table and a picture
  dakon verify --holes 1..9 --seeds 1..14 --out atlas/atlas.md --svg atlas/atlas.svg --resume
                                                after Ctrl-C or a crash: keeps the boards done

With --out FILE.md, each board's record is also written to FILE.jsonl (one JSON object per
line, as --json prints it) the moment the board is done; --resume reads it back, keeps every
board already decided (exact, or done with at least this --budget) and searches the rest; a
board searched again keeps the tighter of its earlier and new bounds (both are proven).
The report and the picture are rewritten from all the boards after each one. With
--certificates, a board kept by --resume keeps its certificate if its file is still in DIR;
a board without one is searched again.

Replay a reported opening, e.g. holes 9 5 6 on the 5x5 board:
  dakon play start --holes 5 --seeds 5 9 5 6

Exit status: 0 when every board is done, 1 if interrupted (Ctrl-C) or on a failure, 2 for bad
options.")]
pub struct Args {
    /// Holes per row: a value, a range (both ends included) or a list, e.g. 7, 5..9, 5,7.
    #[arg(long, default_value = "1..9", value_name = "LIST")]
    holes: NumberList,
    /// Seeds per hole at the start: a value, range or list (every combination with --holes is
    /// decided) [default: as many as holes per row].
    #[arg(long, value_name = "LIST", conflicts_with = "seeds_equal_holes")]
    seeds: Option<NumberList>,
    /// As many seeds per hole as holes per row: the traditional setup, and the default.
    #[arg(long)]
    seeds_equal_holes: bool,
    /// Time budget of the search on each board, in seconds; a board not solved in time gets
    /// the best bounds proven.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    budget: f64,
    /// Only the opening-turn proof: no search, so upper bounds are trivial.
    #[arg(long)]
    opening_only: bool,
    /// Most moves the opening-turn search may play per board.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    opening_nodes: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Search threads [default: all cores].
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Transposition table memory in MiB.
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    tt_mb: usize,
    #[command(flatten)]
    probe: ProbeArgs,
    /// Build the endgame tables for each board before searching it: every tier up to the most
    /// seeds whose tables hold at most 20 million positions (tiers present are kept), into
    /// --tables-dir.
    #[arg(long, conflicts_with = "no_tables")]
    build_tables: bool,
    /// One JSON object per board per line instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write a Markdown report (date, machine, settings, the table) to this file, and
    /// each board's record, as it is done, to the same name ending in .jsonl.
    #[arg(long, value_name = "FILE.md")]
    out: Option<PathBuf>,
    /// Write a proof certificate of each board's result into this directory (created if
    /// needed), named by board: dakon-7x7.dkc for 7 holes with 7 seeds each.
    #[arg(long = "certificates", value_name = "DIR", conflicts_with = "opening_only")]
    certificate: Option<PathBuf>,
    #[command(flatten)]
    certificate_options: CertificateOptions,
    /// The longest a board's certificate may take to write, in seconds: past it the board is
    /// recorded without one (its certificate column `-`) and the run goes on. Certificates of
    /// bounds through the opening of `no-first-turn-capture` can take minutes. [default: no
    /// limit]
    #[arg(long, value_name = "SECONDS", requires = "certificate", value_parser = parse_seconds)]
    certificate_seconds: Option<f64>,
    /// Keep the boards already decided in the records of --out (a run stopped by Ctrl-C or a
    /// crash) and decide only the others.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Also draw the boards as a heat map (SVG): holes per row down, seeds per hole across,
    /// coloured by the value as a share of all seeds.
    #[arg(long, value_name = "FILE.svg")]
    svg: Option<PathBuf>,
}

pub fn run(args: Args, cluster: Option<&Cluster>) -> Result<(), CliError> {
    if let Some(options) = first_turn_commands::opening_options(args.rules.rules) {
        let unsupported = [("--opening-only", args.opening_only), ("--build-tables", args.build_tables)];
        first_turn_commands::refuse_unsupported(options, &unsupported)?;
    }
    let boards = boards(&args)?;
    if !(args.budget.is_finite() && args.budget >= 0.0) {
        return Err(CliError::Input(format!("--budget must be a number of seconds, 0 or more; found {}", args.budget)));
    }
    // Under MPI a rank takes its share of the node's cores, not all of them.
    let threads = args.threads.or(cluster.map(|c| cluster::default_threads(Some(c))));
    let search = SearchArgs { threads, tt_mb: args.tt_mb, time_limit: Some(args.budget), node_limit: None };
    let (config, limits) = (search.config(), search.limits());
    let silent = ProgressBar::hidden();
    if let (Some(cluster), false) = (cluster, cluster::prints(cluster)) {
        shared::decide_for_rank_0(cluster, |board| verify_board(board, &args, &config, &limits, &silent));
        return Ok(());
    }
    if let Some(dir) = &args.certificate {
        certificate::prepare(dir)?;
    }
    let records = args.out.as_deref().map(resume::records_path).transpose()?;
    let budget = (!args.opening_only).then_some(args.budget);
    let earlier = match &records {
        Some(path) if args.resume => resume::earlier_rows(path, &boards, args.rules.rules)?,
        _ => Vec::new(),
    };
    if let Some(path) = &records {
        resume::rewrite(path, &earlier)?;
    }
    let kept: Vec<Row> = earlier
        .iter()
        .filter(|row| resume::decided(row, budget))
        .filter(|row| args.certificate.as_ref().is_none_or(|dir| certificate::kept(row, dir)))
        .cloned()
        .collect();
    let progress = progress_bar(boards.len());
    let mut stdout = std::io::stdout();
    if !args.json {
        progress.suspend(|| writeln!(stdout, "{}", report::table_header()))?;
    }
    let print = |stdout: &mut std::io::Stdout, row: &Row| {
        let line = if args.json { record::json(row) } else { report::table_line(row) };
        progress.suspend(|| writeln!(stdout, "{line}").and_then(|()| stdout.flush()))
    };
    let mut rows = kept;
    for row in &rows {
        print(&mut stdout, row)?;
        progress.inc(1);
    }
    let todo: Vec<Board> = boards.iter().copied().filter(|&board| !rows.iter().any(|r| r.board == board)).collect();
    // Shows, records and keeps one board's result, in board order.
    let take = |board: Board, result: Result<Row, CliError>| -> Result<(), CliError> {
        let mut row = result?;
        // Both runs' bounds are proven: the value lies in their intersection.
        let contradiction = earlier.iter().find(|r| r.board == board).and_then(|old| row.keep_earlier_bounds(old).err());
        print(&mut stdout, &row)?;
        if let Some(path) = &records {
            append_record(path, &row)?;
        }
        if let Some(why) = contradiction {
            return Err(CliError::Input(format!(
                "--resume: {why}; the earlier record is not of this board under these rules (this run's record replaces it)"
            )));
        }
        progress.inc(1);
        rows.push(row);
        write_outputs(&args, &boards, &rows, config.threads, false)
    };
    match cluster {
        None => {
            let mut take = take;
            for &board in &todo {
                if interrupt_flag().load(Ordering::Relaxed) {
                    break;
                }
                take(board, verify_board(board, &args, &config, &limits, &progress))?;
            }
        }
        Some(cluster) => {
            shared::decide_on_all_ranks(cluster, &todo, |board| verify_board(board, &args, &config, &limits, &progress), take)?
        }
    }
    progress.finish_and_clear();
    if let Some(path) = &records {
        // One record per board again: this run's, then the earlier ones not searched again.
        let untouched = earlier.into_iter().filter(|old| !rows.iter().any(|r| r.board == old.board));
        resume::rewrite(path, &rows.iter().cloned().chain(untouched).collect::<Vec<_>>())?;
    }
    let finished = rows.len() == boards.len() && !rows.iter().any(|r| r.interrupted);
    write_outputs(&args, &boards, &rows, config.threads, finished)?;
    let problems: Vec<String> = rows.iter().filter_map(certificate::problem).collect();
    if !problems.is_empty() {
        Err(CliError::FailedOutcome(format!("{} certificate(s) not written or refused: {}", problems.len(), problems.join("; "))))
    } else if finished {
        Ok(())
    } else {
        Err(CliError::FailedOutcome(format!(
            "interrupted after {} of {} boards (a board cut short shows the bounds proven so far){}",
            rows.len(),
            boards.len(),
            if records.is_some() { "; --resume goes on from here" } else { "" }
        )))
    }
}

/// Decides one board with the search settings of the run, showing its bounds on the
/// progress bar as they tighten.
///
/// # Errors
/// [`CliError`] if the board's endgame tables cannot be built or read.
fn verify_board(board: Board, args: &Args, config: &Config, limits: &Limits, progress: &ProgressBar) -> Result<Row, CliError> {
    let name = format!("{}x{}", board.holes, board.seeds);
    progress.set_message(name.clone());
    let rules = args.rules.after_opening_for_holes(board.holes)?;
    if args.build_tables {
        progress.set_message(format!("{name}: building endgame tables"));
        build_tables_for(rules, board, &args.probe.tables, config.threads)?;
        progress.set_message(name.clone());
    }
    let oracle = args.probe.open(rules)?;
    let tables = oracle.is_some();
    let config = Config { tt_bytes: tt_budget::capped(config.tt_bytes, board.holes, board.total()), ..config.clone() };
    let solver = (!args.opening_only).then(|| Solver::new(rules, config, oracle));
    let opening = first_turn_commands::opening_options(args.rules.rules);
    let mut row = match (opening, &solver) {
        (Some(options), Some(solver)) => opening_board::verify(board, options, solver, limits, tables),
        _ => verify_board_start(board, args, rules, solver.as_ref(), limits, tables, progress),
    };
    if let (Some(dir), Some(solver)) = (&args.certificate, &solver) {
        if !row.interrupted {
            progress.set_message(format!("{name}: writing the certificate"));
            row.certificate = certificate::certify(solver, &row, dir, &args.certificate_options, args.certificate_seconds);
            if row.certificate.is_none() {
                progress.suspend(|| eprintln!("{name}: no certificate: not written within --certificate-seconds"));
            }
        }
    }
    Ok(row)
}

/// [`board::verify`] of `board`'s start under `rules` (no first-turn option): the opening-turn
/// proof, then, with `solver`, the search, its bounds shown on the progress bar.
fn verify_board_start(
    board: Board,
    args: &Args,
    rules: RuleSet,
    solver: Option<&Solver<RuleSet>>,
    limits: &Limits,
    tables: bool,
    progress: &ProgressBar,
) -> Row {
    let name = format!("{}x{}", board.holes, board.seeds);
    let observer = |p: &Progress| progress.set_message(format!("{name}: value in [{:+}, {:+}] after {} nodes", p.lower, p.upper, p.nodes));
    let plan = Plan { rules, turn_nodes: args.opening_nodes, search: solver.map(|s| (s, limits)), tables, observer: Some(&observer) };
    board::verify(board, &plan)
}

/// Appends `row` to the records file `path` and flushes it to disk, so that a crash keeps it.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be written.
fn append_record(path: &Path, row: &Row) -> Result<(), CliError> {
    let failure = |e: std::io::Error| CliError::Failure(format!("cannot write the records {}: {e}", path.display()));
    let mut file = std::fs::OpenOptions::new().append(true).create(true).open(path).map_err(failure)?;
    writeln!(file, "{}", record::json(row)).and_then(|()| file.sync_data()).map_err(failure)
}

/// Rewrites the Markdown report and the picture, if asked for, from every row so far (in
/// the order of `boards`).
///
/// # Errors
/// [`CliError::Failure`] if a file cannot be written.
fn write_outputs(args: &Args, boards: &[Board], rows: &[Row], threads: usize, finished: bool) -> Result<(), CliError> {
    let ordered: Vec<Row> = boards.iter().filter_map(|b| rows.iter().find(|r| r.board == *b)).cloned().collect();
    if let Some(path) = &args.out {
        write_report(path, args, &ordered, threads, finished)?;
    }
    if let Some(path) = &args.svg {
        heatmap::write_svg(path, &ordered, &format!("{} · {} UTC · {}", command_line(), report::utc_now(), report::machine()))?;
    }
    Ok(())
}

/// The command line of this run, as typed but for the program's path.
fn command_line() -> String {
    std::iter::once("dakon".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ")
}

/// Writes the Markdown report of the run to `path`.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be written.
fn write_report(path: &Path, args: &Args, rows: &[Row], threads: usize, finished: bool) -> Result<(), CliError> {
    let settings = report::Settings {
        rules: args.rules.rules,
        command: command_line(),
        budget: if args.opening_only { "none (opening turns only)".to_string() } else { format!("{} s", args.budget) },
        threads,
        tt_mb: args.tt_mb,
        tables: if args.probe.no_tables {
            "off (--no-tables)".to_string()
        } else {
            let used = rows.iter().filter(|r| r.tables).count();
            format!("from {}: present for {used} of {} boards", args.probe.tables.dir().display(), rows.len())
        },
    };
    std::fs::write(path, report::markdown(rows, &settings, finished))
        .map_err(|e| CliError::Failure(format!("cannot write the report {}: {e}", path.display())))
}

/// The boards the options ask for, checked.
fn boards(args: &Args) -> Result<Vec<Board>, CliError> {
    let mut boards = Vec::new();
    for &holes in &args.holes.0 {
        if !(1..=MAX_HOLES as u32).contains(&holes) {
            return Err(CliError::Input(format!("--holes: a board has 1 to {MAX_HOLES} holes per row; found {holes}")));
        }
        let seeds = args.seeds.as_ref().map_or_else(|| vec![holes], |list| list.0.clone());
        for seeds in seeds {
            if seeds == 0 {
                return Err(CliError::Input("--seeds: the start needs at least 1 seed per hole; found 0".to_string()));
            }
            let total = 2 * u64::from(holes) * u64::from(seeds);
            if total > u64::from(MAX_SEEDS) {
                return Err(CliError::Input(format!(
                    "board {holes}x{seeds} (--holes {holes} --seeds {seeds}): cannot set up the start: {total} seeds in all, more than the {MAX_SEEDS} the engine allows"
                )));
            }
            Position::start(holes as usize, seeds).map_err(|e| {
                CliError::Input(format!("board {holes}x{seeds} (--holes {holes} --seeds {seeds}): cannot set up the start: {e}"))
            })?;
            boards.push(Board { holes: holes as usize, seeds });
        }
    }
    Ok(boards)
}

/// Most positions the tables built by `--build-tables` hold per board size: seconds of work
/// on a workstation, while the search does the rest.
const BUILD_POSITIONS: u64 = 20_000_000;

/// Builds (or completes) the endgame tables for `board` in `tables`: every tier of up to the
/// most seeds whose tables together hold at most [`BUILD_POSITIONS`] positions. Tiers already
/// present are kept.
///
/// # Errors
/// [`CliError::Failure`] if a table cannot be written or a present one is damaged, or if
/// Ctrl-C stopped the build.
fn build_tables_for(rules: RuleSet, board: Board, tables: &TablesArgs, threads: usize) -> Result<(), CliError> {
    let mut positions = 0u64;
    let mut max_seeds = 0;
    for seeds in 1..=board.total().min(i8::MAX as u32) {
        positions = positions.saturating_add(rules.tier_size(seeds));
        if positions > BUILD_POSITIONS {
            break;
        }
        max_seeds = seeds;
    }
    let options = BuildOptions { threads, progress: None, stop: Some(interrupt_flag()), memory_limit: None, write_images: true };
    let report = build_tiers(&rules, &tables.dir(), max_seeds, &options)
        .map_err(|e| CliError::Failure(format!("--build-tables: {}x{}: {e}", board.holes, board.seeds)))?;
    if report.interrupted {
        return Err(CliError::Failure("--build-tables: interrupted; the tiers finished are kept".to_string()));
    }
    Ok(())
}

fn progress_bar(boards: usize) -> ProgressBar {
    let bar = ProgressBar::new(boards as u64);
    bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] board {pos}/{len}: {msg}").expect("the template is valid"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
