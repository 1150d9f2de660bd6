//! Rules-level move sequences (a principal variation, a turn) as the absolute hole numbers
//! users type.

use super::RuleSet;
use crate::dakon::Position;

/// Plays `moves` (each counted in its mover's sowing direction, as the search gives them)
/// from `position` under `rules`: the absolute holes played and the position reached. Stops
/// early at the first move that is not legal where it would be played, so a broken line is
/// cut short rather than trusted.
pub fn absolute_line(rules: &RuleSet, position: &Position, moves: &[u8]) -> (Vec<usize>, Position) {
    let mut position = *position;
    let mut holes = Vec::with_capacity(moves.len());
    for &mv in moves {
        let hole = position.absolute_hole(position.mover(), mv as usize);
        let Ok((next, _)) = rules.play_hole(&position, hole) else { break };
        holes.push(hole);
        position = next;
    }
    (holes, position)
}
