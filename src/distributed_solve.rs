//! `dakon solve` shared by the ranks of an MPI job (docs/DISTRIBUTED.md): every rank searches
//! each test of rank 0's driver in one table a node, and rank 0 prints the bounds as they
//! close.

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::RuleSet;
#[cfg(feature = "mpi")]
use dakon_solver::search::SolveOptions;
use dakon_solver::search::{Limits, Solution, Solver};
#[cfg(feature = "mpi")]
use dakon_solver::{rules::Rules as _, search::MoveValue};

use crate::cli_error::CliError;
use crate::cluster::Cluster;
use crate::results_db::ResultsDb;
use crate::search_args::SearchArgs;
use crate::tables_arg::ProbeArgs;

/// What rank 0 learns from a shared solve, besides the solution.
pub struct Shared {
    /// Ranks in the job.
    pub ranks: usize,
    /// Bytes of rank 0's table (shared by the ranks on its node).
    pub table_bytes: usize,
    /// Where that table is (`NodeMemory::table_memory`).
    pub table_memory: String,
    /// Root tests every rank searched.
    pub tests: u64,
    /// Tests each rank answered first, rank 0 first.
    pub answers: Vec<u64>,
    /// Nodes each rank visited.
    pub nodes: Vec<u64>,
    /// Messages of the solve (all through rank 0), and their bytes.
    pub messages: u64,
    pub bytes: u64,
    /// The one-sided accesses and their bytes each rank made to other nodes' tables.
    pub one_sided: Vec<(u64, u64)>,
    /// Why the solve is not exact, when `Some` (the bounds printed are proven all the same).
    pub cut: Option<String>,
    /// Whether the job is being ended from outside (SIGTERM): a failure, unlike a limit.
    pub ended: bool,
}

/// The solver of every rank of a shared solve: the table (`--tt-mb` a rank, summed over the
/// ranks of a node) in memory the node's ranks share, the endgame tables each rank's own.
/// Across nodes, the entries of positions with at most `dakon_mpi::SHALLOW_SEEDS` seeds fewer
/// than the root's (`root_seeds`) live on the node that owns them, the others on the node
/// searching them. Every rank must call it (it allocates collectively).
///
/// Also returns whether endgame tables answer, and where the table is (`NodeMemory::table_memory`).
///
/// # Errors
/// [`CliError::Failure`] if the endgame tables cannot be opened.
pub fn solver_for(
    cluster: &Cluster,
    rules: RuleSet,
    search: &SearchArgs,
    probe: &ProbeArgs,
    root_seeds: u32,
) -> Result<(Solver<RuleSet>, bool, String), CliError> {
    #[cfg(feature = "mpi")]
    {
        let oracle = probe.open_in_background(rules)?;
        let tables = oracle.is_some();
        let node = dakon_mpi::NodeMemory::join(cluster, root_seeds.saturating_sub(dakon_mpi::SHALLOW_SEEDS));
        let mut config = search.config();
        config.tt_bytes = config.tt_bytes.saturating_mul(node.ranks());
        let solver = Solver::new_in(rules, config, oracle, &node);
        if let Some(why) = node.small_pages().filter(|_| cluster.is_root() && node.ranks() > 1) {
            eprintln!(
                "dakon: note: the table this node's {} ranks share is in 4 KiB pages ({why}; /dev/shm is not mounted with \
                 huge pages), which slows a search without endgame tables by a fifth or more (as root: mount -o remount,huge=within_size \
                 /dev/shm; docs/DISTRIBUTED.md)",
                node.ranks()
            );
        }
        Ok((solver, tables, node.table_memory()))
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (rules, search, probe, root_seeds);
        match *cluster {}
    }
}

/// Solves `position` with every rank of `cluster`, from and into `db` (rank 0's) as
/// [`crate::results_db::solve_kept`] does; each rank searches with its `solver` from
/// [`solver_for`]. Every change of the proven bounds is said on standard error (final store
/// differences), and the root moves' bounds are kept in `db` before each, so that neither is
/// lost even if the job is killed. Rank 0 gets the solution, the other ranks `None`.
pub fn solve(
    cluster: &Cluster,
    solver: &Solver<RuleSet>,
    db: Option<&ResultsDb>,
    position: &Position,
    limits: &Limits,
    tables: bool,
    table_memory: &str,
) -> Option<(Solution, Shared)> {
    #[cfg(feature = "mpi")]
    {
        if !cluster.is_root() {
            let _ = dakon_mpi::solve(cluster, solver, position, limits, Default::default());
            return None;
        }
        let stored = position.store_difference();
        let progress = |p: &dakon_solver::search::Progress| {
            // Kept before it is said, so that a job killed on seeing the line loses none of it.
            keep_root_moves(solver, db, position, tables);
            eprintln!("dakon: proven so far: {:+} <= value <= {:+} ({} nodes over all ranks)", stored + p.lower, stored + p.upper, p.nodes)
        };
        let mut shared = None;
        resume_root_moves(solver, db, position);
        let solution = crate::results_db::solve_kept_by(solver, db, position, tables, |options| {
            let options = SolveOptions { observer: Some(&progress), ..options };
            let distributed = dakon_mpi::solve(cluster, solver, position, limits, options).expect("rank 0 gets the solution");
            let ended = distributed.cut == Some(dakon_mpi::Cut::Terminated);
            shared = Some(Shared {
                ranks: cluster.size(),
                table_bytes: solver.table_bytes(),
                table_memory: table_memory.to_string(),
                tests: distributed.tests,
                answers: distributed.answers,
                nodes: distributed.nodes,
                messages: distributed.messages,
                bytes: distributed.bytes,
                one_sided: distributed.one_sided.iter().map(|t| (t.accesses, t.bytes)).collect(),
                cut: distributed.cut.map(describe),
                ended,
            });
            distributed.solution
        });
        keep_root_moves(solver, db, position, tables);
        shared.map(|shared| (solution, shared))
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (solver, db, position, limits, tables, table_memory);
        match *cluster {}
    }
}

