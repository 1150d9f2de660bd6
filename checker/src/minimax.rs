//! Exact values of small positions (at most `L` seeds on the board): a memoised minimax into
//! tables, one per count of seeds on the board, indexed by the board's rank, as "How a checker
//! solves small positions" in `docs/formats/certificates.md` describes.

use crate::rules::{difference, Position, MAX_HOLES_PER_ROW};

/// A table byte: 0 for a board not solved yet, else 1 + the seeds the player to move will
/// still store with perfect play (0 to `L`, so a byte holds it for `L` below 255).
type Cell = u8;

/// Memoised minimax over tables of every board with at most `L` seeds, filled on demand.
///
/// A position is looked up from its mover's side: a board with player 1 to move is stored as
/// the board reversed (hole `i` becomes `2n - 1 - i`) with player 0 to move, which is the same
/// game seen from the other side, so each board needs one cell, not two.
pub(crate) struct Minimax {
    /// `binomials[a][b]` = C(a, b), for the ranks of boards.
    binomials: Vec<Vec<u64>>,
    /// `tables[k]`: a cell per board of `k` seeds on the board, by rank; allocated (zeroed) the
    /// first time a board of `k` seeds is asked for.
    tables: Vec<Vec<Cell>>,
    /// Boards solved so far.
    solved: u64,
}

/// A position being solved: its successors (with their gains where known), the next to look
/// at and the best so far.
struct Frame {
    position: Position,
    successors: Vec<Successor>,
    next: usize,
    best: i64,
}

/// A successor of a frame's position: its table cell (`None` where the game is over) and its
/// gain, `None` until it is solved.
struct Successor {
    position: Position,
    cell: Option<(usize, usize)>,
    gain: Option<i64>,
}

impl Minimax {
    /// Tables for boards of `holes_per_row` holes a row with at most `small_seeds` seeds.
    pub(crate) fn new(holes_per_row: usize, small_seeds: u32) -> Minimax {
        let holes = 2 * holes_per_row.min(MAX_HOLES_PER_ROW);
        let rows = small_seeds as usize + holes + 1;
        let mut binomials = vec![vec![0u64; holes + 1]; rows];
        for a in 0..rows {
            binomials[a][0] = 1;
            for b in 1..=holes {
                binomials[a][b] = if a == 0 { 0 } else { binomials[a - 1][b - 1].saturating_add(binomials[a - 1][b]) };
            }
        }
        Minimax { binomials, tables: vec![Vec::new(); small_seeds as usize + 1], solved: 0 }
    }

    /// The final store difference, `player` minus the other, with perfect play from `position`,
    /// which has at most `L` seeds on the board.
    pub(crate) fn value_for(&mut self, position: &Position, player: usize) -> i64 {
        let gain = self.gain(position);
        position.store_difference(player) + if position.player() == player { gain } else { -gain }
    }

    /// How many boards were solved (each once, whoever is to move).
    pub(crate) fn solved(&self) -> u64 {
        self.solved
    }

    /// What the player to move at `position` still adds to their store difference with
    /// perfect play. Depth first with a stack of its own, since a game of `s` seeds on a board
    /// of `n` holes a row lasts up to about `s · s · n` turns.
    fn gain(&mut self, position: &Position) -> i64 {
        if let Some(gain) = self.known(position) {
            return gain;
        }
        let mut stack = vec![self.frame(*position)];
        loop {
            let frame = stack.last_mut().expect("the stack ends with its root");
            match frame.successors.get(frame.next) {
                Some(Successor { position: next, gain: Some(later), .. }) => {
                    let mover = frame.position.player();
                    let stored = next.store_difference(mover) - frame.position.store_difference(mover);
                    frame.best = frame.best.max(stored + if next.player() == mover { *later } else { -later });
                    frame.next += 1;
                }
                Some(Successor { position: next, gain: None, .. }) => {
                    // The walk of an earlier successor may have solved this one since.
                    let next = *next;
                    match self.known(&next) {
                        Some(gain) => frame.successors[frame.next].gain = Some(gain),
                        None => stack.push(self.frame(next)),
                    }
                }
                None => {
                    let Frame { position, best, .. } = stack.pop().expect("a frame was looked at");
                    self.store(&position, best);
                    match stack.last_mut() {
                        // The frame below was waiting for this position: its gain is `best`.
                        Some(below) => below.successors[below.next].gain = Some(best),
                        None => return best,
                    }
                }
            }
        }
    }

