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
            let seeds = seeds(strategy.board(index));
            if seeds <= u32::from(small_seeds) || seeds > MAX_SEEDS {
                return Err(format!("entry {index} holds {seeds} seeds, expected more than L = {small_seeds} and at most {MAX_SEEDS}"));
            }
            strategy.check_order(index)?;
        }
        Ok(strategy)
    }

    /// Keeps decoded opening `entries` (format version 2) for boards of `board_length` holes
    /// after checking them: `board_length + 2` bytes each (the board, the first turns pending,
    /// the hole), strictly increasing by board and first turns, each board holding at most 255
    /// seeds and the first turns 1 to 3. Looked up by the board followed by the first-turn byte.
    ///
    /// # Errors
    ///
    /// A message naming the first entry out of order, with a wrong seed count or first turns.
    pub(crate) fn new_opening(entries: Vec<u8>, board_length: usize) -> Result<Strategy, String> {
        let strategy = Strategy { entries, width: board_length + 2 };
        for index in 0..strategy.len() {
            let (board, first_turns) = strategy.board(index).split_at(board_length);
            let seeds = seeds(board);
            if seeds > MAX_SEEDS {
                return Err(format!("entry {index} holds {seeds} seeds, expected at most {MAX_SEEDS}"));
            }
            if !(1..=3).contains(&first_turns[0]) {
                return Err(format!("entry {index} has first turns {}, expected 1 to 3", first_turns[0]));
            }
            strategy.check_order(index)?;
        }
        Ok(strategy)
    }

    /// That entry `index` comes strictly after the one before it.
    fn check_order(&self, index: usize) -> Result<(), String> {
        if index > 0 && self.board(index - 1) >= self.board(index) {
            return Err(format!("entry {index} does not come after entry {}: expected boards strictly increasing", index - 1));
        }
        Ok(())
    }

    /// How many entries the strategy has.
    pub fn len(&self) -> usize {
        self.entries.len() / self.width
    }

    /// Whether the strategy has no entries (a trivial half).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The hole the strategy lifts on the board with these `holes` (for an opening strategy,
    /// the board followed by the first-turn byte), if it has an entry for it (not yet known to
    /// be legal there).
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

    /// The key of entry `index`: its board, and for an opening entry the first turns too.
    fn board(&self, index: usize) -> &[u8] {
        &self.entries[index * self.width..][..self.width - 1]
    }
}

/// The seeds on a board.
fn seeds(board: &[u8]) -> u32 {
    board.iter().map(|&seeds| u32::from(seeds)).sum()
}
