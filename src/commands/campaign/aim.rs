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

/// How bold the next target of a goal is: the step from the root's bound is `2 << boldness`
/// seeds (so the first tests are the loosest, one step past the bound), at most the way to
/// the goal's aim; each proof doubles the step (galloping, as cheap tests keep succeeding)
/// and each test its budget stopped halves it again.
#[derive(Clone, Copy, Debug, Default)]
pub struct Boldness(pub u32);

impl Boldness {
    /// After a test: bolder when it was proven, more careful when its budget stopped it.
    pub fn after(self, proven: bool) -> Boldness {
        if proven {
            Boldness((self.0 + 1).min(20))
        } else {
            Boldness(self.0.saturating_sub(1))
        }
    }
}

/// The root's next target for `goal`: `2 << boldness` past the root's bound, but no further
/// than `aim_lower` (`aim_upper`) while the bound is short of it, and afterwards no further
/// than a quarter of the gap between the root's bounds (at least one step of 2); `None` when
/// the root is exact. `aim_*` have the root's parity.
pub fn root_target(goal: Goal, root: Bounds, aim_lower: i32, aim_upper: i32, boldness: Boldness) -> Option<Need> {
    if root.is_exact() {
        return None;
    }
    let step = |distance: i32| (2i32 << boldness.0).min(distance / 2 * 2).max(2);
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
