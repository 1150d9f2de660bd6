//! Whether player 0's first turn can take every seed of a Dakon start under a rule variant with
//! `no-first-turn-capture`, decided by enumerating every state of that turn
//! (`first_turn_search::enumerate_take_all`), with its counts every few seconds on stderr.
//!
//! ```sh
//! cargo run --release -p dakon-solver --example take_all -- no-first-turn-capture,traditional 7 7 2
//! ```
//!
//! Arguments: the options after `dakon:`, holes a row, seeds a hole, threads (2 if left out).

use dakon_solver::dakon::{Dakon, DakonOptions, OpeningState};
use dakon_solver::first_turn_search::{enumerate_take_all, TakeAll};
use dakon_solver::search::{Config, Limits, Solver};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [options, holes, seeds, rest @ ..] = args.as_slice() else {
        return Err("usage: take_all OPTIONS HOLES SEEDS [THREADS], e.g. take_all no-first-turn-capture,traditional 7 7 2".into());
    };
    let options: DakonOptions = options.parse().map_err(|e| format!("{e}"))?;
    if !options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE) {
        return Err(format!("{options}: the question needs no-first-turn-capture"));
    }
    let holes: usize = holes.parse().map_err(|e| format!("holes {holes}: {e}"))?;
    let seeds: u32 = seeds.parse().map_err(|e| format!("seeds {seeds}: {e}"))?;
    let threads: usize = rest.first().map_or(Ok(2), |t| t.parse().map_err(|e| format!("threads {t}: {e}")))?;
    let state = OpeningState::start(holes, seeds).map_err(|e| format!("{e}"))?;
    let rules = Dakon::with_options(holes, options.board_rules()).map_err(|e| format!("{e}"))?;
    let solver = Solver::new(rules, Config { threads: threads.max(1), tt_bytes: 256 << 20 }, None);
    let report = enumerate_take_all(&solver, &state, options, &Limits::default(), Some(&|counts| eprintln!("{counts:?}")));
    let all = state.position.seeds_on_board();
    match &report.outcome {
        TakeAll::Found(turn) => {
            println!("{holes} x {seeds} under {options}: player 0 takes all {all} seeds with the first turn {turn:?}")
        }
        TakeAll::Impossible => println!("{holes} x {seeds} under {options}: no first turn of player 0 takes all {all} seeds"),
        TakeAll::Stopped => println!("{holes} x {seeds} under {options}: stopped"),
    }
    println!("{:?}", report.counts);
    Ok(())
}