/// Puts the bounds `db` holds of the root's moves (their children's rows, kept by an earlier
/// run, perhaps one a dead rank cut short) in the table the ranks share, so that the solve
/// starts from them, and says which on standard error.
#[cfg(feature = "mpi")]
fn resume_root_moves(solver: &Solver<RuleSet>, db: Option<&ResultsDb>, position: &Position) {
    let prior = crate::results_db::prior_or_nothing(db, solver.rules(), position);
    if prior.moves.is_empty() {
        return;
    }
    let stored = position.store_difference();
    let mut said = Vec::new();
    for m in &prior.moves {
        let step = solver.rules().play(position, m.mv);
        // The child's future gain from the move's value (see `results_db::moves`).
        let (a, b) = if step.same_mover { (m.lower - step.gain, m.upper - step.gain) } else { (step.gain - m.upper, step.gain - m.lower) };
        solver.remember(&step.next, a, b);
        let hole = crate::line::absolute_line(solver.rules(), position, &[m.mv]).0[0];
        said.push(format!("hole {hole}: {:+}..{:+}", stored + m.lower, stored + m.upper));
    }
    eprintln!("dakon: the solve starts from the database's bounds of {} root moves ({})", said.len(), said.join(", "));
}

/// Keeps in `db` the bounds the shared table holds of every root move (each child's entry),
/// proven by this run so far, for a rerun to start from.
#[cfg(feature = "mpi")]
fn keep_root_moves(solver: &Solver<RuleSet>, db: Option<&ResultsDb>, position: &Position, tables: bool) {
    if db.is_none() {
        return;
    }
    let rules = solver.rules();
    let moves: Vec<MoveValue> = rules
        .legal_moves(position)
        .as_slice()
        .iter()
        .filter_map(|&mv| {
            let step = rules.play(position, mv);
            let (lower, upper) = solver.table_bounds(&step.next)?;
            let (a, b) = if step.same_mover { (step.gain + lower, step.gain + upper) } else { (step.gain - upper, step.gain - lower) };
            Some(MoveValue { mv, lower: a, upper: b })
        })
        .collect();
    if moves.is_empty() {
        return;
    }
    let k = rules.seeds_on_board(position) as i32;
    // The position's own bounds are recorded by the solve; the seeds' bounds say nothing more.
    let bounds = crate::results_db::Bounds { lower: -k, upper: k };
    let proof = crate::results_db::Proof::search(tables);
    let proved = crate::results_db::Proved { position, bounds, pv: &[], moves: &moves, proof, nodes: 0, seconds: 0.0 };
    crate::results_db::keep(db, rules, &proved);
}

#[cfg(feature = "mpi")]
fn describe(cut: dakon_mpi::Cut) -> String {
    match cut {
        dakon_mpi::Cut::Stopped => "the shared solve was stopped by a limit or Ctrl-C before it was exact".into(),
        dakon_mpi::Cut::Terminated => "the MPI job is being ended (SIGTERM: a rank died, or mpirun was stopped): \
                                       the bounds printed are what the ranks proved before"
            .into(),
    }
}

impl Shared {
    /// The failure to end with, if the solve was cut short by the job's end (a limit or
    /// Ctrl-C is not a failure: the bounds are the answer, as without MPI).
    pub fn failure(&self) -> Option<CliError> {
        self.cut.as_ref().filter(|_| self.ended).map(|c| CliError::Failure(c.clone()))
    }

    /// The `mpi` object of `solve --json`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "ranks": self.ranks, "table_bytes": self.table_bytes, "table_memory": self.table_memory, "tests": self.tests,
            "answers": self.answers, "nodes": self.nodes, "messages": self.messages, "bytes": self.bytes,
            "one_sided": self.one_sided.iter().map(|t| serde_json::json!({"accesses": t.0, "bytes": t.1})).collect::<Vec<_>>(),
            "cut": self.cut,
        })
    }

    /// One line for the text output.
    pub fn summary(&self) -> String {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        format!(
            "shared by {} MPI ranks, rank 0's table {} MiB ({}): {} tests, each searched by every rank (answered first a rank: {}; nodes a rank: {}); {} messages, {} bytes; one-sided accesses to other nodes' tables a rank: {} ({} bytes)",
            self.ranks,
            self.table_bytes >> 20,
            self.table_memory,
            self.tests,
            list(&self.answers),
            list(&self.nodes),
            self.messages,
            self.bytes,
            list(&self.one_sided.iter().map(|t| t.0).collect::<Vec<_>>()),
            list(&self.one_sided.iter().map(|t| t.1).collect::<Vec<_>>())
        )
    }
}
