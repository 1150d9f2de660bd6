//! `dakon solve` of one position by every rank of an MPI job.
//!
//! Rank 0 keeps the [`RootSplit`] (which root move to test or solve next) and hands its jobs
//! to whichever rank is free, itself included: its main thread does the messaging and the
//! bookkeeping, a second thread runs rank 0's own jobs. Each rank searches with its own
//! [`Solver`], so its table keeps what it proved, and a move's next job goes back to the rank
//! that searched it last when that rank is free. A job's answer is a proof (a test's verdict,
//! a move's bounds), so the value does not depend on which rank ran what: it is the
//! one-process value.

use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dakon_solver::search::{Limits, Progress, Solution, SolveOptions, Solver};
use dakon_solver::solvable::Solvable;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::Communicator;

use crate::cluster::Cluster;
use crate::root_split::{Outcome, RootSplit};
use crate::solve_job::{self, decode_answer, encode_answer, JobMessage};

/// How long an idle rank sleeps between looks for a message: MPI's blocking receive spins,
/// which would take a core from the ranks that search.
const POLL: Duration = Duration::from_micros(500);

/// How long rank 0, stopping (Ctrl-C, a limit), waits for the jobs in flight to report what
/// they proved before it gives up on them (a rank that died never answers).
const GRACE: Duration = Duration::from_secs(3);

/// Why a distributed solve ended without the exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// A limit, Ctrl-C or SIGTERM stopped it.
    Stopped,
    /// The job is being ended from outside (`mpirun` ends every rank when one dies): rank 0
    /// got SIGTERM.
    Terminated,
}

/// What rank 0 gets from [`solve`].
pub struct Distributed {
    /// As [`Solver::solve_with`] reports it: proven bounds of the future gain, the best move
    /// and line (proven optimal when exact; else the best so far, a guess), the nodes of
    /// **every rank's** jobs together (when the job is ended from outside, of those that
    /// answered: a dead rank's are lost).
    pub solution: Solution,
    /// Why it is not exact, if it is not.
    pub cut: Option<Cut>,
    /// Jobs each rank ran (rank 0 first).
    pub jobs: Vec<u64>,
}

/// Solves `root` with every rank of `cluster`: all ranks call it with the same position and
/// their own `solver` (same rules). Rank 0 gets `Some`, the others `None` when rank 0 ends
/// the run. `options` (rank 0's) holds bounds proven elsewhere and hears of every change of
/// the root's bounds; `limits` bound every rank's searches (a time limit: the time left when a
/// job starts; a node limit: shared out, each job getting the nodes left over the ranks).
///
/// Return contract: the solution's bounds are proven (every job's answer is a proof, combined
/// by minimax at the root); exact unless a limit, Ctrl-C or SIGTERM stopped a job, and then
/// `cut` says which.
pub fn solve<R: Solvable>(
    cluster: &Cluster,
    solver: &Solver<R>,
    root: &R::Position,
    limits: &Limits,
    options: SolveOptions,
) -> Option<Distributed> {
    cluster.watch_termination();
    if solver.rules().legal_moves(root).is_empty() {
        // A finished game: its value is its end, on every rank, without a message.
        let solution = solver.solve_with(root, limits, options);
        return cluster.is_root().then(|| Distributed { solution, cut: None, jobs: vec![0; cluster.size()] });
    }
    if cluster.is_root() {
        Some(manage(cluster, solver, root, limits, options))
    } else {
        work(cluster, solver, root, limits);
        None
    }
}

/// A worker rank: runs the jobs rank 0 sends until it sends the empty message.
fn work<R: Solvable>(cluster: &Cluster, solver: &Solver<R>, root: &R::Position, limits: &Limits) {
    let edges = solve_job::edges(solver.rules(), root);
    let manager = cluster.world().process_at_rank(0);
    loop {
        if manager.immediate_probe().is_none() {
            std::thread::sleep(POLL);
            continue;
        }
        let (bytes, _) = manager.receive_vec::<u8>();
        if bytes.is_empty() {
            return;
        }
        // Rank 0 wrote it with the same code: a message that does not decode is a bug.
        let message = JobMessage::decode(&bytes).expect("rank 0's job message");
        let (outcome, nodes) = solve_job::run(solver, root, &edges[message.job.edge()], &message.job, &job_limits(limits, &message));
        manager.send(&encode_answer(&outcome, nodes)[..]);
    }
}

/// The limits of one job: the caller's stop flag, the job's share of time and nodes.
fn job_limits(limits: &Limits, message: &JobMessage) -> Limits {
    Limits { time: message.time, nodes: message.nodes, stop: limits.stop.clone() }
}

