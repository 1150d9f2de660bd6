//! `dakon serve`: an analysis board in the browser and a JSON API, served from this binary.

mod analysis;
mod api_error;
mod cache;
mod counters;
mod flights;
mod listen;
mod opening_analysis;
mod page;
mod page_tables;
mod parse_errors;
mod pool;
mod query;
mod registry;
mod rounds;
mod routes;
mod rule_set;
mod service;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::builder::TypedValueParser;
use dakon_solver::dakon::Position;
use dakon_solver::ruleset::RulesName;
use tokio_util::sync::CancellationToken;

use crate::cli_error::CliError;
use crate::db_arg::DefaultDbArgs;
use crate::results_db::ResultsDb;
use crate::rules_arg::RulesArgs;
use crate::search_args::parse_seconds;
use crate::tables_arg::ProbeArgs;
use page_tables::{user_tables_dir, TablesToPrepare, DEFAULT_BUILD_SEEDS};
use pool::SearchPool;
use registry::Registry;
use rule_set::RuleSet;
use service::Service;

/// Serve an analysis board: open the printed address in a browser to see a Dakon board with
/// the exact value of every move drawn on its hole, play moves by clicking (or by number
/// keys), undo and redo, paste or copy positions, and share a link to any position. The same
/// server answers a JSON API for scripts: /api/analyse (every move's value, as `best --json`),
/// /api/play (the position after a move) and /api/status (the load); see `docs/api.md`.
///
/// Searches run at most --threads at once, sharing --threads cores evenly (a search running
/// alone uses them all) and one transposition table per board size; up to --queue more wait,
/// and beyond that a request gets 503. A client that goes away stops its search; identical requests share one search; recent exact
/// answers are kept. Ctrl-C stops the server, ending running searches with the bounds proven.
///
/// The page's board gets its endgame tables as the server starts, while it answers: with no
/// table flag and no tables directory named, tiers 0..=16 are built once into ./tables if it
/// already holds that board's tables and is writable, else into a directory of your own
/// ($XDG_DATA_HOME/dakon/tables, else ~/.local/share/dakon/tables), and loaded from there on
/// later starts. No request waits for them: until a tier is ready its positions are searched,
/// and /api/status and the page say how far the tables are.
///
/// Every exact value and proven bound is kept in the results database (--db FILE; by default
/// $DAKON_DB, else ./dakon-results.db, created if missing): a position asked again starts from
/// the bounds already proven for it and its moves, so a second look is never worse than the
/// first, and a position solved exactly before is answered from the database at once, even
/// after a restart. `dakon db` shows what it holds.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon serve                                   http://127.0.0.1:8080/, Ctrl-C stops it
  dakon serve --bind 0.0.0.0:8000               reachable from other machines (no authentication!)
  dakon serve --threads 2 --time-limit 30       two searches at once, none longer than 30 s
  curl 'http://127.0.0.1:8080/api/analyse?position=start&holes=5'
  curl 'http://127.0.0.1:8080/api/play?position=start&hole=7'
  dakon serve --rules kalah                     Kalah instead of Dakon (page and API)
  dakon serve --db ~/dakon.db                   keep the results in ~/dakon.db (--no-db: nowhere)
  dakon serve --tables-dir ~/t --build-tables 18  build tiers 0..=18 of the 7 x 7 tables into ~/t (once)
  dakon serve --no-tables                       no endgame tables at all
  curl 'http://127.0.0.1:8080/api/analyse?position=start&holes=6&seeds=4&rules=kalah'")]
