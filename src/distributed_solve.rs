//! `dakon solve` shared by the ranks of an MPI job (docs/DISTRIBUTED.md): rank 0 tests and
//! solves the root's moves on whichever rank is free and prints the bounds as they close.

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::RuleSet;
#[cfg(feature = "mpi")]
use dakon_solver::search::SolveOptions;
use dakon_solver::search::{Limits, Solution, Solver};

use crate::cli_error::CliError;
use crate::cluster::Cluster;
use crate::results_db::ResultsDb;

/// What rank 0 learns from a shared solve, besides the solution.
pub struct Shared {
    /// Ranks in the job.
    pub ranks: usize,
    /// Jobs each rank ran, rank 0 first.
    pub jobs: Vec<u64>,
    /// Why the solve is not exact, when `Some` (the bounds printed are proven all the same).
    pub cut: Option<String>,
    /// Whether the job is being ended from outside (SIGTERM): a failure, unlike a limit.
    pub ended: bool,
}

/// Solves `position` with every rank of `cluster`, from and into `db` (rank 0's) as
/// [`crate::results_db::solve_kept`] does; each rank searches with its own `solver`. Every
/// change of the proven bounds is said on standard error (final store differences), so that
/// they are not lost even if the job is killed. Rank 0 gets the solution, the other ranks
/// `None`.
pub fn solve(
    cluster: &Cluster,
    solver: &Solver<RuleSet>,
    db: Option<&ResultsDb>,
    position: &Position,
    limits: &Limits,
    tables: bool,
) -> Option<(Solution, Shared)> {
    #[cfg(feature = "mpi")]
    {
        if !cluster.is_root() {
            let _ = dakon_mpi::solve(cluster, solver, position, limits, Default::default());
            return None;
        }
        let stored = position.store_difference();
        let progress = |p: &dakon_solver::search::Progress| {
            eprintln!("dakon: proven so far: {:+} <= value <= {:+} ({} nodes over all ranks)", stored + p.lower, stored + p.upper, p.nodes)
        };
        let mut shared = None;
        let solution = crate::results_db::solve_kept_by(solver, db, position, tables, |options| {
            let options = SolveOptions { observer: Some(&progress), ..options };
            let distributed = dakon_mpi::solve(cluster, solver, position, limits, options).expect("rank 0 gets the solution");
            let ended = distributed.cut == Some(dakon_mpi::Cut::Terminated);
            shared = Some(Shared { ranks: cluster.size(), jobs: distributed.jobs, cut: distributed.cut.map(describe), ended });
            distributed.solution
        });
        shared.map(|shared| (solution, shared))
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (solver, db, position, limits, tables);
        match *cluster {}
    }
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
        serde_json::json!({ "ranks": self.ranks, "jobs": self.jobs, "cut": self.cut })
    }

    /// One line for the text output.
    pub fn summary(&self) -> String {
        let jobs: Vec<String> = self.jobs.iter().map(u64::to_string).collect();
        format!("shared by {} MPI ranks (jobs a rank: {}); the nodes are every rank's jobs", self.ranks, jobs.join(", "))
    }
}
