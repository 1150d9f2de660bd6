//! A first guess of a future gain, for the driver to aim its tests at: a depth-limited
//! alpha-beta that counts every move (extra moves too) as a ply and values the positions at
//! its horizon at 0 (no further gain for either player), deepened one ply at a time while a
//! small node budget lasts. A heuristic, never a proof: the driver only chooses *where* to
//! test with it, and every bound it reports is still proven by a null-window search.

use super::budget::{Budget, CHECK_EVERY};
use super::ordering::Children;
use crate::rules::{parity_ceil, Rules};

/// Positions the guess may visit at each depth: milliseconds.
pub(crate) const ESTIMATE_NODES: u64 = 200_000;

/// Positions a deeper guess may visit at each depth, asked once a test has shown the position
/// costly (millions of nodes): a guess nearer the value saves tests of that cost.
pub(crate) const DEEP_ESTIMATE_NODES: u64 = 2_000_000;

/// Positions every depth of one guess may visit together, in multiples of the budget of one
/// depth. Where each depth costs several times the one before, the deepest one that fits its
/// own budget is the last reached anyway; where they cost alike (a small board whose long
/// lines meet the horizon depth after depth while its short ones end, such as the Kalah 4 x 3
/// start), this ends the deepening, which could otherwise outlast a search's time limit.
const ESTIMATE_DEPTHS_BUDGET: u64 = 4;

/// Of the nodes a node limit leaves, the share one guess may take (all its depths together):
/// the rest is for the tests the guess aims, and for the other moves of an analysis.
const GUESS_SHARE_OF_NODES_LEFT: u64 = 2;

/// The deepest guess that finished within `nodes` positions (and all its depths within
/// [`ESTIMATE_DEPTHS_BUDGET`] times that) and within the search's `budget`, rounded to the
/// parity of the seeds on the board (0 for a position whose game is over is never asked: the
/// driver has moves). Its positions are charged to `budget` like a test's, so that a node or
/// time limit bounds the guess too: under a node limit it takes at most half the nodes left,
/// and when a limit is reached it ends with the last depth it finished.
pub(crate) fn estimate<R: Rules>(rules: &R, pos: &R::Position, nodes: u64, budget: &Budget) -> i32 {
    let k = rules.seeds_on_board(pos) as i32;
    let nodes = budget.nodes_left().map_or(nodes, |left| nodes.min(left / GUESS_SHARE_OF_NODES_LEFT / ESTIMATE_DEPTHS_BUDGET));
    let mut guess = 0;
    let mut all_depths_left = nodes.saturating_mul(ESTIMATE_DEPTHS_BUDGET);
    let mut charge = Charge { budget, uncharged: 0 };
    for depth in 1..=u32::MAX {
        let mut left = nodes.min(all_depths_left);
        let finished = horizon(rules, pos, depth, -k - 1, k + 1, &mut left, &mut charge);
        all_depths_left -= nodes.min(all_depths_left) - left;
        let Some((value, reached_horizon)) = finished else { break };
        guess = value;
        // A search that never met its horizon saw the whole game: deeper ones say the same.
        if !reached_horizon || left == 0 || all_depths_left == 0 {
            break;
        }
    }
    charge.flush();
    parity_ceil(guess, k as u32)
}

/// The guess's positions on their way to the search's budget, charged a few thousand at a
/// time as the search's workers charge theirs.
struct Charge<'b, 'l> {
    budget: &'b Budget<'l>,
    uncharged: u64,
}

impl Charge<'_, '_> {
    /// Counts one position; says whether the budget allows going on.
    fn visit(&mut self) -> bool {
        self.uncharged += 1;
        self.uncharged < CHECK_EVERY || self.flush()
    }

    /// Charges the positions not charged yet; says whether the budget allows going on.
    fn flush(&mut self) -> bool {
        let going_on = self.budget.charge(self.uncharged);
        self.uncharged = 0;
        going_on
    }
}

/// Depth-limited fail-hard alpha-beta with the horizon valued at 0: the value clamped to
/// `[alpha, beta]`, and whether the horizon was met; `None` when `left` or the search's
/// budget ran out.
fn horizon<R: Rules>(
    rules: &R,
    pos: &R::Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    left: &mut u64,
    charge: &mut Charge<'_, '_>,
) -> Option<(i32, bool)> {
    *left = left.checked_sub(1)?;
    if !charge.visit() {
        return None;
    }
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return Some((rules.terminal_gain(pos).clamp(alpha, beta), false));
    }
    if depth == 0 {
        return Some((0.clamp(alpha, beta), true));
    }
    let mut reached = false;
    for child in Children::new(rules, pos, &moves, None).iter() {
        let gain = child.step.gain;
        let (v, met) = if child.step.same_mover {
            let (v, met) = horizon(rules, &child.step.next, depth - 1, alpha - gain, beta - gain, left, charge)?;
            (gain + v, met)
        } else {
            let (v, met) = horizon(rules, &child.step.next, depth - 1, gain - beta, gain - alpha, left, charge)?;
            (gain - v, met)
        };
        reached |= met;
        if v >= beta {
            return Some((beta, reached));
        }
        alpha = alpha.max(v);
    }
    Some((alpha, reached))
}

#[cfg(test)]
mod tests {
    use super::{estimate, ESTIMATE_DEPTHS_BUDGET, ESTIMATE_NODES};
    use crate::dakon::{Dakon, Position};
    use crate::search::budget::{Budget, CHECK_EVERY};
    use crate::search::Limits;

    #[test]
    fn a_guess_is_charged_to_the_budget_and_a_node_limit_bounds_it() {
        let rules = Dakon::new(7).unwrap();
        let start = Position::start(7, 7).unwrap();
        // Without a limit the 7 x 7 start's guess spends its whole allowance, all of it charged.
        let free = Limits::default();
        let budget = Budget::new(&free);
        estimate(&rules, &start, ESTIMATE_NODES, &budget);
        assert!(budget.nodes() > ESTIMATE_NODES, "{} positions charged", budget.nodes());
        assert!(budget.nodes() <= ESTIMATE_NODES * ESTIMATE_DEPTHS_BUDGET);
        // Under a node limit it takes at most half of it (charged a few thousand at a time).
        let limit = 50_000;
        let limited = Limits { nodes: Some(limit), ..Limits::default() };
        let budget = Budget::new(&limited);
        estimate(&rules, &start, ESTIMATE_NODES, &budget);
        assert!(budget.nodes() > 0 && budget.nodes() <= limit / 2 + CHECK_EVERY, "{} positions charged", budget.nodes());
        // With the limit already reached it stops at its first charge.
        budget.charge(limit);
        let before = budget.nodes();
        estimate(&rules, &start, ESTIMATE_NODES, &budget);
        assert!(budget.nodes() - before <= CHECK_EVERY);
    }
}
