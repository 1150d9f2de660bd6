//! `dakon best`: every legal move with its exact value, best first.

use dakon_solver::rules::Rules;
use dakon_solver::ruleset::outcome;
use dakon_solver::search::Limits;

use crate::cli_error::CliError;
use crate::commands::solve::rules_note;
use crate::db_arg::DbArgs;
use crate::first_turn_commands;
use crate::position_arg::PositionArgs;
use crate::ranked_moves::ranked_moves;
use crate::results_db::analyse_moves_kept;
use crate::search_args::{solver_for, SearchArgs};
use crate::spinner::Spinner;
use crate::tables_arg::ProbeArgs;

/// List every legal move with its value for the player to move: the final store difference
/// (player to move minus opponent) if that move is played and both sides play perfectly after
/// it. Best first, ties by hole number; the gap to the best move is what a move costs. A
/// search stopped by a limit shows the bounds proven for the moves it could not finish.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon best start --holes 5                  all five opening moves of the 5 x 5 board
  dakon best '2,1,2,0,0/0,0,0,0,4 0/0 0'       what should player 0 play here?
  dakon best start --holes 6 --json           {\"moves\": [{\"hole\": H, \"value\": V, \"exact\": true}, ..]}
  dakon best start --db results.db            from the bounds kept there, keeping what is proven
  dakon best start --rules kalah --holes 6 --seeds 3   every opening move of Kalah(6,3)
  dakon best start --holes 5 --rules dakon:no-first-turn-capture   the opening moves when first turns capture nothing")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    probe: ProbeArgs,
    #[command(flatten)]
    db: DbArgs,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if let Some(options) = first_turn_commands::opening_options(args.position.rules.rules) {
        first_turn_commands::refuse_unsupported(options, &[("--db", args.db.db.is_some())])?;
        return first_turn_commands::best(&args.position, options, &args.search, &args.probe, args.json);
    }
    let (position, rules) = args.position.position_and_rules()?;
    let (solver, tables) = solver_for(rules, &args.search, &args.probe)?;
    let db = args.db.open()?;
    let limits: Limits = args.search.limits();
    let spinner = Spinner::start("valuing every move");
    let started = std::time::Instant::now();
    let moves = analyse_moves_kept(&solver, db.as_ref(), &position, &limits, tables);
    drop(spinner);
    let seconds = started.elapsed().as_secs_f64();
    let shown = ranked_moves(&position, &moves);
    if args.json {
        let list: Vec<_> = shown.iter().map(|m| m.json()).collect();
        println!(
            "{}",
            serde_json::json!({"position": position.to_string(), "rules": rules.name(), "moves": list, "seconds": seconds, "tables": tables})
        );
        return Ok(());
    }
    println!("position: {position}{}", rules_note(&rules));
    if shown.is_empty() {
        println!("no legal move: the game is over, final difference {:+}", rules.final_difference(&position));
    }
    let best = shown.first().map_or(0, |m| m.lower);
    for m in &shown {
        if m.is_exact() {
            let cost = if m.lower == best { String::new() } else { format!("  (costs {})", best - m.lower) };
            println!("{:>3}  {:+}  {}{cost}", m.hole, m.lower, outcome(m.lower));
        } else {
            println!("{:>3}  between {:+} and {:+} (not exact: stopped by a limit or Ctrl-C)", m.hole, m.lower, m.upper);
        }
    }
    println!("time: {seconds:.3} s, endgame tables: {}", if tables { "used" } else { "none" });
    Ok(())
}
