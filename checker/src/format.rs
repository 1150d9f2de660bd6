//! The reader of the certificate format, "Layout, byte by byte" in `docs/formats/certificates.md`.
//!
//! It first walks the layout (every length from the file itself, checked against what is
//! left), then compares the file checksum, and only then judges the values and decodes the
//! sections, so a damaged file is called damaged rather than misread.

use std::fmt;

use xxhash_rust::xxh3::xxh3_64;

use crate::rules::{split_first_turn_option, Position, FIRST_TURN_OPTION, MAX_HOLES_PER_ROW};
use crate::strategy::Strategy;

/// The first 8 bytes of every certificate: `"DKNCERT\0"`.
pub const MAGIC: [u8; 8] = *b"DKNCERT\0";
/// The format version of certificates without `no-first-turn-capture`.
pub const VERSION: u32 = 1;
/// The format version of certificates with `no-first-turn-capture`: version 1 plus the first
/// turns pending at the root and an opening section per half.
pub const OPENING_VERSION: u32 = 2;
/// The most boards of at most `L` seeds a file may make the checker solve: positions with at
/// most `L` seeds on the board are solved by the checker, in tables of a byte a board.
pub const MAX_SMALL_BOARDS: u64 = 1 << 33;
/// `L` is at most this on any board, so that a table byte holds a small position's value.
const MOST_SMALL_SEEDS: u8 = 64;

/// The largest `L` a certificate of `holes_per_row` holes a row may have: at most 64, and its
/// boards of at most `L` seeds (on `2n` holes) number at most [`MAX_SMALL_BOARDS`]: 64 up to 3
/// holes a row, then 61, 39, 29, 23, 20 and 17 for 4 to 9.
pub fn max_small_seeds(holes_per_row: usize) -> u8 {
    let holes = 2 * holes_per_row as u64;
    // C(k + holes - 1, holes - 1), the boards of k seeds, built up k by k.
    let (mut boards_of_k, mut boards) = (1u64, 0u64);
    for k in 0..=MOST_SMALL_SEEDS {
        if k > 0 {
            boards_of_k = boards_of_k * (u64::from(k) + holes - 1) / u64::from(k);
        }
        boards += boards_of_k;
        if boards > MAX_SMALL_BOARDS {
            return k - 1;
        }
    }
    MOST_SMALL_SEEDS
}
/// The most bytes one half's entries may decode to (330 M entries of 6 × 6 boards, 226 M of
/// 9 × 9): what a file can make the checker allocate, however small its compressed frame.
pub const MAX_ENTRY_BYTES: u64 = 1 << 32;

/// Why a file is not a well-formed certificate: what was expected and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// What was expected and what was found.
    pub message: String,
    /// The rules name, when the file is intact but names rules (or Dakon options) this checker
    /// does not know: not checkable here, rather than damaged.
    pub unknown_rules: Option<String>,
}

impl FormatError {
    /// An error with this message.
    pub fn new(message: String) -> FormatError {
        FormatError { message, unknown_rules: None }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormatError {}

/// A certificate as its file states it, not yet checked.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The position `P` whose value is bounded.
    pub root: Position,
    /// The claimed lower bound of the value (the mover's final store difference).
    pub lower: i32,
    /// The claimed upper bound.
    pub upper: i32,
    /// `L`: positions with at most this many seeds on the board have no entries.
    pub small_seeds: u8,
    /// The strategy of the player to move at the root.
    pub lower_half: Strategy,
    /// The strategy of the other player.
    pub upper_half: Strategy,
    /// The opening under `no-first-turn-capture` (format version 2), if the rules have it.
    pub opening: Option<Opening>,
}

/// What a certificate of `no-first-turn-capture` adds: the players still in their first turn at
/// the root, and each half's moves in the states of the opening.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Bit 0: player 0 has not finished their first turn at the root; bit 1: player 1.
    pub first_turns: u8,
    /// The lower half's moves where a first turn is pending, by board and first turns.
    pub lower_half: Strategy,
    /// The upper half's.
    pub upper_half: Strategy,
}

/// A section before its frame is decoded.
struct Section<'a> {
    name: &'static str,
    entries: u64,
    checksum: u64,
    frame: &'a [u8],
    frame_at: usize,
}

/// Reads the file front to back, each read saying what it wanted.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, len: u64, what: &str) -> Result<&'a [u8], FormatError> {
        let left = self.bytes.len() - self.at;
        match usize::try_from(len) {
            Ok(len) if len <= left => {
                self.at += len;
                Ok(&self.bytes[self.at - len..self.at])
            }
            _ => Err(FormatError::new(format!(
                "truncated or damaged: {what} at byte {} needs {len} bytes, but the file ends {left} bytes later",
                self.at
            ))),
        }
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], FormatError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N as u64, what)?);
        Ok(array)
    }

    fn u8(&mut self, what: &str) -> Result<u8, FormatError> {
        Ok(self.array::<1>(what)?[0])
    }

    fn u64(&mut self, what: &str) -> Result<u64, FormatError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    fn section(&mut self, name: &'static str) -> Result<Section<'a>, FormatError> {
        let entries = self.u64(&format!("{name}'s entry count"))?;
        let compressed = self.u64(&format!("{name}'s compressed length"))?;
        let checksum = self.u64(&format!("{name}'s entries checksum"))?;
        let frame_at = self.at;
        let frame = self.take(compressed, &format!("{name}'s zstd frame"))?;
        Ok(Section { name, entries, checksum, frame, frame_at })
    }
}