/// Rank 0: hands out the jobs, runs its own on a second thread, and combines the answers.
fn manage<R: Solvable>(cluster: &Cluster, solver: &Solver<R>, root: &R::Position, limits: &Limits, options: SolveOptions) -> Distributed {
    let started = Instant::now();
    let rules = solver.rules();
    let k = rules.seeds_on_board(root) as i32;
    let mut split = RootSplit::new(
        solve_job::edges(rules, root),
        rules.seeds_on_board(root),
        options.proven_lower.unwrap_or(-k),
        options.proven_upper.unwrap_or(k),
    );
    let ranks = cluster.size();
    // What each rank is doing, and the last root move each searched.
    let mut running: Vec<Option<JobMessage>> = vec![None; ranks];
    let mut jobs = vec![0u64; ranks];
    let mut searched: Vec<Vec<usize>> = vec![Vec::new(); ranks];
    let mut nodes = 0u64;
    let mut cut = None;
    let mut stopping_since: Option<Instant> = None;
    let world = cluster.world();
    let (local_jobs, local_inbox) = mpsc::channel::<JobMessage>();
    let (local_outbox, local_answers) = mpsc::channel::<(Outcome, u64)>();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let edges = solve_job::edges(rules, root);
            for message in local_inbox {
                let answer = solve_job::run(solver, root, &edges[message.job.edge()], &message.job, &job_limits(limits, &message));
                if local_outbox.send(answer).is_err() {
                    return;
                }
            }
        });
        let mut last_bounds = split.bounds();
        loop {
            if cluster.terminated() {
                cut = Some(Cut::Terminated);
                if let Some(stop) = &limits.stop {
                    stop.store(true, Ordering::SeqCst); // rank 0's own job stops too
                }
                break;
            }
            if limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) || limits.time.is_some_and(|t| started.elapsed() >= t) {
                cut.get_or_insert(Cut::Stopped);
            }
            // Hand out jobs to the free ranks.
            while cut.is_none() {
                let Some(rank) = (0..ranks).find(|&r| running[r].is_none()) else { break };
                let Some(job) = split.next_job(|edge| searched[rank].contains(&edge)) else { break };
                let message = JobMessage { job, time: time_left(limits, started), nodes: nodes_left(limits, nodes, ranks) };
                if rank == 0 {
                    local_jobs.send(message.clone()).expect("rank 0's search thread waits for jobs");
                } else {
                    world.process_at_rank(rank as i32).send(&message.encode()[..]);
                }
                running[rank] = Some(message);
                jobs[rank] += 1;
                // Later jobs about this move prefer the rank that searched it last.
                searched.iter_mut().for_each(|s| s.retain(|&e| e != job.edge()));
                searched[rank].push(job.edge());
            }
            if split.is_done() && !split.is_busy() || cut.is_some() && !split.is_busy() {
                break;
            }
            if cut.is_some() && stopping_since.get_or_insert_with(Instant::now).elapsed() > GRACE {
                break; // a rank that does not answer is dead or stuck: keep what is proven
            }
            // Take one answer.
            let answer = if let Ok(answer) = local_answers.try_recv() {
                Some((0, answer))
            } else if let Some(status) = world.any_process().immediate_probe() {
                let rank = status.source_rank() as usize;
                let (bytes, _) = world.process_at_rank(rank as i32).receive_vec::<u8>();
                Some((rank, decode_answer(&bytes).expect("a rank's answer, written by the same code")))
            } else {
                None
            };
            let Some((rank, (outcome, job_nodes))) = answer else {
                std::thread::sleep(POLL);
                continue;
            };
            let message = running[rank].take().expect("an answer comes from a rank with a job");
            nodes += job_nodes;
            split.record(message.job, outcome);
            if split.is_stopped() {
                cut.get_or_insert(Cut::Stopped);
            }
            let bounds = split.bounds();
            if bounds != last_bounds {
                last_bounds = bounds;
                if let Some(observer) = options.observer {
                    observer(&Progress { target: bounds.0, value: bounds.0, lower: bounds.0, upper: bounds.1, nodes });
                }
            }
        }
        drop(local_jobs); // ends rank 0's search thread once its job is done
        if let (Some(message), Some(Cut::Terminated)) = (running[0].take(), cut) {
            // Rank 0's own job was told to stop: what it proved still counts.
            if let Ok((outcome, job_nodes)) = local_answers.recv_timeout(GRACE) {
                nodes += job_nodes;
                split.record(message.job, outcome);
            }
        }
        if cut != Some(Cut::Terminated) {
            for rank in 1..ranks {
                world.process_at_rank(rank as i32).send(&[0u8; 0][..]);
            }
        }
    });
    let (lower, upper) = split.bounds();
    let (best_move, pv) = match split.best() {
        Some((mv, line)) => (Some(mv), line.to_vec()),
        None => (None, Vec::new()),
    };
    let exact = lower == upper && best_move.is_some();
    // Cut short: the move with the best bound so far; it proves the root's lower bound unless
    // that came from elsewhere (the best turn, a database), and is a guess then.
    let (best_move, best_move_proven) = match (best_move, split.leader()) {
        (Some(mv), _) => (Some(mv), true),
        (None, Some((mv, reaches))) => (Some(mv), reaches >= lower),
        (None, None) => (None, false),
    };
    let pv = if pv.is_empty() { best_move.into_iter().collect() } else { pv };
    Distributed {
        solution: Solution { lower, upper, best_move, best_move_proven, pv, nodes, elapsed: started.elapsed() },
        cut: if exact { None } else { cut.or(Some(Cut::Stopped)) },
        jobs,
    }
}

/// The time a job may still take.
fn time_left(limits: &Limits, started: Instant) -> Option<Duration> {
    limits.time.map(|t| t.saturating_sub(started.elapsed()))
}

/// The nodes a job may visit: those left, shared by the ranks (so that all together stay
/// within the limit).
fn nodes_left(limits: &Limits, used: u64, ranks: usize) -> Option<u64> {
    limits.nodes.map(|n| n.saturating_sub(used) / ranks as u64)
}
