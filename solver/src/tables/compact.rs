//! A tier in memory at about 3.6 bits a position, probed in O(1): one 64-byte line per
//! [`LINE_POSITIONS`] positions, and a short list of exceptions.
//!
//! A value `v` of tier `k` has the parity of `k`, so `u = (v + k) / 2` numbers it in `0..=k`.
//! Neighbouring indices differ by a seed moved between the mover's first holes, so the values of
//! a line lie close together: each line stores a base `u0` and, per position, a 3-bit code
//! `u - u0` in `0..=6`; code 7 (an *escape*) says the value is in the exception list. A line:
//!
//! ```text
//! word 0      bits 0..8: base u0; bits 8..64: index in `exceptions` of the line's first escape
//! words 1..8  21 codes of 3 bits each (bit 63 unused): position 21·(w-1) + j at bits 3j..3j+3
//! ```
//!
//! A probe reads one line (one cache line, aligned); an escape also counts the escapes before it
//! in the line (a mask and a popcount per word, at most 7) and reads the exception, so every
//! probe is O(1). The exceptions are the values themselves (`i8`), in index order, so a value
//! of the wrong parity would be stored as an exception, never as a wrong code.

use rayon::prelude::*;

/// Positions per line: 7 words of 21 codes.
pub const LINE_POSITIONS: usize = 147;
const CODES_PER_WORD: usize = 21;
const CODE_BITS: u32 = 3;
const ESCAPE: u64 = 7;
/// Bit 0 of each of the 21 codes of a word.
const CODE_LOW_BITS: u64 = 0x1249_2492_4924_9249;

/// One 64-byte line: the base and first exception, then the codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Line([u64; 8]);

/// Read access to the values of one tier, by index: the plain byte array or a [`CompactTier`].
pub trait TierValues: Sync {
    /// The value (future gain) at `index`.
    ///
    /// # Panics
    /// May panic if `index` is not below the tier's size.
    fn value_at(&self, index: u64) -> i8;
}

impl TierValues for Vec<u8> {
    #[inline]
    fn value_at(&self, index: u64) -> i8 {
        self[index as usize] as i8
    }
}

impl<T: TierValues + ?Sized> TierValues for &T {
    #[inline]
    fn value_at(&self, index: u64) -> i8 {
        (**self).value_at(index)
    }
}

/// The values of one tier, at about 3.6 bits a position (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactTier {
    seeds: u32,
    entries: u64,
    lines: Vec<Line>,
    exceptions: Vec<i8>,
}

/// The escapes of one code word, as bit 0 of each code that is 7.
#[inline]
fn escapes(word: u64) -> u64 {
    word & (word >> 1) & (word >> 2) & CODE_LOW_BITS
}

impl CompactTier {
    /// Packs the values (one byte each, two's complement) of tier `seeds`.
    pub fn from_values(seeds: u32, values: &[u8]) -> CompactTier {
        let group = LINE_POSITIONS * 2048;
        CompactTier::assemble(seeds, values.len() as u64, group, |block, lines| Ok::<_, ()>(pack_lines(seeds, &values[block * group..], lines)))
            .expect("packing cannot fail")
    }

    /// Builds a tier of `entries` values from groups of `group` values (a multiple of
    /// [`LINE_POSITIONS`]), packed in parallel: `pack(g, lines)` fills the lines of group `g`
    /// (with exception indices counted from the group's first) and returns its exceptions.
    ///
    /// # Errors
    /// The first error `pack` returns.
    pub(crate) fn assemble<E: Send>(
        seeds: u32,
        entries: u64,
        group: usize,
        pack: impl Fn(usize, &mut [Line]) -> Result<Vec<i8>, E> + Sync,
    ) -> Result<CompactTier, E> {
        debug_assert_eq!(group % LINE_POSITIONS, 0);
        let mut lines = vec![Line::default(); (entries as usize).div_ceil(LINE_POSITIONS)];
        let per_group = group / LINE_POSITIONS;
        let parts: Vec<Vec<i8>> = lines.par_chunks_mut(per_group).enumerate().map(|(g, out)| pack(g, out)).collect::<Result<_, E>>()?;
        let mut first = 0u64;
        for (out, part) in lines.chunks_mut(per_group).zip(&parts) {
            out.iter_mut().for_each(|line| line.0[0] += first << 8);
            first += part.len() as u64;
        }
        let exceptions = parts.concat();
        Ok(CompactTier { seeds, entries, lines, exceptions })
    }

