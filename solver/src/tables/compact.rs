//! A tier in memory at about 3.8 bits a position, probed in O(1): one 64-byte line per
//! [`LINE_POSITIONS`] positions (3.48 bits), and a list of exceptions.
//!
//! A value `v` of tier `k` has the parity of `k`, so `u = (v + k) / 2` numbers it in `0..=k`.
//! Neighbouring indices differ by a seed moved between the mover's first holes, so the values of
//! a line lie close together: each line stores a base `u0` and, per position, a 3-bit code
//! `u - u0` in `0..=6`; code 7 (an *escape*) says the value is in the exception list. A line:
//!
//! ```text
//! word 0      bits 0..8: base u0; bits 8..64: index of the line's first escape in its group's
//!             exceptions
//! words 1..8  21 codes of 3 bits each (bit 63 unused): position 21·(w-1) + j at bits 3j..3j+3
//! ```
//!
//! A probe reads one line (one cache line, aligned); an escape also counts the escapes before it
//! in the line (a mask per word, at most 7, added field by field and summed once) and reads
//! the exception, so every probe is O(1), and costs little more than a byte array's for less
//! than half its memory (`docs/benchmarks/code-notes.md`).
//!
//! Lines come in groups (a file block's worth, decoded in parallel), each with its exceptions,
//! in index order, so that loading never holds a second copy. Up to tier 22 an exception is a
//! nibble (two a byte, the lower first): the rank of `u` among the units outside the line's window,
//! `u` below the base and `u - 7` above it (at most 16 of them); above tier 22 it is a byte,
//! the value itself. Exceptions are few, so they add a fraction of a bit a position.

use rayon::prelude::*;

use super::image::PartsError;
use crate::memory::ZeroedMemory;
use crate::prefetch::prefetch;

/// Positions per line: 7 words of 21 codes.
pub const LINE_POSITIONS: usize = 147;
const CODES_PER_WORD: usize = 21;
const CODE_BITS: u32 = 3;
const ESCAPE: u64 = 7;
/// Where the code of each position of a line is: its word (`1 + r / 21`) in the high byte, its
/// bit (`3 (r % 21)`) in the low one. A table, since the divisions cost a dozen instructions of
/// the probe's 40 (callgrind).
static CODE_AT: [u16; LINE_POSITIONS] = code_positions();

/// `2^71 / 147`, rounded up: [`line_of`]'s reciprocal.
const LINE_RECIPROCAL: u128 = (1u128 << 71).div_ceil(LINE_POSITIONS as u128);

/// The line of position `index`, `index / 147`, by one multiplication: exact for every index
/// below `2^63` (the rounding adds less than `index / 2^71` to the quotient, under its last
/// `1/147`), where the division the compiler makes for all of `u64` costs three more
/// instructions of the probe's forty. An index beyond (no tier has `2^63` positions) still
/// gives a line far past the tier's, which the probe's bounds check refuses.
#[inline]
fn line_of(index: u64) -> usize {
    debug_assert!(index < 1 << 63);
    ((index as u128 * LINE_RECIPROCAL) >> 71) as usize
}

const fn code_positions() -> [u16; LINE_POSITIONS] {
    let mut table = [0u16; LINE_POSITIONS];
    let mut r = 0;
    while r < LINE_POSITIONS {
        table[r] = (((1 + r / CODES_PER_WORD) << 8) | ((r % CODES_PER_WORD) * CODE_BITS as usize)) as u16;
        r += 1;
    }
    table
}

/// Bit 0 of each of the 21 codes of a word.
const CODE_LOW_BITS: u64 = 0x1249_2492_4924_9249;

/// One 64-byte line: the base and first exception, then the codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Line([u64; 8]);

/// The highest tier whose exceptions are nibbles.
const NIBBLE_TIERS: u32 = 15 + ESCAPE as u32;

/// Read access to the values of one tier, by index: the plain byte array or a [`CompactTier`].
pub trait TierValues: Sync {
    /// The value (future gain) at `index`.
    ///
    /// # Panics
    /// May panic if `index` is not below the tier's size.
    fn value_at(&self, index: u64) -> i8;

    /// Asks for the memory that [`TierValues::value_at`] of `index` reads first.
    fn prefetch(&self, index: u64);
}

