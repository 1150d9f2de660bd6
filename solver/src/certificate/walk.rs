//! The positions that checking one half visits, as `docs/formats/certificates.md` defines the check:
//! the owner's move where the owner is to move, every move of the other side, and a stop
//! where the game is over, where few enough seeds are left for the checker's own minimax, or
//! where the stores already guarantee what is needed. Both the extraction and the final pass
//! that keeps the entries a check uses walk this way.

use rustc_hash::FxHashMap;

use crate::dakon::{Player, Position};
use crate::transposition_key::TranspositionKey;

/// A position's transposition key as two words: a hash map entry keyed by it is 8 bytes
/// smaller than one keyed by the `u128`, which is aligned to 16, and the extraction's maps
/// hold an entry for every board it walks (hundreds of millions for Kalah(6,5)).
pub(super) type BoardKey = [u64; 2];

/// The [`BoardKey`] of `position`.
pub(super) fn board_key<R: TranspositionKey<Position = Position>>(rules: &R, position: &Position) -> BoardKey {
    let key: u128 = rules.key(position).into();
    [key as u64, (key >> 64) as u64]
}

/// What a walk needs to know about a half: whose strategy it is and where it stops.
#[derive(Clone, Copy, Debug)]
pub(super) struct Half {
    /// The player whose strategy the half is.
    pub owner: Player,
    /// `L`: positions with at most this many seeds on the board need no entry.
    pub small_seeds: u32,
}

impl Half {
    /// Whether a check stops at `position`, where the owner needs a future gain of `need`:
    /// the game is over, or [`Half::settled`].
    pub fn stops_at<R: TranspositionKey<Position = Position>>(&self, rules: &R, position: &Position, need: i32) -> bool {
        self.settled(rules, position, need) || rules.legal_moves(position).is_empty()
    }

    /// Whether a check stops at `position` by its seeds alone: few enough are left for the
    /// checker's own minimax, or the stores alone meet the need (the owner cannot end with
    /// less than losing every seed left). Cheaper than [`Half::stops_at`], which also asks
    /// for the legal moves.
    pub fn settled<R: TranspositionKey<Position = Position>>(&self, rules: &R, position: &Position, need: i32) -> bool {
        let seeds = rules.seeds_on_board(position);
        seeds <= self.small_seeds || need <= -(seeds as i32)
    }
}

/// Visits every position a check of `half` reaches from `root`, where the owner needs a
/// *future gain* (seeds the owner will still store minus what the other side will, from the
/// owner's view) of at least `need`. Where the owner is to move, `at_owner(position, need)`
/// says which move to follow, or `None` when that position was already followed with a need
/// at least as high (a lower need reaches no position that a higher one does not). Positions
/// of the other side are expanded once per highest need.
///
/// The walk uses an explicit stack: games can be hundreds of moves long.
///
/// # Errors
/// The first error of `at_owner`, which ends the walk.
pub(super) fn walk<R, E>(
    rules: &R,
    half: Half,
    root: &Position,
    need: i32,
    mut at_owner: impl FnMut(&Position, i32) -> Result<Option<u8>, E>,
) -> Result<(), E>
where
    R: TranspositionKey<Position = Position>,
{
    let mut expanded: FxHashMap<BoardKey, i32> = FxHashMap::default();
    let mut stack = vec![(*root, need)];
    while let Some((position, need)) = stack.pop() {
        if half.stops_at(rules, &position, need) {
            continue;
        }
        if position.mover() == half.owner {
            if let Some(mv) = at_owner(&position, need)? {
                let step = rules.play(&position, mv);
                stack.push((step.next, need - step.gain));
            }
        } else {
            let key = board_key(rules, &position);
            if expanded.get(&key).is_some_and(|&done| done >= need) {
                continue;
            }
            expanded.insert(key, need);
            for &mv in rules.legal_moves(&position).as_slice() {
                // The other side's gain is the owner's loss.
                let step = rules.play(&position, mv);
                stack.push((step.next, need + step.gain));
            }
        }
    }
    Ok(())
}
