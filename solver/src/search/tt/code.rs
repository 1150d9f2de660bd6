//! The short code of the compact layout: a lossless number per board, scrambled.
//!
//! Two numberings share the code's `width` bits without overlapping:
//! - **nibbles**, below `2^(4 m)` for `m` holes: the seeds of each hole in 4 bits, for boards
//!   with at most 15 seeds in every hole (nearly all that a search of a standard start
//!   visits). The rule set's key is read for it when it keeps each hole's seeds in the low
//!   bits of a byte of its own (the Dakon [`Key`](crate::dakon::Key) of up to 8 holes a row,
//!   found by looking at the keys of the boards of one seed); a key with any other bit set is
//!   not numbered this way. It costs a dozen operations on the key;
//! - **ranked**, from there on: `boards with fewer seeds + the index of the board in its
//!   tier` ([`TierLayout::index`], the perfect index of `crate::composition`), gapless and unique,
//!   for every board up to [`ShortCode::ceiling`] seeds (about 60 instructions).
//!
//! [`mix`] then scrambles the number with a bijection of `width`-bit numbers, so that its low
//! bits (the bucket) are spread over the table while the whole number, hence the board, is
//! still determined by bucket and tag.
//!
//! Nibbles come first because they are much cheaper than ranking and serve nearly every board
//! a search visits; the instruction counts are in `docs/benchmarks/code-notes.md`.

use crate::tier_layout::TierLayout;
use crate::transposition_key::TranspositionKey;

/// Most seeds a compact entry serves: its bounds are stored as `(v + k) / 2` in 7 bits.
pub(crate) const MAX_SEEDS: u32 = 127;

/// The numbering of the boards of one rule set in a code of `width` bits.
pub(crate) struct ShortCode {
    /// Where the key keeps the holes, if it keeps them as the nibbles numbering needs.
    nibbles: Option<Nibbles>,
    /// Where the ranked numbers start: past the nibble numbers.
    ranked_from: u64,
    /// `offsets[s]`: how many boards hold fewer than `s` seeds, for `s` in `0..=ceiling`.
    offsets: Box<[u64]>,
    /// One past the last number: `ranked_from` plus every board up to the ceiling.
    end: u64,
    width: u32,
}

/// A key that keeps the seeds of hole `j` in the low bits of byte `j` (the mover's holes) or
/// `8 + j` (the opponent's), `j < holes`, and nothing else.
#[derive(Clone, Copy)]
struct Nibbles {
    holes: u32,
    /// The low nibble of each of those bytes: a key with a bit elsewhere has a hole of 16 seeds
    /// or more.
    mask: u128,
}

impl Nibbles {
    /// The layout of `rules`' keys, if it is this one: the board with one seed in hole `j`
    /// must have the key `1 << 8 j` (mover) or `1 << (64 + 8 j)` (opponent).
    fn of<R: TranspositionKey + TierLayout>(rules: &R) -> Option<Nibbles> {
        let boards = rules.tier_size(1);
        let holes = (boards / 2) as u32;
        if boards % 2 != 0 || holes > 8 {
            return None;
        }
        let mut keys: Vec<u128> = (0..boards).map(|i| rules.key(&rules.position_at(1, i)).into()).collect();
        keys.sort_unstable();
        let expected: Vec<u128> = (0..2).flat_map(|half| (0..holes).map(move |j| 1u128 << (64 * half + 8 * j))).collect();
        let row = (0..holes).fold(0u128, |m, j| m | 0xF << (8 * j));
        (keys == expected).then_some(Nibbles { holes, mask: row | row << 64 })
    }

    /// Bits of the numbering.
    fn width(self) -> u32 {
        8 * self.holes
    }

    /// The number of a board by its key, if every hole holds at most 15 seeds.
    #[inline]
    fn number(self, key: u128) -> Option<u64> {
        (key & !self.mask == 0).then(|| nibbles_of(key as u64) | nibbles_of((key >> 64) as u64) << (4 * self.holes))
    }
}

/// The low nibbles of the eight bytes of `word`, byte 0's lowest.
#[inline]
fn nibbles_of(word: u64) -> u64 {
    let x = word & 0x0F0F_0F0F_0F0F_0F0F;
    let x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    let x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) & 0xFFFF_FFFF
}