impl TierValues for Vec<u8> {
    #[inline]
    fn value_at(&self, index: u64) -> i8 {
        self[index as usize] as i8
    }

    #[inline]
    fn prefetch(&self, index: u64) {
        prefetch(self.as_ptr().wrapping_add(index as usize));
    }
}

impl<T: TierValues + ?Sized> TierValues for &T {
    #[inline]
    fn value_at(&self, index: u64) -> i8 {
        (**self).value_at(index)
    }

    #[inline]
    fn prefetch(&self, index: u64) {
        (**self).prefetch(index);
    }
}

/// The values of one tier, at about 3.6 bits a position (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactTier {
    seeds: u32,
    entries: u64,
    lines: Lines,
    /// Lines per group.
    group_lines: usize,
    /// Each group's exceptions: nibbles (tiers up to [`NIBBLE_TIERS`]) or values.
    exceptions: Vec<Box<[u8]>>,
}

/// The escapes of one code word, as bit 0 of each code that is 7.
#[inline]
fn escapes(word: u64) -> u64 {
    word & (word >> 1) & (word >> 2) & CODE_LOW_BITS
}

/// The sum of the 21 three-bit fields of `fields` (each at most 7, so the escapes of up to
/// seven words added field by field): folded into fields of 6 and 12 bits, then the 12-bit
/// fields added by one multiplication (no partial sum passes 12 bits). Cheaper than a
/// popcount a word without the `popcnt` instruction, which the portable build does not assume.
#[inline]
fn sum_of_fields(fields: u64) -> u32 {
    const SIXES: u64 = 0o07_07_07_07_07_07_07_07_07_07_07;
    const TWELVES: u64 = 0xF03F_03F0_3F03_F03F;
    let x = (fields & SIXES) + ((fields >> 3) & SIXES);
    let x = (x & TWELVES) + ((x >> 6) & TWELVES);
    ((x.wrapping_mul(0x0001_0010_0100_1001) >> 48) & 0xFFF) as u32 + (x >> 60) as u32
}

impl CompactTier {
    /// Packs the values (one byte each, two's complement) of tier `seeds`.
    ///
    /// # Errors
    /// [`WrongParity`] if a value of a tier up to 22 does not have the parity of `seeds` or
    /// lies outside `-seeds..=seeds` (no solved tier has one).
    pub fn from_values(seeds: u32, values: &[u8]) -> Result<CompactTier, WrongParity> {
        let group = LINE_POSITIONS * 2048;
        CompactTier::assemble(seeds, values.len() as u64, group, |block, lines| {
            pack_lines(seeds, block * group, &values[block * group..], lines)
        })
    }

    /// Builds a tier of `entries` values from groups of `group` values (a multiple of
    /// [`LINE_POSITIONS`]), packed in parallel: `pack(g, lines)` fills the lines of group `g`
    /// and returns its exceptions ([`pack_lines`]).
    ///
    /// # Errors
    /// The first error `pack` returns.
    pub(crate) fn assemble<E: Send>(
        seeds: u32,
        entries: u64,
        group: usize,
        pack: impl Fn(usize, &mut [Line]) -> Result<Exceptions, E> + Sync,
    ) -> Result<CompactTier, E> {
        debug_assert_eq!(group % LINE_POSITIONS, 0);
        let mut lines = Lines::zeroed((entries as usize).div_ceil(LINE_POSITIONS));
        let per_group = group / LINE_POSITIONS;
        let exceptions = lines.par_chunks_mut(per_group).enumerate().map(|(g, out)| pack(g, out).map(|e| e.0)).collect::<Result<_, E>>()?;
        Ok(CompactTier { seeds, entries, lines, group_lines: per_group, exceptions })
    }

    /// Positions in the tier.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Bytes of memory the tier holds (lines and exceptions).
    pub fn bytes(&self) -> u64 {
        (self.lines.len() * std::mem::size_of::<Line>() + self.exceptions.iter().map(|e| e.len()).sum::<usize>()) as u64
    }

    /// The bytes the lines of a tier of `entries` positions take (the exceptions come on top).
    pub fn line_bytes(entries: u64) -> u64 {
        entries.div_ceil(LINE_POSITIONS as u64) * std::mem::size_of::<Line>() as u64
    }

    /// Lines per group of exceptions.
    pub(crate) fn group_lines(&self) -> usize {
        self.group_lines
    }

