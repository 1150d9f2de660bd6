//! The transposition table: proven bounds of future gains, for the very board they were
//! proven on, in a fixed memory budget.
//!
//! Two layouts, chosen when the table is made (see [`Table::new_in`]):
//! - **compact** (`compact`): 64-byte buckets of eight 64-bit entries (the word format), or
//!   of ten 50-bit entries under a sequence number (the packed format, `packed`, for boards of
//!   up to 6 holes a row in tables of 128 MiB and more). A board is
//!   numbered losslessly by its *short code* (`code`: boards with fewer seeds plus its perfect
//!   index in its tier, scrambled by a bijection); the code's top bits, scaled to the number
//!   of buckets, choose the bucket and the entry keeps its low bits as its tag, beside the
//!   bounds as parity offsets, the move and the work;
//! - **wide** (`wide`): three entries a bucket, each with the whole 128-bit
//!   [`TranspositionKey::Key`](crate::transposition_key::TranspositionKey::Key), under a seqlock: for the rule sets whose
//!   standard boards do not fit a short code of the table's width (8 and 9 holes).
//!
//! A compact table keeps a small wide table beside it (a sixteenth of the memory, touched
//! only by boards above the code's ceiling, e.g. Kalah(6,10)): every board has a place.
//!
//! # Why a probe never answers for another board
//!
//! In the compact layout two boards share a bucket and a tag only if their scrambled codes
//! are equal (the codes of a bucket are a run of consecutive numbers, at most `2^tag bits` of
//! them, and the tag is a code's low bits: `compact::Geometry`), hence only if their codes
//! are equal (the scrambling is a bijection), hence only if they are the same board (the code is the perfect index, one
//! number per board). So there is no tag collision at all: a probe that finds its tag has
//! found the bounds proven for its own board, and every exact result stays exact whatever the
//! table's size. In the wide layout the whole key is compared. Each entry of the word format
//! is a single atomic word, so a probe never sees half of one store and half of another; the
//! packed format's and the wide layout's sequence numbers give the same.
//!
//! What can be lost is only work: a store dropped (bounds that do not fit an entry, a wide
//! bucket held by another writer) or an entry displaced.
//!
//! The compact layout needs far fewer nodes than the old one of three 21-byte entries a
//! bucket, because eight entries share a cache line. Its price is the short code, so a parent
//! hands each child the slot it computed ([`Table::slot_with_seeds`], the seeds it counted
//! too) and the key is read once a slot; a cheaper scrambling (a one-round Feistel split) lost
//! more in nodes than it saved in instructions. The figures are in
//! `docs/benchmarks/code-notes.md`.

mod code;
mod compact;
mod packed;
mod wide;

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::search_memory::SearchMemory;
use crate::tier_layout::TierLayout;
use crate::transposition_key::TranspositionKey;
use code::ShortCode;
use compact::{Compact, Geometry, Layout};
use wide::Wide;
pub(crate) use wide::{hash, MixHashing};

/// What the table knows about one board: proven bounds of its future gain and the move that
/// proved the lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// Proven lower bound.
    pub lower: i16,
    /// Proven upper bound.
    pub upper: i16,
    /// The best move known, if any.
    pub mv: Option<u8>,
    /// log2 of the nodes spent on the last proof: how costly the entry is to lose.
    pub work: u8,
}

/// Where a board's entry lives: worked out once per board, then used to prefetch, probe and
/// store.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slot {
    /// In the compact table of a stage: bucket, tag and the seeds on the board.
    Compact { bucket: usize, tag: u64, seeds: u32, stage: u8 },
    /// In the wide table, under the whole key.
    Wide(u128),
}

/// The compact table with the numbering of its boards.
struct Coded {
    code: ShortCode,
    table: Compact,
}

