//! `dakon show`: draw a position.

use dakon_solver::dakon::{Player, Position};

use crate::cli_error::CliError;
use crate::position_arg::PositionArgs;

/// Draw a position as a board: hole numbers, seeds, stores and whose move it is.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon show start
  dakon show start --holes 5 --seeds 3
  dakon show '0,3,0,2,2/1,0,0,0,2 0/0 0'")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the position as a JSON object instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let position = args.position.position()?;
    if args.json {
        println!("{}", json(&position));
    } else {
        print!("{}", draw(&position));
    }
    Ok(())
}

/// The position as `show --json` writes it (and the server sends it): the notation, the
/// holes in notation order and as the two rows of the picture, the stores indexed by player
/// (`[S0, S1]`), who moves, the legal holes and whether the game is over.
pub fn json(position: &Position) -> serde_json::Value {
    let board = position.holes_in_notation_order();
    let (top, bottom) = board.split_at(position.holes());
    serde_json::json!({
        "position": position.to_string(),
        "holes": position.holes(),
        "board": board,
        "rows": {"top": top, "bottom": bottom},
        "stores": [position.store(Player::Zero), position.store(Player::One)],
        "to_move": position.mover().number(),
        "legal_moves": position.legal_holes(),
        "game_over": position.is_over(),
    })
}

/// The board as in the rules' picture: player 1's row on top, stores at the ends.
pub fn draw(position: &Position) -> String {
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
    let status = if position.is_over() {
        format!("game over: player {} has no seeds; final difference for player 0: {:+}", position.mover(), final_for_zero(position))
    } else {
        format!(
            "player {} to move; legal holes: {}",
            position.mover(),
            position.legal_holes().iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ")
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

fn final_for_zero(position: &Position) -> i32 {
    let difference = position.final_difference();
    if position.mover() == Player::Zero {
        difference
    } else {
        -difference
    }
}