impl ShortCode {
    /// The numbering of the boards of `rules` in `width` bits (at most 64): nibbles when the
    /// key allows and they leave room, then every board, tier by tier, whose ranked number
    /// is below `2^width`, up to [`MAX_SEEDS`] seeds; `None` if not even the empty board's
    /// tier fits.
    pub fn new<R: TranspositionKey + TierLayout>(rules: &R, width: u32) -> Option<ShortCode> {
        debug_assert!(width <= 64);
        let nibbles = Nibbles::of(rules).filter(|n| n.width() < width);
        let ranked_from = nibbles.map_or(0, |n| 1u64 << n.width());
        let limit = (1u128 << width) - ranked_from as u128;
        let mut offsets = Vec::new();
        let mut below = 0u128;
        for seeds in 0..=MAX_SEEDS {
            // Every tier holds fewer boards than all smaller tiers times the holes, so no tier
            // asked for here reaches the 2^64 at which `tier_size` gives up.
            let size = rules.tier_size(seeds) as u128;
            if below + size > limit {
                break;
            }
            offsets.push(below as u64);
            below += size;
        }
        let end = ranked_from + below as u64;
        (!offsets.is_empty()).then(|| ShortCode { nibbles, ranked_from, offsets: offsets.into_boxed_slice(), end, width })
    }

    /// The code in this numbering of the board whose code is `code` in `other`, a numbering
    /// of the same rules that this one [agrees with](ShortCode::agrees_with); `None` for a
    /// board above this numbering's ceiling.
    pub fn recode(&self, other: &ShortCode, code: u64) -> Option<u64> {
        debug_assert!(self.agrees_with(other));
        let number = unmix(code, other.width);
        (number < self.end).then(|| mix(number, self.width))
    }

    /// Whether this numbering gives every board that it and `other` (a numbering of the same
    /// rules) both number the same number before scrambling: when neither or both number by
    /// nibbles. Then [`ShortCode::recode`] carries codes over.
    pub fn agrees_with(&self, other: &ShortCode) -> bool {
        other.ranked_from == self.ranked_from
    }

    /// The most seeds on a board that this numbering covers (every board up to it).
    pub fn ceiling(&self) -> u32 {
        self.offsets.len() as u32 - 1
    }

    /// The scrambled number of `pos`, whose key is `key` and which holds `seeds` seeds;
    /// `None` above the ceiling.
    #[inline(always)]
    pub fn code<R: TierLayout>(&self, rules: &R, pos: &R::Position, key: u128, seeds: u32) -> Option<u64> {
        // Nibbles number boards of up to 15 seeds a hole, up to 180 seeds on 6 holes a row,
        // but an entry holds the bounds of at most 127 (before this test, the 132 seeds of a
        // 6 x 11 start overflowed the bounds' 7 bits: wrong bounds, found by the
        // reference-map test in `tt.rs`).
        if seeds > MAX_SEEDS {
            return None;
        }
        if let Some(number) = self.nibbles.and_then(|n| n.number(key)) {
            return Some(mix(number, self.width));
        }
        self.ranked(rules, pos, seeds)
    }

    /// The ranked part of [`ShortCode::code`] (out of line: the nibbles number nearly every
    /// board a search visits).
    #[inline(never)]
    fn ranked<R: TierLayout>(&self, rules: &R, pos: &R::Position, seeds: u32) -> Option<u64> {
        let below = *self.offsets.get(seeds as usize)?;
        Some(mix(self.ranked_from + below + rules.index(pos), self.width))
    }
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration, each step doubling the bits
/// that are right, from the 3 that `odd` itself gets right).
const fn inverse(odd: u64) -> u64 {
    let mut x = odd;
    let mut step = 0;
    while step < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)));
        step += 1;
    }
    x
}

const MIX_FIRST: u64 = 0xff51_afd7_ed55_8ccd;
const MIX_SECOND: u64 = 0xc4ce_b9fe_1a85_ec53;

/// A bijection of the numbers below `2^width` (`2 <= width <= 64`) that spreads their low
/// bits: xor-shifts and multiplications by odd constants modulo `2^width`, each invertible,
/// after the MurmurHash3 finaliser.
#[inline]
pub(crate) fn mix(x: u64, width: u32) -> u64 {
    let mask = u64::MAX >> (64 - width);
    let shift = width / 2;
    let mut x = x & mask;
    x ^= x >> shift;
    x = x.wrapping_mul(MIX_FIRST) & mask;
    x ^= x >> shift;
    x = x.wrapping_mul(MIX_SECOND) & mask;
    x ^ (x >> shift)
}