    /// Positions in the tier.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Bytes of memory the tier holds (lines and exceptions).
    pub fn bytes(&self) -> u64 {
        (self.lines.len() * std::mem::size_of::<Line>() + self.exceptions.len()) as u64
    }

    /// The bytes the lines of a tier of `entries` positions take (the exceptions come on top).
    pub fn line_bytes(entries: u64) -> u64 {
        entries.div_ceil(LINE_POSITIONS as u64) * std::mem::size_of::<Line>() as u64
    }
}

impl TierValues for CompactTier {
    #[inline]
    fn value_at(&self, index: u64) -> i8 {
        let line = &self.lines[(index / LINE_POSITIONS as u64) as usize].0;
        let r = (index % LINE_POSITIONS as u64) as usize;
        let (w, shift) = (1 + r / CODES_PER_WORD, (r % CODES_PER_WORD) as u32 * CODE_BITS);
        let code = (line[w] >> shift) & ESCAPE;
        if code != ESCAPE {
            return (2 * ((line[0] & 0xff) + code) as i32 - self.seeds as i32) as i8;
        }
        let before: u32 = line[1..w].iter().map(|&word| escapes(word).count_ones()).sum::<u32>()
            + (escapes(line[w]) & ((1u64 << shift) - 1)).count_ones();
        self.exceptions[((line[0] >> 8) + before as u64) as usize]
    }
}

/// Packs `values` (at least as many as `lines` hold, or the tier's last ones) into `lines`,
/// exception indices counted from 0; returns the exceptions.
pub(crate) fn pack_lines(seeds: u32, values: &[u8], lines: &mut [Line]) -> Vec<i8> {
    let mut exceptions = Vec::new();
    for (line, chunk) in lines.iter_mut().zip(values.chunks(LINE_POSITIONS)) {
        let units = chunk.iter().map(|&v| unit(seeds, v as i8));
        let base = best_base(units.clone());
        line.0 = [0; 8];
        line.0[0] = base as u64 | (exceptions.len() as u64) << 8;
        for (r, (u, &v)) in units.zip(chunk).enumerate() {
            let code = match u {
                Some(u) if u >= base && ((u - base) as u64) < ESCAPE => (u - base) as u64,
                _ => {
                    exceptions.push(v as i8);
                    ESCAPE
                }
            };
            line.0[1 + r / CODES_PER_WORD] |= code << ((r % CODES_PER_WORD) as u32 * CODE_BITS);
        }
    }
    exceptions
}

/// `(v + k) / 2`, or `None` for a value of the wrong parity or out of range (an exception).
fn unit(seeds: u32, value: i8) -> Option<u8> {
    let shifted = value as i32 + seeds as i32;
    (shifted >= 0 && shifted % 2 == 0 && shifted / 2 <= u8::MAX as i32).then_some((shifted / 2) as u8)
}

/// The base whose window of 7 units covers the most of a line's values.
fn best_base(units: impl Iterator<Item = Option<u8>>) -> u8 {
    let mut counts = [0u16; 256 + ESCAPE as usize];
    units.flatten().for_each(|u| counts[u as usize] += 1);
    let mut window: u16 = counts[..ESCAPE as usize].iter().sum();
    let (mut best, mut best_count) = (0u8, window);
    for base in 1..=255usize {
        window = window + counts[base + ESCAPE as usize - 1] - counts[base - 1];
        if window > best_count {
            (best, best_count) = (base as u8, window);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_including_escapes_and_wrong_parity() {
        let seeds = 20;
        let values: Vec<u8> = (0..LINE_POSITIONS * 5 + 11)
            .map(|i| {
                // Escapes at every code slot of a word over the lines, some lines without any.
                let v = match (i % 23, i / LINE_POSITIONS) {
                    (0, 1) => 3, // wrong parity: an exception
                    (0 | 5 | 6, 0 | 1 | 4) => 20,
                    (11, 0 | 1 | 4) => -20,
                    _ => ((i / 13) % 5) as i32 * 2 - 4,
                };
                v as i8 as u8
            })
            .collect();
        let tier = CompactTier::from_values(seeds, &values);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(tier.value_at(i as u64), v as i8, "index {i}");
        }
        assert!(tier.exceptions.len() >= 3 * 3 * 6, "{}", tier.exceptions.len());
    }
}
