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
use std::sync::{Arc, OnceLock};

use dakon_solver::dakon::{Position, MAX_HOLES};
use dakon_solver::oracle::Oracle;
use dakon_solver::ruleset;
use dakon_solver::search::{Config, Solver, Width};
use tokio::sync::OnceCell;

use super::api_error::ApiError;
use super::page_tables::{PageTables, TablesToPrepare};
use super::rule_set::RuleSet;
use crate::cli_error::CliError;
use crate::tables_arg::ProbeArgs;

/// A board a request may name: rules and holes per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    rules: RuleSet,
    holes: usize,
}

/// The transposition table memory of the solver of a board of `holes` holes per row when
/// all boards share `total_bytes`: 16 shares for a board of 6 to 9 holes, 1 for a smaller
/// one, rounded down to a power of two (the table takes any size; the split was measured
/// with these).
fn table_bytes(total_bytes: usize, holes: usize) -> usize {
    let shares = |holes: usize| if holes >= 6 { 16 } else { 1 };
    let bytes = total_bytes / (1..=MAX_HOLES).map(shares).sum::<usize>() * shares(holes);
    bytes.checked_ilog2().map_or(0, |bits| 1 << bits)
}

/// The solver of one board and its endgame tables.
pub struct BoardSolver {
    pub solver: Solver<ruleset::RuleSet>,
    tables: BoardTables,
}

/// A board's endgame tables: loaded before its first search, or the page board's, prepared
/// while the server answers.
enum BoardTables {
    Loaded(bool),
    Prepared(Arc<PageTables>),
}

impl BoardSolver {
    /// Whether its endgame tables answer probes now.
    pub fn tables(&self) -> bool {
        match &self.tables {
            BoardTables::Loaded(present) => *present,
            BoardTables::Prepared(tables) => tables.answering(),
        }
    }
}

/// The solvers of every board of the rules this server plays (each Dakon variant too), each
/// made on first use.
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
    /// The page's board, whose endgame tables are prepared while the server answers.
    page: Option<TablesToPrepare>,
    /// Those tables, once their preparation has started.
    page_tables: OnceLock<Arc<PageTables>>,
}

impl Registry {
    /// A registry of the boards of `rules`, whose solvers share `total_bytes` of
    /// transposition table between them and find their endgame tables with `probe`; each
    /// solver has `threads` threads, of which a search uses as many as `width` says.
    /// With `page`, that board's solver is made at once and its tables prepared meanwhile.
    pub fn new(
        rules: RuleSet,
        total_bytes: usize,
        probe: ProbeArgs,
        threads: usize,
        width: Width,
        page: Option<TablesToPrepare>,
    ) -> Registry {
        let boards: HashMap<Board, OnceCell<Arc<BoardSolver>>> = rules
            .family()
            .into_iter()
            .map(RuleSet::board)
            .flat_map(|rules| (1..=MAX_HOLES).map(move |holes| (Board { rules, holes }, OnceCell::new())))
            .collect();
        Registry { rules, boards, total_bytes, probe, threads, width, page, page_tables: OnceLock::new() }
    }

    /// Starts preparing the page's board's tables (once; returns at once), so that the status
    /// reports them from the first request on.
    pub fn prepare_page_tables(&self) -> Option<Arc<PageTables>> {
        let page = self.page.as_ref()?;
        let rules = ruleset::RuleSet::new(self.rules.board().0, page.holes).ok()?;
        let threads = self.threads;
        Some(self.page_tables.get_or_init(|| PageTables::prepare(rules, page, threads)).clone())
    }

    /// The page's board's tables for `/api/status`: how far their preparation is (`None`
    /// without tables for it).
    pub fn page_tables_json(&self) -> serde_json::Value {
        self.page_tables.get().map_or(serde_json::Value::Null, |tables| tables.json())
    }

    /// Waits for the page's board's tables to end their preparation (a build stopped at
    /// shutdown then says which tiers it kept).
    pub fn finish_page_tables(&self) {
        if let Some(tables) = self.page_tables.get() {
            tables.finish();
        }
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

    /// The solver of `position`'s board under `rule_set` (after the opening: see
    /// [`RuleSet::board`]), made (and its tables loaded on a
    /// blocking thread; the page's board's prepared on a thread of their own, answering as
    /// they get ready, so that no request waits for them) the first time it is asked for. A
    /// failure is not kept: the next request tries again.
    ///
    /// # Errors
    /// [`ApiError::Failure`] if a table file is present but unreadable or damaged.
    pub async fn solver(&self, rule_set: RuleSet, position: &Position) -> Result<Arc<BoardSolver>, ApiError> {
        // Under `no-first-turn-capture` the solver tests the leaves of the opening, past it.
        let board = Board { rules: rule_set.board(), holes: position.holes() };
        let rules = rule_set.rules_for(position);
        let cell = self.boards.get(&board).ok_or_else(|| ApiError::BadRequest(format!("no board of {} holes per row", board.holes)))?;
        let config = Config { threads: self.threads, tt_bytes: table_bytes(self.total_bytes, board.holes) };
        let (probe, width) = (self.probe.clone(), self.width.clone());
        let page = self.page.as_ref().is_some_and(|page| page.holes == board.holes && board.rules == self.rules.board());
        let prepared = if page { self.prepare_page_tables() } else { None };
        let made = cell
            .get_or_try_init(|| async move {
                let load = move || {
                    let (oracle, tables) = match prepared {
                        Some(prepared) => (Some(prepared.clone() as Arc<dyn Oracle<ruleset::RuleSet>>), BoardTables::Prepared(prepared)),
                        None => {
                            let oracle = probe.open(rules).map_err(|e: CliError| ApiError::Failure(e.to_string()))?;
                            let present = oracle.is_some();
                            (oracle, BoardTables::Loaded(present))
                        }
                    };
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