    /// A frame for `position`, which is not over and not solved, with its successors' gains
    /// where known. Every successor's cell is found before any is read, so that the reads
    /// (far apart in tables of gigabytes) wait for memory together, not one after another.
    fn frame(&mut self, position: Position) -> Frame {
        let mut successors: Vec<Successor> = position
            .successors()
            .into_iter()
            .map(|(_, next)| {
                let cell = (!next.is_over()).then(|| self.cell_of(&next));
                if let Some((seeds, _)) = cell {
                    self.table(seeds);
                }
                Successor { position: next, cell, gain: None }
            })
            .collect();
        for successor in &mut successors {
            successor.gain = match successor.cell {
                None => Some(self.over_gain(&successor.position)),
                Some((seeds, index)) => solved_gain(self.tables[seeds][index], seeds),
            };
        }
        Frame { position, successors, next: 0, best: i64::MIN }
    }

    /// The gain of `position` if it is known: the game is over there, or its board is solved.
    fn known(&mut self, position: &Position) -> Option<i64> {
        if position.is_over() {
            return Some(self.over_gain(position));
        }
        let (seeds, index) = self.cell_of(position);
        solved_gain(*self.table(seeds).get(index)?, seeds)
    }

    /// The gain of `position`, where the game is over: what giving out the seeds left adds.
    fn over_gain(&self, position: &Position) -> i64 {
        let mover = position.player();
        let stores = position.final_stores().expect("the game is over");
        difference(stores, mover) - position.store_difference(mover)
    }

    /// Records the gain of `position`, which is not over.
    fn store(&mut self, position: &Position, gain: i64) {
        let (seeds, index) = self.cell_of(position);
        let stored = (gain + seeds as i64) / 2;
        self.table(seeds)[index] = Cell::try_from(stored + 1).expect("L is below 255");
        self.solved += 1;
    }

    /// The table of boards with `seeds` seeds, allocated when first asked for.
    fn table(&mut self, seeds: usize) -> &mut Vec<Cell> {
        let holes = self.binomials[0].len() - 1;
        let boards = self.binomials[seeds + holes - 1][holes - 1];
        let table = &mut self.tables[seeds];
        if table.is_empty() {
            *table = zeroed_cells(usize::try_from(boards).expect("the format bounds the tables"));
        }
        table
    }

    /// The seeds on `position`'s board and the board's rank among the boards of that many
    /// seeds, seen from the mover's side: the holes in the notation's order for player 0 to
    /// move, reversed for player 1. The rank of holes `h_0 .. h_{2n-1}` is the sum, over
    /// `i` from 0 to `2n - 2`, of C(`s_i + i`, `i + 1`), where `s_i` = `h_0 + ... + h_i`.
    fn cell_of(&self, position: &Position) -> (usize, usize) {
        let holes = position.holes();
        let mut seeds_so_far = 0usize;
        let mut rank = 0u64;
        for i in 0..holes.len() - 1 {
            let hole = if position.player() == 0 { holes[i] } else { holes[holes.len() - 1 - i] };
            seeds_so_far += usize::from(hole);
            rank += self.binomials[seeds_so_far + i][i + 1];
        }
        let seeds = seeds_so_far + usize::from(if position.player() == 0 { holes[holes.len() - 1] } else { holes[0] });
        (seeds, usize::try_from(rank).expect("the format bounds the tables"))
    }
}

/// The gain a `cell` of a board of `seeds` seeds records, `None` if the board is not solved:
/// the mover stores `cell - 1` of the `seeds` left, the other player the rest.
fn solved_gain(cell: Cell, seeds: usize) -> Option<i64> {
    (cell != 0).then(|| 2 * i64::from(cell - 1) - seeds as i64)
}

/// `len` zeroed cells whose 2 MiB-aligned interior is advised for transparent huge pages on
/// Linux: the tables are read at random, and with 4 KiB pages nearly every read of tables of
/// gigabytes would also wait for the translation of its address.
fn zeroed_cells(len: usize) -> Vec<Cell> {
    let mut cells = vec![0; len];
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let start = cells.as_mut_ptr();
        let skip = start.align_offset(HUGE_PAGE).min(len);
        let advised = (len - skip) / HUGE_PAGE * HUGE_PAGE;
        if advised > 0 {
            // SAFETY: advice on part of this vector's own fresh allocation, which changes only
            // how it is backed; a kernel without huge pages refuses it, costing only speed.
            unsafe { libc::madvise(start.wrapping_add(skip).cast(), advised, libc::MADV_HUGEPAGE) };
        }
    }
    cells
}
