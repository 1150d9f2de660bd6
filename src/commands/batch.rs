//! `dakon batch`: solve a file of positions, in parallel, into JSON Lines.

mod input;
mod record;
mod resume;

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Solver};
use indicatif::{ProgressBar, ProgressStyle};

use self::input::Item;
use crate::cli_error::CliError;
use crate::cluster::{self, Cluster};
use crate::db_arg::DbArgs;
use crate::results_db::ResultsDb;
use crate::rules_arg::RulesArgs;
use crate::search_args::{interrupt_flag, SearchArgs};
use crate::tables_arg::ProbeArgs;
use dakon_solver::tt_budget;

/// Solve every position of a file, one per line, and write one JSON object per input position
/// (JSON Lines) in input order.
///
/// Input: one position per line in the notation ("1,2,0/0,3,1 4/2 0"); `#` starts a comment;
/// blank lines are skipped; `-` reads standard input. Line numbers in the output are those of
/// the input.
///
/// Output records: {"line", "rules", "position", "value", "exact", "lower", "upper", "best_move",
/// "best_move_proven", "pv", "nodes", "seconds"} where values are final store differences,
/// player to move minus opponent (`value` is null when only bounds were proven), holes are
/// absolute and "best_move_proven" says whether the best move is proven to reach "lower" (false:
/// a limit stopped the search first and the move is a guess); with
/// --all-moves also "moves": every move's value, best first. A line that is not a position gets
/// {"line", "rules", "input", "error"} and the batch goes on. `--resume` refuses an output file
/// written under other rules (records without "rules" are Dakon's).
///
/// Positions are solved in parallel by --threads workers sharing one transposition table (and
/// the endgame tables) per board size; each result is written and flushed as soon as every
/// earlier line is written, so a killed batch loses only the positions in progress, and
/// `--resume` continues it.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon batch positions.txt > results.jsonl
  dakon batch positions.txt --out results.jsonl --threads 2 --time-limit 10
  dakon batch positions.txt --out results.jsonl --resume    continue an interrupted batch
  grep -v '^$' games.txt | dakon batch - --all-moves
  dakon batch kalah-positions.txt --rules kalah       every line played by the Kalah rules
  mpirun -np 8 dakon batch positions.txt --out results.jsonl   with --features mpi: lines shared by the ranks

Exit status: 0 when every line was answered, 1 if a line failed (see its error record), the
batch was interrupted (Ctrl-C; rerun with --resume), or output failed; 2 for bad options or an
unreadable input file.")]
pub struct Args {
    /// The input file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write the results to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Keep the records already in --out and solve only the lines they do not answer.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Also give the value of every move of each position, best first.
    #[arg(long)]
    all_moves: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    probe: ProbeArgs,
    #[command(flatten)]
    db: DbArgs,
}

/// A finished input line, ready to be written.
struct Answer {
    json: String,
    failed: bool,
    exact: bool,
}