impl Coded {
    /// A compact table of `bytes` and its numbering of the boards of `rules`, if the word
    /// format numbers any board and, when `whole`, covers the standard start of the board (as
    /// many seeds a hole as holes a row: 2 n² seeds on 2 n holes). The packed format is taken
    /// where it holds the moves, covers the standard start, and numbers boards as the word
    /// format would (so that stages of either format hand entries over).
    fn new<R: TranspositionKey + TierLayout>(rules: &R, bytes: usize, lender: Option<&dyn SearchMemory>, whole: bool) -> Option<Coded> {
        // A tier of one seed holds one board per hole.
        let holes = rules.tier_size(1) as u32 / 2;
        let standard = 2 * holes * holes;
        let buckets = Compact::buckets_for(bytes);
        let numbering = |layout: Layout| ShortCode::new(rules, Geometry::new(buckets, layout).code_width());
        let words = numbering(Layout::Words).filter(|code| !whole || code.ceiling() >= standard)?;
        let packed = Some(Layout::Packed)
            .filter(|layout| layout.holds_moves_of(holes))
            .and_then(numbering)
            .filter(|code| code.ceiling() >= standard && code.agrees_with(&words));
        let table = Compact::new(bytes, lender, if packed.is_some() { Layout::Packed } else { Layout::Words });
        let code = match (table.layout(), packed) {
            (Layout::Packed, Some(packed)) => packed,
            _ => words,
        };
        Some(Coded { code, table })
    }
}

/// A fixed-size, thread-safe table of proven bounds for the boards of one rule set.
pub(crate) struct Table<R> {
    /// The compact layout's stages, smallest first (none in the wide layout): a large table
    /// starts small, so that a short search touches (and the system clears) only the memory it
    /// uses, and moves its entries to the next stage once its search has outgrown it (see
    /// [`Table::charge`]).
    stages: Vec<Coded>,
    /// The stage that slots are worked out in.
    stage: AtomicUsize,
    /// Nodes searched with this table, counted while a larger stage waits.
    searched: AtomicU64,
    wide: Wide,
    rules: PhantomData<fn(&R)>,
}

/// The wide table beside a compact one is this fraction of it.
const OVERFLOW_SHARE: usize = 16;

/// Most bytes of a first stage: what a search of a million nodes fills half-way.
const FIRST_STAGE_MAX_BYTES: usize = 16 << 20;

/// Fewest bytes of a first stage: one huge page, room for a search of a hundred thousand nodes.
const FIRST_STAGE_MIN_BYTES: usize = 2 << 20;

/// A first stage is at most this fraction of its table: it lives beside the full table while it
/// hands its entries over, so the table's peak is this much above its size.
const FIRST_STAGE_SHARE: usize = 64;

/// Bytes of the first stage of a compact table of `bytes`: a sixty-fourth of it, within
/// [`FIRST_STAGE_MIN_BYTES`] and [`FIRST_STAGE_MAX_BYTES`].
fn first_stage_bytes(bytes: usize) -> usize {
    (bytes / FIRST_STAGE_SHARE).clamp(FIRST_STAGE_MIN_BYTES, FIRST_STAGE_MAX_BYTES)
}

/// A stage gives way to the next once the nodes searched with the table reach its entries
/// divided by this: about one entry a node is stored, so it is then half full.
const OUTGROWN_AT: u64 = 2;

impl<R: TranspositionKey + TierLayout> Table<R> {
    /// A table of `bytes` bytes (any number of 64-byte buckets) for the boards of `rules`, in
    /// memory from `lender` when given (else this process's own), plus, in the compact layout,
    /// a wide table of a sixteenth of that for boards above the short code's ceiling (mapped
    /// only as it is used: unused, it costs nothing).
    ///
    /// The layout is compact when the short code covers the standard start of the board
    /// (see `Coded::new`), else wide. A compact
    /// table of more than twice its [`first_stage_bytes`] starts with a first stage of that size.
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be allocated.
    pub fn new_in(rules: &R, bytes: usize, lender: Option<&dyn SearchMemory>) -> Self {
        // Lent memory is shared with other processes, whose tables could not move from stage to
        // stage in step: such a table has one stage.
        let first_bytes = if lender.is_some() { usize::MAX } else { first_stage_bytes(bytes) };
        Self::staged(rules, bytes, first_bytes, lender)
    }

    /// [`Table::new_in`] this process's own memory.
    #[cfg(test)]
    pub fn new(rules: &R, bytes: usize) -> Self {
        Self::new_in(rules, bytes, None)
    }