pub struct Args {
    /// Address and port to listen on (port 0: any free port). The default is reachable from
    /// this machine only.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    bind: SocketAddr,
    /// Searches that run at once, sharing this many cores: one alone uses them all [default:
    /// all cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    threads: Option<usize>,
    /// Searches that may wait for a thread; requests beyond get 503 at once.
    #[arg(long, default_value_t = 64, value_name = "N")]
    queue: usize,
    /// Transposition table memory in MiB, split between the nine board sizes, each of 6 to 9
    /// holes per row taking 16 times the share of a smaller one (the default gives those 256
    /// MiB each, the others 16); memory is touched only as searches fill it.
    #[arg(long, default_value_t = 1152, value_name = "MIB", value_parser = clap::value_parser!(u32).range(9..=1 << 20).map(|v| v as usize))]
    tt_mb: usize,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    probe: ProbeArgs,
    /// Build the endgame tables of tiers 0..=K of the page's board (7 holes a row under Dakon's
    /// rules, 6 under Kalah's) where they are missing from the tables directory, as the server
    /// starts, and hold them in memory as built; the page is served meanwhile. With 16 the
    /// early 7 x 7 middle game gets exact within seconds: about 40 s to build on 2 cores (once:
    /// the files are kept), 66 MiB in memory. [default: 16 when no tables directory is named,
    /// else none: the tiers present are loaded]
    #[arg(long, value_name = "K", conflicts_with_all = ["no_tables", "tables_mb"], value_parser = clap::value_parser!(u32).range(0..=i8::MAX as i64))]
    build_tables: Option<u32>,
    /// The longest a search may run, in seconds: the time limit of a request that gives none,
    /// and the cap of one that asks for more (its answer then says so).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: f64,
    /// How long the page keeps refining a position that is not exact, in seconds: it asks
    /// again and again (each search at most --time-limit, each starting from the bounds proven
    /// before) while the position is shown, then stops and says so.
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = parse_seconds)]
    refine_limit: f64,
    /// Exact answers kept for repeated requests (0: none).
    #[arg(long, default_value_t = 1024, value_name = "N")]
    cache: usize,
    #[command(flatten)]
    db: DefaultDbArgs,
    /// Keep no results database: every restart begins from nothing.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// Print the address and settings as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Seconds to wait before loading the page's board's tables: lets a test overlap its
    /// requests with the load of tables small enough to build in a test.
    #[arg(long, hide = true, default_value = "0", value_name = "SECONDS", value_parser = parse_seconds)]
    tables_load_delay: f64,
}

/// Where the page's board's tables are read (and built), and up to which tier they are built:
/// a directory named by `--tables-dir` or `$DAKON_TABLES`, else `./tables` when it holds that
/// board's tables and is writable, else the per-user directory; `--build-tables K`, else
/// [`DEFAULT_BUILD_SEEDS`] when no directory is named and no `--tables-mb` bound is given.
fn page_tables_plan(args: &Args, holes: usize) -> (crate::tables_arg::ProbeArgs, Option<u32>) {
    let mut probe = args.probe.clone();
    let named = probe.tables.tables_dir.is_some() || std::env::var_os("DAKON_TABLES").is_some();
    if probe.no_tables || named {
        return (probe, args.build_tables);
    }
    let here = probe.tables.dir();
    let here_holds_them = dakon_solver::ruleset::RuleSet::new(RuleSet(args.rules.rules).board().0, holes)
        .is_ok_and(|rules| dakon_solver::tables::tier_path(&rules, &here, 0).is_file() && writable(&here));
    let xdg = std::env::var_os("XDG_DATA_HOME").map(std::path::PathBuf::from);
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    if !here_holds_them {
        if let Some(own) = user_tables_dir(xdg.as_deref(), home.as_deref()) {
            probe.tables.tables_dir = Some(own);
        }
    }
    let build = args.build_tables.or(probe.tables_mb.is_none().then_some(DEFAULT_BUILD_SEEDS));
    (probe, build)
}

/// Whether a file can be made in `dir` (tried, and removed).
fn writable(dir: &std::path::Path) -> bool {
    let trial = dir.join(format!(".dakon-serve-{}", std::process::id()));
    let made = std::fs::File::create(&trial).is_ok();
    let _ = std::fs::remove_file(&trial);
    made
}

pub fn run(args: Args) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the server's threads: {e}")))?;
    runtime.block_on(serve(args))
}