impl Certificate {
    /// Reads a certificate file.
    ///
    /// # Errors
    ///
    /// [`FormatError`] for anything `docs/formats/certificates.md` says a reader refuses, saying
    /// what was expected and what was found, and at which byte.
    pub fn read(bytes: &[u8]) -> Result<Certificate, FormatError> {
        if !bytes.starts_with(&MAGIC) {
            let found = bytes.iter().take(MAGIC.len()).map(|byte| format!("{byte:02X}")).collect::<Vec<_>>();
            return Err(FormatError::new(format!(
                "not a certificate: the file starts with [{}], expected the magic [44 4B 4E 43 45 52 54 00] (\"DKNCERT\\0\")",
                found.join(" ")
            )));
        }
        let mut cursor = Cursor { bytes, at: MAGIC.len() };
        let version = u32::from_le_bytes(cursor.array("the format version")?);
        if version != VERSION && version != OPENING_VERSION {
            return Err(FormatError::new(format!("format version {version}, expected {VERSION} or {OPENING_VERSION}")));
        }
        let has_opening = version == OPENING_VERSION;
        let name_length = cursor.u8("the rules name length")?;
        // Version 2's names carry a fourth option, so they may be longer.
        let longest = if has_opening { 64 } else { 32 };
        if !(1..=longest).contains(&name_length) {
            return Err(FormatError::new(format!("rules name length {name_length} at byte 12, expected 1 to {longest}")));
        }
        let name = cursor.take(name_length.into(), "the rules name")?;
        let holes_per_row = cursor.u8("the holes per row")?;
        if !(1..=MAX_HOLES_PER_ROW).contains(&usize::from(holes_per_row)) {
            let at = cursor.at - 1;
            return Err(FormatError::new(format!("{holes_per_row} holes per row at byte {at}, expected 1 to {MAX_HOLES_PER_ROW}")));
        }
        let holes_at = cursor.at;
        let holes = cursor.take(2 * u64::from(holes_per_row), "the root holes")?;
        let [store1, store0, player] = cursor.array("the root stores and player")?;
        let lower = i32::from_le_bytes(cursor.array("the claimed lower bound")?);
        let upper = i32::from_le_bytes(cursor.array("the claimed upper bound")?);
        let small_seeds = cursor.u8("L")?;
        let first_turns = if has_opening { cursor.u8("the first turns")? } else { 0 };
        let first_turns_at = cursor.at - 1;
        let sections = [cursor.section("the lower half")?, cursor.section("the upper half")?];
        let opening_sections = if has_opening {
            Some([cursor.section("the lower half's opening")?, cursor.section("the upper half's opening")?])
        } else {
            None
        };
        let checked_length = cursor.at;
        let checksum = cursor.u64("the file checksum")?;
        if cursor.at != bytes.len() {
            return Err(FormatError::new(format!(
                "the file has {} bytes, but its checksum ends at byte {}: expected nothing after it",
                bytes.len(),
                cursor.at
            )));
        }
        let computed = xxh3_64(&bytes[..checked_length]);
        if checksum != computed {
            return Err(FormatError::new(format!(
                "file checksum {checksum:016x} at byte {checked_length}, expected {computed:016x} (XXH3-64 of the bytes before it): the file is damaged"
            )));
        }

        let (rules, first_turn_option) = std::str::from_utf8(name).ok().and_then(split_first_turn_option).ok_or_else(|| FormatError {
            message: format!(
                "unknown rules \"{}\" at byte 13, expected dakon, dakon:<options> (options {}, {FIRST_TURN_OPTION}, or traditional), kalah or kalah-empty-capture",
                name.escape_ascii(),
                crate::rules::DakonOptions::NAMES.join(", ")
            ),
            // A Dakon variant this checker has not heard of is someone else's rules, not damage.
            unknown_rules: name.starts_with(b"dakon:").then(|| name.escape_ascii().to_string()),
        })?;
        if first_turn_option != has_opening {
            let name = name.escape_ascii();
            return Err(FormatError::new(if has_opening {
                format!("format version {OPENING_VERSION} is for rules with {FIRST_TURN_OPTION}, but the rules are \"{name}\": expected version {VERSION}")
            } else {
                format!("the rules \"{name}\" have {FIRST_TURN_OPTION}, which needs format version {OPENING_VERSION}, but the file is version {VERSION}")
            }));
        }
        let root = Position::new(rules, holes, [store0, store1], player.into())
            .map_err(|error| FormatError::new(format!("the root position at byte {holes_at} has {error}")))?;
        if first_turns > 3 || (first_turns != 0 && root.is_over()) {
            return Err(FormatError::new(format!(
                "first turns {first_turns} at byte {first_turns_at}, expected 0 to 3 (bit 0 player 0, bit 1 player 1), and 0 when the game is over"
            )));
        }
        if lower > upper {
            return Err(FormatError::new(format!("claimed lower bound {lower} above the upper bound {upper}, expected lower <= upper")));
        }
        let most = max_small_seeds(holes_per_row.into());
        if small_seeds > most {
            return Err(FormatError::new(format!("L = {small_seeds}, expected at most {most} for {holes_per_row} holes a row")));
        }
        let [lower_half, upper_half] = sections.map(|section| section.decode(holes.len(), small_seeds));
        let (lower_half, upper_half) = (lower_half?, upper_half?);
        let opening = match opening_sections {
            Some([lower_opening, upper_opening]) => Some(Opening {
                first_turns,
                lower_half: lower_opening.decode_opening(holes.len())?,
                upper_half: upper_opening.decode_opening(holes.len())?,
            }),
            None => None,
        };
        Ok(Certificate { root, lower, upper, small_seeds, lower_half, upper_half, opening })
    }
}