    /// Each group's exceptions.
    pub(crate) fn exception_groups(&self) -> &[Box<[u8]>] {
        &self.exceptions
    }

    /// The lines as bytes, as they lie in memory (what an image file holds).
    pub(crate) fn line_bytes_of(&self) -> &[u8] {
        // SAFETY: a line is eight plain words, 64 bytes without padding, borrowed from `self`.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr() as *const u8, std::mem::size_of_val(&*self.lines)) }
    }

    /// A tier of `entries` values of tier `seeds` with groups of `group_lines` lines whose
    /// exceptions take `exceptions[g]` bytes, its lines and then each group's exceptions
    /// filled by `read` (the bytes [`CompactTier::line_bytes_of`] and
    /// [`CompactTier::exception_groups`] gave): how an image file is read back.
    ///
    /// # Errors
    /// [`PartsError::Layout`] if the layout cannot be a tier's of `entries` values (too many or
    /// too few groups, a group with more exceptions than positions); [`PartsError::Read`] with
    /// `read`'s error.
    pub(crate) fn from_parts(
        seeds: u32,
        entries: u64,
        group_lines: usize,
        exceptions: &[u64],
        mut read: impl FnMut(&mut [u8]) -> std::io::Result<()>,
    ) -> Result<CompactTier, PartsError> {
        let lines = (entries as usize).div_ceil(LINE_POSITIONS);
        if group_lines == 0 || lines.div_ceil(group_lines) != exceptions.len() {
            return Err(PartsError::Layout(format!("{} groups of {group_lines} lines for {lines} lines", exceptions.len())));
        }
        let most = (group_lines * LINE_POSITIONS) as u64;
        if let Some(g) = exceptions.iter().position(|&bytes| bytes > most) {
            return Err(PartsError::Layout(format!("{} bytes of exceptions in group {g} of {most} positions", exceptions[g])));
        }
        let mut packed = Lines::zeroed(lines);
        // SAFETY: as in `line_bytes_of`; any bytes are a valid line, and the borrow is exclusive.
        let bytes = unsafe { std::slice::from_raw_parts_mut(packed.as_mut_ptr() as *mut u8, lines * std::mem::size_of::<Line>()) };
        read(bytes).map_err(PartsError::Read)?;
        let exceptions = exceptions
            .iter()
            .map(|&len| {
                let mut group = vec![0u8; len as usize].into_boxed_slice();
                read(&mut group).map(|()| group)
            })
            .collect::<Result<_, _>>()
            .map_err(PartsError::Read)?;
        Ok(CompactTier { seeds, entries, lines: packed, group_lines, exceptions })
    }
}

impl TierValues for CompactTier {
    #[inline]
    fn value_at(&self, index: u64) -> i8 {
        let line_index = line_of(index);
        let line = &self.lines[line_index].0;
        let at = CODE_AT[(index - line_index as u64 * LINE_POSITIONS as u64) as usize];
        let (w, shift) = ((at >> 8) as usize & 7, (at & 0xff) as u32);
        let code = (line[w] >> shift) & ESCAPE;
        if code != ESCAPE {
            return (2 * ((line[0] & 0xff) + code) as i32 - self.seeds as i32) as i8;
        }
        self.exception(line_index, w, shift)
    }

    #[inline]
    fn prefetch(&self, index: u64) {
        prefetch(self.lines.as_ptr().wrapping_add(line_of(index)));
    }
}

impl CompactTier {
    /// The value of the escape at code word `w`, bit `shift`, of line `line_index`: kept out
    /// of line so that the probe of the other 92 % stays short.
    #[cold]
    #[inline(never)]
    fn exception(&self, line_index: usize, w: usize, shift: u32) -> i8 {
        let line = &self.lines[line_index].0;
        let fields = line[1..w].iter().fold(escapes(line[w]) & ((1u64 << shift) - 1), |sum, &word| sum + escapes(word));
        let at = ((line[0] >> 8) + sum_of_fields(fields) as u64) as usize;
        let exceptions = &self.exceptions[line_index / self.group_lines];
        if self.seeds > NIBBLE_TIERS {
            return exceptions[at] as i8;
        }
        let (nibble, base) = ((exceptions[at / 2] >> (4 * (at % 2))) & 0xf, (line[0] & 0xff) as u8);
        let unit = if nibble < base { nibble } else { nibble + ESCAPE as u8 };
        (2 * unit as i32 - self.seeds as i32) as i8
    }
}

