//! Where each hole lives in a [`Position`](super::Position)'s bytes, and the precomputed masks
//! that sow a whole lap with two vector additions.
//!
//! A position keeps its seeds in 32 bytes: two *lanes* of 16, one per player, the player to
//! move first. Within a lane, byte `r` (for `r < n`) is the owner's hole `r` counted in the owner's
//! sowing direction, and byte 15 is the owner's store:
//!
//! ```text
//!  lane 0 (mover):     | h0 | h1 | ... | h(n-1) | 0 ... 0 | store |
//!  lane 1 (opponent):  | h0 | h1 | ... | h(n-1) | 0 ... 0 | store |
//!  byte                  0    1         n-1                  15
//! ```
//!
//! The mover's lap visits the `L = 2n + 1` *cycle slots* `0..L`: own holes `0..n`, own store
//! (slot `n`), then the opponent's holes `0..n` (slots `n+1..L`), skipping the opponent's
//! store. The mover's hole `r` faces the opponent's hole `n - 1 - r`. Swapping the lanes
//! shows the position to the other player, which is all a change of turn costs.
//!
//! Because a board never holds more than 255 seeds, no byte can overflow, so adding a mask of
//! ones over the two lanes drops one seed into each of its holes at once.

/// Most holes per row.
pub const MAX_HOLES: usize = 9;
/// The byte of a lane that holds the store.
pub(crate) const STORE_BYTE: usize = 15;

/// Two lanes of 16 byte counters, the mover's then the opponent's: 32 bytes that are read
/// and written one at a time, or added to as a whole (which the compiler turns into two
/// vector additions).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct Lanes([u8; 32]);

impl Lanes {
    /// Lanes from their two `u128` halves (byte `i` of a lane is bits `8i..8i+8`).
    #[inline(always)]
    pub const fn from_u128(own: u128, opponent: u128) -> Lanes {
        let (a, b) = (own.to_le_bytes(), opponent.to_le_bytes());
        let mut bytes = [0u8; 32];
        let mut i = 0;
        while i < 16 {
            bytes[i] = a[i];
            bytes[16 + i] = b[i];
            i += 1;
        }
        Lanes(bytes)
    }

    /// Lane `i` (0: mover, 1: opponent) as a number.
    #[inline(always)]
    pub fn lane(&self, i: usize) -> u128 {
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&self.0[16 * i..16 * i + 16]);
        u128::from_le_bytes(bytes)
    }

    /// The byte at `byte` (0..32, lane-major).
    #[inline(always)]
    pub fn get(&self, byte: usize) -> u8 {
        self.0[byte & 31]
    }

    /// Bit `b` set for each non-empty byte `b` of the mover's lane.
    #[inline(always)]
    pub fn nonzero_mask(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of every x86_64 processor, and the lanes are 16-byte aligned.
        unsafe {
            use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_load_si128, _mm_movemask_epi8, _mm_setzero_si128};
            let lane = _mm_load_si128(self.0.as_ptr() as *const __m128i);
            !(_mm_movemask_epi8(_mm_cmpeq_epi8(lane, _mm_setzero_si128())) as u32) & 0xffff
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.0[..16].iter().enumerate().fold(0, |bits, (b, &seeds)| bits | (((seeds != 0) as u32) << b))
    }

    /// Empties the byte at `byte` and returns what it held.
    #[inline(always)]
    pub fn take(&mut self, byte: usize) -> u8 {
        std::mem::take(&mut self.0[byte & 31])
    }

    /// Adds `seeds` to the byte at `byte`; the caller guarantees it stays within 255.
    #[inline(always)]
    pub fn put(&mut self, byte: usize, seeds: u8) {
        self.0[byte & 31] += seeds;
    }

    /// Adds `mask`, byte by byte.
    #[inline(always)]
    pub fn add(&mut self, mask: &Lanes) {
        for (byte, add) in self.0.iter_mut().zip(mask.0) {
            *byte = byte.wrapping_add(add);
        }
    }

    /// One lap as whole-width operations: empties byte `origin` (the lifted hole) and adds
    /// `mask`. (Writing the lifted byte alone and then reading the whole lanes back would
    /// stall the processor's store forwarding on every relay.)
    #[inline(always)]
    pub fn sow(&mut self, mask: &Lanes, origin: usize) {
        let keep = &KEEP_ALL_BUT[origin & 31].0;
        for ((byte, add), keep) in self.0.iter_mut().zip(mask.0).zip(keep) {
            *byte = (*byte & keep).wrapping_add(add);
        }
    }

    /// Empties the bytes selected by `mask` in lane `i`.
    #[inline(always)]
    pub fn clear(&mut self, i: usize, mask: u128) {
        let kept = (self.lane(i) & !mask).to_le_bytes();
        self.0[16 * i..16 * i + 16].copy_from_slice(&kept);
    }

    /// The same lanes in the other order: the board seen by the other player.
    #[inline(always)]
    pub fn swapped(&self) -> Lanes {
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&self.0[16..]);
        bytes[16..].copy_from_slice(&self.0[..16]);
        Lanes(bytes)
    }
}

