//! One solver per board: created on the first request for that board, then shared by every
//! request for it, with its endgame tables loaded once.
//!
//! Transposition keys do not include the board size (a 5-hole board and a 7-hole board with
//! empty extra holes may have equal keys), so boards never share a solver. The memory budget
//! is split between every board a request may name (1 to 9 holes per row under the server's
//! rule set), so that all of them together stay within it; a table's memory is only touched
//! as the searches fill it. The split is by [`table_bytes`]: the large boards, whose early
//! middle games take tens of millions of nodes, get 16 times the share of the small ones,
//! which a few million nodes solve (the default 1152 MiB: 256 MiB for each board of 6 to 9
//! holes, 16 MiB below, where an even split gave each 128 MiB). On the hardest early 7 x 7
//! analyses a table of 256 MiB instead of 128 MiB saves a fifth of the nodes (see
//! `docs/benchmarks/serve.md`).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dakon_solver::dakon::{Position, MAX_HOLES};
use dakon_solver::oracle::Oracle;
use dakon_solver::ruleset;
use dakon_solver::search::{Config, Solver, Width};
use tokio::sync::OnceCell;

use super::api_error::ApiError;
use super::rule_set::RuleSet;
use crate::cli_error::CliError;
use crate::search_args::build_and_say;
use crate::tables_arg::ProbeArgs;

/// A board a request may name: rules and holes per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    rules: RuleSet,
    holes: usize,
}

/// The transposition table memory of the solver of a board of `holes` holes per row when
/// all boards share `total_bytes`: 16 shares for a board of 6 to 9 holes, 1 for a smaller
/// one, rounded down to a power of two as the table rounds it (so that what is reported is
/// what is used).
fn table_bytes(total_bytes: usize, holes: usize) -> usize {
    let shares = |holes: usize| if holes >= 6 { 16 } else { 1 };
    let bytes = total_bytes / (1..=MAX_HOLES).map(shares).sum::<usize>() * shares(holes);
    bytes.checked_ilog2().map_or(0, |bits| 1 << bits)
}

/// The solver of one board and whether it has endgame tables.
pub struct BoardSolver {
    pub solver: Solver<ruleset::RuleSet>,
    pub tables: bool,
}

/// The solvers of every board of the rules this server plays, each made on first use.
pub struct Registry {
    rules: RuleSet,
    boards: HashMap<Board, OnceCell<Arc<BoardSolver>>>,
    /// Table memory of all the boards together (see [`table_bytes`]).
    total_bytes: usize,
    probe: ProbeArgs,
    /// Threads of each solver: the server's search slots.
    threads: usize,
    /// How many of them a search may use now (see `SearchPool::fair_width`).
    width: Width,
    /// The board whose endgame tables are built where missing when its solver is made.
    build: Option<TablesToBuild>,
}

/// `serve --build-tables K`: the board whose tiers `0..=max_seeds` are built where missing,
/// stopped (the finished tiers kept) when `stop` is raised.
pub struct TablesToBuild {
    pub holes: usize,
    pub max_seeds: u32,
    pub stop: Arc<AtomicBool>,
}

impl Registry {
    /// A registry of the boards of `rules`, whose solvers share `total_bytes` of
    /// transposition table between them and find their endgame tables with `probe`; each
    /// solver has `threads` threads, of which a search uses as many as `width` says.
    /// With `build`, that board's solver builds its missing tables first.
    pub fn new(
        rules: RuleSet,
        total_bytes: usize,
        probe: ProbeArgs,
        threads: usize,
        width: Width,
        build: Option<TablesToBuild>,
    ) -> Registry {
        let boards: HashMap<Board, OnceCell<Arc<BoardSolver>>> =
            (1..=MAX_HOLES).map(|holes| (Board { rules, holes }, OnceCell::new())).collect();
        Registry { rules, boards, total_bytes, probe, threads, width, build }
    }

    /// The rules this server plays.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The transposition table memory of each board's solver in MiB, by holes per row from 1.
    pub fn table_mib(&self) -> Vec<usize> {
        (1..=MAX_HOLES).map(|holes| table_bytes(self.total_bytes, holes) >> 20).collect()
    }

    /// How many boards have a solver so far.
    pub fn boards_in_use(&self) -> usize {
        self.boards.values().filter(|cell| cell.initialized()).count()
    }

    /// The solver of `position`'s board under `rule_set`, made (and its tables loaded, or for
    /// the board of `--build-tables` built where missing, on a blocking thread) the first time
    /// it is asked for. A failure is not kept: the next request tries again.
    ///
    /// # Errors
    /// [`ApiError::Failure`] if a table file is present but unreadable or damaged.
    pub async fn solver(&self, rule_set: RuleSet, position: &Position) -> Result<Arc<BoardSolver>, ApiError> {
        let board = Board { rules: rule_set, holes: position.holes() };
        let rules = rule_set.rules_for(position);
        let cell = self.boards.get(&board).ok_or_else(|| ApiError::BadRequest(format!("no board of {} holes per row", board.holes)))?;
        let config = Config { threads: self.threads, tt_bytes: table_bytes(self.total_bytes, board.holes) };
        let (probe, width) = (self.probe.clone(), self.width.clone());
        let build = self.build.as_ref().filter(|b| b.holes == board.holes).map(|b| (b.max_seeds, b.stop.clone()));
        let made = cell
            .get_or_try_init(|| async move {
                let load = move || {
                    let failure = |e: CliError| ApiError::Failure(e.to_string());
                    let oracle = match build {
                        Some((max_seeds, stop)) => {
                            let (tables, _) =
                                build_and_say(rules, &probe, max_seeds, config.threads, stop, "dakon serve").map_err(failure)?;
                            Some(Arc::new(tables) as Arc<dyn Oracle<ruleset::RuleSet>>)
                        }
                        None => probe.open(rules).map_err(failure)?,
                    };
                    let tables = oracle.is_some();
                    Ok(Arc::new(BoardSolver { solver: Solver::new(rules, config, oracle).with_width(width), tables }))
                };
                tokio::task::spawn_blocking(load).await.map_err(|e| ApiError::Failure(format!("loading the solver failed: {e}")))?
            })
            .await?;
        Ok(made.clone())
    }
}

#[cfg(test)]
mod tests {
    use dakon_solver::dakon::MAX_HOLES;

    use super::table_bytes;

    #[test]
    fn the_boards_tables_stay_within_the_budget_and_the_large_boards_get_the_most() {
        for total in [9 << 20, 1152 << 20, 4096 << 20] {
            let all: usize = (1..=MAX_HOLES).map(|holes| table_bytes(total, holes)).sum();
            assert!(all <= total, "{all} bytes of tables in a budget of {total}");
            assert_eq!(table_bytes(total, 7), 16 * table_bytes(total, 5));
            assert_eq!(table_bytes(total, 6), table_bytes(total, 9));
        }
        // The default: a table of 256 MiB (a power of two) for 7 x 7, where an even split gave 128.
        assert_eq!(table_bytes(1152 << 20, 7), 256 << 20);
        assert_eq!(table_bytes(1152 << 20, 5), 16 << 20);
    }
}