/// The lines of a tier, in zeroed memory advised for huge pages (as the transposition table's):
/// probes read them at random, and 4 KiB pages would add a page walk to most of them. The
/// memory is there even for no line, so that reaching a line takes no test (callgrind: 5 of
/// the probe's instructions).
struct Lines {
    memory: ZeroedMemory,
    len: usize,
}

impl Lines {
    fn zeroed(len: usize) -> Lines {
        Lines { memory: ZeroedMemory::new(len.max(1) * std::mem::size_of::<Line>()), len }
    }
}

impl std::ops::Deref for Lines {
    type Target = [Line];
    #[inline]
    fn deref(&self) -> &[Line] {
        // SAFETY: the region holds at least `len` lines, aligned to 64 bytes; all-zero bytes
        // are a valid `Line`, and `&self` keeps the region alive and unwritten for the borrow.
        unsafe { std::slice::from_raw_parts(self.memory.as_ptr() as *const Line, self.len) }
    }
}

impl std::ops::DerefMut for Lines {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Line] {
        // SAFETY: as for `deref`, and `&mut self` makes the borrow exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.memory.as_ptr() as *mut Line, self.len) }
    }
}

impl Clone for Lines {
    fn clone(&self) -> Lines {
        let mut copy = Lines::zeroed(self.len);
        copy.copy_from_slice(self);
        copy
    }
}

impl PartialEq for Lines {
    fn eq(&self, other: &Lines) -> bool {
        **self == **other
    }
}

impl Eq for Lines {}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} lines", self.len)
    }
}

/// The exceptions of a group of lines: nibbles, two a byte (the lower first), or values.
pub(crate) struct Exceptions(Box<[u8]>);

/// A value that a compact tier of format 2 cannot hold: no solved tier has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongParity {
    /// The tier.
    pub seeds: u32,
    /// The position's index.
    pub index: u64,
    /// Its value.
    pub value: i8,
}

impl std::fmt::Display for WrongParity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let WrongParity { seeds, index, value } = self;
        write!(f, "position {index} of tier {seeds} has the value {value}, expected one of -{seeds}..={seeds} of the parity of {seeds}")
    }
}

/// Packs `values` (of positions `first..`: at least as many as `lines` hold, or the tier's
/// last ones) into the group of `lines`; returns the group's exceptions.
///
/// # Errors
/// As [`CompactTier::from_values`].
pub(crate) fn pack_lines(seeds: u32, first: usize, values: &[u8], lines: &mut [Line]) -> Result<Exceptions, WrongParity> {
    let mut exceptions = Vec::new();
    for (l, (line, chunk)) in lines.iter_mut().zip(values.chunks(LINE_POSITIONS)).enumerate() {
        let units = chunk.iter().map(|&v| unit(seeds, v as i8));
        let base = best_base(units.clone(), seeds.saturating_sub(ESCAPE as u32 - 1).min(255) as usize);
        line.0 = [0; 8];
        line.0[0] = base as u64 | (exceptions.len() as u64) << 8;
        for (r, (u, &v)) in units.zip(chunk).enumerate() {
            let code = match u {
                Some(u) if u >= base && ((u - base) as u64) < ESCAPE => (u - base) as u64,
                _ if seeds > NIBBLE_TIERS => {
                    exceptions.push(v);
                    ESCAPE
                }
                Some(u) => {
                    let nibble = if u < base { u } else { u - ESCAPE as u8 };
                    debug_assert!(nibble < 16, "the window lies within the tier");
                    exceptions.push(nibble);
                    ESCAPE
                }
                None => return Err(WrongParity { seeds, index: (first + l * LINE_POSITIONS + r) as u64, value: v as i8 }),
            };
            line.0[1 + r / CODES_PER_WORD] |= code << ((r % CODES_PER_WORD) as u32 * CODE_BITS);
        }
    }
    if seeds > NIBBLE_TIERS {
        return Ok(Exceptions(exceptions.into_boxed_slice()));
    }
    Ok(Exceptions(exceptions.chunks(2).map(|pair| pair[0] | pair.get(1).map_or(0, |high| high << 4)).collect()))
}

