//! Solves middle-game positions reached by random play from a start, one after another on
//! one solver (as `dakon batch` does), and prints the total nodes, time and nodes per second:
//! `cargo run --release -p dakon-solver --example middle_games -- HOLES COUNT PLIES THREADS [TT_MB]`.
//! A workload for the thread speed-up in `scripts/bench-solve`; the positions depend only on
//! the arguments.

use std::time::Instant;

use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::search::{Config, Limits, Solver};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<usize> =
        std::env::args().skip(1).map(|a| a.parse().expect("usage: middle_games HOLES COUNT PLIES THREADS [TT_MB]")).collect();
    let (holes, count, plies, threads) = (args[0], args[1], args[2], args[3]);
    let mb = args.get(4).copied().unwrap_or(256);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let solver = Solver::new(Dakon::new(holes).expect("holes 1..=9"), Config { threads, tt_bytes: mb << 20 }, None);
    let (mut nodes, mut sum) = (0, 0);
    let started = Instant::now();
    for _ in 0..count {
        let mut p = Position::start(holes, holes as u32).expect("a valid start");
        for _ in 0..plies {
            let moves = p.moves();
            if moves.is_empty() {
                break;
            }
            p = p.play(moves.as_slice()[rng.gen_range(0..moves.len())] as usize).0;
        }
        let s = solver.solve(&p, &Limits::default());
        (nodes, sum) = (nodes + s.nodes, sum + s.lower);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{count} middle games {holes}x{holes} after {plies} plies, {threads} threads: sum of values {sum}, nodes {nodes}, {seconds:.3} s, {:.0} nodes/s",
        nodes as f64 / seconds
    );
}
