//! Random positions for the comparison tests: every board size, both players to move, and
//! seed distributions chosen to reach the corners of the rules (empty sides, holes that lap
//! the board several times, full 255-seed boards, non-empty stores).

use rand::Rng;

use super::Board;

/// Most seeds a position may hold (holes and stores together).
pub const MAX_SEEDS: u32 = 255;

/// A random position on a board of `n` holes per row. The player to move may have no seeds
/// (a finished game).
pub fn board(rng: &mut impl Rng, n: usize) -> Board {
    let on_board = match rng.gen_range(0..4) {
        0 => rng.gen_range(0..=4 * n as u32),
        1 => rng.gen_range(0..=MAX_SEEDS),
        2 => rng.gen_range(150..=MAX_SEEDS),
        _ => MAX_SEEDS - rng.gen_range(0..=3),
    };
    let mut holes = vec![0u32; 2 * n];
    match rng.gen_range(0..5) {
        // Every seed into a random hole.
        0 => scatter(rng, &mut holes, 0..2 * n, on_board),
        // A few holes only, the rest empty.
        1 => {
            let chosen: Vec<usize> = (0..rng.gen_range(1..=3)).map(|_| rng.gen_range(0..2 * n)).collect();
            for _ in 0..on_board {
                holes[chosen[rng.gen_range(0..chosen.len())]] += 1;
            }
        }
        // One hole big enough to lap the board (2n+1 slots a round) once or many times.
        2 => {
            let lap = 2 * n as u32 + 1;
            let big = rng.gen_range(on_board.min(lap)..=on_board);
            holes[rng.gen_range(0..2 * n)] = big;
            scatter(rng, &mut holes, 0..2 * n, on_board - big);
        }
        // One side empty.
        3 => {
            let side = if rng.gen_bool(0.5) { 0..n } else { n..2 * n };
            scatter(rng, &mut holes, side, on_board);
        }
        // Few seeds a hole, as late in a game.
        _ => {
            for h in holes.iter_mut() {
                *h = rng.gen_range(0..=3);
            }
            trim(rng, &mut holes, on_board);
        }
    }
    let spare = MAX_SEEDS - holes.iter().sum::<u32>();
    let in_stores = if rng.gen_bool(0.2) { 0 } else { rng.gen_range(0..=spare) };
    let s0 = rng.gen_range(0..=in_stores);
    Board { n, holes, stores: [s0, in_stores - s0], to_move: rng.gen_range(0..2) }
}

/// Drops `seeds` seeds one by one into random holes of `range`.
fn scatter(rng: &mut impl Rng, holes: &mut [u32], range: std::ops::Range<usize>, seeds: u32) {
    for _ in 0..seeds {
        holes[rng.gen_range(range.clone())] += 1;
    }
}

/// Removes random seeds until at most `limit` are left.
fn trim(rng: &mut impl Rng, holes: &mut [u32], limit: u32) {
    while holes.iter().sum::<u32>() > limit {
        let h = rng.gen_range(0..holes.len());
        holes[h] = holes[h].saturating_sub(1);
    }
}
