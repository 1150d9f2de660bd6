//! Solves a start position with the search and prints value, nodes and time:
//! `cargo run --release -p dakon-solver --example solve_start -- HOLES SEEDS THREADS TT_MB`.

use std::time::Instant;

use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::search::{Config, Limits, Solver};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let (holes, seeds, threads, mb) = (args[0], args[1], args[2], args[3]);
    let solver = Solver::new(Dakon::new(holes).unwrap(), Config { threads, tt_bytes: mb << 20 }, None);
    let started = Instant::now();
    let start = Position::start(holes, seeds as u32).unwrap();
    let s = solver.solve(&start, &Limits::default());
    let end = s.pv.iter().fold(start, |p, &mv| p.play(mv as usize).0);
    println!(
        "{holes}x{seeds} threads {threads}: value [{}, {}] best {:?} nodes {} time {:.3}s pv {:?} ends in {end} (over: {})",
        s.lower,
        s.upper,
        s.best_move,
        s.nodes,
        started.elapsed().as_secs_f64(),
        s.pv,
        end.is_over()
    );
}
