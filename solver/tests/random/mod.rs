//! Random positions for the tests that compare the search with the minimax.

use dakon_solver::dakon::{Player, Position};
use rand::Rng;

/// A random position of `holes` per row with 1 to `max_seeds` seeds on the board (a side may
/// be empty: a finished game under rules that end it so), either player to move, random
/// stores.
pub fn random_position(rng: &mut impl Rng, holes: usize, max_seeds: u32) -> Position {
    let mut board = vec![0u8; 2 * holes];
    for _ in 0..rng.gen_range(1..=max_seeds) {
        board[rng.gen_range(0..2 * holes)] += 1;
    }
    let player = if rng.r#gen() { Player::Zero } else { Player::One };
    Position::from_rows(&board[..holes], &board[holes..], [rng.gen_range(0..5), rng.gen_range(0..5)], player).unwrap()
}
