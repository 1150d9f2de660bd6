//! How a request is answered: an analysis from the cache, else by joining an identical search
//! in flight, else by a new search that waits for a slot of the pool and runs on a blocking
//! thread; a move by the rules at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dakon_solver::dakon::{OpeningState, Position};
use dakon_solver::search::Limits;
use tokio_util::sync::CancellationToken;

use super::analysis::{analyse, from_database, Analysis};
use super::api_error::ApiError;
use super::cache::AnswerCache;
use super::counters::Counters;
use super::flights::{Flights, Joined, Work};
use super::opening_analysis::analyse_opening;
use super::pool::SearchPool;
use super::query::{Params, TimeLimit};
use super::registry::Registry;
use super::rule_set::RuleSet;
use crate::commands::{play, show};
use crate::game_record::{number, GameRecord};
use crate::results_db::{prior_of, Prior, ResultsDb};

/// The parameters `/api/analyse` takes.
pub const ANALYSE_PARAMETERS: &[&str] = &["position", "time_limit", "rules", "holes", "seeds"];
/// The parameters `/api/play` takes.
pub const PLAY_PARAMETERS: &[&str] = &["position", "hole", "rules", "holes", "seeds"];
/// The parameters `/api/show` takes.
pub const SHOW_PARAMETERS: &[&str] = &["position", "rules", "holes", "seeds"];
/// The parameters `/api/record` takes.
pub const RECORD_PARAMETERS: &[&str] = &["record"];

/// Identical analyses: same rules, same position (and first turns), same time limit.
type SearchKey = (RuleSet, OpeningState, Duration);
type Answer = Result<Arc<Analysis>, ApiError>;

/// The server's state, shared by every request.
pub struct Service {
    pub registry: Registry,
    pub pool: SearchPool,
    flights: Flights<SearchKey, Answer>,
    cache: AnswerCache<(RuleSet, OpeningState), Arc<Analysis>>,
    counters: Counters,
    /// The longest search allowed.
    pub time_cap: Duration,
    /// How long the page refines a position that is not exact (it asks `/api/status`).
    refine_limit: Duration,
    /// Cancelled at shutdown: every search stops with the bounds proven so far.
    shutdown: CancellationToken,
    /// Where every result is kept, and searches start from (`None`: `--no-db`).
    pub db: Option<Arc<ResultsDb>>,
}

impl Service {
    /// A service with these parts; `shutdown` stops every search when cancelled.
    pub fn new(
        registry: Registry,
        pool: SearchPool,
        cache_size: usize,
        time_cap: Duration,
        refine_limit: Duration,
        shutdown: CancellationToken,
        db: Option<ResultsDb>,
    ) -> Service {
        Service {
            db: db.map(Arc::new),
            registry,
            pool,
            flights: Flights::new(),
            cache: AnswerCache::new(cache_size),
            counters: Counters::default(),
            time_cap,
            refine_limit,
            shutdown,
        }
    }

    /// Answers `/api/analyse`.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for bad parameters, [`ApiError::Busy`] when the pool and its
    /// queue are full, [`ApiError::Failure`] if the endgame tables cannot be read.
    pub async fn analyse(self: &Arc<Self>, query: Option<&str>) -> Result<serde_json::Value, ApiError> {
        let params = Params::parse(query, ANALYSE_PARAMETERS)?;
        let requested = params.rules(self.registry.rules())?;
        let state = params.state(requested)?;
        let rules = requested.searched_for(&state);
        let limit = params.time_limit(self.time_cap)?;
        if let Some(analysis) = self.cache.get(&(rules, state)) {
            Counters::count(&self.counters.cached);
            return Ok(respond(&analysis, &limit, true, requested));
        }
        if let Some(analysis) = self.stored_analysis(rules, &state) {
            Counters::count(&self.counters.from_database);
            let analysis = Arc::new(analysis);
            self.cache.put((rules, state), analysis.clone());
            return Ok(respond(&analysis, &limit, false, requested));
        }
        let key = (rules, state, limit.used);
        let flight = match self.flights.join(&key, &self.shutdown) {
            Joined::Started { flight, work } => {
                tokio::spawn(self.clone().search(key, work));
                flight
            }
            Joined::Shared(flight) => {
                Counters::count(&self.counters.shared);
                flight
            }
        };
        let answer = flight.answer().await.ok_or_else(|| ApiError::Failure("the search ended without an answer".to_string()))?;
        if matches!(answer, Err(ApiError::Busy { .. })) {
            Counters::count(&self.counters.refused);
        }
        let analysis = answer?;
        Ok(respond(&analysis, &limit, false, requested))
    }

