//! Where each hole lives in a [`Position`](super::Position)'s bytes, and the precomputed masks
//! that sow a whole lap with two wide additions.
//!
//! A position keeps its 256 bits as two `u128` *lanes*, one per player, the player to move
//! first. Within a lane, byte `r` (for `r < n`) is the owner's hole `r` counted in the owner's
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
/// Most cycle slots in a lap: `2 * MAX_HOLES + 1`.
pub(crate) const MAX_CYCLE: usize = 2 * MAX_HOLES + 1;
/// The byte of a lane that holds the store.
pub(crate) const STORE_BYTE: usize = 15;

/// Two lanes of 16 byte counters: the mover's then the opponent's.
pub(crate) type Lanes = [u128; 2];

/// The masks and slot map for one board size.
pub(crate) struct Layout {
    /// `range[start][len]`: one seed in each of the `len` cycle slots from `start` on,
    /// wrapping round the cycle.
    pub range: [[Lanes; MAX_CYCLE]; MAX_CYCLE],
    /// One seed in every cycle slot (a whole round).
    pub full: Lanes,
    /// `byte[c]`: the byte (0..32, lane-major) of cycle slot `c`.
    pub byte: [u8; MAX_CYCLE],
    /// The bytes of one row's holes in a lane.
    pub row_mask: u128,
}

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
    let mut lanes = [0u128; 2];
    lanes[byte / 16] = 1u128 << (8 * (byte % 16));
    lanes
}

const fn plus(a: Lanes, b: Lanes) -> Lanes {
    [a[0] + b[0], a[1] + b[1]]
}

const fn layout(holes: usize) -> Layout {
    let mut layout = Layout { range: [[[0; 2]; MAX_CYCLE]; MAX_CYCLE], full: [0; 2], byte: [0; MAX_CYCLE], row_mask: 0 };
    if holes == 0 {
        return layout;
    }
    let cycle = 2 * holes + 1;
    let mut slot = 0;
    while slot < cycle {
        layout.byte[slot] = cycle_byte(holes, slot) as u8;
        layout.full = plus(layout.full, one_at(cycle_byte(holes, slot)));
        slot += 1;
    }
    let mut start = 0;
    while start < cycle {
        let mut len = 1;
        while len < cycle {
            let last = (start + len - 1) % cycle;
            layout.range[start][len] = plus(layout.range[start][len - 1], one_at(cycle_byte(holes, last)));
            len += 1;
        }
        start += 1;
    }
    layout.row_mask = if holes >= 16 { u128::MAX } else { (1u128 << (8 * holes)) - 1 };
    layout
}

const fn layouts() -> [Layout; MAX_HOLES + 1] {
    [layout(0), layout(1), layout(2), layout(3), layout(4), layout(5), layout(6), layout(7), layout(8), layout(9)]
}

/// The byte at `byte` (0..32, lane-major).
#[inline(always)]
pub(crate) fn get(lanes: &Lanes, byte: usize) -> u8 {
    (lanes[byte >> 4] >> (8 * (byte & 15))) as u8
}

/// Empties the byte at `byte` and returns what it held.
#[inline(always)]
pub(crate) fn take(lanes: &mut Lanes, byte: usize) -> u8 {
    let shift = 8 * (byte & 15);
    let lane = &mut lanes[byte >> 4];
    let value = (*lane >> shift) as u8;
    *lane &= !(0xFFu128 << shift);
    value
}

/// Adds `seeds` to the byte at `byte`; the caller guarantees it stays within 255.
#[inline(always)]
pub(crate) fn put(lanes: &mut Lanes, byte: usize, seeds: u8) {
    lanes[byte >> 4] += (seeds as u128) << (8 * (byte & 15));
}

/// Adds `times` copies of `mask`, byte by byte.
#[inline(always)]
pub(crate) fn add(lanes: &mut Lanes, mask: &Lanes, times: u8) {
    lanes[0] += mask[0] * times as u128;
    lanes[1] += mask[1] * times as u128;
}

/// The sum of the bytes selected by `mask` in one lane (valid while it stays within 255).
#[inline(always)]
pub(crate) fn byte_sum(lane: u128, mask: u128) -> u8 {
    const ONES: u128 = u128::MAX / 255;
    ((lane & mask).wrapping_mul(ONES) >> 120) as u8
}
