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
    pub fn settled(self, bounds: Bounds) -> bool {
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
/// the goal's aim; each root target settled doubles the step (galloping, as cheap tests keep
/// succeeding) and each test its budget stopped halves it again.
#[derive(Clone, Copy, Debug, Default)]
struct Boldness(u32);

impl Boldness {
    /// Bolder after a settled target, more careful after a stopped test.
    fn after(self, settled: bool) -> Boldness {
        if settled {
            Boldness((self.0 + 1).min(20))
        } else {
            Boldness(self.0.saturating_sub(1))
        }
    }
}

/// One goal of the root as the driver pursues it: its boldness and the root target it waits
/// on. The target stays until the root's bounds settle it or one of its tests is stopped: it
/// may need several proofs ("at most" needs every move to follow), and a target moved after
/// each of them would leave the ones already proven short of the next (the bound drifting from
/// child to child without ever moving the root's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pursuit {
    boldness: Boldness,
    pending: Option<Need>,
}

impl Pursuit {
    /// The root need to work on next for `goal` (see [`root_target`]); `None` when the root is
    /// exact.
    pub fn need(&mut self, goal: Goal, root: Bounds, aim_lower: i32, aim_upper: i32) -> Option<Need> {
        match self.pending {
            Some(need) if !need.settled(root) => return Some(need),
            Some(_) => self.boldness = self.boldness.after(true),
            None => {}
        }
        self.pending = root_target(goal, root, aim_lower, aim_upper, self.boldness);
        self.pending
    }

    /// A test for the pending need was stopped by its budget: the next target is more careful
    /// (and looser, so the bounds proven for this one still count towards it).
    pub fn stopped(&mut self) {
        self.boldness = self.boldness.after(false);
        self.pending = None;
    }
}

/// The root's next target for `goal`: `2 << boldness` past the root's bound, but no further
/// than `aim_lower` (`aim_upper`) while the bound is short of it, and afterwards no further
/// than a quarter of the gap between the root's bounds (at least one step of 2); `None` when
/// the root is exact. `aim_*` have the root's parity.
fn root_target(goal: Goal, root: Bounds, aim_lower: i32, aim_upper: i32, boldness: Boldness) -> Option<Need> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(lower: i32, upper: i32) -> Bounds {
        Bounds { lower, upper }
    }

    #[test]
    fn a_root_target_stays_until_the_root_settles_it() {
        let mut pursuit = Pursuit::default();
        let first = pursuit.need(Goal::LowerUpper, bounds(-42, 72), 0, 20);
        assert_eq!(first, Some(Need::AtMost(70)));
        // One move proven at most +70 leaves the root's bound where it was: the same target,
        // not a bolder one the proven move would fall short of.
        assert_eq!(pursuit.need(Goal::LowerUpper, bounds(-42, 72), 0, 20), first);
        // Every move followed: the root is at most +70, and the next step doubles.
        assert_eq!(pursuit.need(Goal::LowerUpper, bounds(-42, 70), 0, 20), Some(Need::AtMost(66)));
        // A stopped test: more careful, and looser than the target it gave up.
        pursuit.stopped();
        assert_eq!(pursuit.need(Goal::LowerUpper, bounds(-42, 70), 0, 20), Some(Need::AtMost(68)));
    }

    #[test]
    fn a_settled_target_is_replaced_proven_or_refuted() {
        let mut pursuit = Pursuit::default();
        assert_eq!(pursuit.need(Goal::RaiseLower, bounds(-20, 30), 0, 20), Some(Need::AtLeast(-18)));
        // Proven at the root: bolder.
        assert_eq!(pursuit.need(Goal::RaiseLower, bounds(-18, 30), 0, 20), Some(Need::AtLeast(-14)));
        // Refuted at the root (at most -16): the next target lies within the new bounds.
        assert_eq!(pursuit.need(Goal::RaiseLower, bounds(-18, -16), 0, 20), Some(Need::AtLeast(-16)));
        assert_eq!(pursuit.need(Goal::RaiseLower, bounds(-16, -16), 0, 20), None, "an exact root has no target");
    }
}