async fn serve(args: Args) -> Result<(), CliError> {
    let listener = tokio::net::TcpListener::bind(args.bind)
        .await
        .map_err(|e| CliError::Failure(format!("cannot listen on {}: {e} (choose another address or port with --bind)", args.bind)))?;
    let address = listener.local_addr()?;
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let shutdown = CancellationToken::new();
    let db_path = (!args.no_db).then(|| args.db.path());
    let db = db_path.as_deref().map(ResultsDb::open).transpose().map_err(CliError::Input)?;
    let pool = SearchPool::new(threads, args.queue);
    // A search's threads: the slots, but never more than the cores.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A build of the page's board's tables stops with the server, keeping the tiers it finished.
    let build_stop = Arc::new(AtomicBool::new(false));
    let page_holes = page::default_board(args.rules.rules).0;
    let (page_probe, build_tables) = page_tables_plan(&args, page_holes);
    let page_rules = dakon_solver::ruleset::RuleSet::new(RuleSet(args.rules.rules).board().0, page_holes).ok();
    let has_tier_0 = page_rules.is_some_and(|rules| dakon_solver::tables::tier_path(&rules, &page_probe.tables.dir(), 0).is_file());
    let prepare = (!page_probe.no_tables && (build_tables.is_some() || has_tier_0)).then(|| TablesToPrepare {
        probe: page_probe.clone(),
        holes: page_holes,
        max_seeds: build_tables.unwrap_or(i8::MAX as u32),
        build: build_tables.is_some(),
        stop: build_stop.clone(),
        load_delay: Duration::from_secs_f64(args.tables_load_delay),
    });
    let registry =
        Registry::new(RuleSet(args.rules.rules), args.tt_mb << 20, args.probe.clone(), threads.min(cores), pool.fair_width(), prepare);
    registry.prepare_page_tables();
    let service = Arc::new(Service::new(
        registry,
        pool,
        args.cache,
        Duration::from_secs_f64(args.time_limit),
        Duration::from_secs_f64(args.refine_limit),
        shutdown.clone(),
        db,
    ));
    let db_shown = db_path.map_or("none".to_string(), |path| path.display().to_string());
    let url = format!("http://{address}/");
    let tables = tables_shown(&page_probe, build_tables);
    let table_mib = service.registry.table_mib();
    if args.json {
        let settings = serde_json::json!({
            "url": url, "rules": args.rules.rules.as_str(), "threads": threads, "queue": args.queue, "table_mib_per_board": table_mib,
            "time_limit": args.time_limit, "cache": args.cache, "tables_dir": tables, "db": db_shown,
        });
        println!("{settings}");
    } else {
        println!("dakon serve: {url}  (rules {}; Ctrl-C stops)", args.rules.rules);
        println!(
            "searches: {threads} at once, {} waiting at most; {} MiB of table for each board of 6 to 9 holes, {} MiB below; at most {} s each; endgame tables: {tables}; results database: {db_shown}",
            args.queue, table_mib[6], table_mib[4], args.time_limit
        );
    }
    let preload = tokio::spawn(preload_page_board(service.clone(), args.rules.rules));
    tokio::spawn(stop_signal(shutdown.clone()));
    let stopping = shutdown.clone();
    tokio::spawn(async move {
        stopping.cancelled().await;
        build_stop.store(true, Ordering::Relaxed);
    });
    listen::serve(listener, routes::router(service.clone()), shutdown).await;
    // A build stopped by Ctrl-C says which tiers it kept before the server says it stopped
    // (the stop flag ends it within a chunk of positions).
    let _ = preload.await;
    let finishing = service.clone();
    let _ = tokio::task::spawn_blocking(move || finishing.registry.finish_page_tables()).await;
    eprintln!("dakon serve: stopped");
    Ok(())
}

/// Makes the solver of the board the page opens, and starts preparing its endgame tables, while
/// nobody waits. A failure is said here and again to the first request.
async fn preload_page_board(service: Arc<Service>, rules: RulesName) {
    let (holes, seeds) = page::default_board(rules);
    let Ok(start) = Position::start(holes, seeds) else { return };
    if let Err(e) = service.registry.solver(service.registry.rules(), &start).await {
        eprintln!("dakon serve: the {holes}-hole board could not be prepared: {}", e.message());
    }
}

/// The endgame tables directory as the start-up lines name it (with the tiers `build` says
/// are built there); a directory that does not exist, and will not be made, is warned about
/// (the server then searches without tables).
fn tables_shown(probe: &crate::tables_arg::ProbeArgs, build: Option<u32>) -> String {
    if probe.no_tables {
        return "none".to_string();
    }
    let dir = probe.tables.dir();
    if let Some(max_seeds) = build {
        return format!("{} (the page's board's tiers 0..={max_seeds} built there where missing)", dir.display());
    }
    if dir.is_dir() {
        return dir.display().to_string();
    }
    eprintln!(
        "dakon serve: warning: the endgame tables directory {} does not exist, so every search runs without tables \
         (build them with `dakon tables build`, name the directory with --tables-dir, or pass --no-tables)",
        dir.display()
    );
    format!("none ({} does not exist)", dir.display())
}

/// Waits for Ctrl-C (or SIGTERM), then cancels `shutdown` so that running searches end with
/// their bounds; a second Ctrl-C ends the program at once.
async fn stop_signal(shutdown: CancellationToken) {
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => drop(signal.recv().await),
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
    eprintln!("dakon serve: stopping (running searches end with the bounds proven so far; Ctrl-C again to quit at once)");
    shutdown.cancel();
    tokio::spawn(async {
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(130);
        }
    });
}