    /// The whole analysis of `state`, if the database holds it (every value exact; the
    /// database holds no state of the opening under `no-first-turn-capture`).
    fn stored_analysis(&self, rules: RuleSet, state: &OpeningState) -> Option<Analysis> {
        let db = self.db.as_ref().filter(|_| rules.opening_options().is_none())?;
        let started = Instant::now();
        let prior = self.prior(db, rules, &state.position);
        prior.is_complete().then(|| from_database(rules, &state.position, &prior, started))
    }

    /// What the database holds about `position` and its moves (nothing if it cannot be read:
    /// the search then starts from scratch, and the failure is counted and said).
    fn prior(&self, db: &ResultsDb, rules: RuleSet, position: &Position) -> Prior {
        prior_of(db, &rules.rules_for(position), position).unwrap_or_else(|e| {
            Counters::count(&self.counters.db_errors);
            eprintln!("dakon serve: {e}");
            Prior::default()
        })
    }

    /// Keeps what `analysis` proved in the database (a failure, e.g. a full disk, is counted
    /// and said; the answer is still given).
    fn record(&self, analysis: &Analysis) {
        let Some(db) = &self.db else { return };
        match db.record(&analysis.entries) {
            Ok(recorded) => {
                for contradiction in recorded.contradictions {
                    Counters::count(&self.counters.db_errors);
                    eprintln!("dakon serve: a result contradicts the database, which keeps its own: {contradiction}");
                }
            }
            Err(e) => {
                Counters::count(&self.counters.db_errors);
                eprintln!("dakon serve: {e}");
            }
        }
    }

    /// Does the search of `key` and delivers its answer to every request waiting for it.
    async fn search(self: Arc<Self>, key: SearchKey, work: Work<Answer>) {
        let answer = self.run_search(key, &work.cancelled).await;
        if let Ok(analysis) = &answer {
            if analysis.exact {
                self.cache.put((key.0, key.1), analysis.clone());
            }
        }
        self.flights.finish(&key, &work);
        work.deliver(answer);
    }

    /// Waits for the board's solver and a slot, then searches on a blocking thread, raising
    /// the search's stop flag if `cancelled` fires first.
    async fn run_search(self: &Arc<Self>, (rules, state, time): SearchKey, cancelled: &CancellationToken) -> Answer {
        let ready = async { Ok::<_, ApiError>((self.registry.solver(rules, &state.position).await?, self.pool.acquire().await?)) };
        let (board, slot) = tokio::select! {
            ready = ready => ready?,
            () = cancelled.cancelled() => return Err(ApiError::ShuttingDown),
        };
        Counters::count(&self.counters.searches);
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits { time: Some(time), nodes: None, stop: Some(stop.clone()) };
        let service = self.clone();
        let mut search = tokio::task::spawn_blocking(move || {
            // The slot is free again when the search thread is done, not before.
            let _slot = slot;
            if let Some(options) = rules.opening_options() {
                // The database's rows are positions without first turns: nothing to start from or keep.
                return analyse_opening(rules, options, &board, &state, &limits);
            }
            let position = state.position;
            let prior = service.db.as_ref().map(|db| service.prior(db, rules, &position)).unwrap_or_default();
            let analysis = analyse(rules, &board, &position, &limits, &prior);
            // Kept before it is answered: an answer given is in the database.
            service.record(&analysis);
            analysis
        });
        let analysis = tokio::select! {
            done = &mut search => done,
            () = cancelled.cancelled() => {
                stop.store(true, Ordering::Relaxed);
                Counters::count(&self.counters.cancelled);
                search.await
            }
        };
        analysis.map(Arc::new).map_err(|e| ApiError::Failure(format!("the search failed: {e}")))
    }

