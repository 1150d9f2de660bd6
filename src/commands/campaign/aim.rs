//! Which test to run next: a root goal (raise the lower bound, or lower the upper one) with a
//! loose target first, then the position of the tree whose bound would move the root's.

use std::collections::HashMap;

use super::bounds::Bounds;
use super::derive::Derived;
use super::tree::Tree;

/// What a test must show about one position (final store differences, its mover's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    AtLeast(i32),
    AtMost(i32),
}

impl Need {
    /// The same need as the mover of the position after a move sees it.
    fn after_move(self, same_mover: bool) -> Need {
        match (self, same_mover) {
            (need, true) => need,
            (Need::AtLeast(t), false) => Need::AtMost(-t),
            (Need::AtMost(u), false) => Need::AtLeast(-u),
        }
    }

    /// Whether `bounds` already settle the need, either way.
    fn settled(self, bounds: Bounds) -> bool {
        match self {
            Need::AtLeast(t) => bounds.lower >= t || bounds.upper < t,
            Need::AtMost(u) => bounds.upper <= u || bounds.lower > u,
        }
    }

    /// The test that settles it: "is the value at least this?" (`u + 1` for at most `u`).
    pub fn test_target(self) -> i32 {
        match self {
            Need::AtLeast(t) => t,
            Need::AtMost(u) => u + 1,
        }
    }

    /// `at least +4`, `at most +20`.
    pub fn describe(self) -> String {
        match self {
            Need::AtLeast(t) => format!("at least {t:+}"),
            Need::AtMost(u) => format!("at most {u:+}"),
        }
    }
}

/// The two goals of the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    RaiseLower,
    LowerUpper,
}

/// How loose the next target of a goal is: each test its budget stopped halves the step from
/// the root's bound towards the aim (a looser test is likelier to finish), each proof doubles
/// it again.
#[derive(Clone, Copy, Debug, Default)]
pub struct Looseness(pub u32);

/// The root's next target for `goal`: at least `aim_lower` (at most `aim_upper`) while the
/// root's bound is short of it, then a quarter of the gap between the root's bounds past its
/// bound (at least one step of 2); the step halved `looseness` times; `None` when the root is
/// exact. `aim_*` have the root's parity.
pub fn root_target(goal: Goal, root: Bounds, aim_lower: i32, aim_upper: i32, looseness: Looseness) -> Option<Need> {
    if root.is_exact() {
        return None;
    }
    let step = |distance: i32| (((distance / 2) >> looseness.0.min(30)) * 2).max(2);
    let quarter = ((root.upper - root.lower) / 8 * 2).max(2);
    Some(match goal {
        Goal::RaiseLower => {
            let goal = if root.lower < aim_lower { aim_lower.min(root.upper) } else { root.lower + quarter };
            Need::AtLeast((root.lower + step(goal - root.lower)).min(root.upper))
        }
        Goal::LowerUpper => {
            let goal = if root.upper > aim_upper { aim_upper.max(root.lower) } else { root.upper - quarter };
            Need::AtMost((root.upper - step(root.upper - goal)).max(root.lower))
        }
    })
}

/// The position to test for `need` at node `at`, and what to test there: the node itself at a
/// leaf of the tree, else a child whose bound the need waits on (for "at least", one child
/// suffices: the one with the fewest tests stopped below it, then the most hopeful bound; for
/// "at most", every child must follow: the one with the fewest stops, then the highest bound,
/// first). `None` when the need is settled.
pub fn pick<P>(tree: &Tree<P>, derived: &[Derived], stops: &HashMap<String, u32>, at: usize, need: Need) -> Option<(usize, Need)> {
    let node = &tree.nodes[at];
    if need.settled(derived[at].bounds) {
        return None;
    }
    if node.edges.is_empty() {
        return Some((at, need));
    }
    let mut children: Vec<_> = node
        .edges
        .iter()
        .map(|e| (stops_below(tree, stops, e.child), -derived[e.child].bounds.seen_from_parent(e.same_mover).upper, e))
        .collect();
    children.sort_by_key(|&(stopped, hope, _)| (stopped, hope));
    children.into_iter().find_map(|(_, _, e)| pick(tree, derived, stops, e.child, need.after_move(e.same_mover)))
}

/// Tests stopped at `at` and below it.
fn stops_below<P>(tree: &Tree<P>, stops: &HashMap<String, u32>, at: usize) -> u32 {
    let node = &tree.nodes[at];
    stops.get(&node.notation).copied().unwrap_or(0) + node.edges.iter().map(|e| stops_below(tree, stops, e.child)).sum::<u32>()
}
