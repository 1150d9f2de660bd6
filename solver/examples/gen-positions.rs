//! Positions from random-but-plausible games, one per line in the notation: the input of
//! `scripts/bench-batch`.
//!
//! Games start from the 5x5 and 6x6 openings; each player usually plays the move that stores
//! the most at once (a greedy beginner) and sometimes a random move. Positions are sampled along
//! the way once at most `--max-seeds` seeds are left on the board, a few per game.
//!
//! ```text
//! cargo run --release -p dakon-solver --example gen-positions -- --count 1000 --max-seeds 36 --seed 1
//! ```

use dakon_solver::dakon::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Options {
    count: usize,
    max_seeds: u32,
    seed: u64,
}

fn options() -> Result<Options, String> {
    let mut options = Options { count: 1000, max_seeds: 36, seed: 1 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str| value.parse::<u64>().map_err(|_| format!("{what} expects a whole number, found '{value}'"));
        match flag.as_str() {
            "--count" => options.count = number("--count")? as usize,
            "--max-seeds" => options.max_seeds = number("--max-seeds")? as u32,
            "--seed" => options.seed = number("--seed")?,
            _ => return Err(format!("unknown option '{flag}' (expected --count, --max-seeds, --seed)")),
        }
    }
    Ok(options)
}

/// The mover's store gain of playing `hole`, extra moves not followed.
fn immediate_gain(position: &Position, hole: usize) -> i32 {
    let (next, _) = position.play_hole(hole).expect("a legal hole");
    let mover = position.mover();
    (next.store(mover) as i32 - position.store(mover) as i32) - (next.store(mover.other()) as i32 - position.store(mover.other()) as i32)
}

fn choose(position: &Position, rng: &mut ChaCha8Rng) -> usize {
    let holes = position.legal_holes();
    if rng.gen_bool(0.3) {
        return holes[rng.gen_range(0..holes.len())];
    }
    *holes.iter().max_by_key(|&&h| (immediate_gain(position, h), rng.gen::<u8>())).expect("a game not over has moves")
}

fn main() {
    let options = options().unwrap_or_else(|e| {
        eprintln!("gen-positions: {e}");
        std::process::exit(2);
    });
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    println!(
        "# {} positions from greedy/random games on 5x5 and 6x6, at most {} seeds on the board (gen-positions --seed {})",
        options.count, options.max_seeds, options.seed
    );
    let mut written = 0;
    while written < options.count {
        let holes = if rng.gen_bool(0.5) { 5 } else { 6 };
        let mut position = Position::start(holes, holes as u32).expect("a valid start");
        let mut sampled = 0;
        while !position.is_over() && sampled < 4 && written < options.count {
            if position.seeds_on_board() <= options.max_seeds && rng.gen_bool(0.25) {
                println!("{position}");
                sampled += 1;
                written += 1;
            }
            position = position.play_hole(choose(&position, &mut rng)).expect("a legal hole").0;
        }
    }
}
