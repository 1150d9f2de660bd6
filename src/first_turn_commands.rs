//! `dakon solve` and `dakon best` under `no-first-turn-capture`: the opening state of the
//! POSITION argument (`start`, or notation with an optional `first:` field) solved by
//! [`dakon_solver::first_turn_search`], its leaves by a solver of the rules without the option;
//! `solve --at-least` asks one bound of it; `solve --certificate` writes the proof through the
//! opening (format version 2).

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dakon_solver::certificate::Claim;
use dakon_solver::dakon::{DakonOptions, OpeningState};
use dakon_solver::first_turn_search::{
    solve_opening_resumable, value_opening_moves, CheckpointError, OpeningProver, OpeningSolution, TakeAll, TakeAllCheckpoint,
    TakeAllCounts, TakeAllReport, TakeAllRun,
};
use dakon_solver::ruleset::{outcome, RuleSet, RulesName};
use dakon_solver::search::Solver;

use crate::certificate_arg::CertificateOptions;
use crate::certificate_writer::{claim, write_opening_certificate, Written};
use crate::cli_error::CliError;
use crate::commands::solve::{at_least_claim, at_least_verdict};
use crate::position_arg::PositionArgs;
use crate::ranked_moves::{ranked_moves, RankedMove};
use crate::search_args::{interrupt_flag, solver_for, SearchArgs};
use crate::spinner::Spinner;
use crate::tables_arg::ProbeArgs;

/// The options of `rules` when they include `no-first-turn-capture`.
pub fn opening_options(rules: RulesName) -> Option<DakonOptions> {
    match rules {
        RulesName::Dakon(options) if options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE) => Some(options),
        _ => None,
    }
}

/// What the options that the opening search does not serve are called, when one is given.
pub fn refuse_unsupported(options: DakonOptions, unsupported: &[(&str, bool)]) -> Result<(), CliError> {
    match unsupported.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(CliError::Input(format!(
            "{flag} is not available under the rules {options} yet: the opening search gives values and best moves only"
        ))),
        None => Ok(()),
    }
}

/// The opening state the arguments name: `start` (both first turns pending) or notation.
///
/// # Errors
/// [`CliError::Input`] for a bad position.
pub fn opening_state(position: &PositionArgs) -> Result<OpeningState, CliError> {
    if position.position.trim() == "start" {
        let seeds = position.seeds.unwrap_or(position.holes as u32);
        return OpeningState::start(position.holes, seeds)
            .map_err(|e| CliError::Input(format!("cannot set up the start of --holes {} --seeds {seeds}: {e}", position.holes)));
    }
    position.position.parse().map_err(|e| CliError::Input(format!("invalid position '{}': {e}", position.position)))
}

/// The state, a solver of the rules after the opening, and whether it reads tables.
///
/// # Errors
/// [`CliError::Input`] for a bad position, [`CliError::Failure`] for unreadable tables.
fn state_and_solver(
    position: &PositionArgs,
    options: DakonOptions,
    search: &SearchArgs,
    probe: &ProbeArgs,
) -> Result<(OpeningState, Solver<RuleSet>, bool), CliError> {
    let state = opening_state(position)?;
    let board_rules = RuleSet::of(RulesName::Dakon(options.board_rules()), &state.position);
    let (solver, tables) = solver_for(board_rules, search, probe)?;
    Ok((state, solver, tables))
}

/// The solution's work as JSON fields.
fn work_json(solution: &OpeningSolution) -> serde_json::Value {
    let take_all = solution.take_all.as_ref().map(|TakeAllReport { outcome, counts: c }| {
        let (decision, turn) = match outcome {
            TakeAll::Found(turn) => ("found", Some(turn)),
            TakeAll::Impossible => ("impossible", None),
            TakeAll::Stopped => ("undecided", None),
        };
        serde_json::json!({
            "decision": decision, "turn": turn,
            "turn_states": c.turn_states, "turn_ends": c.turn_ends, "screened": c.screened,
            "searched": c.searched, "seconds": c.elapsed.as_secs_f64(),
            "walks": c.walks, "walks_done": c.walks_done,
        })
    });
    serde_json::json!({
        "opening_states": solution.opening_states, "leaf_tests": solution.leaf_tests,
        "leaf_nodes": solution.leaf_nodes, "seconds": solution.elapsed.as_secs_f64(),
        "take_all_enumeration": take_all,
    })
}

