//! The driver of a capped run: test after test, each aimed by [`aim`](super::aim), each
//! within a budget that grows when tests are stopped, every answer appended to the campaign
//! file as soon as it is known.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dakon_solver::dakon::Position;
use dakon_solver::rules::{parity_ceil, parity_floor};
use dakon_solver::search::Limits;

use super::aim::{pick, Goal, Need, Pursuit};
use super::bounds::Bounds;
use super::derive::derive;
use super::file::CampaignFile;
use super::in_progress;
use super::prove::{Lab, Outcome, Test};
use super::record::Record;
use super::tree::{line_name, Tree};
use crate::cli_error::CliError;

/// The settings of a run.
pub struct Plan {
    /// The first lower bound to aim at (e.g. 0: does the first player at least draw?).
    pub aim_lower: i32,
    /// The first upper bound to aim at.
    pub aim_upper: i32,
    /// The budget of a test before any was stopped; it doubles with each stopped test of its
    /// goal.
    pub first_budget: Duration,
    /// The whole run's budget of wall-clock time and of nodes.
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// How often a running test reports.
    pub progress_every: Duration,
    pub stop: Arc<AtomicBool>,
    pub json: bool,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The root's value is known.
    Exact,
    /// The run's time or node budget is spent.
    Budget,
    Interrupted,
}

/// Runs tests until the root is exact, the budget is spent or Ctrl-C.
///
/// # Errors
/// [`CliError`] if the file cannot be appended to, its records contradict each other, or a
/// certificate could not be written or was refused by the checker (the bound it was for is
/// kept in the file first).
pub fn drive(lab: &Lab, tree: &Tree<Position>, file: &mut CampaignFile, plan: &Plan) -> Result<End, CliError> {
    let started = Instant::now();
    let root = &tree.nodes[0].position;
    let (stored, seeds) = (root.store_difference(), root.seeds_on_board());
    let aim_lower = stored + parity_ceil(plan.aim_lower - stored, seeds);
    let aim_upper = stored + parity_floor(plan.aim_upper - stored, seeds);
    let mut stops: HashMap<String, u32> = HashMap::new();
    for (_, record) in &file.records {
        if let Record::Stopped(s) = record {
            *stops.entry(s.position.clone()).or_default() += 1;
        }
    }
    let mut pursuits = [Pursuit::default(); 2];
    // Budgets go on growing from the stops of earlier runs.
    let mut stopped_tests = [stops.values().sum::<u32>() / 2; 2];
    let (mut nodes_used, mut number, mut idle) = (0u64, 0usize, 0);
    loop {
        let derived = derive(tree, &file.proven(tree)).map_err(|e| CliError::Failure(format!("{}: {e}", file.path.display())))?;
        let root_bounds = derived[0].bounds;
        if root_bounds.is_exact() {
            return Ok(End::Exact);
        }
        if plan.stop.load(Ordering::SeqCst) {
            return Ok(End::Interrupted);
        }
        let time_left = plan.time.map(|t| t.saturating_sub(started.elapsed()));
        let nodes_left = plan.nodes.map(|n| n.saturating_sub(nodes_used));
        if time_left.is_some_and(|t| t.is_zero()) || nodes_left == Some(0) {
            return Ok(End::Budget);
        }
        let goal = if number % 2 == 0 { Goal::RaiseLower } else { Goal::LowerUpper };
        let g = goal as usize;
        let Some(root_need) = pursuits[g].need(goal, root_bounds, aim_lower, aim_upper) else { return Ok(End::Exact) };
        let Some((node, need)) = pick(tree, &derived, &stops, 0, root_need) else {
            // An unsettled need at the root always has a position to test (see `pick`).
            idle += 1;
            if idle > 2 {
                return Err(CliError::Failure(format!("no test settles {} at the root (a bug)", root_need.describe())));
            }
            number += 1;
            continue;
        };
        (idle, number) = (0, number + 1);
        let budget = plan.first_budget.saturating_mul(1 << stopped_tests[g].min(20));
        let (budget, all_left) = match time_left {
            Some(left) if left <= budget => (left, true),
            _ => (budget, false),
        };
        let test = Test { target: need.test_target(), budget };
        let limits = Limits { time: Some(budget), nodes: nodes_left, stop: Some(plan.stop.clone()) };
        let n = &tree.nodes[node];
        eprintln!(
            "test {number}: root {}, goal {}; asks {} (player {} to move, line {}) whether it is {}, within {:.0} s{}",
            root_bounds.describe(),
            root_need.describe(),
            n.notation,
            n.position.mover(),
            line_name(&n.line),
            need.describe(),
            budget.as_secs_f64(),
            if all_left { " (all the time left in this run)" } else { "" }
        );
        let so_far = || in_progress::describe(&in_progress::so_far(lab.solver, &n.position, test.target));
        let outcome = with_progress(plan, number, budget, root_bounds, so_far, || lab.run(n, &test, &limits));
        if let Some(record) = outcome.record() {
            file.append(record)?;
        }
        match &outcome {
            Outcome::Proven(r, problem) => {
                nodes_used += r.work.nodes;
                let cert = r.certificate.as_ref().map_or_else(String::new, |c| format!(", certificate {} ({} bytes)", c.file, c.bytes));
                eprintln!(
                    "test {number}: proven: {} is {} {:+} ({} nodes, {:.1} s, {:.1} CPU s{cert})",
                    line_name(&n.line),
                    r.bound.words(),
                    r.value,
                    r.work.nodes,
                    r.work.seconds,
                    r.work.cpu_seconds
                );
                report_json(plan, number, n, need, "proven", Some(r.bound.words()), Some(r.value), r.work.nodes, r.work.seconds);
                if let Some(problem) = problem {
                    return Err(CliError::Failure(problem.to_string()));
                }
            }
            Outcome::Stopped(s) => {
                nodes_used += s.work.nodes;
                pursuits[g].stopped();
                stopped_tests[g] += 1;
                *stops.entry(n.notation.clone()).or_default() += 1;
                eprintln!(
                    "test {number}: stopped by its budget after {:.1} s and {} nodes: the next test of this goal is more careful and gets {:.0} s",
                    s.work.seconds,
                    s.work.nodes,
                    plan.first_budget.saturating_mul(1 << stopped_tests[g].min(20)).as_secs_f64()
                );
                report_json(plan, number, n, need, "stopped", None, None, s.work.nodes, s.work.seconds);
            }
            Outcome::Interrupted => {
                eprintln!("test {number}: interrupted (Ctrl-C); nothing of it is kept");
                return Ok(End::Interrupted);
            }
        }
    }
}

