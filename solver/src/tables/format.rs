//! The table file format: header, offset index and compressed blocks (described byte by byte
//! in `tables/README.md`).
//!
//! ```text
//! header        bincode 1 (fixed-width integers, little endian), see [`Header`]
//! index         blocks + 1 offsets, u64 little endian, into the data area (first 0, last its length)
//! meta checksum u64 little endian: XXH3-64 of the header and index bytes
//! data          one zstd frame per block (with its content checksum), block_entries values each
//! ```
//!
//! A value is a future gain stored as one byte, two's complement (`i8`).

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use bincode::Options;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"DAKONTB\0";
/// The format version this program writes and reads.
pub const VERSION: u32 = 1;
/// The only codec: values in independently compressed zstd frames.
pub const CODEC_ZSTD: u32 = 1;
/// Values per block: small enough that one probe from disk decodes little, large enough
/// for zstd to find the regularities.
pub const BLOCK_ENTRIES: u32 = 1 << 18;
/// The zstd compression level the builder uses.
pub const ZSTD_LEVEL: i32 = 15;
/// The largest header accepted (a guard against absurd lengths in a damaged file).
pub const MAX_HEADER_BYTES: u64 = 1 << 12;

/// The header of a table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`VERSION`].
    pub version: u32,
    /// The rules' name ([`crate::rules::Rules::name`]).
    pub rules: String,
    /// The rules' parameters ([`crate::rules::Rules::parameters`]; Dakon: holes per row).
    pub parameters: Vec<u32>,
    /// The tier: seeds on the board.
    pub seeds: u32,
    /// Values in the file: the tier's size.
    pub entries: u64,
    /// [`CODEC_ZSTD`].
    pub codec: u32,
    /// Values per block (the last block may hold fewer).
    pub block_entries: u32,
    /// XXH3-64 of the decoded values, one byte each.
    pub checksum: u64,
}

impl Header {
    /// How many blocks the data holds.
    pub fn blocks(&self) -> u64 {
        self.entries.div_ceil(self.block_entries.max(1) as u64)
    }

    /// The number of values in block `block`.
    pub fn block_len(&self, block: u64) -> usize {
        let start = block * self.block_entries as u64;
        (self.entries - start).min(self.block_entries as u64) as usize
    }
}

/// The bincode options of the header: bincode 1's default layout, with a length limit.
pub(crate) fn bincode_options() -> impl Options {
    bincode::DefaultOptions::new().with_fixint_encoding().with_little_endian().allow_trailing_bytes().with_limit(MAX_HEADER_BYTES)
}

/// The checksum of decoded values.
pub fn checksum(values: &[u8]) -> u64 {
    xxh3_64(values)
}

/// The checksum of the header and index bytes.
pub(crate) fn meta_checksum(bytes: &[u8]) -> u64 {
    xxh3_64(bytes)
}

/// Compresses one block into a zstd frame that carries its own content checksum.
pub(crate) fn compress_block(values: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut compressor = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    compressor.compress(values)
}

/// Decompresses one block of `len` values.
///
/// # Errors
/// A message if the frame is damaged or does not hold exactly `len` values.
pub(crate) fn decompress_block(frame: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let values = zstd::bulk::decompress(frame, len).map_err(|e| format!("block does not decode: {e}"))?;
    if values.len() != len {
        return Err(format!("block holds {} values, expected {len}", values.len()));
    }
    Ok(values)
}
