//! `dakon solve` of one position by every rank of an MPI job, in one transposition table.
//!
//! Every rank builds its solver in memory its node shares ([`NodeMemory`]): the ranks of a
//! node search in one table and one set of busy marks, as the threads of one solver do, and
//! the entries of positions near the root and the busy marks are shared across nodes too
//! (one-sided MPI, see `NodeMemory`).
//! Rank 0's search thread runs the solve's driver ([`Solver::solve_by`]); each of the
//! driver's null-window tests is searched by **every rank at once** (simplified ABDADA: a
//! rank about to enter a position another is busy with searches its other moves first), and
//! the first rank to finish answers for all: rank 0 hears its answer, tells the others to
//! stop and gives it to the driver, which picks the next test. An answer is a proof, so the
//! value is the one-process value, whoever answered. Rank 0's main thread does all the
//! messaging; every other rank's main thread likewise, its search on a second thread (which
//! itself reaches the other nodes' tables).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dakon_solver::search::{DriverTest, Limits, Progress, Solution, SolveOptions, Solver, TestAnswer};
use dakon_solver::solvable::Solvable;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::Communicator;

use crate::cluster::{Cluster, IDLE_POLL};
use crate::cluster_region::{one_sided_traffic, OneSidedTraffic};
use crate::test_messages::{decode, encode, Order, Report};

/// How long rank 0, ending, waits for the others to say they are done (a rank that died never
/// does).
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
    /// and line (proven optimal when exact), the nodes of **every rank** together (when the
    /// job is ended from outside, of those that reported: a dead rank's are lost).
    pub solution: Solution,
    /// Why it is not exact, if it is not.
    pub cut: Option<Cut>,
    /// The root tests every rank searched.
    pub tests: u64,
    /// Tests each rank answered first (rank 0 first).
    pub answers: Vec<u64>,
    /// Nodes each rank visited in the tests.
    pub nodes: Vec<u64>,
    /// Messages rank 0 sent and received (every message of the solve goes through it).
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The one-sided accesses each rank made to other nodes' tables (of the ranks that said
    /// they were done: none when the solve was cut short).
    pub one_sided: Vec<OneSidedTraffic>,
}

/// Solves `root` with every rank of `cluster`: all ranks call it with the same position and
/// their own `solver` (same rules), built with [`crate::NodeMemory`]. Rank 0 gets `Some`,
/// the others `None` when rank 0 ends the run. `options` (rank 0's) holds bounds proven
/// elsewhere and hears of every test; `limits` (rank 0's) bound the whole solve: a time limit
/// every test's search on every rank, a node limit the nodes of all ranks together (each
/// test's search gets the nodes left, shared out over the ranks).
///
/// Return contract: the solution's bounds are proven (every test's answer is a proof, from
/// whichever rank finished first); exact unless a limit, Ctrl-C or SIGTERM stopped a test,
/// and then `cut` says which.
pub fn solve<R: Solvable>(
    cluster: &Cluster,
    solver: &Solver<R>,
    root: &R::Position,
    limits: &Limits,
    options: SolveOptions,
) -> Option<Distributed> {
    cluster.watch_termination();
    if cluster.is_root() {
        Some(lead(cluster, solver, root, limits, options))
    } else {
        follow(cluster, solver, root, limits);
        None
    }
}

/// What rank 0's search thread tells its main thread.
enum FromSearch {
    /// The driver asks a test; rank 0's own search of it waits for its limits.
    Start { target: i32, bottom: bool },
    /// Rank 0's own search of the current test ended.
    Searched(DriverTest),
    /// The solve is over.
    Finished,
}

/// What rank 0's main thread tells its search thread.
enum ToSearch {
    /// The limits of rank 0's own search of the test just started.
    Limits(Limits),
    /// The test's answer (and the nodes reported for it so far).
    Answer(DriverTest),
}

/// The test in flight, as rank 0's main thread sees it.
struct Round {
    id: u64,
    /// Raised when the test is answered: stops rank 0's own search.
    stop: Arc<AtomicBool>,
    /// Ranks (rank 0 included) whose report is still due.
    due: usize,
    answer: Option<TestAnswer>,
    nodes: u64,
    /// Whether rank 0's own search has ended.
    searched: bool,
    /// Whether the driver has been given the answer.
    replied: bool,
}

