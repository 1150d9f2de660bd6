//! Perft: the number of leaves of the move tree to a given depth, the standard check of a move
//! generator. One ply is one move; an extra move is a ply of its own; a finished game has no
//! moves and so contributes no leaves below it.

use crate::rules::Rules;

/// Leaves of the move tree of `pos` at depth `depth` (1 at depth 0).
///
/// ```
/// use dakon_solver::dakon::{Dakon, Position};
/// use dakon_solver::perft::perft;
/// let start = Position::start(7, 7).unwrap();
/// assert_eq!(perft(&Dakon::new(7).unwrap(), &start, 3), 224);
/// ```
pub fn perft<R: Rules>(rules: &R, pos: &R::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = rules.legal_moves(pos);
    if depth == 1 {
        // Every leaf move is really played; black_box keeps the compiler from skipping it.
        for &mv in moves.as_slice() {
            std::hint::black_box(rules.play(pos, mv));
        }
        return moves.len() as u64;
    }
    moves.as_slice().iter().map(|&mv| perft(rules, &rules.play(pos, mv).next, depth - 1)).sum()
}
