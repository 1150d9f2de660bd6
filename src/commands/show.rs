//! `dakon show`: draw a position.

use dakon_solver::dakon::{OpeningState, Player, Position};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};

use crate::cli_error::CliError;
use crate::first_turn_commands;
use crate::position_arg::PositionArgs;

/// Draw a position as a board: hole numbers, seeds, stores and whose move it is.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon show start
  dakon show start --holes 5 --seeds 3
  dakon show '0,3,0,2,2/1,0,0,0,2 0/0 0'
  dakon show '0,0,0,0,0,2/0,0,0,0,0,1 3/4 0' --rules kalah   (Kalah: a side is empty, the game is over)
  dakon show start --rules dakon:no-first-turn-capture   both players still in their first turn")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the position as a JSON object instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if first_turn_commands::opening_options(args.position.rules.rules).is_some() {
        let state = first_turn_commands::opening_state(&args.position)?;
        let rules = args.position.rules.after_opening_for_holes(state.position.holes())?;
        if args.json {
            println!("{}", state_json(&rules, &state, args.position.rules.rules));
        } else {
            print!("{}", draw(&rules, &state.position));
            println!("{state} (rules {}: no capture in a first turn)", args.position.rules.rules);
        }
        return Ok(());
    }
    let (position, rules) = args.position.position_and_rules()?;
    if args.json {
        println!("{}", json(&rules, &position));
    } else {
        print!("{}", draw(&rules, &position));
    }
    Ok(())
}

/// The position as `show --json` writes it (and the server sends it): the notation, the
/// holes in notation order and as the two rows of the picture, the stores indexed by player
/// (`[S0, S1]`), who moves, the legal holes and whether the game is over under `rules`.
pub fn json(rules: &RuleSet, position: &Position) -> serde_json::Value {
    let board = position.holes_in_notation_order();
    let (top, bottom) = board.split_at(position.holes());
    serde_json::json!({
        "position": position.to_string(),
        "rules": rules.name(),
        "holes": position.holes(),
        "board": board,
        "rows": {"top": top, "bottom": bottom},
        "stores": [position.store(Player::Zero), position.store(Player::One)],
        "to_move": position.mover().number(),
        "legal_moves": rules.legal_holes(position),
        "game_over": rules.is_over(position),
    })
}

/// [`json`] of an opening state under `name` (rules with `no-first-turn-capture`, played by
/// `rules` once the opening is over): the position written with its `first:` field.
pub fn state_json(rules: &RuleSet, state: &OpeningState, name: RulesName) -> serde_json::Value {
    let mut json = json(rules, &state.position);
    json["position"] = state.to_string().into();
    json["rules"] = name.as_str().into();
    json
}

/// The board as in the rules' picture: player 1's row on top, stores at the ends.
pub fn draw(rules: &RuleSet, position: &Position) -> String {
    let n = position.holes();
    let cells = |range: std::ops::Range<usize>, f: &dyn Fn(usize) -> String| range.map(|h| format!("{:>4}", f(h))).collect::<String>();
    let numbers = |range: std::ops::Range<usize>| cells(range, &|h| format!("#{h}"));
    let seeds = |range: std::ops::Range<usize>| cells(range, &|h| position.hole(h).to_string());
    let width = 4 * n;
    let stores = format!(
        "{:>5}{}{:<5}",
        format!("[{}]", position.store(Player::One)),
        " ".repeat(width + 1),
        format!("[{}]", position.store(Player::Zero))
    );
    let status = if rules.is_over(position) {
        let why = match rules.rules_name() {
            RulesName::Dakon(_) => format!("player {} has no seeds", position.mover()),
            RulesName::Kalah | RulesName::KalahEmptyCapture => "a side is empty and each player stores their own side".to_string(),
        };
        format!("game over: {why}; final difference for player 0: {:+}", final_for_zero(rules, position))
    } else {
        format!(
            "player {} to move; legal holes: {}",
            position.mover(),
            rules.legal_holes(position).iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ")
        )
    };
    format!(
        "     {}    player 1\n     {}\n{stores}   S1 left, S0 right\n     {}\n     {}    player 0\n{}\n{status}\n",
        numbers(0..n),
        seeds(0..n),
        seeds(n..2 * n),
        numbers(n..2 * n),
        position,
    )
}

fn final_for_zero(rules: &RuleSet, position: &Position) -> i32 {
    let difference = rules.final_difference(position);
    if position.mover() == Player::Zero {
        difference
    } else {
        -difference
    }
}
