//! `dakon play`: play moves and show what the rules did.

use dakon_solver::dakon::{CaptureKind, Outcome, Position};

use crate::cli_error::CliError;
use crate::position_arg::PositionArgs;

/// Play moves in order from a position and print the position after each, with what
/// happened: laps sown, captures, extra moves, the end of the game.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon play start 7 8                 hole 7 ends in the store, so player 0 plays hole 8 too
  dakon play start 13 --json           one JSON object per move
  dakon play '1,1,2,0,1/0,0,0,0,3 0/0 0' 9   a mikul capture")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// The holes to lift, in order (numbered as in `dakon show`).
    #[arg(value_name = "HOLE", required = true)]
    moves: Vec<usize>,
    /// One JSON object per move, one per line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let mut position = args.position.position()?;
    for (i, &hole) in args.moves.iter().enumerate() {
        let (next, outcome) =
            position.play_hole(hole).map_err(|e| CliError::Input(format!("move {} (hole {hole}) in position '{position}': {e}", i + 1)))?;
        if args.json {
            println!("{}", json(hole, &next, &outcome));
        } else {
            println!("{hole}: {next}  ({})", describe(&outcome));
        }
        position = next;
    }
    Ok(())
}

/// One move as `play --json` writes it (and the server's `/api/play` sends it): the hole, the
/// position reached and what happened.
pub fn json(hole: usize, next: &Position, outcome: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "hole": hole,
        "position": next.to_string(),
        "extra_move": outcome.extra_move,
        "game_over": outcome.game_over(),
        "captured": outcome.captured(),
        "capture": outcome.capture.map(|c| capture_name(c.kind)),
        "laps": outcome.laps,
        "sown_into_store": outcome.sown_into_store,
        "last_hole": outcome.last_hole,
        "sweep": outcome.sweep.map(|s| serde_json::json!({"to": s.to.number(), "seeds": s.seeds})),
        "to_move": next.mover().number(),
    })
}

fn capture_name(kind: CaptureKind) -> &'static str {
    match kind {
        CaptureKind::Nembak => "nembak",
        CaptureKind::Mikul => "mikul",
    }
}

fn describe(outcome: &Outcome) -> String {
    let mut parts = vec![format!("{} lap{}", outcome.laps, if outcome.laps == 1 { "" } else { "s" })];
    if outcome.sown_into_store > 0 {
        parts.push(format!("{} sown into the store", outcome.sown_into_store));
    }
    if let Some(capture) = outcome.capture {
        parts.push(format!("{} takes {}", capture_name(capture.kind), capture.seeds));
    }
    if outcome.extra_move && !outcome.game_over() {
        parts.push("extra move".to_string());
    }
    if let Some(sweep) = outcome.sweep {
        parts.push(format!("game over: player {} sweeps {}", sweep.to, sweep.seeds));
    }
    parts.join(", ")
}
