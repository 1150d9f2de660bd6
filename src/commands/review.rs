//! `dakon review`: a game record reviewed move by move, from the results database first.

mod graph;

use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

use dakon_solver::dakon::Position;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::{Limits, Solver};

use crate::cli_error::CliError;
use crate::db_arg::DefaultDbArgs;
use crate::game_record::{number, GameRecord};
use crate::game_review::{review, Review, Source, Span, Valued};
use crate::line::absolute_line;
use crate::results_db::{prior_or_nothing, solve_kept, ResultsDb};
use crate::search_args::{solver_for, SearchArgs};
use crate::spinner::Spinner;
use crate::tables_arg::ProbeArgs;

/// Review a game: for every move, the position's value before and after it for the player who
/// made it (the final store difference with perfect play, in seeds), what the move cost
/// against the best move, a mark for each mistake (?! costs 1 or 2 seeds, ? 3 to 7, ?? 8 or
/// more or throws away a win or a draw) and the best line where it was made.
///
/// GAME is a game record (docs/game-records.md): a few header lines (rules, holes, seeds, or
/// position) and one line per turn, e.g. "1. 7 8" (hole 7 earned an extra move, then hole 8).
/// A malformed record is refused with the line, turn and move at fault.
///
/// Every position is looked up in the results database first (the one `dakon serve` keeps:
/// --db FILE, else $DAKON_DB, else ./dakon-results.db), and what is searched is kept there, so
/// a game reviewed once is reviewed again at once.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon review game.txt                         the table of every move
  dakon review game.txt --svg game.svg          and the value graph, as SVG
  dakon review - --json < game.txt              one JSON object
  dakon review game.txt --time-limit 5          at most 5 s a position (bounds where cut)
  printf 'holes 5\\n1. 7\\n2. 3\\n' | dakon review -")]
pub struct Args {
    /// The game record: a file, or - for standard input.
    #[arg(value_name = "GAME")]
    game: String,
    /// Write the value graph (player 0's view, mistakes marked) to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    probe: ProbeArgs,
    #[command(flatten)]
    db: DefaultDbArgs,
    /// Use no results database: every position is searched.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let (text, source) = read_game(&args.game)?;
    let record = GameRecord::parse(&text).map_err(|e| CliError::Input(format!("{source}: {e}")))?;
    let rules = record.rule_set();
    let (solver, tables) = solver_for(rules, &args.search, &args.probe)?;
    let db = if args.no_db { None } else { Some(ResultsDb::open(&args.db.path()).map_err(CliError::Input)?) };
    let limits = args.search.limits();
    let started = Instant::now();
    let positions = record.plies().len() + 1;
    let spinner = Spinner::start(&format!("valuing the {positions} positions of the game"));
    let reviewed = review(&record, |_, position| value_of(&solver, db.as_ref(), position, &limits, tables));
    drop(spinner);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.svg {
        graph::write_svg(path, &record, &reviewed)?;
    }
    if args.json {
        let json = serde_json::json!({
            "rules": rules.name(),
            "start": record.start.to_string(),
            "record": record.to_string(),
            "moves": reviewed.moves.iter().map(|m| m.json()).collect::<Vec<_>>(),
            "values_for_player_0": reviewed.for_player_0.iter().map(|v| v.json()).collect::<Vec<_>>(),
            "from_database": reviewed.from_database,
            "searched": reviewed.searched,
            "seconds": seconds,
            "tables": tables,
        });
        println!("{json}");
    } else {
        print_table(&record, &reviewed, seconds, tables);
    }
    Ok(())
}

/// The record's text and how to name it in messages.
fn read_game(game: &str) -> Result<(String, String), CliError> {
    if game == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::Input(format!("cannot read the game from standard input: {e}")))?;
        return Ok((text, "standard input".to_string()));
    }
    let text = std::fs::read_to_string(game).map_err(|e| CliError::Input(format!("cannot read the game record {game}: {e}")))?;
    Ok((text, game.to_string()))
}

/// The value of `position` for its player to move: the database's when it holds it exactly
/// with a best line, else a search from the bounds it holds (kept there).
fn value_of(solver: &Solver<RuleSet>, db: Option<&ResultsDb>, position: &Position, limits: &Limits, tables: bool) -> Valued {
    let rules = solver.rules();
    let stored = position.store_difference();
    if rules.legal_moves(position).is_empty() {
        let value = stored + rules.terminal_gain(position);
        return Valued { value: Span { lower: value, upper: value }, best_line: Vec::new(), source: Source::Rules };
    }
    let prior = prior_or_nothing(db, rules, position);
    if let Some(known) = prior.position.filter(|b| b.lower == b.upper && !prior.pv.is_empty()) {
        let (line, _) = absolute_line(rules, position, &prior.pv);
        return Valued {
            value: Span { lower: stored + known.lower, upper: stored + known.upper },
            best_line: line,
            source: Source::Database,
        };
    }
    let solution = solve_kept(solver, db, position, limits, tables);
    let line = if solution.is_exact() { absolute_line(rules, position, &solution.pv).0 } else { Vec::new() };
    Valued { value: Span { lower: stored + solution.lower, upper: stored + solution.upper }, best_line: line, source: Source::Search }
}

/// A value, or its bounds, signed.
fn shown(span: Span) -> String {
    match span.exact() {
        Some(v) => format!("{v:+}"),
        None => format!("{:+}..{:+}", span.lower, span.upper),
    }
}

/// A cost (never negative), or its bounds.
fn shown_cost(span: Span) -> String {
    match span.exact() {
        Some(v) => v.to_string(),
        None => format!("{}..{}", span.lower, span.upper),
    }
}

fn print_table(record: &GameRecord, reviewed: &Review, seconds: f64, tables: bool) {
    let holes = record.start.holes();
    println!(
        "{} on {holes} holes a row, from {}: {} moves in {} turns",
        record.rules,
        record.start,
        reviewed.moves.len(),
        record.turns.len()
    );
    println!("values: the final store difference with perfect play, for the player who moves (cost = before - after)");
    println!(
        "{:>4} {:>4} {:>6} {:>4} {:>9} {:>9} {:>6} {:>4}  best line",
        "turn", "move", "player", "hole", "before", "after", "cost", "mark"
    );
    for m in &reviewed.moves {
        let line: Vec<String> = m.best_line.iter().map(ToString::to_string).collect();
        let row = format!(
            "{:>4} {:>4} {:>6} {:>4} {:>9} {:>9} {:>6} {:>4}  {}",
            m.turn,
            m.ply,
            number(m.player),
            m.hole,
            shown(m.before),
            shown(m.after),
            shown_cost(m.cost),
            m.mark.map_or("", |mark| mark.sign()),
            line.join(" ")
        )
        .trim_end()
        .to_string();
        println!("{row}");
    }
    for player in [dakon_solver::dakon::Player::Zero, dakon_solver::dakon::Player::One] {
        let own: Vec<_> = reviewed.moves.iter().filter(|m| m.player == player).collect();
        let marked = own.iter().filter(|m| m.mark.is_some()).count();
        let cost: i32 = own.iter().map(|m| m.cost.lower).sum();
        println!("player {}: {} moves, {marked} marked, {cost} seeds lost in all (at least)", number(player), own.len());
    }
    println!(
        "{} positions: {} from the results database, {} searched, {} ended by the rules; {seconds:.2} s; endgame tables: {}",
        reviewed.moves.len() + 1,
        reviewed.from_database,
        reviewed.searched,
        reviewed.moves.len() + 1 - reviewed.from_database - reviewed.searched,
        if tables { "used" } else { "none" }
    );
}
