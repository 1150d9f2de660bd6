//! The campaign's tree: the root and every position within its first `depth` turns. A move
//! that earns an extra move stays in the turn, so the positions after each first move *and*
//! after each first turn are in a tree of depth 1.

use std::collections::HashMap;

use super::bounds::Bounds;

/// Most positions a tree may hold: a deeper tree is a campaign of its own.
pub const MAX_POSITIONS: usize = 20_000;

/// What the tree needs of a game's rules.
pub trait Game {
    type Position: Clone;
    /// Every legal move (absolute hole) with the position after it and whether the same player
    /// moves again; empty when the game is over.
    fn successors(&self, position: &Self::Position) -> Vec<(usize, Self::Position, bool)>;
    /// The final store difference (mover minus opponent) once the game is over, else `None`.
    fn final_difference(&self, position: &Self::Position) -> Option<i32>;
    /// The bounds that need no search: the stores with every seed left lost, or won.
    fn trivial(&self, position: &Self::Position) -> Bounds;
    /// The position in the notation, the key of records.
    fn notation(&self, position: &Self::Position) -> String;
}

/// One move of the tree.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The hole lifted, in the notation's numbering.
    pub hole: usize,
    /// The index of the position after it.
    pub child: usize,
    /// Whether the mover moves again (an extra move).
    pub same_mover: bool,
}

/// A position of the tree.
#[derive(Clone, Debug)]
pub struct Node<P> {
    pub position: P,
    pub notation: String,
    /// The holes played from the root to here.
    pub line: Vec<usize>,
    /// The moves, when the position is inside the tree; empty at its leaves.
    pub edges: Vec<Edge>,
    /// The bounds known without search (exact when the game is over).
    pub trivial: Bounds,
    pub game_over: bool,
}

/// The tree; `nodes[0]` is the root and every child comes after its parent.
#[derive(Clone, Debug)]
pub struct Tree<P> {
    pub nodes: Vec<Node<P>>,
    /// The nodes of each position (two lines may reach one position).
    by_notation: HashMap<String, Vec<usize>>,
}

impl<P: Clone> Tree<P> {
    /// The tree of `root` to `depth` turns.
    ///
    /// # Errors
    /// A message if it would hold more than [`MAX_POSITIONS`] positions.
    pub fn build<G: Game<Position = P>>(game: &G, root: P, depth: u32) -> Result<Tree<P>, String> {
        let mut tree = Tree { nodes: Vec::new(), by_notation: HashMap::new() };
        tree.push(game, root, Vec::new());
        let mut turns = vec![0u32];
        let mut next = 0;
        while next < tree.nodes.len() {
            let (index, turn) = (next, turns[next]);
            next += 1;
            if tree.nodes[index].game_over || turn >= depth {
                continue;
            }
            let position = tree.nodes[index].position.clone();
            for (hole, child, same_mover) in game.successors(&position) {
                if tree.nodes.len() >= MAX_POSITIONS {
                    return Err(format!("a tree of {depth} turns holds more than {MAX_POSITIONS} positions: choose a smaller --depth"));
                }
                let mut line = tree.nodes[index].line.clone();
                line.push(hole);
                let child_index = tree.push(game, child, line);
                turns.push(if same_mover { turn } else { turn + 1 });
                tree.nodes[index].edges.push(Edge { hole, child: child_index, same_mover });
            }
        }
        Ok(tree)
    }
}

impl<P> Tree<P> {
    fn push<G: Game<Position = P>>(&mut self, game: &G, position: P, line: Vec<usize>) -> usize {
        let final_difference = game.final_difference(&position);
        let trivial = final_difference.map_or_else(|| game.trivial(&position), Bounds::exact);
        let notation = game.notation(&position);
        let index = self.nodes.len();
        self.by_notation.entry(notation.clone()).or_default().push(index);
        self.nodes.push(Node { position, notation, line, edges: Vec::new(), trivial, game_over: final_difference.is_some() });
        index
    }

    /// The nodes of the position written `notation` (none if it is not in the tree).
    pub fn nodes_of(&self, notation: &str) -> &[usize] {
        self.by_notation.get(notation).map_or(&[], Vec::as_slice)
    }
}

/// A line of holes for people: `start`, or the holes joined by `-` (e.g. `6-8`).
pub fn line_name(line: &[usize]) -> String {
    if line.is_empty() {
        "start".to_string()
    } else {
        line.iter().map(ToString::to_string).collect::<Vec<_>>().join("-")
    }
}
