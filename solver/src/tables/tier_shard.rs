//! One rank's shard of the tier being built by processes that partition it ([`ShardMap`]):
//! two bytes a position it owns, and nothing of the others'.
//!
//! Each position's two bytes hold its [`BuildSchedule::tier_order`] until it is solved, then its
//! value and [`Mark`] (what the file stores of it): a value of tier `k` has the parity of `k`,
//! so `(v + k) / 2`, at most 127, takes 7 bits, the mark 8, and the top bit says which of the
//! two the slot holds. No list of positions by level is kept: a level is found by scanning the
//! blocks whose orders span it.
//!
//! A level is solved in rounds: [`TierShard::moves`] lists the successors of some of its
//! positions, the caller finds their values (from this rank's shards, or from their owners),
//! and [`TierShard::settle`] records the positions' values from them. A move that stays in
//! the tier lowers `tier_order`, so every successor in the tier was settled at a lower level.

use std::path::Path;
use std::sync::atomic::{AtomicU16, Ordering};

use rayon::prelude::*;

use super::compact::{pack_lines, CompactTier, WrongParity};
use super::error::TableError;
use super::file::{compressed_block, EncodedBlock};
use super::format;
use super::residual::{from_marks, mark};
use super::shard::{ShardMap, SuccessorKey};
use crate::build_schedule::BuildSchedule;
use crate::prefetch::prefetch;
use crate::rules::MoveList;

/// The most boards [`TierShard::moves`] steps over from one position of a level to the next
/// one rather than unranking it: a step costs a small part of an unranking.
const MAX_STEPS: u64 = 8;

/// Slots a level's scan compares together ([`push_level`]): a mask of two bits a slot fills
/// a word.
const SCAN: usize = 32;

/// The bit of a slot that holds a value and mark rather than an order.
const SOLVED: u16 = 0x8000;

/// A slot's value, if it is solved.
#[inline]
fn slot_value(slot: u16, seeds: u32) -> Option<i8> {
    (slot & SOLVED != 0).then(|| (2 * i32::from((slot >> 8) & 0x7f) - seeds as i32) as i8)
}

/// The slot of a solved position.
#[inline]
fn solved_slot(value: i8, seeds: u32, mark: u8) -> u16 {
    let unit = (i32::from(value) + seeds as i32) / 2;
    debug_assert!((value as i32 + seeds as i32) % 2 == 0 && (0..=127).contains(&unit), "value {value} of tier {seeds}");
    SOLVED | (unit as u16) << 8 | u16::from(mark)
}

/// This rank's positions of one tier, each its order until it is solved, then its value and
/// mark (see the module documentation).
pub struct TierShard {
    seeds: u32,
    map: ShardMap,
    slots: Vec<u16>,
    /// Per own block, the lowest and highest order of its positions.
    spans: Vec<(u16, u16)>,
}

/// The moves of some positions of a tier: each move's successor, gain and whether the mover
/// moves again, the positions one after another. The successors are an array of their own,
/// which a round reads and sorts without copying them out.
#[derive(Default)]
pub struct Moves {
    /// Where each position's moves end in `successors` and `outcomes`.
    ends: Vec<u32>,
    successors: Vec<SuccessorKey>,
    outcomes: Vec<Outcome>,
    /// Each position's gain if its game is over (no moves).
    terminal: Vec<i8>,
}

/// What a move earns the mover, and whether the mover moves again.
#[derive(Clone, Copy)]
struct Outcome {
    gain: i16,
    same_mover: bool,
}

impl Moves {
    /// Every move's successor, in order: [`TierShard::settle`] takes their values in this
    /// order.
    pub fn successors(&self) -> &[SuccessorKey] {
        &self.successors
    }

    /// The place, among the positions listed, of the position whose move is `m`.
    pub fn position_of(&self, m: usize) -> usize {
        self.ends.partition_point(|&end| end as usize <= m)
    }

    /// How many moves.
    pub fn len(&self) -> usize {
        self.successors.len()
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.successors.is_empty()
    }

    fn append(&mut self, mut other: Moves) {
        let base = self.successors.len() as u32;
        self.ends.extend(other.ends.iter().map(|&e| e + base));
        self.successors.append(&mut other.successors);
        self.outcomes.append(&mut other.outcomes);
        self.terminal.append(&mut other.terminal);
    }
}