/// The bounds a certificate of `solution` (of `state`, stored difference `stored` added) can
/// hold: an upper bound below every seed that rests on the take-all enumeration is widened to
/// every seed, since that proof walks billions of states (`docs/formats/certificates.md` has
/// no shorter form of it).
fn certifiable(state: &OpeningState, solution: &OpeningSolution, stored: i32) -> Claim {
    let k = state.position.seeds_on_board() as i32;
    let upper = if solution.upper_by_take_all(state) { k } else { solution.upper };
    Claim { lower: stored + solution.lower, upper: stored + upper }
}

/// Time between writes of a take-all checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// Time between the lines of the take-all enumeration's progress on standard error.
const TAKE_ALL_LOG_EVERY: Duration = Duration::from_secs(60);

/// The take-all enumeration's progress, in words.
fn take_all_progress(c: &TakeAllCounts) -> String {
    format!(
        "enumerating every first turn (does one take every seed?): {} states, {} of {} walks done, {:.0} s",
        c.turn_states,
        c.walks_done,
        c.walks,
        c.elapsed.as_secs_f64()
    )
}

/// `dakon solve` of an opening state: its value, a best move, the work, and with `certificate`
/// (its path and options) a proof certificate of the bounds proven. With `take_all_checkpoint`
/// the enumeration of every first turn, if the solve needs it, keeps its progress there and
/// goes on from it.
///
/// # Errors
/// As [`state_and_solver`]; [`CliError::Failure`] if the certificate cannot be written or the
/// checker refuses it, or the checkpoint cannot be read or written; [`CliError::Input`] for a
/// checkpoint that is damaged or another enumeration's. The bounds proven are printed first.
pub fn solve(
    position: &PositionArgs,
    options: DakonOptions,
    search: &SearchArgs,
    probe: &ProbeArgs,
    certificate: Option<(&Path, &CertificateOptions)>,
    take_all_checkpoint: Option<&Path>,
    json: bool,
) -> Result<(), CliError> {
    let (state, solver, tables) = state_and_solver(position, options, search, probe)?;
    let stored = state.position.store_difference();
    // A long solve shows each bracket it proves, on standard error.
    let progress = |lower: i32, upper: i32| eprintln!("proven so far: value between {:+} and {:+}", stored + lower, stored + upper);
    let spinner = Spinner::start("solving the opening");
    // The first line at once: it says where a resumed enumeration goes on from.
    let last_log = Mutex::new(Instant::now().checked_sub(TAKE_ALL_LOG_EVERY).unwrap_or_else(Instant::now));
    let report_take_all = |counts: &TakeAllCounts| {
        let line = take_all_progress(counts);
        spinner.set_message(&line);
        let mut last = last_log.lock().expect("the log's clock is never poisoned");
        if last.elapsed() >= TAKE_ALL_LOG_EVERY {
            *last = Instant::now();
            spinner.log(&line);
        }
    };
    let checkpoint = take_all_checkpoint.map(|path| TakeAllCheckpoint { path: path.to_path_buf(), every: CHECKPOINT_EVERY });
    let limits = search.limits();
    let take_all = TakeAllRun { progress: Some(&report_take_all), checkpoint: checkpoint.as_ref() };
    let (solution, checkpoint_failure) = solve_opening_resumable(&solver, &state, options, &limits, Some(&progress), take_all);
    drop(spinner);
    let result = print_solution(&solver, &state, options, &solution, certificate, tables, json);
    match checkpoint_failure {
        Some(failure @ (CheckpointError::Corrupt { .. } | CheckpointError::OtherRun { .. })) => Err(CliError::Input(failure.to_string())),
        Some(failure) => Err(CliError::Failure(failure.to_string())),
        None => result,
    }
}

