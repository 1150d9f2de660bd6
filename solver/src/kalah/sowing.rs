//! The Kalah move on the shared board: one lap (no relay), then the capture or the extra move,
//! then the end of the game if either side is empty.
//!
//! The lap is the same masked addition as Dakon's (`Layout::sow_lap`): lift the hole, add one
//! seed to each of the next `hand % (2n + 1)` cycle slots and `hand / (2n + 1)` seeds to every
//! slot, all from tables; whether the landing hole was empty before its last seed comes with
//! it.

use super::outcome::{Capture, Outcome};
use super::CaptureRule;
use crate::dakon::layout::{byte_sum, LapEnd, LAYOUTS, STORE_BYTE};
use crate::dakon::Position;

/// Plays the mover's hole `r` (counted in the mover's sowing direction).
///
/// The caller guarantees that hole `r` is a non-empty hole of the mover and that the game is
/// not over; otherwise the result is nonsense (or a panic in debug builds).
#[inline(always)]
pub(super) fn play(pos: &Position, r: usize, rule: CaptureRule) -> (Position, Outcome) {
    let n = pos.holes();
    let layout = &LAYOUTS[n];
    let mut lanes = pos.lanes();
    let store_before = lanes.get(STORE_BYTE);
    let hand = lanes.get(r) as usize;
    debug_assert!(hand > 0, "hole {r} is empty");
    // The mover's hole `r` is cycle slot `r` and byte `r`.
    let LapEnd { slot: last, byte: last_byte, landed } = layout.sow_lap(&mut lanes, r, r, hand);
    let extra_move = last_byte == STORE_BYTE;
    let mut capture = None;
    if last < n && landed == 1 {
        // The last seed landed alone on the mover's side: it and the facing hole are taken.
        let facing = 16 + n - 1 - last;
        let taken = lanes.get(facing);
        if taken > 0 || rule == CaptureRule::Always {
            lanes.take(last);
            lanes.take(facing);
            lanes.put(STORE_BYTE, taken + 1);
            capture = Some(Capture { facing: taken });
        }
    }
    let sown_into_store = lanes.get(STORE_BYTE) - store_before - capture.map_or(0, |c| c.seeds());
    let last_hole = if last == n {
        None
    } else if last < n {
        Some(pos.absolute_hole(pos.mover(), last) as u8)
    } else {
        Some(pos.absolute_hole(pos.mover().other(), last - n - 1) as u8)
    };
    // The game ends when either side is empty: each player stores their own side's seeds.
    let (own, opponent) = (byte_sum(lanes.lane(0), layout.row_mask), byte_sum(lanes.lane(1), layout.row_mask));
    let end = if own == 0 || opponent == 0 {
        lanes.clear(0, layout.row_mask);
        lanes.clear(1, layout.row_mask);
        lanes.put(STORE_BYTE, own);
        lanes.put(16 + STORE_BYTE, opponent);
        let mut by_player = [0u8; 2];
        by_player[pos.mover().number() as usize] = own;
        by_player[pos.mover().other().number() as usize] = opponent;
        Some(by_player)
    } else {
        None
    };
    let next = if extra_move {
        Position::from_lanes(lanes, n, pos.mover())
    } else {
        Position::from_lanes(lanes.swapped(), n, pos.mover().other())
    };
    (next, Outcome { sown_into_store, last_hole, capture, extra_move, end })
}
