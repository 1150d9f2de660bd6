//! The bounds of every position of the tree from the bounds proven for some of them, by
//! minimax over the tree's moves, with where each bound came from.

use super::bounds::Bounds;
use super::tree::Tree;

/// Where a derived bound comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// No search: the stores with every seed left lost (or won).
    Trivial,
    /// The game is over: the value itself.
    GameOver,
    /// A proof of this very position: the caller's piece of evidence number `n` (a record of
    /// the campaign file, or a certificate).
    Evidence(usize),
    /// A lower bound: this move (the hole lifted) reaches it.
    Move(usize),
    /// An upper bound: no move does better.
    EveryMove,
}

/// The best bounds proven for one position itself, and the evidence of each.
#[derive(Clone, Copy, Debug, Default)]
pub struct Proven {
    pub lower: Option<(i32, usize)>,
    pub upper: Option<(i32, usize)>,
}

impl Proven {
    /// Adds the evidence `n` that the value is at least `value` (or at most, `at_least` false),
    /// keeping the stronger bound (the earlier evidence on a tie).
    pub fn add(&mut self, at_least: bool, value: i32, n: usize) {
        if at_least && self.lower.is_none_or(|(v, _)| value > v) {
            self.lower = Some((value, n));
        } else if !at_least && self.upper.is_none_or(|(v, _)| value < v) {
            self.upper = Some((value, n));
        }
    }
}

/// A position's derived bounds and where each came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    pub bounds: Bounds,
    pub lower_from: Source,
    pub upper_from: Source,
}

/// The derived bounds of every node: the tighter of its own proven bounds and, inside the
/// tree, the minimax of its children's (a lower bound from the best move's, an upper bound
/// from every move's; an extra move keeps the mover, so its bounds are not negated). Nodes
/// without proofs keep their trivial bounds, which always hold.
///
/// # Errors
/// A message naming the first position whose bounds cross: the evidence contradicts itself.
pub fn derive<P>(tree: &Tree<P>, proven: &[Proven]) -> Result<Vec<Derived>, String> {
    let mut derived: Vec<Option<Derived>> = vec![None; tree.nodes.len()];
    for index in (0..tree.nodes.len()).rev() {
        let node = &tree.nodes[index];
        let base = if node.game_over { Source::GameOver } else { Source::Trivial };
        let mut d = Derived { bounds: node.trivial, lower_from: base, upper_from: base };
        if !node.edges.is_empty() {
            let children = node.edges.iter().map(|e| {
                let child = derived[e.child].expect("children come after their parent");
                (e.hole, child.bounds.seen_from_parent(e.same_mover))
            });
            let (best_hole, best_lower) = children
                .clone()
                .map(|(hole, b)| (hole, b.lower))
                .max_by_key(|&(hole, lower)| (lower, std::cmp::Reverse(hole)))
                .expect("edges");
            let every_upper = children.map(|(_, b)| b.upper).max().expect("edges");
            if best_lower > d.bounds.lower {
                d.bounds.lower = best_lower;
                d.lower_from = Source::Move(best_hole);
            }
            if every_upper < d.bounds.upper {
                d.bounds.upper = every_upper;
                d.upper_from = Source::EveryMove;
            }
        }
        let own = proven.get(index).copied().unwrap_or_default();
        if let Some((value, n)) = own.lower.filter(|&(v, _)| v > d.bounds.lower) {
            d.bounds.lower = value;
            d.lower_from = Source::Evidence(n);
        }
        if let Some((value, n)) = own.upper.filter(|&(v, _)| v < d.bounds.upper) {
            d.bounds.upper = value;
            d.upper_from = Source::Evidence(n);
        }
        if d.bounds.lower > d.bounds.upper {
            return Err(format!(
                "the proofs contradict each other at {} (line {}): at least {:+} but at most {:+}",
                node.notation,
                super::tree::line_name(&node.line),
                d.bounds.lower,
                d.bounds.upper
            ));
        }
        derived[index] = Some(d);
    }
    Ok(derived.into_iter().map(|d| d.expect("every node derived")).collect())
}