/// The rest of [`solve`]: the certificate, then the solution printed.
///
/// # Errors
/// As [`solve`].
fn print_solution(
    solver: &Solver<RuleSet>,
    state: &OpeningState,
    options: DakonOptions,
    solution: &OpeningSolution,
    certificate: Option<(&Path, &CertificateOptions)>,
    tables: bool,
    json: bool,
) -> Result<(), CliError> {
    let stored = state.position.store_difference();
    let (lower, upper) = (stored + solution.lower, stored + solution.upper);
    let exact = lower == upper;
    let written = match certificate {
        Some((path, certificate_options)) => {
            let claim = certifiable(state, solution, stored);
            if claim.upper != upper {
                eprintln!(
                    "the certificate proves {:+} to {:+}: the upper bound {upper:+} rests on the enumeration of every first turn, which it cannot hold",
                    claim.lower, claim.upper
                );
            }
            Some(write_opening_certificate(solver, state, options, claim, certificate_options, path, interrupt_flag())?)
        }
        None => None,
    };
    if json {
        let json = serde_json::json!({
            "position": state.to_string(), "rules": options.rules_name(), "exact": exact,
            "value": exact.then_some(lower), "lower": lower, "upper": upper,
            "result": exact.then(|| outcome(lower)), "best_move": solution.best_hole,
            "work": work_json(solution), "tables": tables,
            "certificate": written.as_ref().map(Written::json),
        });
        println!("{json}");
        return written.map_or(Ok(()), |w| w.accepted());
    }
    println!("position: {state} (rules {options})");
    let mover = state.position.mover();
    if exact {
        println!("value: {lower:+} for player {mover} to move: {}", outcome(lower));
    } else {
        println!("value: not exact (stopped by a limit or Ctrl-C): between {lower:+} and {upper:+} for player {mover} to move");
    }
    if let Some(hole) = solution.best_hole {
        println!("best move: {hole}");
    }
    print_work(solution, tables);
    match written {
        Some(written) => {
            println!("{}", written.describe());
            written.accepted()
        }
        None => Ok(()),
    }
}

/// `dakon solve --at-least BOUND` (and `--prove-win`, BOUND 1) of an opening state: whether its
/// value (the mover's final store difference) is at least `bound`, by one null-window test of
/// the opening search, and with `certificate` a proof certificate of the answer (the trivial
/// bounds when a limit stopped the test).
///
/// # Errors
/// As [`solve`].
pub fn prove_at_least(
    position: &PositionArgs,
    options: DakonOptions,
    search: &SearchArgs,
    probe: &ProbeArgs,
    bound: i32,
    certificate: Option<(&Path, &CertificateOptions)>,
    json: bool,
) -> Result<(), CliError> {
    let (state, solver, tables) = state_and_solver(position, options, search, probe)?;
    let limits = search.limits();
    let started = Instant::now();
    let spinner = Spinner::start(&format!("proving value >= {bound}"));
    let mut prover = OpeningProver::new(&solver, options, &limits);
    let stored = state.position.store_difference();
    let holds = if state.position.is_over() {
        Some(stored >= bound)
    } else {
        prover.reaching_hole(&state, bound - stored).map(|hole| hole.is_some())
    };
    drop(spinner);
    let seconds = started.elapsed().as_secs_f64();
    let left = state.position.seeds_on_board() as i32;
    let trivial = claim(&state.position, -left, left);
    let proven = at_least_claim(holds, bound, trivial);
    let written = match certificate {
        Some((path, certificate_options)) => {
            Some(write_opening_certificate(&solver, &state, options, proven, certificate_options, path, interrupt_flag())?)
        }
        None => None,
    };
    if json {
        let json = serde_json::json!({
            "position": state.to_string(), "rules": options.rules_name(), "at_least": bound, "holds": holds,
            "nodes": prover.leaf_nodes(), "seconds": seconds, "tables": tables,
            "certificate": written.as_ref().map(Written::json),
        });
        println!("{json}");
    } else {
        println!("position: {state} (rules {options})");
        println!("{}", at_least_verdict(holds, bound));
        println!(
            "work: {} positions in the leaf tests, {seconds:.3} s, endgame tables: {}",
            prover.leaf_nodes(),
            if tables { "used" } else { "none" }
        );
        if let Some(written) = &written {
            println!("{}", written.describe());
        }
    }
    written.map_or(Ok(()), |w| w.accepted())
}