impl TierShard {
    /// This rank's shard of tier `seeds`, every position unsolved, its order computed (in
    /// parallel on the current rayon pool).
    ///
    /// # Errors
    /// [`TableError::Unsupported`] beyond 127 seeds or an order of `2^15` or more.
    pub fn new<R: BuildSchedule>(rules: &R, seeds: u32, map: ShardMap) -> Result<TierShard, TableError> {
        if seeds > i8::MAX as u32 {
            return Err(TableError::Unsupported { seeds, detail: format!("values need more than one byte above {} seeds", i8::MAX) });
        }
        let count = usize::try_from(map.count(rules.tier_size(seeds)))
            .map_err(|_| TableError::Unsupported { seeds, detail: "shard too large for this machine".into() })?;
        let mut slots = vec![0u16; count];
        let size = map.block();
        let spans = slots
            .par_chunks_mut(size)
            .enumerate()
            .map(|(k, block)| {
                let first = map.global((k * size) as u64);
                let mut orders = vec![0u32; 4096];
                let (mut low, mut high) = (u16::MAX, 0u16);
                for (at, part) in block.chunks_mut(4096).enumerate() {
                    let orders = &mut orders[..part.len()];
                    rules.tier_orders(seeds, first + (at * 4096) as u64, orders);
                    for (slot, &order) in part.iter_mut().zip(orders.iter()) {
                        let order = u16::try_from(order).ok().filter(|&o| o < SOLVED).ok_or_else(|| TableError::Unsupported {
                            seeds,
                            detail: format!("a tier order of {order}, beyond the {SOLVED} a shard holds"),
                        })?;
                        *slot = order;
                        (low, high) = (low.min(order), high.max(order));
                    }
                }
                Ok((low, high))
            })
            .collect::<Result<_, TableError>>()?;
        Ok(TierShard { seeds, map, slots, spans })
    }

    /// The tier.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// Bytes this shard holds.
    pub fn bytes(&self) -> u64 {
        (self.slots.len() * 2 + self.spans.len() * 4) as u64
    }

    /// Levels of `tier_order` among this rank's positions: the highest order plus one.
    pub fn levels(&self) -> u32 {
        self.spans.iter().map(|&(_, high)| u32::from(high) + 1).max().unwrap_or(0)
    }

    /// The tier indices of this rank's unsolved positions of order `level`, increasing (found
    /// in parallel, a block a unit).
    pub fn pending(&self, level: u32) -> Vec<u64> {
        let Ok(level) = u16::try_from(level) else { return Vec::new() };
        let size = self.map.block();
        let parts: Vec<Vec<u64>> = self
            .slots
            .par_chunks(size)
            .zip(self.spans.par_iter())
            .enumerate()
            .filter(|&(_, (_, &(low, high)))| (low..=high).contains(&level))
            .map(|(k, (block, _))| {
                let first = self.map.global((k * size) as u64);
                let mut found = Vec::new();
                push_level(block, level, first, &mut found);
                found
            })
            .collect();
        parts.concat()
    }

    /// The moves of the positions `indices` (this rank's, of this tier), found in parallel
    /// in units sized to the list, so that a short level still keeps every thread busy.
    pub fn moves<R: BuildSchedule>(&self, rules: &R, indices: &[u64]) -> Moves {
        // One thread takes the list whole: its parts would only be copied together.
        let threads = rayon::current_num_threads();
        let unit = if threads == 1 { indices.len().max(1) } else { (indices.len() / (8 * threads)).clamp(64, 1 << 14) };
        let mut parts: Vec<Moves> = indices.par_chunks(unit).map(|part| self.moves_of(rules, part)).collect();
        if parts.len() <= 1 {
            return parts.pop().unwrap_or_default();
        }
        // Reserved whole: growing by doubling copied the moves again and again.
        let mut all = Moves {
            ends: Vec::with_capacity(indices.len()),
            successors: Vec::with_capacity(parts.iter().map(Moves::len).sum()),
            outcomes: Vec::with_capacity(parts.iter().map(Moves::len).sum()),
            terminal: Vec::with_capacity(indices.len()),
        };
        for part in parts {
            all.append(part);
        }
        all
    }

