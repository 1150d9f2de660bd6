//! Checking one half: does its owner's strategy guarantee what the claim needs?
//!
//! The threshold walk of `docs/formats/certificates.md` ("The check of a half"), step for step and
//! in its order: S (the stores settle the need), E (the board was entered with a need at least
//! as high), then rules 1-5. The replies of the other player are visited in increasing hole
//! number, each completely before the next, so the visit count and the first failure are the
//! document's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::minimax::Minimax;
use crate::rules::{difference, Position, Turn, MAX_HOLES_PER_ROW};
use crate::strategy::Strategy;

/// What the check of one half found.
#[derive(Clone, Debug)]
pub struct HalfReport {
    /// The player whose strategy this half is.
    pub owner: usize,
    /// What the owner must at least finish with (its final store difference): the claimed
    /// lower bound for the lower half, minus the claimed upper bound for the upper half.
    pub needed: i64,
    /// The strategy's entries, the opening's included.
    pub entries: usize,
    /// Calls of the walk's `visit`, the root's included, those that return at once (steps S
    /// and E) too; not the positions the minimax solves.
    pub visited: u64,
    /// The first position where the guarantee falls short, if the half does not hold.
    pub failure: Option<Failure>,
}

impl HalfReport {
    /// Whether the strategy guarantees what the claim needs.
    pub fn holds(&self) -> bool {
        self.failure.is_none()
    }
}

/// A position where the strategy does not guarantee what is needed there.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The position, as reached (stores included).
    pub position: Position,
    /// The holes lifted from the root to reach it, one per move.
    pub line: Vec<usize>,
    /// The player whose strategy falls short.
    pub owner: usize,
    /// What the owner needs there (final store difference, owner minus the other).
    pub needed: i64,
    /// Why the need is not met.
    pub shortfall: Shortfall,
}

/// Why a position does not meet its need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// The game is over there, with this final store difference for the owner (rule 1).
    GameOver(i64),
    /// The position has at most `L` seeds on the board, and perfect play from it gives the
    /// owner this (rule 2).
    SmallPosition(i64),
    /// The owner is to move and the strategy has no entry for this board, so only this is sure:
    /// the stores' difference minus every seed on the board (rule 5).
    NoEntry(i64),
    /// The strategy's entry for this board lifts this hole, which is not a legal move (rule 4).
    IllegalMove(u8),
}

/// A position still to check, with what the owner needs there.
struct Visit {
    position: Position,
    /// The players still in their first turn (bit 0 player 0, bit 1 player 1); always 0
    /// without `no-first-turn-capture`.
    first_turns: u8,
    needed: i64,
    /// Moves from the root to it.
    depth: usize,
    /// The hole lifted to reach it (0 at the root).
    hole: usize,
}

/// The key of step E's record: the board's holes, then the player to move and the first
/// turns pending in one byte (bit 0 the player, bits 1 and 2 the first turns).
type Entered = [u8; 2 * MAX_HOLES_PER_ROW + 1];

fn entered(position: &Position, first_turns: u8) -> Entered {
    let mut key = [0; 2 * MAX_HOLES_PER_ROW + 1];
    key[..position.holes().len()].copy_from_slice(position.holes());
    key[2 * MAX_HOLES_PER_ROW] = position.player() as u8 | first_turns << 1;
    key
}

/// Where a half's walk starts and what it follows in the opening under `no-first-turn-capture`.
pub(crate) struct OpeningWalk<'a> {
    /// The players still in their first turn at the root.
    pub first_turns: u8,
    /// The owner's moves in the states of the opening, keyed by board and first turns.
    pub strategy: &'a Strategy,
}

/// A half's strategy: its ordinary entries, and its opening under `no-first-turn-capture`.
#[derive(Clone, Copy)]
pub(crate) struct Strategies<'a> {
    /// The entries keyed by board alone (every first turn over).
    pub ordinary: &'a Strategy,
    /// The opening, if the rules have the option.
    pub opening: Option<&'a OpeningWalk<'a>>,
}

/// The bit of `player` in a first-turn byte.
fn bit(player: usize) -> u8 {
    1 << player
}

/// The first turns still pending after `mover` played from a state with `first_turns` pending
/// and reached `next`: none once the game is over, the mover's over once the other player is to
/// move.
fn first_turns_after(first_turns: u8, mover: usize, next: &Position) -> u8 {
    if next.is_over() {
        0
    } else if next.player() != mover {
        first_turns & !bit(mover)
    } else {
        first_turns
    }
}