/// `dakon best` of an opening state: every move with its value, best first.
///
/// # Errors
/// As [`state_and_solver`].
pub fn best(position: &PositionArgs, options: DakonOptions, search: &SearchArgs, probe: &ProbeArgs, json: bool) -> Result<(), CliError> {
    let (state, solver, tables) = state_and_solver(position, options, search, probe)?;
    let spinner = Spinner::start("valuing every move");
    let moves = ranked_moves(&state.position, &value_opening_moves(&solver, &state, options, &search.limits()));
    drop(spinner);
    if json {
        let list: Vec<_> = moves.iter().map(RankedMove::json).collect();
        println!("{}", serde_json::json!({"position": state.to_string(), "rules": options.rules_name(), "moves": list, "tables": tables}));
        return Ok(());
    }
    println!("position: {state} (rules {options})");
    let best = moves.first().map_or(0, |m| m.lower);
    for RankedMove { hole, lower, upper } in moves {
        if lower == upper {
            let cost = if lower == best { String::new() } else { format!("  (costs {})", best - lower) };
            println!("{hole:>3}  {lower:+}  {}{cost}", outcome(lower));
        } else {
            println!("{hole:>3}  between {lower:+} and {upper:+} (not exact: stopped by a limit or Ctrl-C)");
        }
    }
    Ok(())
}

/// What the take-all enumeration decided, and its work, in words.
fn take_all_line(TakeAllReport { outcome, counts: c }: &TakeAllReport) -> String {
    let decision = match outcome {
        TakeAll::Found(turn) => {
            let holes: Vec<String> = turn.iter().map(usize::to_string).collect();
            format!("yes, the turn {} (found by enumerating", holes.join(" "))
        }
        TakeAll::Impossible => "no (decided by enumerating".to_string(),
        TakeAll::Stopped => "not yet decided (a limit stopped the enumeration of".to_string(),
    };
    format!(
        "whether a first turn takes every seed: {decision} {} states of that turn: {} turn ends, {} refuted by a screen, {} by a search; {} of {} walks done; {:.3} s)",
        c.turn_states,
        c.turn_ends,
        c.screened,
        c.searched,
        c.walks_done,
        c.walks,
        c.elapsed.as_secs_f64()
    )
}

/// The work of a solve, in words.
fn print_work(solution: &OpeningSolution, tables: bool) {
    if let Some(report) = &solution.take_all {
        println!("{}", take_all_line(report));
    }
    println!(
        "work: {} opening states, {} leaf tests visiting {} positions, {:.3} s, endgame tables: {}",
        solution.opening_states,
        solution.leaf_tests,
        solution.leaf_nodes,
        solution.elapsed.as_secs_f64(),
        if tables { "used" } else { "none" }
    );
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use dakon_solver::first_turn_search::{TakeAll, TakeAllCounts, TakeAllReport};

    use super::take_all_line;

    #[test]
    fn the_take_all_line_says_what_the_enumeration_decided() {
        let counts = TakeAllCounts {
            turn_states: 10,
            turn_ends: 20,
            screened: 3,
            searched: 2,
            elapsed: Duration::from_millis(1500),
            walks_done: 4,
            walks: 9,
        };
        let line = |outcome| take_all_line(&TakeAllReport { outcome, counts });
        assert_eq!(
            line(TakeAll::Found(vec![7, 3, 1])),
            "whether a first turn takes every seed: yes, the turn 7 3 1 (found by enumerating 10 states of that turn: 20 turn ends, \
             3 refuted by a screen, 2 by a search; 4 of 9 walks done; 1.500 s)"
        );
        assert!(line(TakeAll::Impossible).starts_with("whether a first turn takes every seed: no (decided by enumerating 10 states"));
        assert!(line(TakeAll::Stopped).starts_with("whether a first turn takes every seed: not yet decided (a limit stopped"));
    }
}
