//! `dakon solve`: the perfect-play value of a position, its best move and best line.

use std::path::PathBuf;

use dakon_solver::certificate::Claim;
use dakon_solver::dakon::{Player, Position};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{outcome, RuleSet, SolutionRecord};
use dakon_solver::search::{Solution, Solver};
use dakon_solver::tables::BuildReport;

use crate::certificate_arg::{self, CertificateOptions};
use crate::certificate_writer::{self, Written};
use crate::cli_error::CliError;
use crate::cluster::{self, Cluster};
use crate::db_arg::DbArgs;
use crate::distributed_solve::{self, Shared};
use crate::first_turn_commands;
use crate::line::absolute_line;
use crate::position_arg::PositionArgs;
use crate::results_db::{solve_kept, Bounds, Proof, Proved, ResultsDb};
use crate::search_args::{solver_for, solver_with_built_tables, MemoryAfterBuild, SearchArgs};
use crate::spinner::Spinner;
use crate::tables_arg::ProbeArgs;

/// Solve a position exactly: its value with perfect play (the final store difference, player
/// to move minus opponent), the predicted final stores, win/draw/loss, the best move and the
/// principal variation (the best line to the end of the game; every move in it is proven
/// optimal). A search stopped by --time-limit, --node-limit or Ctrl-C prints the bounds it
/// proved instead, marked "not exact".
///
/// With --certificate FILE it also writes a proof certificate of what it proved (the exact
/// value, the bounds, or the --at-least answer): a file in which the independent checker
/// (`dakon check FILE`, which shares no code with the solver) can confirm the result without
/// trusting this program. Writing it re-proves each move of the two strategies with the
/// solver's table; Ctrl-C stops it, writing nothing. The file is then read back and checked
/// by that checker (--no-check skips this); a refusal exits with status 1.
///
/// Under `mpirun -np N` (N > 1; a binary built with `--features mpi`) every rank takes part:
/// rank 0 solves the best-looking move first, then has the other moves tested against its
/// value on whichever rank is free, each rank with its own table (--threads and --tt-mb are
/// per rank), and prints the bounds proven so far on standard error as they close. The
/// value is the one-process value; --at-least runs on rank 0 alone (docs/DISTRIBUTED.md).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon solve start --holes 6                   the 6 x 6 opening, exactly
  dakon solve '0,3,0,2,2/1,0,0,0,2 0/0 0'        any position in notation
  dakon solve start --json                      {\"value\": .., \"exact\": true, \"lower\": .., \"upper\": .., \"best_move\": .., \"best_move_proven\": true, \"pv\": [..], ..}
  dakon solve start --prove-win                 only prove that the player to move wins (much faster)
  dakon solve start --at-least 10               is the value at least 10?
  dakon solve start --time-limit 5 --threads 2  bounds proven in 5 seconds if not solved
  dakon solve start --certificate 7x7.dkc       the value and a certificate of it
  dakon solve start --db results.db             start from the bounds kept there, keep what is proven
  dakon check 7x7.dkc                           ... which anyone can check
  dakon solve start --rules kalah --holes 6 --seeds 4 --threads 1 --tt-mb 1024   Kalah(6,4)
  dakon solve start --rules dakon:no-first-turn-capture --holes 5   no capture in either player's first turn
  dakon solve '8,0,8,8,8,8,8/8,8,8,8,8,8,1 0/1 1 first:1' --rules dakon:no-first-turn-capture   player 1's first turn
  dakon solve start --rules dakon:no-first-turn-capture --holes 8 --prove-win   does player 0 win 8 x 8 under it?
  dakon solve start --rules dakon:no-first-turn-capture,traditional --holes 7 --take-all-checkpoint 7x7.walk
                                                resumable: stop with Ctrl-C, run again to go on")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    probe: ProbeArgs,
    #[command(flatten)]
    db: DbArgs,
    /// Only decide whether the value (final store difference) is at least V: one null-window
    /// search, far cheaper than the exact value.
    #[arg(long, value_name = "V", allow_negative_numbers = true, conflicts_with = "prove_win")]
    at_least: Option<i32>,
    /// Only prove that the player to move wins: the same as --at-least 1.
    #[arg(long)]
    prove_win: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Write a proof certificate of the result to FILE (`.dkc`, format in
    /// docs/formats/certificates.md).
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    #[command(flatten)]
    certificate_options: CertificateOptions,
    /// Build the endgame tables of tiers 0..=K where they are missing from the tables
    /// directory (on --threads workers) before searching, and search with tiers 0..=K held in
    /// memory as built: a tier built now is not decoded again from its file (format 2 decodes
    /// at a one-ply look-up a position). For a run that builds its tables and then solves.
    #[arg(long, value_name = "K", conflicts_with_all = ["no_tables", "tables_mb"])]
    build_tables: Option<u32>,
    /// Under a rule option with no-first-turn-capture: keep the progress of the enumeration of
    /// every first turn (run when no guided search finds a first turn that takes every seed;
    /// hours on 7 x 7) in FILE, written every minute and at the end, and go on from FILE when
    /// it exists. Stop with Ctrl-C or --time-limit; the same command goes on.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["at_least", "prove_win"])]
    take_all_checkpoint: Option<PathBuf>,
}

impl Args {
    /// Whether the ranks of an MPI job share this solve: a whole solve is shared, a single
    /// `--at-least` test is not (rank 0 runs it alone).
    pub fn is_distributed(&self) -> bool {
        self.at_least.is_none() && !self.prove_win
    }
}

/// Solves as the arguments say; with `cluster` (an MPI job of several ranks) every rank
/// takes part and rank 0 prints.
///
/// # Errors
/// [`CliError::Input`] for a bad position or option, [`CliError::Failure`] for unreadable
/// tables, a certificate the checker refuses, or a shared solve whose job was ended.
pub fn run(args: Args, cluster: Option<&Cluster>) -> Result<(), CliError> {
    if let Some(options) = first_turn_commands::opening_options(args.position.rules.rules) {
        first_turn_commands::refuse_unsupported(
            options,
            &[("--db", args.db.db.is_some()), ("--build-tables", args.build_tables.is_some()), ("mpirun", cluster.is_some())],
        )?;
        if let Some(path) = &args.certificate {
            certificate_arg::check_destination(path)?;
            args.certificate_options.check_small_seeds(args.position.holes)?;
        }
        let certificate = args.certificate.as_deref().map(|path| (path, &args.certificate_options));
        if let Some(bound) = args.at_least.or(args.prove_win.then_some(1)) {
            return first_turn_commands::prove_at_least(&args.position, options, &args.search, &args.probe, bound, certificate, args.json);
        }
        let checkpoint = args.take_all_checkpoint.as_deref();
        return first_turn_commands::solve(&args.position, options, &args.search, &args.probe, certificate, checkpoint, args.json);
    }
    if args.take_all_checkpoint.is_some() {
        return Err(CliError::Input(format!(
            "--take-all-checkpoint keeps the enumeration of first turns under a rule option with no-first-turn-capture, not under {}",
            args.position.rules.rules
        )));
    }
    let (position, rules) = args.position.position_and_rules()?;
    let prints = cluster::prints(cluster);
    if let (Some(path), true) = (&args.certificate, prints) {
        certificate_arg::check_destination(path)?;
        args.certificate_options.check_small_seeds(position.holes())?;
    }
    let mut search = args.search.clone();
    search.threads = search.threads.or(cluster.map(|c| cluster::default_threads(Some(c))));
    // Where a shared solve's table is, for its report (set below when MPI shares the solve).
    let mut table_memory = String::new();
    let (solver, tables, built) = match args.build_tables {
        Some(max_seeds) if cluster.is_some() => {
            return Err(CliError::Input(format!(
                "--build-tables {max_seeds} builds in one process: build with `dakon tables build` (under mpirun if you like) first"
            )))
        }
        Some(max_seeds) if max_seeds > i8::MAX as u32 => {
            return Err(CliError::Input(format!("--build-tables {max_seeds}: tables hold at most {} seeds", i8::MAX)))
        }
        Some(max_seeds) => {
            let (solver, report, memory) = solver_with_built_tables(rules, &search, &args.probe, max_seeds)?;
            (solver, true, Some((report, memory)))
        }
        None => match cluster {
            Some(cluster) => {
                let (solver, tables, memory) =
                    distributed_solve::solver_for(cluster, rules, &search, &args.probe, rules.seeds_on_board(&position))?;
                table_memory = memory;
                (solver, tables, None)
            }
            None => {
                let (solver, tables) = solver_for(rules, &search, &args.probe)?;
                (solver, tables, None)
            }
        },
    };
    let db = if prints { args.db.open()? } else { None };
    let limits = args.search.limits();
    let stored = position.store_difference();
    if let Some(bound) = args.at_least.or(args.prove_win.then_some(1)) {
        let spinner = Spinner::start(&format!("proving value >= {bound}"));
        let answer = solver.prove_at_least(&position, bound - stored, &limits);
        drop(spinner);
        let seconds = answer.elapsed.as_secs_f64();
        let (lower, upper) = trivial_bounds(&position);
        let claim = at_least_claim(answer.holds, bound, Claim { lower, upper });
        keep_claim(db.as_ref(), &rules, &position, &claim, Proof::search(tables), answer.nodes, seconds);
        let certificate = certify(&args, &solver, &position, claim);
        let written = certificate.as_ref().and_then(|c| c.as_ref().ok());
        if let Some(written) = written.filter(|w| w.check.as_ref().is_some_and(|c| c.holds)) {
            keep_claim(db.as_ref(), &rules, &position, &written.claim, Proof::Certificate, 0, written.seconds);
        }
        if args.json {
            let json = serde_json::json!({
                "position": position.to_string(), "rules": rules.name(), "at_least": bound, "holds": answer.holds,
                "nodes": answer.nodes, "seconds": seconds, "tables": tables,
                "certificate": written.map(Written::json),
            });
            println!("{json}");
        } else {
            println!("position: {position}{}\n{}", rules_note(&rules), at_least_verdict(answer.holds, bound));
            print_work(answer.nodes, seconds, tables);
            if let Some(written) = written {
                println!("{}", written.describe());
            }
        }
        return certificate.transpose()?.map_or(Ok(()), |w| w.accepted());
    }
    let (solution, shared) = match cluster {
        Some(cluster) => match distributed_solve::solve(cluster, &solver, db.as_ref(), &position, &limits, tables, &table_memory) {
            Some((solution, shared)) => (solution, Some(shared)),
            None => return Ok(()), // a worker rank: rank 0 prints
        },
        None => {
            let spinner = Spinner::start("solving");
            let solution = solve_kept(&solver, db.as_ref(), &position, &limits, tables);
            drop(spinner);
            (solution, None)
        }
    };
    if let Some(failure) = shared.as_ref().and_then(Shared::failure) {
        // The job is ending: no time for a certificate; the bounds are what was proven.
        print_solution(&args, &rules, &position, &solution, tables, built.as_ref(), shared.as_ref(), None);
        return Err(failure);
    }
    let certificate = certify(&args, &solver, &position, certificate_writer::claim(&position, solution.lower, solution.upper));
    let written = certificate.as_ref().and_then(|c| c.as_ref().ok());
    if let Some(written) = written.filter(|w| w.check.as_ref().is_some_and(|c| c.holds)) {
        keep_claim(db.as_ref(), &rules, &position, &written.claim, Proof::Certificate, 0, written.seconds);
    }
    print_solution(&args, &rules, &position, &solution, tables, built.as_ref(), shared.as_ref(), written);
    certificate.transpose()?.map_or(Ok(()), |w| w.accepted())
}

/// The result of a whole solve, as text or JSON; `built` is the build of `--build-tables`,
/// `shared` says how the ranks of an MPI job shared it.
#[allow(clippy::too_many_arguments)]
fn print_solution(
    args: &Args,
    rules: &RuleSet,
    position: &Position,
    solution: &Solution,
    tables: bool,
    built: Option<&(BuildReport, MemoryAfterBuild)>,
    shared: Option<&Shared>,
    written: Option<&Written>,
) {
    if args.json {
        let mut json = json(rules, position, solution, tables);
        if let Some((built, memory)) = built {
            json["tables_built"] = serde_json::json!({
                "tiers": built.tiers.len(), "positions": built.built_entries(), "seconds": built.built_time().as_secs_f64(),
                "resident_bytes_after": memory.resident_bytes, "peak_bytes_by_then": memory.peak_bytes,
            });
        }
        json["certificate"] = written.map_or(serde_json::Value::Null, Written::json);
        if let Some(shared) = shared {
            json["mpi"] = shared.json();
        }
        println!("{json}");
    } else {
        print_text(rules, position, solution, tables);
        if let Some(shared) = shared {
            println!("{}", shared.summary());
        }
        if let Some(written) = written {
            println!("{}", written.describe());
        }
    }
}

/// Keeps `claim` (final differences) about `position` in `db`, if any, as proven by `proof`.
fn keep_claim(db: Option<&ResultsDb>, rules: &RuleSet, position: &Position, claim: &Claim, proof: Proof, nodes: u64, seconds: f64) {
    let stored = position.store_difference();
    let bounds = Bounds { lower: claim.lower - stored, upper: claim.upper - stored };
    let proved = Proved { position, bounds, pv: &[], moves: &[], proof, nodes, seconds };
    crate::results_db::keep(db, rules, &proved);
}

/// The certificate of `claim`, when --certificate asks for one.
fn certify(args: &Args, solver: &Solver<RuleSet>, position: &Position, claim: Claim) -> Option<Result<Written, CliError>> {
    let path = args.certificate.as_ref()?;
    Some(certificate_writer::write_certificate(solver, position, claim, &[], &args.certificate_options, path))
}

/// What the answer `holds` to "is the value at least `bound`?" proves, within the bounds
/// `trivial` (`None`: a limit stopped the test, so nothing more than them).
pub fn at_least_claim(holds: Option<bool>, bound: i32, trivial: Claim) -> Claim {
    match holds {
        Some(true) => Claim { lower: bound, upper: trivial.upper },
        Some(false) => Claim { lower: trivial.lower, upper: bound - 1 },
        None => trivial,
    }
}

/// The line that says the answer `holds` to "is the value at least `bound`?".
pub fn at_least_verdict(holds: Option<bool>, bound: i32) -> String {
    match holds {
        Some(true) => format!("proven: the value is at least {bound}"),
        Some(false) => format!("refuted: the value is below {bound}"),
        None => "unknown: stopped by a limit before a proof".to_string(),
    }
}

/// The bounds of the final difference that need no search: every seed left lost, or won.
fn trivial_bounds(position: &Position) -> (i32, i32) {
    let (stored, left) = (position.store_difference(), position.seeds_on_board() as i32);
    (stored - left, stored + left)
}

/// The final stores (S0, S1) when the mover's final store difference is `value`.
fn final_stores(position: &Position, value: i32) -> (i32, i32) {
    let total = (position.seeds_on_board() + position.store(Player::Zero) as u32 + position.store(Player::One) as u32) as i32;
    let (mover, other) = ((total + value) / 2, (total - value) / 2);
    if position.mover() == Player::Zero {
        (mover, other)
    } else {
        (other, mover)
    }
}

/// After the position: which rules, unless they are Dakon's (the default).
pub fn rules_note(rules: &RuleSet) -> String {
    match rules {
        RuleSet::Dakon(_) => String::new(),
        RuleSet::Kalah(_) => format!(" (rules {})", rules.name()),
    }
}

/// The solution record, with what only `solve` adds: the result in words, the final stores,
/// the speed and whether tables were used.
fn json(rules: &RuleSet, position: &Position, solution: &Solution, tables: bool) -> serde_json::Value {
    let record = SolutionRecord::new(rules, position, solution);
    let (s0, s1) = final_stores(position, record.lower);
    let extra = serde_json::json!({
        "result": record.result(),
        "final_stores": record.exact.then(|| serde_json::json!({"s0": s0, "s1": s1})),
        "nodes_per_second": record.nodes as f64 / record.seconds.max(1e-9),
        "tables": tables,
    });
    let mut json = serde_json::to_value(record).expect("a solution record is plain data");
    json.as_object_mut().expect("a record is an object").extend(extra.as_object().expect("an object").clone());
    json
}

fn print_text(rules: &RuleSet, position: &Position, solution: &Solution, tables: bool) {
    let stored = position.store_difference();
    let (lower, upper) = (stored + solution.lower, stored + solution.upper);
    let mover = position.mover();
    println!("position: {position}{}", rules_note(rules));
    if solution.is_exact() {
        let (s0, s1) = final_stores(position, lower);
        println!("value: {lower:+} for player {mover} to move: {} (final stores S1 {s1}, S0 {s0})", outcome(lower));
    } else {
        println!("value: not exact (stopped by a limit or Ctrl-C): between {lower:+} and {upper:+} for player {mover} to move");
    }
    let pv = absolute_line(rules, position, &solution.pv).0;
    match solution.best_move.map(|mv| position.absolute_hole(mover, mv as usize)) {
        Some(hole) if solution.is_exact() && solution.best_move_proven => println!("best move: {hole}"),
        Some(hole) if solution.is_exact() => println!("best move: {hole}? (a guess: the limit stopped the search before it proved a move)"),
        Some(hole) if solution.best_move_proven => {
            println!("best move so far: {hole} (proven to reach at least {lower:+}, not proven optimal)")
        }
        Some(hole) => println!("best move so far: {hole}? (a guess: the limit stopped the search before it proved a move)"),
        None => println!("best move: none, the game is over"),
    }
    if solution.is_exact() && !pv.is_empty() {
        println!("principal variation: {}", pv.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" "));
    }
    print_work(solution.nodes, solution.elapsed.as_secs_f64(), tables);
}

/// The line of work done: nodes, time, speed, tables.
pub fn print_work(nodes: u64, seconds: f64, tables: bool) {
    println!(
        "nodes: {nodes}, time: {seconds:.3} s, {:.0} nodes/s, endgame tables: {}",
        nodes as f64 / seconds.max(1e-9),
        if tables { "used" } else { "none" }
    );
}