/// `(v + k) / 2`, or `None` for a value of the wrong parity or out of `-k..=k`.
fn unit(seeds: u32, value: i8) -> Option<u8> {
    let shifted = value as i32 + seeds as i32;
    (shifted >= 0 && shifted % 2 == 0 && shifted <= 2 * seeds as i32).then_some((shifted / 2) as u8)
}

/// The base, at most `max_base`, whose window of 7 units covers the most of a line's values.
/// With `max_base = k - 6` the window lies within `0..=k`, so at most 16 units lie outside it
/// up to tier 22 (a nibble).
fn best_base(units: impl Iterator<Item = Option<u8>>, max_base: usize) -> u8 {
    let mut counts = [0u16; 256 + ESCAPE as usize];
    units.flatten().for_each(|u| counts[u as usize] += 1);
    let mut window: u16 = counts[..ESCAPE as usize].iter().sum();
    let (mut best, mut best_count) = (0u8, window);
    for base in 1..=max_base {
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

    /// The multiplication gives the division's line around every multiple of 147 up to
    /// 10^7, and around multiples scattered up to the largest index it is exact for.
    #[test]
    fn the_line_of_an_index_is_its_quotient_by_147() {
        let step = LINE_POSITIONS as u64;
        let mut samples: Vec<u64> = (0..10_000_000 / step).map(|q| q * step).collect();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            samples.push((x >> 1) / step * step);
        }
        samples.push((1 << 63) - 1 - ((1u64 << 63) - 1) % step);
        for multiple in samples {
            for index in [multiple.wrapping_sub(1), multiple, multiple + 1, multiple + step - 1] {
                if index < 1 << 63 {
                    assert_eq!(line_of(index) as u64, index / step, "index {index}");
                }
            }
        }
    }

    /// Values of tier `seeds` with escapes at every code slot of a word, some lines without any.
    fn values(seeds: u32) -> Vec<u8> {
        let k = seeds as i32;
        (0..LINE_POSITIONS * 5 + 11)
            .map(|i| {
                let v = match (i % 23, i / LINE_POSITIONS) {
                    (0 | 5 | 6, 0 | 1 | 4) => k,
                    (11, 0 | 1 | 4) => -k,
                    (12, 1) => k - 2,
                    _ => ((i / 13) % 4) as i32 * 2 - k + 4,
                };
                v as i8 as u8
            })
            .collect()
    }

    #[test]
    fn every_value_reads_back_with_nibble_and_byte_exceptions() {
        for seeds in [16, NIBBLE_TIERS, NIBBLE_TIERS + 1, 60] {
            let values = values(seeds);
            let tier = CompactTier::from_values(seeds, &values).unwrap();
            // Groups of two lines, as if a file's blocks were that small.
            let group = 2 * LINE_POSITIONS;
            let grouped = CompactTier::assemble(seeds, values.len() as u64, group, |g, lines| {
                pack_lines(seeds, g * group, &values[g * group..], lines)
            })
            .unwrap();
            assert_eq!(grouped.exceptions.len(), 3);
            for (i, &v) in values.iter().enumerate() {
                assert_eq!((tier.value_at(i as u64), grouped.value_at(i as u64)), (v as i8, v as i8), "tier {seeds} index {i}");
            }
            let escapes = tier.lines.iter().map(|l| l.0[1..].iter().map(|&w| escapes(w).count_ones()).sum::<u32>()).sum::<u32>();
            assert!(escapes >= 3 * 3 * 6, "{escapes}");
        }
    }

    #[test]
    fn fields_sum_as_popcounts_do() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            let words: Vec<u64> = (0..7)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state & (state >> 1) & (state >> 2)
                })
                .collect();
            for used in 0..=7 {
                let fields = words[..used].iter().fold(0, |sum, &w| sum + escapes(w));
                assert_eq!(sum_of_fields(fields), words[..used].iter().map(|&w| escapes(w).count_ones()).sum::<u32>());
            }
        }
        assert_eq!(sum_of_fields(7 * CODE_LOW_BITS), 147, "every code of a line an escape");
    }

    #[test]
    fn a_value_of_the_wrong_parity_is_refused() {
        let mut values = values(16);
        values[200] = 3;
        let error = CompactTier::from_values(16, &values).unwrap_err();
        assert_eq!(error, WrongParity { seeds: 16, index: 200, value: 3 });
    }
}
