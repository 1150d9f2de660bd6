//! `dakon`: the command-line program of the Dakon solver.

mod certificate_arg;
mod certificate_writer;
mod cli_error;
mod cluster;
mod commands;
mod db_arg;
mod deadline;
mod distributed_solve;
mod first_turn_commands;
mod game_record;
mod game_review;
mod line;
mod position_arg;
mod ranked_moves;
mod records_file;
mod results_db;
mod rules_arg;
mod search_args;
mod shared_build;
mod spinner;
mod tables_arg;

use clap::{Parser, Subcommand};
use cli_error::CliError;

/// Exact perfect-play solver for Dakon, the Javanese mancala, and for Kalah (`--rules kalah`).
///
/// Positions are written `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player to move>`, for
/// example `7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0` (player 1's row on top, player 0's below,
/// then the stores S1/S0, then who moves), or `start` for the opening position of
/// `--holes N --seeds S`. A move is the number of the hole it lifts: 0..n-1 are player 1's
/// holes, n..2n-1 player 0's. Both games use the same board and notation.
#[derive(Parser)]
#[command(name = "dakon", version, propagate_version = true)]
#[command(after_help = "Examples:
  dakon show start                          the standard 7x7 opening
  dakon play start 7 8                      play hole 7, then hole 8 (an extra move)
  dakon play --holes 5 start 9 --json       one JSON object per move
  dakon perft start 6                       leaf counts of the move tree to depth 6
  dakon solve start --certificate 7x7.dkc   the value and a proof certificate of it
  dakon check 7x7.dkc                       check it with the independent checker
  dakon solve start --rules kalah --holes 6 --seeds 3   Kalah(6,3), exactly
  dakon serve                               an analysis board at http://127.0.0.1:8080/
  dakon review game.txt --svg game.svg      every move of a game valued, mistakes marked
  dakon db --export -                       what the results database holds, as JSON Lines")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Show(commands::show::Args),
    Play(commands::play::Args),
    Perft(commands::perft::Args),
    Solve(commands::solve::Args),
    Best(commands::best::Args),
    #[command(subcommand)]
    Tables(commands::tables::Command),
    Verify(commands::verify::Args),
    Batch(commands::batch::Args),
    Check(commands::check::Args),
    #[command(subcommand)]
    Campaign(commands::campaign::Command),
    Serve(commands::serve::Args),
    Review(commands::review::Args),
    Db(commands::db::Args),
}

impl Command {
    /// Whether the command shares its work among the ranks of an MPI job.
    fn is_distributed(&self) -> bool {
        match self {
            Command::Solve(args) => args.is_distributed(),
            command => matches!(command, Command::Tables(commands::tables::Command::Build(_)) | Command::Batch(_) | Command::Verify(_)),
        }
    }
}

fn main() {
    let cli = Cli::parse();
    let cluster = cluster::join();
    if !cli.command.is_distributed() && cluster.is_some() {
        // Only `tables build`, `batch`, `verify` and `solve` share their work; any other runs on
        // rank 0.
        if !cluster::prints(cluster.as_ref()) {
            return;
        }
        eprintln!("dakon: this command is not distributed over MPI: rank 0 runs it alone (see docs/DISTRIBUTED.md)");
    }
    let result = match cli.command {
        Command::Show(args) => commands::show::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Solve(args) => {
            let shared = if args.is_distributed() { cluster.as_ref() } else { None };
            commands::solve::run(args, shared)
        }
        Command::Best(args) => commands::best::run(args),
        Command::Tables(command) => commands::tables::run(command, cluster.as_ref()),
        Command::Verify(args) => commands::verify::run(args, cluster.as_ref()),
        Command::Batch(args) => commands::batch::run(args, cluster.as_ref()),
        Command::Check(args) => std::process::exit(commands::check::run(args)),
        Command::Campaign(command) => commands::campaign::run(command),
        Command::Serve(args) => commands::serve::run(args),
        Command::Review(args) => commands::review::run(args),
        Command::Db(args) => commands::db::run(args),
    };
    if let Err(error) = result {
        eprintln!("dakon{}: {error}", cluster::label(cluster.as_ref()));
        if let Some(cluster) = cluster {
            // After a failed outcome every rank has left its exchanges: the job ends normally
            // (MPI is finalized as `cluster` drops here), sparing Open MPI's abort path, whose
            // launcher can crash in its teardown.
            if !matches!(error, CliError::FailedOutcome(_)) {
                abort_job(&cluster, error.exit_code());
            }
        }
        std::process::exit(error.exit_code());
    }
}

/// Ends every rank of the job: the others may be waiting for this one in an exchange.
#[cfg(feature = "mpi")]
fn abort_job(cluster: &cluster::Cluster, code: i32) -> ! {
    cluster.abort(code)
}

#[cfg(not(feature = "mpi"))]
fn abort_job(cluster: &cluster::Cluster, _code: i32) -> ! {
    match *cluster {}
}