pub fn run(args: Args, cluster: Option<&Cluster>) -> Result<(), CliError> {
    args.rules.refuse_opening_rules()?;
    let input = match cluster {
        None => read_input(&args)?,
        // Rank 0 reads the input (standard input reaches rank 0 only) and gives it to all.
        Some(cluster) => {
            crate::cluster::broadcast_bytes(cluster, if cluster::prints(Some(cluster)) { read_input(&args)? } else { Vec::new() })
        }
    };
    let items = input::items(&input);
    let is_root = cluster::prints(cluster);
    let answered = match (&args.out, args.resume, is_root) {
        (Some(path), true, true) => resume::answered(path, &items, args.rules.rules)?,
        _ => BTreeMap::new(),
    };
    let failed_before = answered.values().filter(|&&failed| failed).count();
    let mut todo: Vec<&Item> = items.iter().filter(|item| !answered.contains_key(&item.line)).collect();
    if let Some(cluster) = cluster {
        // Rank 0 alone read the records of --resume: the others take its list of lines.
        let lines: Vec<u8> = todo.iter().flat_map(|item| item.line.to_le_bytes()).collect();
        let lines = crate::cluster::broadcast_bytes(cluster, lines);
        let by_line: HashMap<u64, &Item> = items.iter().map(|item| (item.line, item)).collect();
        todo = lines.chunks_exact(8).map(|b| by_line[&u64::from_le_bytes(b.try_into().expect("8 bytes"))]).collect();
    }
    let solvers = solvers(&todo, &args)?;
    let db = args.db.open()?;
    let threads = args.search.threads.unwrap_or_else(|| cluster::default_threads(cluster)).max(1);
    let limits = args.search.limits();
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let work = Work {
        todo: &todo,
        solvers: &solvers,
        db: db.as_ref(),
        limits: &limits,
        all_moves: args.all_moves,
        rules: args.rules.rules,
        next: &next,
        abort: &abort,
    };
    if let (Some(cluster), false) = (cluster, is_root) {
        crate::cluster::work_jobs(cluster, threads, |job| Answer::encode(work.answer(job as usize).as_ref()));
        return Ok(());
    }
    let mut out = output(&args)?;
    let progress = progress_bar(todo.len());
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<(usize, Option<Answer>)>();
    let mut tally = Tally::default();
    let written: Result<(), CliError> = std::thread::scope(|scope| {
        for _ in 0..threads.min(todo.len()) {
            let tx = tx.clone();
            scope.spawn(move || work.run(&tx));
        }
        let (progress, tally, abort) = (&progress, &mut tally, &abort);
        let writer = scope.spawn(move || {
            let result = write_in_order(rx, &mut out, progress, tally);
            if result.is_err() {
                abort.store(true, Ordering::Relaxed);
            }
            result
        });
        if let Some(cluster) = cluster {
            let deliver = |job: u64, bytes: Vec<u8>| {
                let _ = tx.send((job as usize, Answer::decode(&bytes))); // the writer stopped: it said why
            };
            crate::cluster::serve_jobs(cluster, || work.take().map(|i| i as u64), deliver);
        }
        drop(tx);
        writer.join().expect("the writer does not panic")
    });
    progress.finish_and_clear();
    written?;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "dakon batch: {} of {} lines answered now ({} exact, {} bounds, {} errors), {} answered before; {:.1} s, {:.1} positions/s",
        tally.written,
        todo.len(),
        tally.exact,
        tally.written - tally.exact - tally.failed,
        tally.failed,
        answered.len(),
        seconds,
        tally.written as f64 / seconds.max(1e-9),
    );
    if tally.written < todo.len() {
        let resume = if args.out.is_some() { "; rerun with --resume to continue" } else { "" };
        return Err(CliError::FailedOutcome(format!("interrupted after {} of {} lines{resume}", tally.written, todo.len())));
    }
    let failed = failed_before + tally.failed;
    if failed > 0 {
        return Err(CliError::FailedOutcome(format!("{failed} of {} lines failed: see their error records", items.len())));
    }
    Ok(())
}

fn read_input(args: &Args) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    if args.file.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| CliError::Failure(format!("cannot read standard input: {e}")))?;
    } else {
        bytes = std::fs::read(&args.file).map_err(|e| CliError::Input(format!("cannot read {}: {e}", args.file.display())))?;
    }
    Ok(bytes)
}

/// One solver per board size in the batch, sharing the transposition table memory.
/// A solver per board size, and whether it has endgame tables.
fn solvers(todo: &[&Item], args: &Args) -> Result<HashMap<usize, (Solver<RuleSet>, bool)>, CliError> {
    // The most seeds on the board among the positions of each size.
    let mut sizes: BTreeMap<usize, u32> = BTreeMap::new();
    for position in todo.iter().filter_map(|item| item.position.as_ref().ok()) {
        let seeds = sizes.entry(position.holes()).or_default();
        *seeds = (*seeds).max(position.seeds_on_board());
    }
    let share = args.search.config().tt_bytes / sizes.len().max(1);
    let mut solvers = HashMap::new();
    for (holes, seeds) in sizes {
        let rules = args.rules.for_holes(holes)?;
        // Parallelism comes from solving several positions at once, one thread each.
        let config = Config { threads: 1, tt_bytes: tt_budget::capped(share, holes, seeds) };
        let oracle = args.probe.open(rules)?;
        let tables = oracle.is_some();
        solvers.insert(holes, (Solver::new(rules, config, oracle), tables));
    }
    Ok(solvers)
}

fn output(args: &Args) -> Result<Box<dyn Write + Send>, CliError> {
    let Some(path) = &args.out else { return Ok(Box::new(std::io::stdout())) };
    let file: std::io::Result<File> =
        if args.resume { OpenOptions::new().create(true).append(true).open(path) } else { File::create(path) };
    let file = file.map_err(|e| CliError::Failure(format!("cannot write {}: {e}", path.display())))?;
    Ok(Box::new(file))
}