    fn moves_of<R: BuildSchedule>(&self, rules: &R, indices: &[u64]) -> Moves {
        let mut out = Moves {
            ends: Vec::with_capacity(indices.len()),
            successors: Vec::with_capacity(indices.len() * 4),
            outcomes: Vec::with_capacity(indices.len() * 4),
            terminal: Vec::new(),
        };
        out.terminal.reserve(indices.len());
        let mut previous: Option<(u64, R::Position)> = None;
        for &index in indices {
            let pos = match previous {
                Some((mut at, mut pos)) if at < index && index - at <= MAX_STEPS => {
                    while at < index {
                        pos = rules.position_after(self.seeds, at, &pos);
                        at += 1;
                    }
                    pos
                }
                _ => rules.position_at(self.seeds, index),
            };
            previous = Some((index, pos));
            let legal: MoveList = rules.legal_moves(&pos);
            for &mv in legal.as_slice() {
                let step = rules.play(&pos, mv);
                let successor = SuccessorKey::new(rules.seeds_on_board(&step.next), rules.index(&step.next));
                out.successors.push(successor);
                out.outcomes.push(Outcome { gain: step.gain as i16, same_mover: step.same_mover });
            }
            out.ends.push(out.successors.len() as u32);
            out.terminal.push(if legal.is_empty() { rules.terminal_gain(&pos) as i8 } else { 0 });
        }
        out
    }

    /// The value of this rank's position `local` ([`ShardMap::local`]), if it is solved.
    #[inline]
    pub fn value_at_local(&self, local: u64) -> Option<i8> {
        slot_value(self.slots[local as usize], self.seeds)
    }

    /// Requests the cache line that [`TierShard::value_at_local`] of `local` will read.
    #[inline]
    pub fn prefetch_local(&self, local: u64) {
        prefetch(self.slots.as_ptr().wrapping_add(local as usize));
    }

    /// Records the values of the positions `indices`, whose [`TierShard::moves`] are `moves`,
    /// from their successors' values (`values[m]`: the successor of move `m`), in parallel.
    /// A position's value is its best move's gain plus (or minus, when the turn passes) its
    /// successor's value; its mark is the best of the moves that leave the tier, and whether
    /// any stays, as one process finds them.
    pub fn settle(&mut self, indices: &[u64], moves: &Moves, values: &[i8]) {
        debug_assert_eq!((indices.len(), moves.len()), (moves.ends.len(), values.len()));
        let (seeds, map) = (self.seeds, self.map);
        let slots = as_atomic_u16(&mut self.slots);
        let unit = (indices.len() / (8 * rayon::current_num_threads())).clamp(64, 1 << 14);
        indices.par_chunks(unit).enumerate().for_each(|(chunk, part)| {
            let first = chunk * unit;
            let mut from = if first == 0 { 0 } else { moves.ends[first - 1] as usize };
            for (p, &index) in (first..).zip(part) {
                let to = moves.ends[p] as usize;
                let (mut best, mut best_leave, mut stays) = (None, None, false);
                let moved = moves.outcomes[from..to].iter().zip(&moves.successors[from..to]);
                for ((m, successor), &next) in moved.zip(&values[from..to]) {
                    let value = i32::from(m.gain) + if m.same_mover { i32::from(next) } else { -i32::from(next) };
                    best = best.max(Some(value));
                    if successor.seeds() == seeds {
                        stays = true;
                    } else {
                        best_leave = best_leave.max(Some(value));
                    }
                }
                from = to;
                let value = best.unwrap_or(i32::from(moves.terminal[p])) as i8;
                let mark = mark(i32::from(value), seeds, best_leave, stays);
                slots[map.local(index) as usize].store(solved_slot(value, seeds, mark.0), Ordering::Relaxed);
            }
        });
    }

    /// Whether every position of the shard is solved.
    pub fn is_complete(&self) -> bool {
        self.slots.par_iter().all(|&s| s & SOLVED != 0)
    }

    /// Own blocks of the shard.
    pub fn blocks(&self) -> usize {
        self.spans.len()
    }

    /// The block of the tier file that is this rank's `k`-th, encoded as one process encodes
    /// it (its values' checksum and its residuals compressed). `path` names the file in errors.
    ///
    /// # Errors
    /// [`TableError::Io`] if compression fails, [`TableError::Unsupported`] if a position of
    /// the block is not solved.
    pub fn encode_block(&self, path: &Path, k: usize) -> Result<EncodedBlock, TableError> {
        let values = self.block_values(k)?;
        let marks: Vec<u8> = self.block_slots(k).iter().map(|&s| s as u8).collect();
        compressed_block(path, &values, &from_marks(&marks))
    }

