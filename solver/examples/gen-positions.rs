//! Positions from random-but-plausible games, one per line in the notation: the input of
//! `scripts/bench-batch`.
//!
//! Games start from the 5x5 and 6x6 openings (or only the `--board N` one: N holes of N seeds); each player usually plays the move that stores
//! the most at once (a greedy beginner) and sometimes a random move. Positions are sampled along
//! anywhere in the game (with at most `--max-seeds` seeds left on the board), a few per game.
//!
//! ```text
//! cargo run --release -p dakon-solver --example gen-positions -- --count 1000 --max-seeds 72 --seed 1
//! ```

use dakon_solver::dakon::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions taken from each game.
const PER_GAME: usize = 3;

struct Options {
    count: usize,
    max_seeds: u32,
    seed: u64,
    board: Option<usize>,
}

fn options() -> Result<Options, String> {
    let mut options = Options { count: 1000, max_seeds: 72, seed: 1, board: None };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str| value.parse::<u64>().map_err(|_| format!("{what} expects a whole number, found '{value}'"));
        match flag.as_str() {
            "--count" => options.count = number("--count")? as usize,
            "--max-seeds" => options.max_seeds = number("--max-seeds")? as u32,
            "--seed" => options.seed = number("--seed")?,
            "--board" => options.board = Some(number("--board")? as usize),
            _ => return Err(format!("unknown option '{flag}' (expected --count, --max-seeds, --seed, --board)")),
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
    *holes.iter().max_by_key(|&&h| (immediate_gain(position, h), rng.r#gen::<u8>())).expect("a game not over has moves")
}

fn main() {
    let options = options().unwrap_or_else(|e| {
        eprintln!("gen-positions: {e}");
        std::process::exit(2);
    });
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let boards = options.board.map_or("5x5 and 6x6".to_string(), |n| format!("{n}x{n}"));
    println!(
        "# {} positions from greedy/random games on {boards}, at most {} seeds on the board (gen-positions --seed {})",
        options.count, options.max_seeds, options.seed
    );
    let mut written = 0;
    while written < options.count {
        let holes = options.board.unwrap_or_else(|| if rng.gen_bool(0.5) { 5 } else { 6 });
        let mut position = Position::start(holes, holes as u32).expect("a valid start");
        let mut game = Vec::new();
        while !position.is_over() {
            if position.seeds_on_board() <= options.max_seeds {
                game.push(position);
            }
            position = position.play_hole(choose(&position, &mut rng)).expect("a legal hole").0;
        }
        // A few positions from anywhere in the game, in the order they were played.
        let mut picked: Vec<usize> = rand::seq::index::sample(&mut rng, game.len(), game.len().min(PER_GAME)).into_vec();
        picked.sort_unstable();
        for index in picked.into_iter().take(options.count - written) {
            println!("{}", game[index]);
            written += 1;
        }
    }
}
