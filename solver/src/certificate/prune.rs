//! The final pass: the strategy exactly as a check will use it. The extraction may have
//! chosen moves on boards that a later, better choice no longer reaches; this walk follows the
//! final choices as the checker will and keeps only the boards it meets.

use super::choose::Choices;
use super::walk::{board_key, walk, Half};
use super::{Board, Strategy};
use crate::dakon::Position;
use crate::solvable::Solvable;

/// The entries of `choices` that checking the half from `root` with future gain `need` uses,
/// with moves as absolute holes. Each board's highest need followed is marked in its choice,
/// so a later pass over the same choices (another leaf of an opening) walks no board again
/// for a need it was already followed with: their entries are in the strategy it gave.
///
/// # Panics
/// Panics if the walk reaches a board of the owner that `choices` has no move for, or one
/// whose move was proven for a lower need: the extraction walked every such board with the
/// highest need it can be reached with, so this would be a bug.
pub(super) fn used_entries<R>(rules: &R, half: Half, root: &Position, need: i32, choices: &Choices) -> Strategy
where
    R: Solvable<Position = Position>,
{
    let mut strategy = Strategy::default();
    let walked = walk(rules, half, root, need, |position, need| {
        let mut choice = choices.get_mut(&board_key(rules, position)).unwrap_or_else(|| panic!("no move chosen for {position}"));
        if i32::from(choice.followed) >= need {
            return Ok(None);
        }
        assert!(choice.proven() >= need, "the move at {position} is proven for {} but needed for {need}", choice.proven());
        // `need` is at most what the move is proven for, so it fits.
        choice.followed = need as i16;
        strategy.moves.insert(Board::of(position), position.absolute_hole(position.mover(), choice.mv as usize) as u8);
        Ok(Some(choice.mv))
    });
    walked.unwrap_or_else(|never: std::convert::Infallible| match never {});
    strategy
}
