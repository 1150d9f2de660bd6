//! One half's strategy: a move for each board where its owner is to move.

use std::cmp::Ordering;

use crate::rules::MAX_SEEDS;

/// The entries of one half as the file holds them: `board length + 1` bytes each (the board,
/// then the hole to lift), sorted by board.
#[derive(Clone, Debug)]
pub struct Strategy {
    entries: Vec<u8>,
    width: usize,
}

impl Strategy {
    /// Keeps decoded `entries` for boards of `board_length` holes after checking them: strictly
    /// increasing by board, each board holding more than `small_seeds` and at most 255 seeds.
    ///
    /// # Errors
    ///
    /// A message naming the first entry out of order or with a wrong seed count.
    pub(crate) fn new(entries: Vec<u8>, board_length: usize, small_seeds: u8) -> Result<Strategy, String> {
        let strategy = Strategy { entries, width: board_length + 1 };
        for index in 0..strategy.len() {
            let board = strategy.board(index);
            let seeds: u32 = board.iter().map(|&seeds| u32::from(seeds)).sum();
            if seeds <= u32::from(small_seeds) || seeds > MAX_SEEDS {
                return Err(format!("entry {index} holds {seeds} seeds, expected more than L = {small_seeds} and at most {MAX_SEEDS}"));
            }
            if index > 0 && strategy.board(index - 1) >= board {
                return Err(format!("entry {index} does not come after entry {}: expected boards strictly increasing", index - 1));
            }
        }
        Ok(strategy)
    }

    /// How many entries the strategy has.
    pub fn len(&self) -> usize {
        self.entries.len() / self.width
    }

    /// Whether the strategy has no entries (a trivial half).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The hole the strategy lifts on the board with these `holes`, if it has an entry for it
    /// (not yet known to be legal there).
    pub(crate) fn move_for(&self, holes: &[u8]) -> Option<u8> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.board(middle).cmp(holes) {
                Ordering::Less => low = middle + 1,
                Ordering::Greater => high = middle,
                Ordering::Equal => return Some(self.entries[(middle + 1) * self.width - 1]),
            }
        }
        None
    }

    /// The entries in the file's order: each board (its holes) with the hole it lifts.
    pub fn entries(&self) -> impl Iterator<Item = (&[u8], u8)> {
        self.entries.chunks_exact(self.width).map(|entry| entry.split_at(self.width - 1)).map(|(board, hole)| (board, hole[0]))
    }

    fn board(&self, index: usize) -> &[u8] {
        &self.entries[index * self.width..][..self.width - 1]
    }
}
