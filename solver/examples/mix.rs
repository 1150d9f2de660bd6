use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::search::{Config, Limits, Solver};
use rand::{Rng, SeedableRng};
use std::time::Instant;
fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (holes, count, plies) = (args[0], args[1], args[2]);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut nodes = 0;
    let started = Instant::now();
    let mut sum = 0;
    for _ in 0..count {
        let mut p = Position::start(holes, holes as u32).unwrap();
        for _ in 0..plies {
            let m = p.moves();
            if m.is_empty() {
                break;
            }
            p = p.play(m.as_slice()[rng.gen_range(0..m.len())] as usize).0;
        }
        let solver = Solver::new(Dakon::new(holes).unwrap(), Config { threads: 1, tt_bytes: 64 << 20 }, None);
        let s = solver.solve(&p, &Limits::default());
        nodes += s.nodes;
        sum += s.lower;
    }
    println!("{count} positions {holes}x{holes} after {plies} plies: sum {sum} nodes {nodes} {:.3}s", started.elapsed().as_secs_f64());
}
