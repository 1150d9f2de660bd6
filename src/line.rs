//! Rules-level move sequences (a principal variation, a turn) as the absolute hole numbers
//! users type.

use dakon_solver::dakon::Position;
pub use dakon_solver::ruleset::absolute_line;
use dakon_solver::ruleset::RuleSet;

/// The inverse of [`absolute_line`]: the rules-level moves of the absolute `holes` played from
/// `position` under `rules`, cut short at the first hole that is not a legal move where it
/// would be played.
pub fn rules_line(rules: &RuleSet, position: &Position, holes: &[usize]) -> Vec<u8> {
    let mut position = *position;
    let mut moves = Vec::with_capacity(holes.len());
    for &hole in holes {
        let mover = position.mover();
        let Some(mv) = (0..position.holes()).find(|&mv| position.absolute_hole(mover, mv) == hole) else { break };
        let Ok((next, _)) = rules.play_hole(&position, hole) else { break };
        moves.push(mv as u8);
        position = next;
    }
    moves
}