/// The inverse of [`mix`] of the same width: `unmix(mix(x, w), w) == x` for `x < 2^w`.
pub(crate) fn unmix(y: u64, width: u32) -> u64 {
    let mask = u64::MAX >> (64 - width);
    let shift = width / 2;
    // `x ^ (x >> s)` is undone by xoring in every multiple of `s` below the width.
    let unshift = |y: u64| {
        let (mut x, mut at) = (y, shift);
        while at < width {
            x ^= y >> at;
            at += shift;
        }
        x
    };
    let x = unshift(y & mask);
    let x = unshift(x.wrapping_mul(inverse(MIX_SECOND)) & mask);
    unshift(x.wrapping_mul(inverse(MIX_FIRST)) & mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dakon::Position;
    use crate::kalah::{CaptureRule, Kalah};

    #[test]
    fn mixing_is_a_bijection_of_the_width() {
        for width in [2, 7, 16] {
            let mut seen = vec![false; 1 << width];
            for x in 0..1u64 << width {
                let y = mix(x, width) as usize;
                assert!(y < seen.len() && !seen[y], "width {width}: {x} collides");
                seen[y] = true;
            }
        }
    }

    #[test]
    fn unmixing_undoes_mixing_at_every_width() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        for width in 2..=64 {
            let mask = u64::MAX >> (64 - width);
            for x in (0..64).chain((0..1000).map(|_| rng.r#gen::<u64>() & mask)).map(|x| x & mask) {
                assert_eq!(unmix(mix(x, width), width), x, "width {width}");
            }
        }
    }

    #[test]
    fn numberings_that_agree_carry_each_others_codes_over() {
        let rules = Kalah::new(3, CaptureRule::FacingSeeds).unwrap();
        let (narrow, wide) = (ShortCode::new(&rules, 30).unwrap(), ShortCode::new(&rules, 45).unwrap());
        assert!(wide.agrees_with(&narrow) && narrow.agrees_with(&wide));
        assert!(narrow.ceiling() < wide.ceiling());
        for seeds in [0u32, 5, 20, narrow.ceiling(), narrow.ceiling() + 1, wide.ceiling()] {
            for index in (0..rules.tier_size(seeds)).step_by(97) {
                let pos: Position = rules.position_at(seeds, index);
                let key = rules.key(&pos).into();
                let (in_narrow, in_wide) = (narrow.code(&rules, &pos, key, seeds), wide.code(&rules, &pos, key, seeds));
                if let Some(code) = in_narrow {
                    assert_eq!(wide.recode(&narrow, code), in_wide);
                }
                // Down: the boards above the narrower ceiling have no code there.
                assert_eq!(narrow.recode(&wide, in_wide.unwrap()), in_narrow, "{seeds} seeds");
            }
        }
        // 20 bits leave no room for the nibbles of 3 holes a row (24 bits): ranked only.
        let ranked_only = ShortCode::new(&rules, 20).unwrap();
        assert!(!wide.agrees_with(&ranked_only));
    }

    #[test]
    fn every_board_up_to_the_ceiling_has_its_own_code() {
        // Kalah on 2 holes a row, 44 bits: the ceiling is the 127 seeds of the entry; boards
        // of up to 40 seeds, numbered by nibbles below 16 seeds a hole and ranked above.
        let rules = Kalah::new(2, CaptureRule::FacingSeeds).unwrap();
        let code = ShortCode::new(&rules, 44).unwrap();
        assert_eq!(code.ceiling(), MAX_SEEDS);
        let mut seen = std::collections::HashSet::new();
        for seeds in 0..=40u32 {
            for index in 0..rules.tier_size(seeds) {
                let pos: Position = rules.position_at(seeds, index);
                assert!(seen.insert(code.code(&rules, &pos, rules.key(&pos).into(), seeds).unwrap()));
            }
        }
        // 20 bits: 2^16 nibble numbers, then 1 + 4 + 10 + 20 + ... ranked boards; the ceiling
        // is the last whole tier.
        let narrow = ShortCode::new(&rules, 20).unwrap();
        let limit = (1 << 20) - (1 << 16);
        let boards = |s: u32| (0..=s).map(|t| rules.tier_size(t)).sum::<u64>();
        assert!(boards(narrow.ceiling()) <= limit && boards(narrow.ceiling() + 1) > limit);
        let above = rules.position_at(narrow.ceiling() + 1, 0);
        assert!(above.seeds(crate::dakon::Side::Mover, 0) > 15 || above.seeds(crate::dakon::Side::Opponent, 1) > 15);
        assert_eq!(narrow.code(&rules, &above, rules.key(&above).into(), narrow.ceiling() + 1), None);
    }

    #[test]
    fn nibbles_number_the_byte_keys_only() {
        let holes = |h| Nibbles::of(&Kalah::new(h, CaptureRule::FacingSeeds).unwrap()).map(|n| n.holes);
        assert_eq!(
            (1..=9).map(holes).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6, 7, 8].map(Some).into_iter().chain([None]).collect::<Vec<_>>()
        );
        let n = Nibbles::of(&Kalah::new(6, CaptureRule::FacingSeeds).unwrap()).unwrap();
        let start: Position = Position::start(6, 4).unwrap();
        assert_eq!(n.number(crate::dakon::Key::of(&start).0), Some(0x4444_4444_4444));
        let crowded: Position = "16,0,0,0,0,0/0,0,0,0,0,0 0/0 0".parse().unwrap();
        assert_eq!(n.number(crate::dakon::Key::of(&crowded).0), None);
    }
}
