//! The perfect index of seed distributions: ranking and unranking compositions.
//!
//! A board with `k` seeds spread over `m` holes is a *weak composition* of `k` into `m` parts.
//! There are `C(k + m - 1, m - 1)` of them, and this module numbers them `0..C(k+m-1, m-1)`
//! without gaps (a bijection), which is what an endgame table needs to store one value per
//! board in a flat array.
//!
//! Write the board as stars and bars: each hole's seeds as stars, a bar between holes. The bars
//! stand at positions `b_i = h_0 + ... + h_i + i` for `i = 0..m-1` (`m - 1` bars among
//! `k + m - 1` places). The combinatorial number system ranks that set of bar positions:
//!
//! ```text
//! rank = C(b_0, 1) + C(b_1, 2) + ... + C(b_{m-2}, m-1)
//! ```
//!
//! so boards are ordered by where their last bar stands, then the one before, and so on.
//!
//! ```
//! use dakon_solver::composition::{count, rank, unrank};
//! assert_eq!(count(3, 2), 4); // 3+0, 2+1, 1+2, 0+3
//! let mut board = [0u8; 2];
//! for r in 0..4 {
//!     unrank(3, r, &mut board);
//!     assert_eq!(rank(&board), r);
//! }
//! ```

/// Most parts a composition may have (two rows of nine holes).
pub const MAX_PARTS: usize = 18;
/// Most seeds a composition may hold.
pub const MAX_SEEDS: usize = 255;
const ROWS: usize = MAX_SEEDS + MAX_PARTS;
const COLS: usize = MAX_PARTS;

/// `BINOMIAL[n][r] = C(n, r)` for `n < 273`, `r < 18`; the largest, `C(272, 17)`, is below
/// `2^89`, so `u128` holds every entry.
static BINOMIAL: [[u128; COLS]; ROWS] = binomials();

const fn binomials() -> [[u128; COLS]; ROWS] {
    let mut table = [[0u128; COLS]; ROWS];
    let mut n = 0;
    while n < ROWS {
        table[n][0] = 1;
        let mut r = 1;
        while r < COLS {
            table[n][r] = if n == 0 { 0 } else { table[n - 1][r - 1] + table[n - 1][r] };
            r += 1;
        }
        n += 1;
    }
    table
}

/// `RANK_TERMS[i][s] = C(s + i, i + 1)`, wrapped to 64 bits: what part `i` adds to a rank when
/// the parts up to it hold `s` seeds ([`rank_u64`]). A row a part, so that each term is one
/// load at an offset of the seeds so far. The last part never enters a rank, so it has no row.
static RANK_TERMS: [[u64; MAX_SEEDS + 1]; MAX_PARTS - 1] = rank_terms();

const fn rank_terms() -> [[u64; MAX_SEEDS + 1]; MAX_PARTS - 1] {
    let mut table = [[0u64; MAX_SEEDS + 1]; MAX_PARTS - 1];
    let mut i = 0;
    while i < MAX_PARTS - 1 {
        let mut s = 0;
        while s <= MAX_SEEDS {
            table[i][s] = BINOMIAL[s + i][i + 1] as u64;
            s += 1;
        }
        i += 1;
    }
    table
}

/// `C(n, r)`, for `n <= 272` and `r <= 17`.
///
/// # Panics
/// Panics if `n` or `r` is out of that range.
#[inline]
pub fn binomial(n: usize, r: usize) -> u128 {
    BINOMIAL[n][r]
}

/// The number of ways to put `seeds` seeds into `parts` holes: `C(seeds + parts - 1, parts - 1)`.
///
/// # Panics
/// Panics if `parts` is 0 or above [`MAX_PARTS`], or `seeds` above [`MAX_SEEDS`].
pub fn count(seeds: usize, parts: usize) -> u128 {
    assert!((1..=MAX_PARTS).contains(&parts), "parts must be 1..=18, got {parts}");
    assert!(seeds <= MAX_SEEDS, "at most 255 seeds, got {seeds}");
    binomial(seeds + parts - 1, parts - 1)
}

/// The rank of a board among all boards with the same number of seeds and holes:
/// a number in `0..count(sum, holes.len())`.
///
/// # Panics
/// Panics if there are more than [`MAX_PARTS`] holes or more than [`MAX_SEEDS`] seeds.
#[inline]
pub fn rank(holes: &[u8]) -> u128 {
    assert!(holes.len() <= MAX_PARTS, "at most 18 holes");
    let mut bar = 0usize;
    let mut rank = 0u128;
    for (i, &h) in holes[..holes.len().saturating_sub(1)].iter().enumerate() {
        bar += h as usize;
        rank += BINOMIAL[bar + i][i + 1];
    }
    rank
}