    /// The slots of this rank's `k`-th block.
    fn block_slots(&self, k: usize) -> &[u16] {
        let size = self.map.block();
        &self.slots[k * size..((k + 1) * size).min(self.slots.len())]
    }

    /// The values of this rank's `k`-th block, one byte each.
    fn block_values(&self, k: usize) -> Result<Vec<u8>, TableError> {
        let size = self.map.block();
        let slots = self.block_slots(k);
        // Checked first, then converted in a loop without a branch a slot, which the compiler
        // makes on whole vectors: every slot of a finished tier passes here two or three times.
        if let Some(i) = slots.iter().position(|&s| s & SOLVED == 0) {
            return Err(TableError::Unsupported {
                seeds: self.seeds,
                detail: format!("position {} left unsolved after the last level", self.map.global((k * size + i) as u64)),
            });
        }
        // `slot_value`'s `2 * unit - seeds` in the byte's wrapping arithmetic.
        let offset = self.seeds as u8;
        Ok(slots.iter().map(|&s| (((s >> 8) as u8 & 0x7f) << 1).wrapping_sub(offset)).collect())
    }

    /// The checksum of the values of this rank's `k`-th block ([`format::checksum`]).
    ///
    /// # Errors
    /// As [`TierShard::encode_block`].
    pub fn block_checksum(&self, k: usize) -> Result<u64, TableError> {
        Ok(format::checksum(&self.block_values(k)?))
    }

    /// The solved shard, packed as a finished tier's ([`CompactTier`], a file block a group),
    /// built group by group in parallel without a byte a position in between.
    ///
    /// # Errors
    /// [`TableError::Unsupported`] if a position is not solved, [`TableError::Inconsistent`]
    /// for a value the packed tier cannot hold (none of a solved tier).
    pub fn into_compact(self) -> Result<CompactTier, TableError> {
        let (seeds, size) = (self.seeds, self.map.block());
        CompactTier::assemble(seeds, self.slots.len() as u64, size, |k, lines| {
            let values = self.block_values(k)?;
            pack_lines(seeds, k * size, &values, lines).map_err(|e: WrongParity| TableError::Inconsistent { seeds, detail: e.to_string() })
        })
    }

    /// The slots, for a checkpoint.
    pub fn slots(&self) -> &[u16] {
        &self.slots
    }

    /// Puts back the slots of a checkpoint of this shard.
    ///
    /// # Errors
    /// A description if `slots` is not of this shard's length or holds an order that is not
    /// the position's.
    pub fn restore(&mut self, slots: &[u16]) -> Result<(), String> {
        if slots.len() != self.slots.len() {
            return Err(format!("{} positions, this rank owns {} of tier {}", slots.len(), self.slots.len(), self.seeds));
        }
        if let Some(at) = self.slots.iter().zip(slots).position(|(&now, &saved)| saved & SOLVED == 0 && saved != now) {
            return Err(format!("position {} holds an order that is not its own", self.map.global(at as u64)));
        }
        self.slots.copy_from_slice(slots);
        Ok(())
    }
}

/// Appends to `found` `first + i` for each `slots[i]` that is the unsolved order `level`. A
/// level's scan passes over every slot of the shard, most of them of other levels: on x86-64
/// it compares [`SCAN`] slots at a time in vector registers (SSE2, which every x86-64 has).
fn push_level(slots: &[u16], level: u16, first: u64, found: &mut Vec<u64>) {
    let done = push_level_by_vectors(slots, level, first, found);
    let start = first + done as u64;
    found.extend(slots[done..].iter().enumerate().filter(|&(_, &s)| s == level).map(|(i, _)| start + i as u64));
}

/// [`push_level`] for the whole chunks of [`SCAN`] slots at the start of `slots`; returns
/// how many slots it looked at.
#[cfg(target_arch = "x86_64")]
fn push_level_by_vectors(slots: &[u16], level: u16, first: u64, found: &mut Vec<u64>) -> usize {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi16};
    let whole = slots.chunks_exact(SCAN);
    let done = slots.len() - whole.remainder().len();
    for (c, chunk) in whole.enumerate() {
        // SAFETY: SSE2 is in every x86-64; each unaligned load reads 8 of the chunk's SCAN
        // slots (16 bytes), inside the chunk.
        let mut matches = unsafe {
            let wanted = _mm_set1_epi16(level as i16);
            let mut mask = 0u64;
            for part in 0..SCAN / 8 {
                let eight = _mm_loadu_si128(chunk.as_ptr().add(8 * part).cast::<__m128i>());
                mask |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi16(eight, wanted)) as u16) << (16 * part);
            }
            mask & 0x5555_5555_5555_5555
        };
        while matches != 0 {
            found.push(first + (c * SCAN) as u64 + u64::from(matches.trailing_zeros() / 2));
            matches &= matches - 1;
        }
    }
    done
}

