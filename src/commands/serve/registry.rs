//! One solver per board: created on the first request for that board, then shared by every
//! request for it, with its endgame tables loaded once.
//!
//! Transposition keys do not include the board size (a 5-hole board and a 7-hole board with
//! empty extra holes may have equal keys), so boards never share a solver. The memory budget
//! is split evenly between every board a request may name (1 to 9 holes per row under the
//! server's rule set), so that all of them together stay within it; a table's memory is only touched as
//! the searches fill it.

use std::collections::HashMap;
use std::sync::Arc;

use dakon_solver::dakon::{Position, MAX_HOLES};
use dakon_solver::ruleset;
use dakon_solver::search::{Config, Solver, Width};
use tokio::sync::OnceCell;

use super::api_error::ApiError;
use super::rule_set::RuleSet;
use crate::tables_arg::ProbeArgs;

/// A board a request may name: rules and holes per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    rules: RuleSet,
    holes: usize,
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
    table_bytes: usize,
    probe: ProbeArgs,
    /// Threads of each solver: the server's search slots.
    threads: usize,
    /// How many of them a search may use now (see `SearchPool::fair_width`).
    width: Width,
}

impl Registry {
    /// A registry of the boards of `rules`, whose solvers share `total_bytes` of
    /// transposition table between them and find their endgame tables with `probe`; each
    /// solver has `threads` threads, of which a search uses as many as `width` says.
    pub fn new(rules: RuleSet, total_bytes: usize, probe: ProbeArgs, threads: usize, width: Width) -> Registry {
        let boards: HashMap<Board, OnceCell<Arc<BoardSolver>>> =
            (1..=MAX_HOLES).map(|holes| (Board { rules, holes }, OnceCell::new())).collect();
        let table_bytes = total_bytes / boards.len();
        Registry { rules, boards, table_bytes, probe, threads, width }
    }

    /// The rules this server plays.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The transposition table memory each board's solver may use, in bytes.
    pub fn table_bytes_per_board(&self) -> usize {
        self.table_bytes
    }

    /// How many boards have a solver so far.
    pub fn boards_in_use(&self) -> usize {
        self.boards.values().filter(|cell| cell.initialized()).count()
    }

    /// The solver of `position`'s board under `rule_set`, made (and its tables loaded, on a
    /// blocking thread) the first time it is asked for. A failure is not kept: the next
    /// request tries again.
    ///
    /// # Errors
    /// [`ApiError::Failure`] if a table file is present but unreadable or damaged.
    pub async fn solver(&self, rule_set: RuleSet, position: &Position) -> Result<Arc<BoardSolver>, ApiError> {
        let board = Board { rules: rule_set, holes: position.holes() };
        let rules = rule_set.rules_for(position);
        let cell = self.boards.get(&board).ok_or_else(|| ApiError::BadRequest(format!("no board of {} holes per row", board.holes)))?;
        let config = Config { threads: self.threads, tt_bytes: self.table_bytes };
        let (probe, width) = (self.probe.clone(), self.width.clone());
        let made = cell
            .get_or_try_init(|| async move {
                let load = move || {
                    let oracle = probe.open(rules).map_err(|e| ApiError::Failure(e.to_string()))?;
                    let tables = oracle.is_some();
                    Ok(Arc::new(BoardSolver { solver: Solver::new(rules, config, oracle).with_width(width), tables }))
                };
                tokio::task::spawn_blocking(load).await.map_err(|e| ApiError::Failure(format!("loading the solver failed: {e}")))?
            })
            .await?;
        Ok(made.clone())
    }
}