    /// A table of `bytes` with a first stage of `first_bytes` if the table is more than twice
    /// as large and both stages number the boards alike.
    pub(crate) fn staged(rules: &R, bytes: usize, first_bytes: usize, lender: Option<&dyn SearchMemory>) -> Self {
        match Coded::new(rules, bytes, lender, true) {
            Some(full) => {
                let wide = Wide::new(full.table.bytes() / OVERFLOW_SHARE, lender);
                let first = (bytes / 2 > first_bytes).then(|| Coded::new(rules, first_bytes, None, false)).flatten();
                let stages = match first {
                    Some(first) if full.code.agrees_with(&first.code) => vec![first, full],
                    _ => vec![full],
                };
                Table { stages, stage: AtomicUsize::new(0), searched: AtomicU64::new(0), wide, rules: PhantomData }
            }
            _ => Table {
                stages: Vec::new(),
                stage: AtomicUsize::new(0),
                searched: AtomicU64::new(0),
                wide: Wide::new(bytes, lender),
                rules: PhantomData,
            },
        }
    }

    /// Bytes of the table at its full size (both layouts' in a compact table).
    pub fn bytes(&self) -> usize {
        self.stages.last().map_or(0, |c| c.table.bytes()) + self.wide.bytes()
    }

    /// Whether the table is of the compact layout.
    #[cfg(test)]
    pub fn is_compact(&self) -> bool {
        !self.stages.is_empty()
    }

    /// Counts `nodes` more searched with the table; once they outgrow the stage in use, the
    /// next stage takes over, with its entries, moved by the calling thread (the others go on
    /// searching meanwhile: their slots of the old stage are still true, only stores there
    /// are dropped).
    #[inline]
    pub fn charge(&self, nodes: u64) {
        let stage = self.stage.load(Ordering::Relaxed);
        if stage + 1 < self.stages.len() {
            self.grow_if_outgrown(stage, nodes);
        }
    }

    #[inline(never)]
    fn grow_if_outgrown(&self, stage: usize, nodes: u64) {
        let searched = self.searched.fetch_add(nodes, Ordering::Relaxed) + nodes;
        let entries = self.stages[stage].table.entries() as u64;
        if searched >= entries / OUTGROWN_AT && self.stage.compare_exchange(stage, stage + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            let (from, to) = (&self.stages[stage], &self.stages[stage + 1]);
            from.table.move_into(&to.table, |code| to.code.recode(&from.code, code));
            from.table.release();
        }
    }

    /// Where the entry of `pos` lives.
    #[inline]
    pub fn slot(&self, rules: &R, pos: &R::Position) -> Slot {
        self.slot_with_seeds(rules, pos, rules.seeds_on_board(pos))
    }

    /// [`Table::slot`] of a board whose `seeds` (on the board) the caller has counted already.
    /// Always inlined: a slot returned through memory and copied at once stalls on the
    /// copy (a tenth of the search's own samples under `perf` on Kalah(6,4)).
    #[inline(always)]
    pub fn slot_with_seeds(&self, rules: &R, pos: &R::Position, seeds: u32) -> Slot {
        debug_assert_eq!(seeds, rules.seeds_on_board(pos));
        // The key is computed once: the nibble code and the wide fallback both read it.
        let key: u128 = rules.key(pos).into();
        let stage = self.stage.load(Ordering::Relaxed);
        if let Some(coded) = self.stages.get(stage) {
            if let Some(code) = coded.code.code(rules, pos, key, seeds) {
                let (bucket, tag) = coded.table.geometry().locate(code);
                return Slot::Compact { bucket, tag, seeds, stage: stage as u8 };
            }
        }
        Slot::Wide(key)
    }

    /// The compact table of a stage, which a [`Slot::Compact`] names.
    #[inline]
    fn compact(&self, stage: u8) -> &Compact {
        &self.stages[stage as usize].table
    }