/// Rank 0: the driver on a search thread, the messages here.
fn lead<R: Solvable>(cluster: &Cluster, solver: &Solver<R>, root: &R::Position, limits: &Limits, options: SolveOptions) -> Distributed {
    let ranks = cluster.size();
    let world = cluster.world();
    let (to_main, from_search) = mpsc::channel::<FromSearch>();
    let (to_search, from_main) = mpsc::channel::<ToSearch>();
    let mut traffic = Traffic::default();
    let (mut answers, mut nodes) = (vec![0u64; ranks], vec![0u64; ranks]);
    // Under a node limit, each test's share of the nodes left, and what each rank was given
    // for tests it has not reported yet: a rank still searching an earlier test (stopped by
    // another's answer) reports its nodes late, and until then its share counts as used, so
    // that the shares never add up to more than the limit.
    let (mut shares, mut unreported) = (Vec::<u64>::new(), vec![0u64; ranks]);
    let mut one_sided = vec![OneSidedTraffic::default(); ranks];
    let mut tests = 0u64;
    let mut cut = None;
    let started = Instant::now();
    // The observer stays on this thread: the search thread sends it each test's progress.
    let (proven_lower, proven_upper) = (options.proven_lower, options.proven_upper);
    let (progress_tx, progress) = mpsc::channel::<Progress>();
    let solution = std::thread::scope(|scope| {
        let search = scope.spawn(move || {
            let test = |target: i32, bottom: bool| {
                to_main.send(FromSearch::Start { target, bottom }).expect("rank 0's main thread waits for the search");
                let Ok(ToSearch::Limits(limits)) = from_main.recv() else { unreachable!("the main thread answers a start with limits") };
                let searched = solver.driver_test(root, target, bottom, &limits);
                to_main.send(FromSearch::Searched(searched)).expect("rank 0's main thread waits for the search");
                let Ok(ToSearch::Answer(answer)) = from_main.recv() else { unreachable!("the main thread answers a search") };
                answer
            };
            let observe = |p: &Progress| {
                let _ = progress_tx.send(*p);
            };
            let options = SolveOptions { proven_lower, proven_upper, observer: Some(&observe) };
            let solution = solver.solve_by(root, limits, options, &test);
            let _ = to_main.send(FromSearch::Finished);
            solution
        });
        let mut round: Option<Round> = None;
        let mut stopping = false;
        loop {
            let mut idle = true;
            if cluster.terminated() && cut.is_none() {
                cut = Some(Cut::Terminated);
                if let Some(round) = &round {
                    round.stop.store(true, Ordering::SeqCst);
                }
            }
            if !stopping && limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                // Ctrl-C: every rank's search of the test stops, each reports what it has.
                stopping = true;
                if let Some(round) = &round {
                    round.stop.store(true, Ordering::SeqCst);
                    broadcast(cluster, &Order::Stop { id: round.id }, &mut traffic);
                }
            }
            match from_search.try_recv() {
                Ok(FromSearch::Start { target, bottom }) => {
                    idle = false;
                    tests += 1;
                    let used: u64 = nodes.iter().sum::<u64>() + unreported.iter().sum::<u64>();
                    let time = limits.time.map(|t| t.saturating_sub(started.elapsed()));
                    let share = limits.nodes.map(|n| n.saturating_sub(used) / ranks as u64);
                    if let Some(share) = share {
                        shares.push(share);
                        // Rank 0 alone searches a test once the job is cut.
                        let searching = if cut.is_none() { ranks } else { 1 };
                        unreported[..searching].iter_mut().for_each(|given| *given += share);
                    }
                    let order = Order::Test { id: tests, target, bottom, time, nodes: share };
                    if cut.is_none() {
                        broadcast(cluster, &order, &mut traffic);
                        if stopping {
                            broadcast(cluster, &Order::Stop { id: tests }, &mut traffic);
                        }
                    }
                    let stop = Arc::new(AtomicBool::new(stopping || cut.is_some()));
                    let due = if cut.is_none() { ranks } else { 1 };
                    round = Some(Round { id: tests, stop: stop.clone(), due, answer: None, nodes: 0, searched: false, replied: false });
                    let own = Limits { time, nodes: share, stop: Some(stop) };
                    to_search.send(ToSearch::Limits(own)).expect("rank 0's search thread waits for its limits");
                }
                Ok(FromSearch::Searched(searched)) => {
                    idle = false;
                    let round = round.as_mut().expect("a search ends in a round");
                    round.searched = true;
                    reported(&mut unreported, &shares, 0, round.id);
                    let first = hear(round, searched.answer.map(|a| (a.value, a.mv)), searched.nodes, 0, &mut nodes, &mut answers);
                    if first {
                        broadcast(cluster, &Order::Stop { id: round.id }, &mut traffic);
                    }
                }
                Ok(FromSearch::Finished) | Err(mpsc::TryRecvError::Disconnected) => break,
                Err(mpsc::TryRecvError::Empty) => {}
            }
            while let Some(status) = world.any_process().immediate_probe() {
                idle = false;
                let rank = status.source_rank() as usize;
                let (bytes, _) = world.process_at_rank(rank as i32).receive_vec::<u8>();
                traffic.add(bytes.len());
                // The ranks write with the same code: a message that does not decode is a bug.
                match decode::<Report>(&bytes).expect("a rank's report") {
                    Report::Tested { id, answer, nodes: visited } => {
                        reported(&mut unreported, &shares, rank, id);
                        match round.as_mut().filter(|r| r.id == id) {
                            Some(round) => {
                                if hear(round, answer, visited, rank, &mut nodes, &mut answers) {
                                    round.stop.store(true, Ordering::SeqCst);
                                    broadcast(cluster, &Order::Stop { id }, &mut traffic);
                                }
                            }
                            None => nodes[rank] += visited,
                        }
                    }
                    Report::Done { one_sided: traffic_of_rank } => one_sided[rank] = traffic_of_rank,
                }
            }
            for p in progress.try_iter() {
                if let Some(observer) = options.observer {
                    observer(&p);
                }
            }
            if let Some(round) = round.as_mut().filter(|r| r.searched && !r.replied) {
                // Answered, or every rank stopped, or the job is ending (the others may be dead).
                if round.answer.is_some() || round.due == 0 || cut.is_some() {
                    round.replied = true;
                    let answer = DriverTest { answer: round.answer, nodes: round.nodes };
                    to_search.send(ToSearch::Answer(answer)).expect("rank 0's search thread waits for the answer");
                }
            }
            if idle {
                std::thread::sleep(IDLE_POLL);
            }
        }
        search.join().expect("rank 0's search thread")
    });
    if cut.is_none() {
        end(cluster, &mut traffic, &mut nodes, &mut one_sided);
    }
    one_sided[0] = one_sided_traffic();
    let exact = solution.is_exact();
    let cut = if exact { None } else { cut.or(Some(Cut::Stopped)) };
    let solution = Solution { nodes: nodes.iter().sum(), ..solution };
    Distributed { solution, cut, tests, answers, nodes, messages: traffic.messages, bytes: traffic.bytes, one_sided }
}