/// The masks and slot map for one board size.
pub(crate) struct Layout {
    /// `after[origin][len]`: one seed in each of the `len` cycle slots that follow cycle slot
    /// `origin`, wrapping round the cycle. (Tables here are padded to powers of two so that indices
    /// masked with `& (size - 1)` need no bounds check in the sowing loop.)
    pub after: [[Lanes; 32]; 32],
    /// `rounds[r]`: `r` seeds in every cycle slot (`r` whole rounds; at most 85, on one hole
    /// per row).
    pub rounds: [Lanes; 128],
    /// The bytes of one row's holes in a lane.
    pub row_mask: u128,
    /// `lap[seeds]`: the shape of a lap of `seeds` seeds.
    pub lap: [Lap; 256],
    /// `wrap[t] = t % (2n + 1)`: the cycle slot `t` slots on from slot 0.
    pub wrap: [u8; WRAP],
    /// `end_byte[t]`: the byte of cycle slot `t % (2n + 1)`.
    pub end_byte: [u8; WRAP],
    /// The cycle's length, `2n + 1` slots.
    pub cycle: u8,
}

/// Where a lap ended.
#[derive(Clone, Copy)]
pub(crate) struct LapEnd {
    /// The cycle slot of the last seed.
    pub slot: usize,
    /// Its byte in the lanes ([`STORE_BYTE`] for the mover's store).
    pub byte: usize,
    /// What the landing hole holds now (1: it was empty before the last seed).
    pub landed: u8,
}

impl Layout {
    /// Sows one lap: lifts the `hand` seeds of cycle slot `slot` (byte `slot_byte`), then puts
    /// `hand / cycle` seeds in every slot and one in each of the next `hand % cycle` slots, all
    /// from tables (whether a lap goes all the way round is too hard to predict for a branch).
    /// The landing hole is read before the lap's sums are stored, so that a following lap
    /// waits only for this read, not for the sums (see [`Lap::landing`]).
    #[inline(always)]
    pub fn sow_lap(&self, lanes: &mut Lanes, slot: usize, slot_byte: usize, hand: usize) -> LapEnd {
        let lap = self.lap[hand & 255];
        let end = (slot + hand) & 511;
        let (last, last_byte) = (self.wrap[end] as usize, self.end_byte[end] as usize);
        let landed = lanes.get(last_byte).wrapping_add(lap.landing);
        lanes.sow(&self.after[slot & 31][lap.rest as usize & 31], slot_byte);
        lanes.add(&self.rounds[lap.rounds as usize & 127]);
        LapEnd { slot: last, byte: last_byte, landed }
    }
}

impl Layout {
    /// Sows one lap that skips the hole it was lifted from (the `skip-origin` option): the
    /// `hand` seeds go round the `2n` other cycle slots, so `hand / 2n` to each and one more to
    /// each of the next `hand % 2n`. A lap too short to come round is the ordinary lap.
    #[inline]
    pub fn sow_lap_skipping_origin(&self, lanes: &mut Lanes, slot: usize, slot_byte: usize, hand: usize) -> LapEnd {
        let others = self.cycle as usize - 1;
        if hand <= others {
            return self.sow_lap(lanes, slot, slot_byte, hand);
        }
        let (rounds, rest) = (hand / others, hand % others);
        let end = slot + if rest == 0 { others } else { rest };
        let (last, last_byte) = (self.wrap[end] as usize, self.end_byte[end] as usize);
        lanes.sow(&self.after[slot & 31][rest & 31], slot_byte);
        for _ in 0..rounds {
            lanes.add(&self.after[slot & 31][others & 31]);
        }
        LapEnd { slot: last, byte: last_byte, landed: lanes.get(last_byte) }
    }
}

/// The shape of a lap of `seeds` seeds on one board size.
#[derive(Clone, Copy)]
pub(crate) struct Lap {
    /// Whole rounds: `seeds / (2n + 1)`.
    pub rounds: u8,
    /// Seeds left after the whole rounds, one in each of the next slots: `seeds % (2n + 1)`.
    pub rest: u8,
    /// What the landing hole gains, as a wrapping addition to what it held before the lap
    /// (the lifted seeds still counted when it is the origin): `rounds + 1` if the lap ends
    /// elsewhere, `rounds - seeds` if it ends in its own origin (`rest == 0`), which was
    /// emptied and then got `rounds` seeds.
    pub landing: u8,
}