    /// Asks the processor to bring the slot's bucket into the cache (a probe soon after then
    /// finds it there).
    #[inline]
    pub fn prefetch(&self, slot: &Slot) {
        match *slot {
            Slot::Compact { bucket, stage, .. } => self.compact(stage).prefetch(bucket),
            Slot::Wide(key) => self.wide.prefetch(key),
        }
    }

    /// The bounds stored for the slot's board, if any.
    #[inline]
    pub fn probe(&self, slot: &Slot) -> Option<Bounds> {
        match *slot {
            Slot::Compact { bucket, tag, seeds, stage } => self.compact(stage).probe(bucket, tag, seeds),
            Slot::Wide(key) => self.wide.probe(key),
        }
    }

    /// Stores `bounds` (each of the parity of the seeds on the board, within `±seeds`) for
    /// the slot's board; dropped if they do not fit an entry.
    #[inline]
    pub fn store(&self, slot: &Slot, bounds: Bounds) {
        match *slot {
            Slot::Compact { bucket, tag, seeds, stage } => {
                // A stage given up keeps no new results: its memory is released.
                if stage as usize == self.stage.load(Ordering::Relaxed) {
                    self.compact(stage).store(bucket, tag, seeds, bounds);
                }
            }
            Slot::Wide(key) => self.wide.store(key, bounds),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dakon::Position;
    use crate::kalah::{CaptureRule, Kalah};
    use crate::rules::Rules;

    /// Bounds that differ from board to board: what a board's own entry must answer.
    fn bounds_of(rules: &Kalah, pos: &Position) -> Bounds {
        let (k, index) = (rules.seeds_on_board(pos) as i64, rules.index(pos) as i64);
        let lower = -k + 2 * (index % (k + 1));
        Bounds { lower: lower as i16, upper: k as i16, mv: Some((index % 6) as u8), work: (index % 32) as u8 }
    }

    /// Every board of `holes` holes a row with `seeds` seeds.
    fn boards(rules: &Kalah, seeds: std::ops::RangeInclusive<u32>) -> Vec<Position> {
        seeds.flat_map(|s| (0..rules.tier_size(s)).map(move |i| rules.position_at(s, i))).collect()
    }

    #[test]
    fn a_board_finds_every_field_it_stored() {
        let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
        let table = Table::new(&rules, 1 << 20);
        assert!(table.is_compact());
        let start = Position::start(6, 4).unwrap();
        for bounds in [
            Bounds { lower: -48, upper: 48, mv: None, work: 0 },
            Bounds { lower: 8, upper: 8, mv: Some(5), work: 31 },
            Bounds { lower: -2, upper: 30, mv: Some(0), work: 17 },
        ] {
            table.store(&table.slot(&rules, &start), bounds);
            assert_eq!(table.probe(&table.slot(&rules, &start)), Some(bounds));
        }
        let other = rules.play(&start, rules.legal_moves(&start).as_slice()[0]).next;
        assert_eq!(table.probe(&table.slot(&rules, &other)), None);
    }

    #[test]
    fn boards_sharing_buckets_never_answer_for_each_other() {
        // One bucket of ten entries, 3 holes a row: the 924 boards of up to 6 seeds fight over it.
        let rules = Kalah::new(3, CaptureRule::FacingSeeds).unwrap();
        let table = Table::new(&rules, 64);
        assert!(table.is_compact() && table.stages[0].table.layout() == Layout::Packed);
        let boards = boards(&rules, 0..=6);
        for pos in &boards {
            table.store(&table.slot(&rules, pos), bounds_of(&rules, pos));
            let answers = boards.iter().filter_map(|p| table.probe(&table.slot(&rules, p)).map(|b| (p, b))).collect::<Vec<_>>();
            assert!(answers.iter().all(|(p, b)| *b == bounds_of(&rules, p)));
            assert!(answers.iter().any(|(p, _)| *p == pos), "the newest entry is kept");
        }
    }

    /// Stores and probes 200,000 times at random over 50,000 random boards of Kalah(6, ·) and
    /// checks every answer against a map of what was stored; `grow_at`: the round at which the
    /// table is charged enough nodes to move to its next stage, if it has one; `answers`: how
    /// many probes must find an entry at least.
    fn answers_what_a_reference_map_holds_or_nothing(table: &Table<Kalah>, grow_at: usize, answers: usize) {
        use rand::{Rng, SeedableRng};
        let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        let boards: Vec<Position> = (0..50_000)
            .map(|i| {
                let most = [4u8, 15, 3, 40][i % 4];
                let mut rows: Vec<u8> = (0..12).map(|_| rng.gen_range(0..=most)).collect();
                if i % 4 == 2 {
                    // One hole of 16 seeds or more, few seeds in all: a ranked code.
                    rows[i % 12] = rng.gen_range(16..=25);
                }
                Position::from_sides(&rows[..6], &rows[6..], [0, 0], crate::dakon::Player::Zero)
            })
            .collect();
        let mut reference = std::collections::HashMap::new();
        let (mut answered, mut kinds) = (0, std::collections::HashSet::new());
        for round in 0..200_000usize {
            if round == grow_at {
                table.charge(u64::MAX / 2);
            }
            let pos = &boards[rng.gen_range(0..boards.len())];
            let slot = table.slot(&rules, pos);
            kinds.insert(std::mem::discriminant(&slot));
            if round % 3 == 0 {
                let k = rules.seeds_on_board(pos) as i16;
                let lower = -k + 2 * rng.gen_range(0..=k);
                let bounds = Bounds {
                    lower,
                    upper: rng.gen_range(lower / 2..=k / 2) * 2 + k % 2,
                    mv: Some(rng.gen_range(0..6)),
                    work: rng.gen_range(0..40),
                };
                let bounds = Bounds { upper: bounds.upper.max(lower), ..bounds };
                table.store(&slot, bounds);
                reference.insert(rules.key(pos), bounds);
            } else if let Some(found) = table.probe(&slot) {
                answered += 1;
                let expected = reference.get(&rules.key(pos)).expect("an answer for a board never stored");
                assert_eq!((found.lower, found.upper, found.mv), (expected.lower, expected.upper, expected.mv), "{pos}");
            }
        }
        assert_eq!(kinds.len(), if table.is_compact() { 2 } else { 1 }, "both layouts were used");
        assert!(answered >= answers, "{answered} answers");
    }

    #[test]
    fn the_table_answers_what_a_reference_map_holds_or_nothing() {
        // 1 MiB: nibble codes below 16 seeds a hole, ranked codes above, and boards past the
        // code's ceiling in the wide part; 50,000 random boards over 16,384 buckets, so that
        // entries are displaced all the time.
        let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
        let table = Table::new(&rules, 1 << 20);
        assert!(table.is_compact());
        answers_what_a_reference_map_holds_or_nothing(&table, usize::MAX, 10_000);
    }

    #[test]
    fn tables_of_any_size_answer_what_a_reference_map_holds_or_nothing() {
        let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
        // Sizes that are no power of two of buckets, from 3 buckets up (too few for the short
        // codes of 6 holes a row: wide tables up to 2^9 buckets); 3 MiB and 100 MiB start in a
        // first stage of 1 MiB and grow a third of the way, 257 MiB in its standard first stage
        // (4 MiB, a sixty-fourth).
        for (bytes, compact, answers) in
            [(3 * 64, false, 1), (100 * 64 + 63, false, 100), (1000 * 64, true, 1000), ((1 << 20) + 3 * 64, true, 10_000)]
        {
            let table = Table::new(&rules, bytes);
            assert_eq!((table.is_compact(), table.stages.len()), (compact, usize::from(compact)), "{bytes} bytes");
            answers_what_a_reference_map_holds_or_nothing(&table, usize::MAX, answers);
        }
        for (bytes, first) in [(3 << 20, 1 << 20), (100 << 20, 1 << 20), (257 << 20, first_stage_bytes(257 << 20))] {
            let table = Table::staged(&rules, bytes, first, None);
            assert_eq!(table.stages.len(), 2, "{bytes} bytes");
            assert_eq!(table.bytes(), bytes + bytes / OVERFLOW_SHARE / 64 * 64, "{bytes} bytes");
            answers_what_a_reference_map_holds_or_nothing(&table, 66_000, 10_000);
            assert_eq!(table.stage.load(Ordering::Relaxed), 1, "{bytes} bytes: grown");
        }
    }

    #[test]
    fn packed_buckets_serve_six_holes_a_row_from_128_mib_and_word_buckets_the_rest() {
        let layouts = |rules: &Kalah, bytes: usize| Table::new(rules, bytes).stages.iter().map(|s| s.table.layout()).collect::<Vec<_>>();
        let kalah = |holes| Kalah::new(holes, CaptureRule::FacingSeeds).unwrap();
        let mib = 1 << 20;
        // 6 holes: 28 tag bits and the bucket's 21 give the 49 bits that the 48 bits of nibble
        // codes and the ranked boards up to the standard 72 seeds need; the 2 MiB first stage
        // has 15 bucket bits, so it keeps 40-bit tags.
        assert_eq!(layouts(&kalah(6), 64 * mib), [Layout::Words, Layout::Words]);
        assert_eq!(layouts(&kalah(6), 128 * mib), [Layout::Words, Layout::Packed]);
        assert_eq!(layouts(&kalah(6), 16 << 30), [Layout::Words, Layout::Packed]);
        // 4 holes a row: 32 bits of nibbles; from the first stage of 2 MiB up.
        assert_eq!(layouts(&kalah(4), 256 * mib), [Layout::Packed, Layout::Packed]);
        // 7 holes a row: a move the packed entry cannot hold.
        assert_eq!(layouts(&kalah(7), 16 << 30), [Layout::Words, Layout::Words]);
    }

    #[test]
    fn a_first_stage_is_a_sixty_fourth_of_its_table_within_2_and_16_mib() {
        let mib = 1 << 20;
        for (table, first) in [
            (5 * mib, 2 * mib),
            (113 * mib, 2 * mib),
            (256 * mib, 4 * mib),
            (689 * mib, 689 * mib / 64),
            (1 << 30, 16 * mib),
            (16 << 30, 16 * mib),
        ] {
            assert_eq!(first_stage_bytes(table), first, "{table} bytes");
        }
        let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
        let table = Table::new(&rules, 113 * mib);
        assert_eq!(table.stages.iter().map(|s| s.table.bytes() / mib).collect::<Vec<_>>(), [2, 113]);
    }

    #[test]
    fn a_growing_table_keeps_its_entries_and_old_slots_stay_true() {
        let rules = Kalah::new(3, CaptureRule::FacingSeeds).unwrap();
        // Room for every board of up to 9 seeds in either stage: none is displaced.
        let table = Table::staged(&rules, 64 << 20, 1 << 20, None);
        assert_eq!(table.stages.len(), 2);
        let boards = boards(&rules, 0..=9);
        let old_slots: Vec<Slot> = boards.iter().map(|p| table.slot(&rules, p)).collect();
        for (pos, slot) in boards.iter().zip(&old_slots) {
            table.store(slot, bounds_of(&rules, pos));
        }
        // Not yet outgrown: a stage gives way at half of its entries.
        table.charge(table.stages[0].table.entries() as u64 / OUTGROWN_AT - 1);
        assert_eq!(table.stage.load(Ordering::Relaxed), 0);
        table.charge(1);
        assert_eq!(table.stage.load(Ordering::Relaxed), 1);
        for (pos, old) in boards.iter().zip(&old_slots) {
            let slot = table.slot(&rules, pos);
            assert!(matches!(slot, Slot::Compact { stage: 1, .. }));
            assert_eq!(table.probe(&slot), Some(bounds_of(&rules, pos)), "{pos} moved");
            // A slot of the old stage answers nothing or its own board's bounds, and keeps
            // nothing more.
            assert!(table.probe(old).is_none_or(|b| b == bounds_of(&rules, pos)));
            table.store(old, Bounds { lower: -(rules.seeds_on_board(pos) as i16), ..bounds_of(&rules, pos) });
            assert_eq!(table.probe(&slot), Some(bounds_of(&rules, pos)));
        }
    }

    #[test]
    fn a_search_that_outgrows_its_first_stage_finds_the_same_values() {
        use crate::search::{Config, Limits, Solver};
        let rules = Kalah::new(4, CaptureRule::FacingSeeds).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
        for threads in [1, 2] {
            // A first stage of 16 buckets: outgrown at the first count of nodes, mid-search.
            let mut growing = Solver::new(rules, Config { threads, tt_bytes: 1 << 20 }, None);
            growing.table = Table::staged(&rules, 1 << 20, 1 << 10, None);
            assert_eq!(growing.table.stages.len(), 2);
            let plain = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 20 }, None);
            let mut grew = false;
            for _ in 0..12 {
                let rows: Vec<u8> = (0..8).map(|_| rand::Rng::gen_range(&mut rng, 0..=5)).collect();
                let pos = Position::from_sides(&rows[..4], &rows[4..], [0, 0], crate::dakon::Player::Zero);
                let (a, b) = (growing.solve(&pos, &Limits::default()), plain.solve(&pos, &Limits::default()));
                assert_eq!((a.lower, a.upper), (b.lower, b.upper), "{pos}, {threads} threads");
                assert_eq!(a.lower, a.upper, "{pos}");
                grew |= growing.table.stage.load(Ordering::Relaxed) == 1;
            }
            assert!(grew, "{threads} threads: the table moved to its second stage");
        }
    }