/// [`push_level`] leaves every slot to its scalar loop where the vector one is not written.
#[cfg(not(target_arch = "x86_64"))]
fn push_level_by_vectors(_slots: &[u16], _level: u16, _first: u64, _found: &mut Vec<u64>) -> usize {
    0
}

fn as_atomic_u16(slots: &mut [u16]) -> &[AtomicU16] {
    // SAFETY: `AtomicU16` has the size and alignment of `u16`, and the exclusive borrow
    // guarantees that no other access bypasses the atomics while the result lives.
    unsafe { &*(slots as *mut [u16] as *const [AtomicU16]) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{RuleSet, RulesName};
    use crate::tables::retrograde::solve_tier;
    use crate::tables::shard::OwnTiers;
    use crate::tables::NoProgress;

    #[test]
    fn a_level_scan_finds_the_slots_a_filter_finds() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in [0, 1, 31, 32, 33, 64, 95, 200] {
            let slots: Vec<u16> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    [3, 4, 5, 3 | SOLVED][(state % 4) as usize]
                })
                .collect();
            for level in [3, 4, 9] {
                let mut found = Vec::new();
                push_level(&slots, level, 1000, &mut found);
                let expected: Vec<u64> = (0..len).filter(|&i| slots[i] == level).map(|i| 1000 + i as u64).collect();
                assert_eq!(found, expected, "{len} slots, level {level}");
            }
        }
    }

    /// Three ranks solving their shards level by level, each asking the others for what it
    /// lacks, find every value one process finds, and each file block as one process encodes it.
    #[test]
    fn shards_solved_level_by_level_are_the_tier_solved_alone() {
        for name in RulesName::ALL {
            let rules = RuleSet::new(name, 4).unwrap();
            let ranks = 3;
            let maps: Vec<ShardMap> = (0..ranks).map(|r| ShardMap::with_block(r, ranks, 147 * 2)).collect();
            let mut own: Vec<OwnTiers> = maps.iter().map(|&m| OwnTiers::new(m)).collect();
            let mut lower: Vec<Vec<u8>> = Vec::new();
            for seeds in 0..=11 {
                let alone = solve_tier(&rules, seeds, &lower, None, &NoProgress).unwrap().unwrap();
                let mut shards: Vec<TierShard> = maps.iter().map(|&m| TierShard::new(&rules, seeds, m).unwrap()).collect();
                let levels = shards.iter().map(TierShard::levels).max().unwrap();
                for level in 0..levels {
                    for r in 0..ranks {
                        let indices = shards[r].pending(level);
                        let moves = shards[r].moves(&rules, &indices);
                        let values: Vec<i8> = moves
                            .successors()
                            .iter()
                            .map(|&key| {
                                let owner = maps[0].owner(key.index());
                                if key.seeds() == seeds {
                                    shards[owner].value_at_local(maps[owner].local(key.index())).expect("a lower level")
                                } else {
                                    own[owner].value(key)
                                }
                            })
                            .collect();
                        shards[r].settle(&indices, &moves, &values);
                    }
                }
                let path = Path::new("test");
                let entries = alone.values.len();
                for (r, shard) in shards.into_iter().enumerate() {
                    assert!(shard.is_complete(), "{name:?} tier {seeds}, rank {r}");
                    for (k, block) in maps[r].blocks(entries as u64).enumerate() {
                        let range = block as usize * 294..(block as usize * 294 + 294).min(entries);
                        let expected = compressed_block(path, &alone.values[range.clone()], &from_marks(&alone.marks[range])).unwrap();
                        assert!(shard.encode_block(path, k).unwrap() == expected, "{name:?} tier {seeds}, block {block}");
                    }
                    let packed = shard.into_compact().unwrap();
                    for (local, global) in (0..maps[r].count(alone.values.len() as u64)).map(|k| (k, maps[r].global(k))) {
                        assert_eq!(crate::tables::TierValues::value_at(&packed, local), alone.values[global as usize] as i8);
                    }
                    own[r].push(packed);
                }
                lower.push(alone.values);
            }
        }
    }
}
