//! The first player's best single *turn*: a move plus every extra move it earns, searched
//! without looking at the opponent's reply.
//!
//! Stores never shrink, so a turn that leaves the mover `g` seeds ahead (net of the opponent)
//! with `k` seeds still on the board proves that the mover's future gain is at least `g - k`:
//! even if the opponent later took every seed left, the mover would keep what the turn stored.
//! When `g - k > 0` the turn alone proves a forced win, which on the traditional boards is
//! found in milliseconds, long before an exact search could finish.
//!
//! The search is generic over [`Rules`](crate::rules::Rules); it enumerates the tree of the turn (each extra move
//! branches again; the turn ends when the other player is to move or the game is over),
//! skipping positions already met within the turn, and keeps the turn with the best proven
//! bound.

use std::collections::HashSet;

use crate::search::MixHashing;
use crate::transposition_key::TranspositionKey;

/// How much the turn search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLimits {
    /// Most moves played during the search; the best turn found so far is kept when it runs
    /// out.
    pub nodes: u64,
    /// Stop as soon as a turn with a bound of at least this much is found (`None`: look for
    /// the best turn of the whole tree).
    pub goal: Option<i32>,
}

impl Default for TurnLimits {
    fn default() -> Self {
        TurnLimits { nodes: 50_000_000, goal: None }
    }
}

/// One complete turn and what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The moves of the turn, in the rules' move numbering, in order: every move but the last
    /// earns an extra move.
    pub moves: Vec<u8>,
    /// Seeds the turn added to the mover's store net of the opponent's (the end-of-game sweep
    /// included).
    pub gain: i32,
    /// Proven lower bound of the mover's future gain from the position the turn starts from:
    /// `gain` minus the seeds left on the board, or the exact result if the turn ends the game.
    pub lower: i32,
    /// Whether the game is over after the turn (then `lower` is the exact result of playing it).
    pub ends_game: bool,
}

/// What the turn search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnSearch {
    /// The turn with the highest [`Turn::lower`] found (`None` if the game is already over).
    pub best: Option<Turn>,
    /// Moves played.
    pub nodes: u64,
    /// Whether every turn was examined (or the goal was reached), so that `best` is the best
    /// turn there is (or good enough); `false` when the node budget ran out first.
    pub complete: bool,
}

/// Searches the turns of the player to move in `pos` for the one that proves the highest lower
/// bound of their future gain.
///
/// ```
/// use dakon_solver::dakon::{Dakon, Position};
/// use dakon_solver::opening::{best_turn, TurnLimits};
/// let start = Position::start(5, 5).unwrap();
/// let found = best_turn(&Dakon::new(5).unwrap(), &start, TurnLimits { nodes: 1_000_000, goal: Some(1) });
/// let turn = found.best.unwrap();
/// // The first player stores more than half of the 50 seeds in their first turn.
/// assert!(turn.lower > 0);
/// ```
pub fn best_turn<R: TranspositionKey>(rules: &R, pos: &R::Position, limits: TurnLimits) -> TurnSearch {
    let mut walk = Walk { rules, limits, seen: HashSet::default(), path: Vec::new(), best: None, nodes: 0, stopped: false };
    walk.visit(pos, 0);
    let complete = !walk.stopped || walk.goal_reached();
    TurnSearch { best: walk.best, nodes: walk.nodes, complete }
}

/// The depth-first walk through the tree of one turn.
struct Walk<'a, R: TranspositionKey> {
    rules: &'a R,
    limits: TurnLimits,
    /// Positions met within the turn, with the gain collected on the way there: from the same
    /// pair the rest of the turn can do nothing new. Hashed with the solver's own mixing:
    /// SipHash's guard against chosen keys is needless for boards the solver makes itself, and
    /// costly in a search run for every move `best` values.
    seen: HashSet<(R::Key, i32), MixHashing>,
    path: Vec<u8>,
    best: Option<Turn>,
    nodes: u64,
    stopped: bool,
}

impl<R: TranspositionKey> Walk<'_, R> {
    fn visit(&mut self, pos: &R::Position, gain: i32) {
        for &mv in self.rules.legal_moves(pos).as_slice() {
            if self.stopped {
                return;
            }
            if self.nodes >= self.limits.nodes {
                self.stopped = true;
                return;
            }
            self.nodes += 1;
            let step = self.rules.play(pos, mv);
            let gain = gain + step.gain;
            self.path.push(mv);
            let replies = self.rules.legal_moves(&step.next);
            if replies.is_empty() {
                let rest = self.rules.terminal_gain(&step.next);
                self.offer(gain, gain + if step.same_mover { rest } else { -rest }, true);
            } else if !step.same_mover {
                self.offer(gain, gain - self.rules.seeds_on_board(&step.next) as i32, false);
            } else if self.seen.insert((self.rules.key(&step.next), gain)) {
                self.visit(&step.next, gain);
            }
            self.path.pop();
        }
    }

    fn offer(&mut self, gain: i32, lower: i32, ends_game: bool) {
        if self.best.as_ref().is_none_or(|best| lower > best.lower) {
            self.best = Some(Turn { moves: self.path.clone(), gain, lower, ends_game });
            if self.goal_reached() {
                self.stopped = true;
            }
        }
    }

    fn goal_reached(&self) -> bool {
        matches!((&self.best, self.limits.goal), (Some(best), Some(goal)) if best.lower >= goal)
    }
}