/// Rank `rank` has reported test `id`: the share it was given for it no longer counts as used
/// (its nodes do now).
fn reported(unreported: &mut [u64], shares: &[u64], rank: usize, id: u64) {
    if let Some(share) = (id as usize).checked_sub(1).and_then(|test| shares.get(test)) {
        unreported[rank] = unreported[rank].saturating_sub(*share);
    }
}

/// Counts rank 0's report of the current round from `rank`; whether it is the round's first
/// answer (then the others must stop).
fn hear(round: &mut Round, answer: Option<(i32, Option<u8>)>, visited: u64, rank: usize, nodes: &mut [u64], answers: &mut [u64]) -> bool {
    round.due = round.due.saturating_sub(1);
    round.nodes += visited;
    nodes[rank] += visited;
    match answer {
        Some((value, mv)) if round.answer.is_none() => {
            round.answer = Some(TestAnswer { value, mv });
            answers[rank] += 1;
            true
        }
        _ => false,
    }
}

/// Messages and bytes through rank 0.
#[derive(Default)]
struct Traffic {
    messages: u64,
    bytes: u64,
}

impl Traffic {
    fn add(&mut self, bytes: usize) {
        self.messages += 1;
        self.bytes += bytes as u64;
    }
}

/// Sends `order` to every rank but 0.
fn broadcast(cluster: &Cluster, order: &Order, traffic: &mut Traffic) {
    let bytes = encode(order);
    for rank in 1..cluster.size() {
        cluster.world().process_at_rank(rank as i32).send(&bytes[..]);
        traffic.add(bytes.len());
    }
}