/// [`rank`] in 64-bit arithmetic (fewer instructions), of the board whose parts are
/// `leading` followed by one more part (the last part does not enter the rank, so it is not
/// asked for): what a tier's index needs.
///
/// A row of terms a part and one overflow test for the whole rank cost fewer instructions than
/// a 2-D table and a test at every term.
///
/// # Panics
/// Panics if the rank does not fit 64 bits, or on more than [`MAX_PARTS`] parts or
/// [`MAX_SEEDS`] seeds.
#[inline]
pub fn rank_u64(leading: &[u8]) -> u64 {
    let parts = leading.len();
    assert!(parts <= RANK_TERMS.len(), "at most 18 holes");
    let mut bar = 0usize;
    let mut rank = 0u64;
    for (i, &h) in leading.iter().enumerate() {
        bar += h as usize;
        rank = rank.wrapping_add(RANK_TERMS[i][bar]);
    }
    // The combinatorial number system: a rank whose last bar stands at `bar + parts - 1` is
    // below `C(bar + parts, parts)`. Where that fits 64 bits, no term nor sum wrapped.
    assert!(bar <= FITS_64_BITS[parts] as usize, "rank too large for 64 bits");
    rank
}

/// What parts `first..first + len` add to a [`rank_u64`] when the parts before them hold
/// `before` seeds, the parts given as the low `len` bytes of `parts` (byte `i`, part
/// `first + i`), as a row of up to eight holes is held in a lane. A rank is the sum of its
/// pieces', so a piece that stays the same over many boards is ranked once. The caller
/// guarantees at most [`MAX_SEEDS`] seeds in the parts and before them, and a whole rank
/// that fits 64 bits.
///
/// # Panics
/// Panics on more than 8 parts or parts beyond the last of [`MAX_PARTS`].
#[inline]
pub fn rank_piece_u64(parts: u64, len: usize, first: usize, before: usize) -> u64 {
    assert!(len <= 8, "at most 8 parts in a piece");
    let terms = &RANK_TERMS[first..first + len];
    // Byte `i` of the product is the seeds of parts `0..=i` (below 256: no carry between
    // bytes), so the terms' loads do not wait for one another.
    let sums = parts.wrapping_mul(0x0101_0101_0101_0101).to_le_bytes();
    let mut rank = 0u64;
    for (i, row) in terms.iter().enumerate() {
        let bar = before + sums[i & 7] as usize;
        debug_assert!(bar <= MAX_SEEDS, "more than {MAX_SEEDS} seeds");
        rank = rank.wrapping_add(row[bar & MAX_SEEDS]);
    }
    rank
}

/// `FITS_64_BITS[p]`: the most seeds `s` with `C(s + p, p)` below `2^64` (at most
/// [`MAX_SEEDS`]), the check of [`rank_u64`] as one small load.
static FITS_64_BITS: [u16; MAX_PARTS] = fits_64_bits();

const fn fits_64_bits() -> [u16; MAX_PARTS] {
    let mut most = [0u16; MAX_PARTS];
    let mut p = 0;
    while p < MAX_PARTS {
        let mut s = 0;
        while s < MAX_SEEDS && BINOMIAL[s + 1 + p][p] < 1 << 64 {
            s += 1;
        }
        most[p] = s as u16;
        p += 1;
    }
    most
}

/// Writes into `holes` the board of rank `rank` among boards of `seeds` seeds over
/// `holes.len()` holes; the inverse of [`rank`].
///
/// # Panics
/// Panics if `holes` is empty or longer than [`MAX_PARTS`], `seeds` is above [`MAX_SEEDS`],
/// or `rank >= count(seeds, holes.len())`.
pub fn unrank(seeds: usize, mut rank: u128, holes: &mut [u8]) {
    let parts = holes.len();
    let boards = count(seeds, parts);
    assert!(rank < boards, "rank {rank} out of range");
    if boards <= u128::from(u64::MAX) {
        return unrank_u64(seeds, rank as u64, holes);
    }
    // Bars from the last to the first: the largest position p with C(p, i+1) <= rank.
    let mut upper = seeds + parts - 1; // bar positions are below this
    let mut next_bar = seeds + parts - 1; // the virtual bar after the last hole
    for i in (0..parts - 1).rev() {
        let mut p = upper - 1;
        while BINOMIAL[p][i + 1] > rank {
            p -= 1;
        }
        rank -= BINOMIAL[p][i + 1];
        holes[i + 1] = (next_bar - p - 1) as u8;
        next_bar = p;
        upper = p;
    }
    holes[0] = next_bar as u8;
}

