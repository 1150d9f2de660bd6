//! The packed bucket format of the compact layout: ten 50-bit entries in a 64-byte bucket,
//! under a sequence number, for boards of at most 6 holes a row whose short code is at most
//! [`TAG_BITS`] bits longer than the bucket index (Kalah and Dakon of 6 holes from 128 MiB
//! up). Ten entries where the word format keeps eight: a fifth more boards in the same memory.
//!
//! The bucket, as one 512-bit little-endian number (word 0 lowest):
//!
//! ```text
//! bits 0..12            sequence number (bit 0 set while a writer holds the bucket)
//! bits 12 + 50 j ..     entry j, j in 0..10
//! ```
//!
//! and an entry:
//!
//! ```text
//! bit 49         22  21..17  16..14  13..7        6..0
//!     | tag (28)    | work  | move  | (upper+k)/2 | (lower+k)/2 |
//! ```
//!
//! The move field is 0 for an unused entry, `1 + mv` for move `mv` (0 to 5) and 7 for none.
//!
//! Entries straddle the bucket's atomic words, so a writer takes the bucket by setting bit 0
//! of word 0 (a compare-and-swap: a bucket held by another writer drops the store), writes its
//! words, and gives it back with the sequence number two higher. A reader takes word 0, the
//! other words, then word 0 again, and trusts what it read only if word 0 is unchanged and was
//! not held. A reader could be fooled only by exactly 2048 completed writes of its own bucket
//! between its two reads of word 0, with word 0 ending as it began.

use std::sync::atomic::{fence, Ordering};

use super::compact::{Bucket, Fields, Format, OFFSET_BITS, WAYS_MAX, WORK_MAX};

/// Bits of the tag.
pub(crate) const TAG_BITS: u32 = 28;
const ENTRY_BITS: u32 = 50;
const ENTRY_MASK: u64 = (1 << ENTRY_BITS) - 1;
const SEQUENCE_BITS: u32 = 12;
const SEQUENCE_MASK: u64 = (1 << SEQUENCE_BITS) - 1;
const HELD: u64 = 1;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
const MOVE_SHIFT: u32 = 2 * OFFSET_BITS;
const MOVE_MASK: u64 = 7 << MOVE_SHIFT;
const NO_MOVE: u64 = 7;
/// Moves an entry holds: `0..MOVES`.
pub(crate) const MOVES: u8 = 6;
const WORK_SHIFT: u32 = MOVE_SHIFT + 3;
const TAG_SHIFT: u32 = WORK_SHIFT + 5;
const WAYS: usize = 10;

const _: () = assert!(TAG_SHIFT + TAG_BITS == ENTRY_BITS);
const _: () = assert!(SEQUENCE_BITS + WAYS as u32 * ENTRY_BITS == 512);
const _: () = assert!(WAYS <= WAYS_MAX);

/// The bit at which entry `j` starts in the bucket.
const fn start(j: usize) -> u32 {
    SEQUENCE_BITS + j as u32 * ENTRY_BITS
}

/// Entries of the bucket whose words are `words`.
#[inline(always)]
fn entries_of(words: &[u64; 8]) -> [u64; WAYS_MAX] {
    let mut entries = [0; WAYS_MAX];
    for (j, entry) in entries.iter_mut().enumerate().take(WAYS) {
        let (word, bit) = ((start(j) / 64) as usize, start(j) % 64);
        let mut e = words[word] >> bit;
        if bit + ENTRY_BITS > 64 {
            e |= words[word + 1] << (64 - bit);
        }
        *entry = e & ENTRY_MASK;
    }
    entries
}

/// The words of a bucket holding `entries` under sequence number `sequence`.
#[inline(always)]
fn words_of(entries: &[u64; WAYS_MAX], sequence: u64) -> [u64; 8] {
    let mut words = [0; 8];
    words[0] = sequence;
    for (j, &entry) in entries.iter().enumerate().take(WAYS) {
        let (word, bit) = ((start(j) / 64) as usize, start(j) % 64);
        words[word] |= entry << bit;
        if bit + ENTRY_BITS > 64 {
            words[word + 1] |= entry >> (64 - bit);
        }
    }
    words
}

/// The packed format (see the [module documentation](self)).
pub(crate) struct Packed;

impl Format for Packed {
    const WAYS: usize = WAYS;
    const TAG_BITS: u32 = TAG_BITS;