    #[test]
    fn concurrent_writers_and_readers_never_see_a_torn_or_foreign_entry() {
        let rules = Kalah::new(3, CaptureRule::FacingSeeds).unwrap();
        // Four buckets for thousands of boards: every store displaces another board.
        let table = Table::new(&rules, 256);
        let boards = boards(&rules, 0..=9);
        std::thread::scope(|scope| {
            for thread in 0..2 {
                let (table, boards, rules) = (&table, &boards, &rules);
                scope.spawn(move || {
                    for round in 0..100_000usize {
                        let pos = &boards[(round * 2 + thread) % boards.len()];
                        table.store(&table.slot(rules, pos), bounds_of(rules, pos));
                        let other = &boards[(round * 7 + 1) % boards.len()];
                        if let Some(b) = table.probe(&table.slot(rules, other)) {
                            assert_eq!(b, bounds_of(rules, other));
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn large_boards_fall_back_to_whole_keys() {
        // 9 holes a row: the standard start's 162 seeds exceed what a compact entry serves.
        let rules = Kalah::new(9, CaptureRule::FacingSeeds).unwrap();
        let table = Table::new(&rules, 1 << 20);
        assert!(!table.is_compact());
        let start = Position::start(9, 9).unwrap();
        let slot = table.slot(&rules, &start);
        assert!(matches!(slot, Slot::Wide(_)));
        let bounds = Bounds { lower: -100, upper: 162, mv: Some(8), work: 40 };
        table.store(&slot, bounds);
        assert_eq!(table.probe(&slot), Some(bounds));
        assert_eq!(table.probe(&table.slot(&rules, &rules.play(&start, rules.legal_moves(&start).as_slice()[0]).next)), None);

        // A compact table keeps boards above its code's ceiling (192 seeds, 16 a hole) in its wide
        // part.
        let rules = Kalah::new(6, CaptureRule::FacingSeeds).unwrap();
        let table = Table::new(&rules, 1 << 20);
        let crowded = Position::start(6, 16).unwrap();
        let slot = table.slot(&rules, &crowded);
        assert!(table.is_compact() && matches!(slot, Slot::Wide(_)));
        let bounds = Bounds { lower: 0, upper: 192, mv: None, work: 3 };
        table.store(&slot, bounds);
        assert_eq!(table.probe(&slot), Some(bounds));

        // So does a board of more seeds than a compact entry's bounds hold (127), even when no
        // hole holds more than 15 (a nibble code): the 6 x 11 start.
        let start = Position::start(6, 11).unwrap();
        let slot = table.slot(&rules, &start);
        assert!(matches!(slot, Slot::Wide(_)));
        let bounds = Bounds { lower: 70, upper: 130, mv: Some(4), work: 9 };
        table.store(&slot, bounds);
        assert_eq!(table.probe(&slot), Some(bounds));
    }
}
