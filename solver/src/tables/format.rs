//! The table file format: header, offset index and compressed blocks (described byte by byte
//! in `docs/formats/tables.md`).
//!
//! ```text
//! header        bincode 1 (fixed-width integers, little endian), see [`Header`]
//! index         blocks + 1 offsets, u64 little endian, into the data area (first 0, last its length)
//! meta checksum u64 little endian: XXH3-64 of the header and index bytes
//! data          one zstd frame per block (with its content checksum)
//! ```
//!
//! A value is a future gain, one byte in two's complement (`i8`) once decoded. In version 1 a
//! block's frame holds its values; in version 2 it holds their residuals over the one-ply
//! prediction from the lower tiers (`tables::residual`), and the values checksum is taken
//! block by block ([`block_digest`]).

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use bincode::Options;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"DAKONTB\0";
/// The format version this program writes (it also reads [`VERSION_1`]).
pub const VERSION: u32 = 2;
/// The first format: the values themselves in zstd frames.
pub const VERSION_1: u32 = 1;
/// The codec of version 1: values in independently compressed zstd frames.
pub const CODEC_ZSTD: u32 = 1;
/// The codec of version 2: residuals over the one-ply prediction, in zstd frames.
pub const CODEC_PREDICTED: u32 = 2;
/// Values per block in the files this program writes: small enough that one probe from disk
/// decodes little, large enough for zstd to find the regularities, and a whole number of
/// in-memory lines (`147 * 2048`), so that blocks decode straight into them in parallel.
pub const BLOCK_ENTRIES: u32 = 147 * 2048;
/// The zstd compression level the builder uses (any level decodes the same; the reader
/// never needs it): higher levels shrink the files a little for much more build time, and
/// level 3 already stays far inside the 2 bits a position the format aims at.
pub const ZSTD_LEVEL: i32 = 3;
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
    /// [`CODEC_ZSTD`] (version 1) or [`CODEC_PREDICTED`] (version 2).
    pub codec: u32,
    /// Values per block (the last block may hold fewer).
    pub block_entries: u32,
    /// Version 1: XXH3-64 of the decoded values, one byte each. Version 2: [`block_digest`].
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

/// The checksum of decoded values (of a version 1 file; of one block in version 2).
pub fn checksum(values: &[u8]) -> u64 {
    xxh3_64(values)
}

/// [`checksum`] of bytes given a part at a time: that of the parts one after the other, for
/// data too large to copy whole into one buffer first.
pub struct PartsChecksum(Xxh3);

impl PartsChecksum {
    pub fn new() -> Self {
        PartsChecksum(Xxh3::new())
    }

    pub fn update(&mut self, part: &[u8]) {
        self.0.update(part);
    }

    /// The checksum of every part so far.
    pub fn value(&self) -> u64 {
        self.0.digest()
    }
}

impl Default for PartsChecksum {
    fn default() -> Self {
        Self::new()
    }
}

/// The values checksum of a version 2 file: XXH3-64 of the [`checksum`]s of its blocks'
/// values, each as 8 bytes little endian, in block order (so blocks are checked in parallel).
pub fn block_digest(block_checksums: &[u64]) -> u64 {
    xxh3_64(&block_checksums.iter().flat_map(|c| c.to_le_bytes()).collect::<Vec<u8>>())
}

/// The codec a version uses, if this program knows the version.
pub fn codec_of(version: u32) -> Option<u32> {
    match version {
        VERSION_1 => Some(CODEC_ZSTD),
        VERSION => Some(CODEC_PREDICTED),
        _ => None,
    }
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

/// Decompresses one block of at most `len` bytes.
///
/// # Errors
/// A message if the frame is damaged or holds more than `len` bytes.
pub(crate) fn decompress_up_to(frame: &[u8], len: usize) -> Result<Vec<u8>, String> {
    zstd::bulk::decompress(frame, len).map_err(|e| format!("block does not decode: {e}"))
}

/// Decompresses one version 1 block of `len` values.
///
/// # Errors
/// A message if the frame is damaged or does not hold exactly `len` values.
pub(crate) fn decompress_block(frame: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let values = decompress_up_to(frame, len)?;
    if values.len() != len {
        return Err(format!("block holds {} values, expected {len}", values.len()));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checksum_given_in_parts_is_that_of_the_whole() {
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let mut sum = PartsChecksum::new();
        for part in bytes.chunks(4_099) {
            sum.update(part);
        }
        assert_eq!(sum.value(), checksum(&bytes));
        assert_ne!(PartsChecksum::new().value(), checksum(&bytes));
    }
}