    fn encode(tag: u64, fields: Fields) -> Option<u64> {
        debug_assert!(tag >> TAG_BITS == 0);
        let mv = match fields.mv {
            Some(mv) if mv < MOVES => 1 + mv as u64,
            Some(_) => return None,
            None => NO_MOVE,
        };
        Some(tag << TAG_SHIFT | (fields.work as u64) << WORK_SHIFT | mv << MOVE_SHIFT | fields.upper << OFFSET_BITS | fields.lower)
    }

    #[inline(always)]
    fn decode(entry: u64) -> Fields {
        let mv = (entry & MOVE_MASK) >> MOVE_SHIFT;
        Fields {
            lower: entry & OFFSET_MASK,
            upper: (entry >> OFFSET_BITS) & OFFSET_MASK,
            mv: (mv != NO_MOVE).then(|| mv as u8 - 1),
            work: Self::work_of(entry),
        }
    }

    #[inline(always)]
    fn holds(entry: u64, tag: u64) -> bool {
        entry >> TAG_SHIFT == tag && entry & MOVE_MASK != 0
    }

    #[inline(always)]
    fn in_use(entry: u64) -> bool {
        entry & MOVE_MASK != 0
    }

    #[inline(always)]
    fn work_of(entry: u64) -> u8 {
        ((entry >> WORK_SHIFT) as u8) & WORK_MAX
    }

    #[inline(always)]
    fn tag_of(entry: u64) -> u64 {
        entry >> TAG_SHIFT
    }

    #[inline(always)]
    fn read(bucket: &Bucket) -> Option<[u64; WAYS_MAX]> {
        let first = bucket.0[0].load(Ordering::Acquire);
        if first & HELD != 0 {
            return None;
        }
        let words: [u64; 8] = std::array::from_fn(|i| if i == 0 { first } else { bucket.0[i].load(Ordering::Relaxed) });
        fence(Ordering::Acquire);
        (bucket.0[0].load(Ordering::Relaxed) == first).then(|| entries_of(&words))
    }

    #[inline]
    fn write(bucket: &Bucket, change: impl FnOnce(&[u64; WAYS_MAX]) -> [Option<(usize, u64)>; 2]) {
        let first = bucket.0[0].load(Ordering::Relaxed);
        if first & HELD != 0 || bucket.0[0].compare_exchange(first, first | HELD, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return;
        }
        fence(Ordering::Release);
        let words: [u64; 8] = std::array::from_fn(|i| if i == 0 { first } else { bucket.0[i].load(Ordering::Relaxed) });
        let mut entries = entries_of(&words);
        for (way, entry) in change(&entries).into_iter().flatten() {
            entries[way] = entry;
        }
        let sequence = (first & SEQUENCE_MASK).wrapping_add(2) & SEQUENCE_MASK;
        let new = words_of(&entries, sequence);
        for i in 1..8 {
            if new[i] != words[i] {
                bucket.0[i].store(new[i], Ordering::Relaxed);
            }
        }
        bucket.0[0].store(new[0], Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::compact::{pack, unpack};
    use crate::search::tt::Bounds;

    #[test]
    fn every_field_survives_a_round_trip() {
        let tag = (1 << TAG_BITS) - 3;
        for seeds in [0u32, 1, 2, 48, 127] {
            let k = seeds as i16;
            for lower in (-k..=k).step_by(2) {
                for upper in [lower, k] {
                    for mv in [None, Some(0u8), Some(3), Some(5)] {
                        for work in [0u8, 1, 30, 31] {
                            let b = Bounds { lower, upper, mv, work };
                            let entry = pack::<Packed>(tag, seeds, b).unwrap();
                            assert!(entry >> ENTRY_BITS == 0 && Packed::in_use(entry));
                            assert!(Packed::holds(entry, tag) && !Packed::holds(entry, tag - 1));
                            assert_eq!(unpack::<Packed>(entry, seeds), b);
                        }
                    }
                }
            }
        }
        assert_eq!(pack::<Packed>(1, 4, Bounds { lower: 0, upper: 0, mv: Some(6), work: 0 }), None, "move 6 does not fit");
        assert!(!Packed::holds(0, 0), "an unused entry holds no tag, not even 0");
    }

    #[test]
    fn entries_and_words_give_each_other_back() {
        let entries: [u64; WAYS_MAX] =
            std::array::from_fn(|j| if j < WAYS { (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(j as u64 + 1)) & ENTRY_MASK } else { 0 });
        for sequence in [0, 2, SEQUENCE_MASK - 1] {
            let words = words_of(&entries, sequence);
            assert_eq!(words[0] & SEQUENCE_MASK, sequence);
            assert_eq!(entries_of(&words), entries);
        }
    }
}
