//! Certificates under `no-first-turn-capture`: the opening walked as the checker walks it, the
//! owner's moves in the states of the opening chosen with the opening search's null-window
//! test, and the positions where both first turns are over handed to the ordinary extraction
//! under the rules without the option (format version 2, `docs/formats/certificates.md`).

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use super::choose::{Choices, Chooser};
use super::prune::used_entries;
use super::shared_walk::walk_shared;
use super::walk::Half;
use super::{max_small_seeds, Board, Certificate, Claim, ExtractError, ExtractProgress, Extraction, Strategy};
use crate::dakon::{DakonOptions, OpeningState, Player, Position};
use crate::first_turn_search::OpeningProver;
use crate::search::{Limits, Solver};
use crate::solvable::Solvable;

/// One half's moves in the states of the opening: the hole (absolute) its owner lifts, by board
/// and first turns pending (bit 0 player 0, bit 1 player 1). Sorted as the file sorts them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningStrategy {
    /// (Board, first turns) to hole.
    pub moves: BTreeMap<(Board, u8), u8>,
}

/// What a certificate of `no-first-turn-capture` adds to the ordinary halves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The players still in their first turn at the root (bit 0 player 0, bit 1 player 1).
    pub first_turns: u8,
    /// The lower half's moves in the opening.
    pub lower_half: OpeningStrategy,
    /// The upper half's.
    pub upper_half: OpeningStrategy,
}

/// Extracts the certificate of `claim` (final store differences of the root's mover) about the
/// opening state `root` under `options`, which include `no-first-turn-capture`; `solver` plays
/// `options.board_rules()`. Positions after the opening with at most `small_seeds` seeds get no
/// entry; states of the opening always do where the walk meets them. `progress` is raised as
/// the extraction after the opening goes.
///
/// # Errors
/// As [`super::extract`].
pub fn extract_opening<R>(
    solver: &Solver<R>,
    root: &OpeningState,
    options: DakonOptions,
    claim: Claim,
    small_seeds: u8,
    limits: &Limits,
    progress: &ExtractProgress,
) -> Result<Extraction, ExtractError>
where
    R: Solvable<Position = Position>,
{
    let started = Instant::now();
    let position = root.position;
    let most = max_small_seeds(position.holes());
    if small_seeds > most {
        return Err(ExtractError::SmallSeeds { found: small_seeds, most });
    }
    if claim.lower > claim.upper {
        return Err(ExtractError::Bounds { lower: claim.lower, upper: claim.upper });
    }
    let mut prover = OpeningProver::new(solver, options, limits);
    let (mut tests, mut nodes, mut table_answers) = (0, 0, 0);
    let mut halves = Vec::new();
    for (name, owner, wanted) in [("lower", position.mover(), claim.lower), ("upper", position.mover().other(), -claim.upper)] {
        let half = Half { owner, small_seeds: small_seeds.into() };
        let need = wanted - (position.store(owner) as i32 - position.store(owner.other()) as i32);
        let (opening, mut leaves) = walk_opening(&mut prover, options, half, name, root, need)?;
        leaves.retain(|(leaf, need)| !half.stops_at(solver.rules(), leaf, *need));
        let choices = Choices::default();
        let mut chooser = Chooser::new(solver, limits, half, name, &choices, progress);
        let mut strategy = Strategy::default();
        for &(leaf, need) in &leaves {
            walk_shared(&mut chooser, &leaf, need, solver.threads())?;
        }
        for &(leaf, need) in &leaves {
            strategy.moves.extend(used_entries(solver.rules(), half, &leaf, need, &choices).moves);
        }
        tests += chooser.tests;
        nodes += chooser.nodes;
        table_answers += chooser.table_answers;
        halves.push((strategy, opening));
    }
    nodes += prover.leaf_nodes();
    let (upper_half, upper_opening) = halves.pop().expect("two halves");
    let (lower_half, lower_opening) = halves.pop().expect("two halves");
    let opening = Opening { first_turns: root.pending_bits(), lower_half: lower_opening, upper_half: upper_opening };
    let certificate =
        Certificate { rules: options.rules_name(), root: position, claim, small_seeds, lower_half, upper_half, opening: Some(opening) };
    Ok(Extraction { certificate, tests, nodes, table_answers, elapsed: started.elapsed() })
}

/// Walks one half's check through the opening from `root`, where the owner needs a future gain
/// of `need`: the owner's moves chosen by `prover`, every move of the other player followed, as
/// the checker's walk goes (including its step E, keyed by board, mover and first turns).
/// Returns the owner's opening moves and the positions where both first turns are over and the
/// check goes on, with the highest need each board and mover is met with.
///
/// # Errors
/// [`ExtractError::Stopped`] if a limit stopped a test, [`ExtractError::NotProven`] if no move
/// meets a need.
fn walk_opening<R>(
    prover: &mut OpeningProver<R>,
    options: DakonOptions,
    half: Half,
    name: &'static str,
    root: &OpeningState,
    need: i32,
) -> Result<(OpeningStrategy, Vec<(Position, i32)>), ExtractError>
where
    R: Solvable<Position = Position>,
{
    let owner = half.owner;
    // A board met again with a higher need gets its move chosen again, for that need.
    let mut moves: BTreeMap<(Board, u8), u8> = BTreeMap::new();
    let mut expanded: HashMap<(Board, Player, u8), i32> = HashMap::new();
    // Sorted, so that the extraction (and the file) does not depend on a hash order.
    let mut leaves: BTreeMap<(Board, u8), (Position, i32)> = BTreeMap::new();
    let mut stack = vec![(*root, need)];
    while let Some((state, need)) = stack.pop() {
        let position = state.position;
        if need <= -(position.seeds_on_board() as i32) {
            continue;
        }
        if !state.is_opening() {
            let leaf = leaves.entry((Board::of(&position), position.mover().number())).or_insert((position, need));
            if need > leaf.1 {
                *leaf = (position, need);
            }
            continue;
        }
        let key = (Board::of(&position), position.mover(), state.pending_bits());
        if expanded.get(&key).is_some_and(|&done| done >= need) {
            continue;
        }
        expanded.insert(key, need);
        let mover = position.mover();
        if mover != owner {
            for hole in position.legal_holes() {
                let (next, outcome) = state.play_hole_with(hole, options).expect("a legal hole");
                // The other side's gain is the owner's loss.
                stack.push((next, need + outcome.gain(mover)));
            }
            continue;
        }
        let Some(hole) = prover.reaching_hole(&state, need).ok_or(ExtractError::Stopped)? else {
            let stored = position.store(owner) as i32 - position.store(owner.other()) as i32;
            return Err(ExtractError::NotProven { half: name, owner, position, needed: need + stored });
        };
        let (next, outcome) = state.play_hole_with(hole, options).expect("a proven hole is legal");
        let gain = outcome.gain(owner);
        moves.insert((Board::of(&position), state.pending_bits()), hole as u8);
        stack.push((next, need - gain));
    }
    Ok((OpeningStrategy { moves }, leaves.into_values().collect()))
}