/// What the workers share: the lines to solve, handed out in input order.
#[derive(Clone, Copy)]
struct Work<'a> {
    todo: &'a [&'a Item],
    solvers: &'a HashMap<usize, (Solver<RuleSet>, bool)>,
    db: Option<&'a ResultsDb>,
    limits: &'a Limits,
    all_moves: bool,
    rules: RulesName,
    next: &'a AtomicUsize,
    abort: &'a AtomicBool,
}

impl Work<'_> {
    /// Takes the next line until none is left, sending each answer (or `None` for a line whose
    /// search Ctrl-C cut short: it is not written, so `--resume` solves it again).
    fn run(&self, tx: &mpsc::Sender<(usize, Option<Answer>)>) {
        while let Some(index) = self.take() {
            if tx.send((index, self.answer(index))).is_err() {
                return;
            }
        }
    }

    /// The next line to solve, unless none is left or the batch is stopping (Ctrl-C, or
    /// output failed).
    fn take(&self) -> Option<usize> {
        if interrupt_flag().load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed) {
            return None;
        }
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < self.todo.len()).then_some(index)
    }

    /// The answer to line `index` of the work, or `None` if Ctrl-C cut its search short.
    fn answer(&self, index: usize) -> Option<Answer> {
        let item = self.todo[index];
        match &item.position {
            Err(error) => {
                let record = record::Failed { line: item.line, rules: self.rules.as_str(), input: &item.text, error };
                Some(Answer { json: to_json(&record), failed: true, exact: false })
            }
            Ok(position) => {
                let (solver, tables) = &self.solvers[&position.holes()];
                let searched = record::Searched { solver, tables: *tables, db: self.db };
                let record = record::solve(&searched, item.line, position, self.limits, self.all_moves);
                (!interrupt_flag().load(Ordering::Relaxed)).then(|| Answer {
                    json: to_json(&record),
                    failed: false,
                    exact: record.solution.exact,
                })
            }
        }
    }
}

impl Answer {
    /// `answer` as the bytes a rank sends to rank 0: nothing for `None`, else a byte of flags
    /// then the record.
    fn encode(answer: Option<&Answer>) -> Vec<u8> {
        let Some(answer) = answer else { return Vec::new() };
        let mut bytes = vec![u8::from(answer.failed) | u8::from(answer.exact) << 1];
        bytes.extend_from_slice(answer.json.as_bytes());
        bytes
    }

    /// What [`Answer::encode`] encoded.
    fn decode(bytes: &[u8]) -> Option<Answer> {
        let (&flags, json) = bytes.split_first()?;
        Some(Answer { json: String::from_utf8_lossy(json).into_owned(), failed: flags & 1 != 0, exact: flags & 2 != 0 })
    }
}

fn to_json(record: &impl serde::Serialize) -> String {
    serde_json::to_string(record).expect("records are plain data")
}

#[derive(Default)]
struct Tally {
    written: usize,
    exact: usize,
    failed: usize,
}

/// Writes the answers in input order as they come, each line flushed at once; stops writing
/// at the first line that will never be answered (interrupted).
fn write_in_order(
    rx: mpsc::Receiver<(usize, Option<Answer>)>,
    out: &mut dyn Write,
    progress: &ProgressBar,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let mut pending = BTreeMap::new();
    let mut stopped = false;
    for (index, answer) in rx {
        pending.insert(index, answer);
        while !stopped {
            let Some(answer) = pending.remove(&tally.written) else { break };
            let Some(answer) = answer else {
                stopped = true;
                break;
            };
            progress
                .suspend(|| out.write_all(format!("{}\n", answer.json).as_bytes()).and_then(|()| out.flush()))
                .map_err(|e| CliError::Failure(format!("cannot write a result: {e}")))?;
            tally.written += 1;
            tally.exact += answer.exact as usize;
            tally.failed += answer.failed as usize;
            progress.inc(1);
        }
    }
    Ok(())
}

fn progress_bar(positions: usize) -> ProgressBar {
    let bar = ProgressBar::new(positions as u64);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {wide_bar} {pos}/{len} positions, {per_sec}, ETA {eta}")
            .expect("the template is valid"),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}