/// Slots a lap can travel from its start (a start slot plus up to 255 seeds), padded.
const WRAP: usize = 512;

/// `KEEP_ALL_BUT[b]`: every bit set but those of byte `b`, for lifting one hole.
static KEEP_ALL_BUT: [Lanes; 32] = {
    let mut select = [Lanes([0xFF; 32]); 32];
    let mut b = 0;
    while b < 32 {
        select[b].0[b] = 0;
        b += 1;
    }
    select
};

/// `LAYOUTS[n]` for `n` in `1..=9` (index 0 is unused).
pub(crate) static LAYOUTS: [Layout; MAX_HOLES + 1] = layouts();

const fn cycle_byte(holes: usize, slot: usize) -> usize {
    if slot < holes {
        slot
    } else if slot == holes {
        STORE_BYTE
    } else {
        16 + slot - holes - 1
    }
}

const fn one_at(byte: usize) -> Lanes {
    let mut lanes = Lanes([0; 32]);
    lanes.0[byte] = 1;
    lanes
}

const fn plus(a: Lanes, b: Lanes) -> Lanes {
    let mut sum = a;
    let mut i = 0;
    while i < 32 {
        sum.0[i] += b.0[i];
        i += 1;
    }
    sum
}

const fn layout(holes: usize) -> Layout {
    let mut layout = Layout {
        after: [[Lanes([0; 32]); 32]; 32],
        rounds: [Lanes([0; 32]); 128],
        row_mask: 0,
        lap: [Lap { rounds: 0, rest: 0, landing: 0 }; 256],
        wrap: [0; WRAP],
        end_byte: [0; WRAP],
        cycle: 0,
    };
    if holes == 0 {
        return layout;
    }
    let cycle = 2 * holes + 1;
    layout.cycle = cycle as u8;
    let mut whole = Lanes([0; 32]);
    let mut slot = 0;
    while slot < cycle {
        whole = plus(whole, one_at(cycle_byte(holes, slot)));
        slot += 1;
    }
    let mut rounds = 1;
    while rounds * cycle <= 255 {
        layout.rounds[rounds] = plus(layout.rounds[rounds - 1], whole);
        rounds += 1;
    }
    let mut origin = 0;
    while origin < cycle {
        let mut len = 1;
        while len < cycle {
            let last = (origin + len) % cycle;
            layout.after[origin][len] = plus(layout.after[origin][len - 1], one_at(cycle_byte(holes, last)));
            len += 1;
        }
        origin += 1;
    }
    let mut seeds = 0;
    while seeds < 256 {
        let (rounds, rest) = ((seeds / cycle) as u8, (seeds % cycle) as u8);
        let landing = if rest == 0 { rounds.wrapping_sub(seeds as u8) } else { rounds + 1 };
        layout.lap[seeds] = Lap { rounds, rest, landing };
        seeds += 1;
    }
    let mut t = 0;
    while t < WRAP {
        layout.wrap[t] = (t % cycle) as u8;
        layout.end_byte[t] = cycle_byte(holes, t % cycle) as u8;
        t += 1;
    }
    layout.row_mask = if holes >= 16 { u128::MAX } else { (1u128 << (8 * holes)) - 1 };
    layout
}

const fn layouts() -> [Layout; MAX_HOLES + 1] {
    [layout(0), layout(1), layout(2), layout(3), layout(4), layout(5), layout(6), layout(7), layout(8), layout(9)]
}

/// The sum of the 16 bytes of `lane`, however large.
#[inline(always)]
pub(crate) fn wide_byte_sum(lane: u128) -> u32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of every x86_64 processor; a `u128` and an `__m128i` are 16 plain bytes.
    unsafe {
        use std::arch::x86_64::{__m128i, _mm_sad_epu8, _mm_setzero_si128};
        let halves: u128 = std::mem::transmute(_mm_sad_epu8(std::mem::transmute::<u128, __m128i>(lane), _mm_setzero_si128()));
        (halves as u64).wrapping_add((halves >> 64) as u64) as u32
    }
    #[cfg(not(target_arch = "x86_64"))]
    lane.to_le_bytes().iter().map(|&b| u32::from(b)).sum()
}

/// The sum of the bytes selected by `mask` in one lane (valid while it stays within 255).
#[inline(always)]
pub(crate) fn byte_sum(lane: u128, mask: u128) -> u8 {
    wide_byte_sum(lane & mask) as u8
}