    /// Answers `/api/play`: the position after the move and what happened.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for bad parameters or a move the rules do not allow.
    pub fn play(&self, query: Option<&str>) -> Result<serde_json::Value, ApiError> {
        let params = Params::parse(query, PLAY_PARAMETERS)?;
        let rules = params.rules(self.registry.rules())?;
        let state = params.state(rules)?;
        let hole = params.hole()?;
        let (next, outcome) =
            rules.play(&state, hole).map_err(|e| ApiError::BadRequest(format!("hole {hole} in position '{state}': {e}")))?;
        let mut json = play::json(hole, &next.position, &outcome);
        json["position"] = next.to_string().into();
        json["rules"] = rules.name().into();
        json["from"] = state.to_string().into();
        json["board"] = board(rules, &next);
        Ok(json)
    }

    /// Answers `/api/show`: the position as `show --json` draws it (a check that the server
    /// accepts it, too).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for bad parameters.
    pub fn show(&self, query: Option<&str>) -> Result<serde_json::Value, ApiError> {
        let params = Params::parse(query, SHOW_PARAMETERS)?;
        let rules = params.rules(self.registry.rules())?;
        Ok(board(rules, &params.state(rules)?))
    }

    /// Answers `/api/record`: a game record (`docs/game-records.md`) read, every move checked:
    /// the record as written back, its start, and every move with the positions around it.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for a malformed record (its line, turn and move) or one of
    /// other rules than this server plays.
    pub fn read_record(&self, query: Option<&str>) -> Result<serde_json::Value, ApiError> {
        let params = Params::parse(query, RECORD_PARAMETERS)?;
        let record = GameRecord::parse(params.required("record")?).map_err(|e| ApiError::BadRequest(format!("game record: {e}")))?;
        let served = self.registry.rules();
        if !served.family().contains(&RuleSet(record.rules)) {
            return Err(ApiError::BadRequest(format!("a game of {} rules: this server plays {}", record.rules, served.name())));
        }
        let plies: Vec<serde_json::Value> = record
            .plies()
            .iter()
            .map(|ply| {
                serde_json::json!({
                    "turn": ply.turn, "hole": ply.hole, "player": number(ply.before.mover()),
                    "before": ply.before.to_string(), "after": ply.after.to_string(),
                })
            })
            .collect();
        Ok(serde_json::json!({
            "rules": record.rules.as_str(), "start": record.start.to_string(), "record": record.to_string(), "plies": plies,
        }))
    }

    /// Answers `/api/status`: the load and what has been done.
    pub fn status(&self) -> serde_json::Value {
        serde_json::json!({
            "running": self.pool.running(),
            "waiting": self.pool.waiting(),
            "slots": self.pool.size(),
            "queue": self.pool.queue(),
            "in_flight": self.flights.len(),
            "cache_entries": self.cache.len(),
            "db": self.db.as_ref().map(|db| db.path().display().to_string()),
            "boards_in_use": self.registry.boards_in_use(),
            "tables": self.registry.page_tables_json(),
            "table_mib_per_board": self.registry.table_mib(),
            "time_limit_cap": self.time_cap.as_secs_f64(),
            "refine_seconds": self.refine_limit.as_secs_f64(),
            "rules": self.registry.rules().name(),
            "variants": self.registry.rules().family().into_iter().map(RuleSet::name).collect::<Vec<_>>(),
            "counts": self.counters.json(),
        })
    }
}

/// A position as `show --json` draws it, with its first turns and its rules.
fn board(rules: RuleSet, state: &OpeningState) -> serde_json::Value {
    show::state_json(&rules.rules_for(&state.position), state, rules.0)
}

/// The analysis with what this request adds: its time limit, whether it came from the cache,
/// and the rules it named (a position past the opening is searched by the rules after it).
fn respond(analysis: &Analysis, limit: &TimeLimit, cached: bool, rules: RuleSet) -> serde_json::Value {
    let mut json = analysis.json.clone();
    json["rules"] = rules.name().into();
    if let (Some(json), serde_json::Value::Object(limit)) = (json.as_object_mut(), limit.json()) {
        json.extend(limit);
        json.insert("cached".to_string(), cached.into());
    }
    json
}