/// Runs `work`, printing every `plan.progress_every` which test runs, for how long, what it
/// has proven so far (`so_far`) and the root's bounds meanwhile.
fn with_progress<T>(
    plan: &Plan,
    number: usize,
    budget: Duration,
    root: Bounds,
    so_far: impl Fn() -> String + Send,
    work: impl FnOnce() -> T,
) -> T {
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let every = plan.progress_every;
        scope.spawn(move || {
            let started = Instant::now();
            while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(every) {
                eprintln!(
                    "test {number}: running for {:.0} s (a search of at most {:.0} s, then its certificate); its position: {}; the root stays {} until it ends",
                    started.elapsed().as_secs_f64(),
                    budget.as_secs_f64(),
                    so_far(),
                    root.describe()
                );
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// With `--json`, one line per test on stdout.
#[allow(clippy::too_many_arguments)]
fn report_json(
    plan: &Plan,
    number: usize,
    node: &super::tree::Node<Position>,
    need: Need,
    outcome: &str,
    bound: Option<&str>,
    value: Option<i32>,
    nodes: u64,
    seconds: f64,
) {
    if plan.json {
        let json = serde_json::json!({
            "test": number, "position": node.notation, "line": node.line, "need": need.describe(),
            "target": need.test_target(), "outcome": outcome, "bound": bound, "value": value,
            "nodes": nodes, "seconds": seconds,
        });
        println!("{json}");
    }
}