/// The magic of a zstd frame, as its first four bytes.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
/// Skippable frames have magics `0x184D2A50` to `0x184D2A5F`.
const SKIPPABLE_MAGICS: std::ops::RangeInclusive<u32> = 0x184D_2A50..=0x184D_2A5F;

impl Section<'_> {
    /// Checks the frame as "Sections" of the format says, in its order, decodes it (never
    /// past `MAX_ENTRY_BYTES`) and checks the entries.
    fn decode(&self, board_length: usize, small_seeds: u8) -> Result<Strategy, FormatError> {
        let decoded = self.decompress(board_length as u64 + 1)?;
        Strategy::new(decoded, board_length, small_seeds).map_err(|error| FormatError::new(format!("{}: {error}", self.name)))
    }

    /// [`Section::decode`] of an opening section, whose entries have the first-turn byte too.
    fn decode_opening(&self, board_length: usize) -> Result<Strategy, FormatError> {
        let decoded = self.decompress(board_length as u64 + 2)?;
        Strategy::new_opening(decoded, board_length).map_err(|error| FormatError::new(format!("{}: {error}", self.name)))
    }

    /// The frame's bytes, entries of `width` bytes, after the checks of "Sections" in their order.
    fn decompress(&self, width: u64) -> Result<Vec<u8>, FormatError> {
        let (name, entries, at, frame) = (self.name, self.entries, self.frame_at, self.frame);
        let expected = entries.checked_mul(width).filter(|&length| length <= MAX_ENTRY_BYTES).ok_or_else(|| {
            FormatError::new(format!(
                "{name} has {entries} entries of {width} bytes, more than the checker accepts ({MAX_ENTRY_BYTES} bytes)"
            ))
        })?;
        let refuse = |what: String| FormatError::new(format!("{name}'s zstd frame at byte {at} {what}"));
        if frame.is_empty() {
            return Err(refuse("is empty (compressed length 0): expected one zstd frame, even for no entries".into()));
        }
        let magic = frame.get(..4).map(|magic| u32::from_le_bytes(magic.try_into().expect("four bytes")));
        if magic.is_some_and(|magic| SKIPPABLE_MAGICS.contains(&magic)) {
            return Err(refuse("is a skippable frame: expected a zstd frame and nothing else".into()));
        }
        if !frame.starts_with(&ZSTD_MAGIC) {
            return Err(refuse(format!("starts with {:02X?}, expected the zstd frame magic 28 B5 2F FD", &frame[..frame.len().min(4)])));
        }
        match zstd::zstd_safe::get_frame_content_size(frame) {
            Ok(Some(size)) if size == expected => {}
            Ok(Some(size)) => {
                return Err(refuse(format!(
                    "states a content size of {size} bytes, expected {expected} ({entries} entries of {width} bytes)"
                )))
            }
            Ok(None) => return Err(refuse(format!("does not state its content size, expected it to state {expected}"))),
            Err(_) => return Err(refuse("has a damaged frame header".into())),
        }
        if let Some(dictionary) = zstd::zstd_safe::get_dict_id_from_frame(frame) {
            return Err(refuse(format!("needs dictionary {dictionary}, expected no dictionary")));
        }
        match zstd::zstd_safe::find_frame_compressed_size(frame) {
            Ok(length) if length == frame.len() => {}
            Ok(length) => {
                return Err(refuse(format!(
                    "ends after {length} bytes, but the compressed length is {}: expected nothing after the frame",
                    frame.len()
                )))
            }
            Err(code) => return Err(refuse(format!("does not decode: {}", zstd::zstd_safe::get_error_name(code)))),
        }
        let decoded = zstd::bulk::decompress(frame, expected as usize).map_err(|error| refuse(format!("does not decode: {error}")))?;
        if decoded.len() as u64 != expected {
            return Err(refuse(format!("decodes to {} bytes, expected {expected} ({entries} entries of {width} bytes)", decoded.len())));
        }
        let computed = xxh3_64(&decoded);
        if computed != self.checksum {
            return Err(FormatError::new(format!("{name}'s entries checksum {:016x}, expected {computed:016x}", self.checksum)));
        }
        Ok(decoded)
    }
}
