//! The certificate file, byte by byte, as `docs/formats/certificates.md` defines it (the contract
//! with the independent checker): a fixed header, the two strategies as zstd-compressed
//! sections of sorted entries, and a checksum of the whole file.

use xxhash_rust::xxh3::xxh3_64;

use super::Certificate;
use crate::composition::count;
use crate::dakon::Player;

/// The first eight bytes of every certificate.
pub const MAGIC: [u8; 8] = *b"DKNCERT\0";
/// The format version this crate writes, but under `no-first-turn-capture`.
pub const VERSION: u32 = 1;
/// The format version of certificates under `no-first-turn-capture`: version 1 with the first
/// turns pending at the root and a section of opening entries per half.
pub const OPENING_VERSION: u32 = 2;
/// The most boards of at most `L` seeds the format lets `L` cover: positions with at most `L`
/// seeds on the board have no entries, the checker solves them itself, in tables of one byte
/// a board, so this bounds what a file can make a checker allocate (8 GiB).
pub const MAX_SMALL_BOARDS: u64 = 1 << 33;
/// `L` is at most this on any board, so that a table byte holds a small position's value.
const MOST_SMALL_SEEDS: u8 = 64;

/// The largest `L` the format allows on a board of `holes` holes a row: the largest up to 64
/// whose boards of at most `L` seeds number at most [`MAX_SMALL_BOARDS`] (29 for 6 holes, 17
/// for 9).
///
/// # Panics
/// Panics if `holes` is 0 or above 9.
///
/// ```
/// use dakon_solver::certificate::max_small_seeds;
/// let l: Vec<u8> = (1..=9).map(max_small_seeds).collect();
/// assert_eq!(l, [64, 64, 64, 61, 39, 29, 23, 20, 17]);
/// ```
pub fn max_small_seeds(holes: usize) -> u8 {
    let mut boards = 0u128;
    let fits = |&seeds: &u8| {
        boards += count(seeds.into(), 2 * holes);
        boards <= MAX_SMALL_BOARDS.into()
    };
    (0..=MOST_SMALL_SEEDS).take_while(fits).last().unwrap_or(0)
}
/// zstd levels of the sections: the strongest for small sections, where it costs
/// milliseconds, a fast one for large ones, where the strongest would take tens of seconds
/// for a file a fifth smaller.
const STRONG_LEVEL: i32 = 19;
const FAST_LEVEL: i32 = 9;
/// Entry bytes up to which a section gets [`STRONG_LEVEL`].
const STRONG_BYTES: usize = 1 << 18;

impl Certificate {
    /// The file's bytes.
    ///
    /// # Panics
    /// Panics if the rules name is longer than 32 bytes (64 in version 2): rule sets have short
    /// names.
    pub fn to_bytes(&self) -> Vec<u8> {
        let root = &self.root;
        let holes = root.holes();
        let name = self.rules.as_bytes();
        // Version 2's names carry `no-first-turn-capture` too, so they may be longer.
        let longest = if self.opening.is_some() { 64 } else { 32 };
        assert!((1..=longest).contains(&name.len()), "a rules name has 1 to {longest} bytes: {:?}", self.rules);
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        let version = if self.opening.is_some() { OPENING_VERSION } else { VERSION };
        out.extend_from_slice(&version.to_le_bytes());
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        out.push(holes as u8);
        out.extend(root.holes_in_notation_order());
        out.push(root.store(Player::One));
        out.push(root.store(Player::Zero));
        out.push(root.mover().number());
        out.extend_from_slice(&self.claim.lower.to_le_bytes());
        out.extend_from_slice(&self.claim.upper.to_le_bytes());
        out.push(self.small_seeds);
        if let Some(opening) = &self.opening {
            out.push(opening.first_turns);
        }
        for half in [&self.lower_half, &self.upper_half] {
            let mut entries = Vec::with_capacity(half.len() * (2 * holes + 1));
            for (board, &hole) in &half.moves {
                entries.extend_from_slice(board.holes(holes));
                entries.push(hole);
            }
            write_section(&mut out, &entries, half.len());
        }
        if let Some(opening) = &self.opening {
            for half in [&opening.lower_half, &opening.upper_half] {
                let mut entries = Vec::with_capacity(half.moves.len() * (2 * holes + 2));
                for (&(board, first_turns), &hole) in &half.moves {
                    entries.extend_from_slice(board.holes(holes));
                    entries.extend([first_turns, hole]);
                }
                write_section(&mut out, &entries, half.moves.len());
            }
        }
        let checksum = xxh3_64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }
}

/// Appends one section of `count` entries: entry count, compressed length, checksum of the
/// entries, then the `entries` bytes as one zstd frame.
fn write_section(out: &mut Vec<u8>, entries: &[u8], count: usize) {
    let level = if entries.len() <= STRONG_BYTES { STRONG_LEVEL } else { FAST_LEVEL };
    let frame = zstd::bulk::compress(entries, level).expect("compressing into memory does not fail");
    out.extend_from_slice(&(count as u64).to_le_bytes());
    out.extend_from_slice(&(frame.len() as u64).to_le_bytes());
    out.extend_from_slice(&xxh3_64(entries).to_le_bytes());
    out.extend_from_slice(&frame);
}
