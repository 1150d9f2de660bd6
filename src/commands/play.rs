//! `dakon play`: play moves and show what the rules did.

use dakon_solver::dakon::{self, CaptureKind, Position};
use dakon_solver::kalah;
use dakon_solver::ruleset::Played;

use crate::cli_error::CliError;
use crate::first_turn_commands;
use crate::position_arg::PositionArgs;

/// Play moves in order from a position and print the position after each, with what
/// happened: laps sown, captures, extra moves, the end of the game.
///
/// With --json, one object per move: "hole", "position" (after), "extra_move", "game_over",
/// "captured" (seeds), "capture" (its kind), "sown_into_store", "last_hole" (null: the store),
/// "to_move"; Dakon adds "laps" and "sweep" ({"to", "seeds"}: who took the seeds left),
/// Kalah adds "end" ({"s0", "s1"}: what each player stored from their own side at the end).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon play start 7 8                 hole 7 ends in the store, so player 0 plays hole 8 too
  dakon play start 13 --json           one JSON object per move
  dakon play '1,1,2,0,1/0,0,0,0,3 0/0 0' 9   a mikul capture
  dakon play start --rules kalah --holes 6 --seeds 4 8 7   Kalah: an extra move, then another
  dakon play start 13 --rules dakon:no-first-turn-capture   no nembak in a first turn")]
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
    let refused = |i: usize, hole: usize, position: &dyn std::fmt::Display, e: dakon::MoveError| {
        CliError::Input(format!("move {} (hole {hole}) in position '{position}': {e}", i + 1))
    };
    if let Some(options) = first_turn_commands::opening_options(args.position.rules.rules) {
        let mut state = first_turn_commands::opening_state(&args.position)?;
        for (i, &hole) in args.moves.iter().enumerate() {
            let (next, outcome) = state.play_hole_with(hole, options).map_err(|e| refused(i, hole, &state, e))?;
            let mut json = json(hole, &next.position, &Played::Dakon(outcome));
            json["position"] = next.to_string().into();
            show(args.json, hole, &next, json, &Played::Dakon(outcome));
            state = next;
        }
        return Ok(());
    }
    let (mut position, rules) = args.position.position_and_rules()?;
    for (i, &hole) in args.moves.iter().enumerate() {
        let (next, played) = rules.play_hole(&position, hole).map_err(|e| refused(i, hole, &position, e))?;
        show(args.json, hole, &next, json(hole, &next, &played), &played);
        position = next;
    }
    Ok(())
}

/// Prints one move: its JSON object, or the position reached (`next`) and what happened.
fn show(as_json: bool, hole: usize, next: &dyn std::fmt::Display, json: serde_json::Value, played: &Played) {
    if as_json {
        println!("{json}");
    } else {
        let what = match played {
            Played::Dakon(outcome) => describe_dakon(outcome),
            Played::Kalah(outcome) => describe_kalah(outcome),
        };
        println!("{hole}: {next}  ({what})");
    }
}

/// One move as `play --json` writes it (and the server's `/api/play` sends it): the hole, the
/// position reached and what happened (Dakon's laps and sweep, or Kalah's end).
pub fn json(hole: usize, next: &Position, played: &Played) -> serde_json::Value {
    let mut value = serde_json::json!({
        "hole": hole,
        "position": next.to_string(),
        "extra_move": played.extra_move(),
        "game_over": played.game_over(),
        "captured": played.captured(),
        "sown_into_store": played.sown_into_store(),
        "last_hole": played.last_hole(),
        "to_move": next.mover().number(),
    });
    let specific = match played {
        Played::Dakon(o) => serde_json::json!({
            "capture": o.capture.map(|c| capture_name(c.kind)),
            "laps": o.laps,
            "sweep": o.sweep.map(|s| serde_json::json!({"to": s.to.number(), "seeds": s.seeds})),
        }),
        Played::Kalah(o) => serde_json::json!({
            "capture": o.capture.map(kalah_capture_name),
            "end": o.end.map(|[s0, s1]| serde_json::json!({"s0": s0, "s1": s1})),
        }),
    };
    if let (Some(all), serde_json::Value::Object(extra)) = (value.as_object_mut(), specific) {
        all.extend(extra);
    }
    value
}

fn capture_name(kind: CaptureKind) -> &'static str {
    match kind {
        CaptureKind::Nembak => "nembak",
        CaptureKind::Mikul => "mikul",
    }
}

fn kalah_capture_name(capture: kalah::Capture) -> &'static str {
    if capture.facing == 0 {
        "empty capture"
    } else {
        "capture"
    }
}

fn describe_dakon(outcome: &dakon::Outcome) -> String {
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

fn describe_kalah(outcome: &kalah::Outcome) -> String {
    let mut parts = Vec::new();
    if outcome.sown_into_store > 0 {
        parts.push(format!("{} sown into the store", outcome.sown_into_store));
    }
    if let Some(capture) = outcome.capture {
        parts.push(format!("{} takes {}", kalah_capture_name(capture), capture.seeds()));
    }
    if outcome.extra_move && !outcome.game_over() {
        parts.push("extra move".to_string());
    }
    if let Some([s0, s1]) = outcome.end {
        parts.push(format!("game over: each player stores their own side, S0 +{s0}, S1 +{s1}"));
    }
    if parts.is_empty() {
        parts.push("nothing stored".to_string());
    }
    parts.join(", ")
}