/// [`unrank`] of a tier whose boards number below `2^64`: then every `C(p, i + 1)` the search
/// meets is at most that number, so [`RANK_TERMS`]' 64-bit entries are exact, and a
/// comparison costs one instruction where `u128` takes several.
fn unrank_u64(seeds: usize, mut rank: u64, holes: &mut [u8]) {
    let parts = holes.len();
    // Bar `i` stands at `i + s`, `s` the seeds of holes `0..=i`, and adds `C(i + s, i + 1)`,
    // `RANK_TERMS[i][s]`: the largest `s` up to the seeds of holes `0..=i + 1` whose term is
    // at most what is left of the rank. The term is 0 at `s = 0`, so the search stops there.
    let mut left = seeds;
    for i in (0..parts - 1).rev() {
        let terms = &RANK_TERMS[i][..=left];
        let mut s = left;
        while terms[s] > rank {
            s -= 1;
        }
        rank -= terms[s];
        holes[i + 1] = (left - s) as u8;
        left = s;
    }
    holes[0] = left as u8;
}

/// Steps `holes` to the board of the next rank ([`rank`] plus 1) among boards of the same
/// seeds and holes, in a few instructions where [`unrank`] takes a search a part: what a
/// walk through consecutive ranks needs.
///
/// The first bar that can move right moves one place and the bars before it go back to the
/// start: a seed of the first non-empty hole after hole 0, `j`, goes to hole `j - 1`, and so
/// do all the seeds of hole 0 (the holes between are empty). Returns `j`; at the last board,
/// `None`, and `holes` is left as it was.
#[inline]
pub fn next(holes: &mut [u8]) -> Option<usize> {
    let j = (1..holes.len()).find(|&j| holes[j] > 0)?;
    let gathered = holes[0];
    holes[0] = 0;
    holes[j - 1] = gathered + 1;
    holes[j] -= 1;
    Some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_64_bit_rank_is_the_rank() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for parts in [2, 12, 14, 18] {
            for seeds in [0, 1, 48, 72, 127] {
                for _ in 0..200 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let total = count(seeds, parts);
                    if total > u64::MAX as u128 {
                        continue;
                    }
                    let mut board = vec![0u8; parts];
                    unrank(seeds, (state as u128) % total, &mut board);
                    assert_eq!(rank_u64(&board[..parts - 1]) as u128, rank(&board), "{board:?}");
                }
            }
        }
        // 18 parts of 127 seeds: ranks beyond 64 bits are refused, not wrapped.
        let mut board = [0u8; 18];
        board[16] = 127;
        assert!(rank(&board) > u64::MAX as u128);
        assert!(std::panic::catch_unwind(|| rank_u64(&board[..17])).is_err());
    }

    #[test]
    fn unranking_inverts_the_rank_below_and_beyond_64_bits() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for parts in [2, 7, 14, 17, 18] {
            for seeds in [0, 1, 16, 48, 100, 127, 255] {
                let total = count(seeds, parts);
                for _ in 0..100 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let r = ((u128::from(state) << 64) | u128::from(state.rotate_left(17))) % total;
                    for r in [r, 0, total - 1] {
                        let mut board = vec![0u8; parts];
                        unrank(seeds, r, &mut board);
                        assert_eq!(board.iter().map(|&h| h as usize).sum::<usize>(), seeds, "{parts} parts, {seeds} seeds");
                        assert_eq!(rank(&board), r, "{parts} parts, {seeds} seeds, {total} boards");
                    }
                }
            }
        }
    }

    #[test]
    fn small_ranks_enumerate_every_board_once() {
        for parts in 1..=5 {
            for seeds in 0..=6 {
                let total = count(seeds, parts);
                let mut seen = std::collections::HashSet::new();
                let mut board = vec![0u8; parts];
                for r in 0..total {
                    unrank(seeds, r, &mut board);
                    assert_eq!(board.iter().map(|&h| h as usize).sum::<usize>(), seeds);
                    assert_eq!(rank(&board), r);
                    assert!(seen.insert(board.clone()));
                }
            }
        }
    }

    #[test]
    fn next_steps_through_every_rank_in_order() {
        for parts in 1..=6 {
            for seeds in 0..=7 {
                let mut board = vec![0u8; parts];
                unrank(seeds, 0, &mut board);
                let mut expected = vec![0u8; parts];
                for r in 1..count(seeds, parts) {
                    assert!(next(&mut board).is_some(), "{parts} parts, {seeds} seeds: rank {r} missing");
                    unrank(seeds, r, &mut expected);
                    assert_eq!(board, expected, "{parts} parts, {seeds} seeds, rank {r}");
                }
                let last = board.clone();
                assert!(next(&mut board).is_none(), "{parts} parts, {seeds} seeds: a board after the last");
                assert_eq!(board, last);
            }
        }
    }

    #[test]
    fn largest_board_fits() {
        let mut board = [0u8; MAX_PARTS];
        board[0] = 255;
        assert_eq!(rank(&board), count(255, MAX_PARTS) - 1);
        board[0] = 0;
        board[MAX_PARTS - 1] = 255;
        assert_eq!(rank(&board), 0);
    }
}