/// Checks that `strategies` guarantee `owner` at least `needed` from `root`, with positions of
/// at most `small_seeds` seeds on the board solved by `minimax`, adding each visit to
/// `visits` too (for a progress display on another thread). With an opening, the walk starts
/// in the opening of `no-first-turn-capture`: where a first turn is pending it plays the
/// mover's moves without capture, skips step 2, and takes the owner's moves from the opening
/// strategy.
///
/// The work list is an explicit stack, since a game can be far deeper than a thread's stack
/// allows recursion; successors are pushed last first, so they are popped (visited) in
/// increasing hole number, each one's walk finished before the next, as recursion would.
pub(crate) fn check_half(
    root: &Position,
    owner: usize,
    needed: i64,
    strategies: Strategies,
    small_seeds: u32,
    minimax: &mut Minimax,
    visits: &AtomicU64,
) -> HalfReport {
    let Strategies { ordinary: strategy, opening } = strategies;
    let entries = strategy.len() + opening.map_or(0, |opening| opening.strategy.len());
    let mut report = HalfReport { owner, needed, entries, visited: 0, failure: None };
    // The holes lifted from the root to the position being visited: the walk is depth first,
    // so a visit's line is the line of the last visit one move shallower, plus its hole.
    let mut line: Vec<usize> = Vec::new();
    // The highest need met (or being checked) on a board, above the stores' difference: a
    // position whose need is met implies every lower need. Recorded before the position's
    // successors are checked, which is sound because any failure ends the whole check. A
    // need above `i16::MAX` (beyond any board's seeds) is recorded as `i16::MAX`: recording
    // less than was met only makes the walk enter the board again.
    let mut met: HashMap<Entered, i16> = HashMap::new();
    let first_turns = opening.map_or(0, |opening| opening.first_turns);
    let mut stack = vec![Visit { position: *root, first_turns, needed, depth: 0, hole: 0 }];
    while let Some(Visit { position, first_turns, needed, depth, hole }) = stack.pop() {
        report.visited += 1;
        visits.fetch_add(1, Ordering::Relaxed);
        if depth > 0 {
            line.truncate(depth - 1);
            line.push(hole);
        }
        let above_stores = needed - position.store_difference(owner);
        // Step S: stores never shrink, so even losing every seed left meets this need.
        if above_stores <= -i64::from(position.seeds_on_board()) {
            continue;
        }
        // Step E. Positions that rules 1 and 2 decide are not recorded: entered again with a
        // lower need they hold again, so the verdict and the visits are the same without the
        // memory their records took.
        let final_stores = position.final_stores();
        let small = first_turns == 0 && position.seeds_on_board() <= small_seeds;
        if final_stores.is_none() && !small {
            let key = entered(&position, first_turns);
            if met.get(&key).is_some_and(|&highest| i64::from(highest) >= above_stores) {
                continue;
            }
            met.insert(key, i16::try_from(above_stores).unwrap_or(i16::MAX));
        }
        let mover = position.player();
        let turn = if first_turns & bit(mover) != 0 { Turn::FirstWithoutCapture } else { Turn::Ordinary };
        let mut follow = |hole: usize, next: Position| {
            let first_turns = first_turns_after(first_turns, mover, &next);
            stack.push(Visit { position: next, first_turns, needed, depth: depth + 1, hole });
        };
        // Rules 1 to 5, in this order.
        let shortfall = if let Some(stores) = final_stores {
            Some(Shortfall::GameOver(difference(stores, owner))).filter(|_| difference(stores, owner) < needed)
        } else if small {
            let value = minimax.value_for(&position, owner);
            Some(Shortfall::SmallPosition(value)).filter(|_| value < needed)
        } else if position.player() != owner {
            position.successors_in_turn(turn).into_iter().rev().for_each(|(hole, next)| follow(hole, next));
            None
        } else {
            // In the opening the owner's entries are keyed by the board and the first turns.
            let entry = match opening {
                Some(opening) if first_turns != 0 => opening.strategy.move_for(&[position.holes(), &[first_turns]].concat()),
                _ => strategy.move_for(position.holes()),
            };
            match entry {
                None => Some(Shortfall::NoEntry(position.store_difference(owner) - i64::from(position.seeds_on_board()))),
                Some(hole) => match position.play_in_turn(hole.into(), turn) {
                    None => Some(Shortfall::IllegalMove(hole)),
                    Some(next) => {
                        follow(hole.into(), next);
                        None
                    }
                },
            }
        };
        if let Some(shortfall) = shortfall {
            report.failure = Some(Failure { position, line, owner, needed, shortfall });
            break;
        }
    }
    report
}
