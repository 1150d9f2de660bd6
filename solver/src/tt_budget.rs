//! How much transposition table a search needs at most, for callers that make a solver per
//! board size (the command line's `batch`, the Python package's `solve_many`).

use crate::composition::{count, MAX_PARTS};

/// Bytes a transposition table may need for positions of `holes` holes per row with at most
/// `seeds` seeds on the board: room for every such position (64 bytes each, a generous
/// entry), but never more than `requested`. Small boards thereby do not each allocate and
/// clear the full table memory.
pub fn capped(requested: usize, holes: usize, seeds: u32) -> usize {
    // Boards of at most `seeds` seeds in 2n holes = boards of exactly `seeds` in 2n + 1 parts.
    let parts = 2 * holes + 1;
    if parts > MAX_PARTS {
        return requested;
    }
    let needed = count(seeds as usize, parts).saturating_mul(64).max(1 << 20);
    usize::try_from(needed).map_or(requested, |needed| needed.min(requested))
}

#[cfg(test)]
mod tests {
    use super::capped;

    #[test]
    fn small_boards_need_little_large_ones_get_what_is_asked() {
        // 2 holes per row, at most 8 seeds: C(12, 4) = 495 positions.
        assert_eq!(capped(1 << 30, 2, 8), 1 << 20);
        // 3 holes per row, at most 18 seeds: C(24, 6) = 134,596 positions.
        assert_eq!(capped(1 << 30, 3, 18), 134_596 * 64);
        assert_eq!(capped(1 << 30, 7, 98), 1 << 30);
        assert_eq!(capped(1 << 30, 9, 162), 1 << 30);
    }
}