/// Tells every rank the solve is over and waits (at most [`GRACE`]) until each says it is
/// done, counting the nodes of the tests they report on the way.
fn end(cluster: &Cluster, traffic: &mut Traffic, nodes: &mut [u64], one_sided: &mut [OneSidedTraffic]) {
    broadcast(cluster, &Order::End, traffic);
    let world = cluster.world();
    let mut done = 1;
    let since = Instant::now();
    while done < cluster.size() && since.elapsed() < GRACE {
        let Some(status) = world.any_process().immediate_probe() else {
            std::thread::sleep(IDLE_POLL);
            continue;
        };
        let rank = status.source_rank() as usize;
        let (bytes, _) = world.process_at_rank(rank as i32).receive_vec::<u8>();
        traffic.add(bytes.len());
        match decode::<Report>(&bytes).expect("a rank's report") {
            Report::Tested { nodes: visited, .. } => nodes[rank] += visited,
            Report::Done { one_sided: traffic_of_rank } => {
                one_sided[rank] = traffic_of_rank;
                done += 1;
            }
        }
    }
}

/// Any rank but 0: searches each test rank 0 orders, on a search thread, until the end.
fn follow<R: Solvable>(cluster: &Cluster, solver: &Solver<R>, root: &R::Position, limits: &Limits) {
    let leader = cluster.world().process_at_rank(0);
    let (to_search, orders) = mpsc::channel::<(u64, i32, bool, Limits)>();
    let (to_main, searched) = mpsc::channel::<(u64, DriverTest)>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for (id, target, bottom, limits) in orders {
                let _ = to_main.send((id, solver.driver_test(root, target, bottom, &limits)));
            }
        });
        let mut current: Option<(u64, Arc<AtomicBool>)> = None;
        let mut to_search = Some(to_search);
        let send = |report: &Report| leader.send(&encode(report)[..]);
        loop {
            let mut idle = true;
            let interrupted = limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
            if cluster.terminated() || interrupted {
                if let Some((_, stop)) = &current {
                    stop.store(true, Ordering::SeqCst);
                }
                if cluster.terminated() {
                    return; // the job is ending: nobody waits for this rank's reports
                }
            }
            if to_search.is_some() && leader.immediate_probe().is_some() {
                idle = false;
                let (bytes, _) = leader.receive_vec::<u8>();
                match decode::<Order>(&bytes).expect("rank 0's order") {
                    Order::Test { id, target, bottom, time, nodes } => {
                        let stop = Arc::new(AtomicBool::new(false));
                        current = Some((id, stop.clone()));
                        let limits = Limits { time, nodes, stop: Some(stop) };
                        let search = to_search.as_ref().expect("the search thread is running");
                        search.send((id, target, bottom, limits)).expect("the search thread waits for tests");
                    }
                    Order::Stop { id } => {
                        if let Some((_, stop)) = current.as_ref().filter(|(current, _)| *current == id) {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    Order::End => {
                        if let Some((_, stop)) = &current {
                            stop.store(true, Ordering::SeqCst);
                        }
                        to_search = None; // the search thread ends after its last test
                    }
                }
            }
            match searched.try_recv() {
                Ok((id, tested)) => {
                    idle = false;
                    if current.as_ref().is_some_and(|(current, _)| *current == id) {
                        current = None;
                    }
                    send(&Report::Tested { id, answer: tested.answer.map(|a| (a.value, a.mv)), nodes: tested.nodes });
                }
                Err(mpsc::TryRecvError::Disconnected) => {
                    send(&Report::Done { one_sided: one_sided_traffic() });
                    return;
                }
                Err(mpsc::TryRecvError::Empty) => {}
            }
            if idle {
                std::thread::sleep(IDLE_POLL);
            }
        }
    });
}
