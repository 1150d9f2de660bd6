//! `dakon perft`: leaf counts of the move tree.

use std::time::Instant;

use dakon_solver::perft::perft;

use crate::cli_error::CliError;
use crate::position_arg::PositionArgs;

/// Count the leaves of the move tree at each depth from 1 to DEPTH (perft), the standard
/// check of a move generator. One ply is one move: an extra move is a ply of its own, and a
/// finished game has no moves.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon perft start 3                  prints 1 7, 2 36, 3 224
  dakon perft start 10 --json          {\"depth\": 10, \"nodes\": 43997225} as the last line
  dakon perft --holes 5 start 8 --timing
  dakon perft start 8 --rules kalah --holes 6 --seeds 4")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Deepest depth to count.
    #[arg(value_name = "DEPTH")]
    depth: u32,
    /// Lines of JSON: {"depth": D, "nodes": N}.
    #[arg(long)]
    json: bool,
    /// Add seconds and leaves per second to each line.
    #[arg(long)]
    timing: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let (position, rules) = args.position.position_and_rules()?;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let nodes = perft(&rules, &position, depth);
        let seconds = started.elapsed().as_secs_f64();
        match (args.json, args.timing) {
            (true, false) => println!("{}", serde_json::json!({"depth": depth, "nodes": nodes})),
            (true, true) => println!(
                "{}",
                serde_json::json!({"depth": depth, "nodes": nodes, "seconds": seconds, "nodes_per_second": nodes as f64 / seconds})
            ),
            (false, false) => println!("{depth} {nodes}"),
            (false, true) => println!("{depth} {nodes} {seconds:.3}s {:.0}/s", nodes as f64 / seconds),
        }
    }
    Ok(())
}
