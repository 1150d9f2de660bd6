//! One table file on disk: writing it atomically, reading and checking its header and index,
//! decoding all its values (as bytes or straight into a [`CompactTier`]) or just one block.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bincode::Options;
use rayon::prelude::*;

use std::sync::atomic::{AtomicU64, Ordering};

use super::compact::{pack_lines, CompactTier, TierValues, LINE_POSITIONS};
use super::error::TableError;
use super::format::{self, Header, BLOCK_ENTRIES, CODEC_PREDICTED, MAGIC, MAX_HEADER_BYTES, VERSION, VERSION_1};
use super::residual;
use super::retrograde::SolvedTier;
use crate::atomic_file::write_atomically;
use crate::tier_layout::TierLayout;

/// A table file whose header and offset index have been read and checked.
#[derive(Clone, Debug)]
pub struct TableFile {
    path: PathBuf,
    header: Header,
    /// Where the data area starts in the file.
    data_start: u64,
    /// Block boundaries within the data area (`blocks + 1` of them).
    offsets: Vec<u64>,
    size: u64,
}

impl TableFile {
    /// Reads the header and index of any table file, without expectations about its rules or
    /// tier: checks magic, version, codec, the meta checksum and the file's length.
    ///
    /// # Errors
    /// [`TableError`] if the file cannot be read or is not a well-formed table of this version.
    pub fn inspect(path: &Path) -> Result<TableFile, TableError> {
        let mut file = File::open(path).map_err(|e| TableError::io(path, "open", e))?;
        let size = file.metadata().map_err(|e| TableError::io(path, "read metadata of", e))?.len();
        let mut head = Vec::new();
        (&mut file).take(MAX_HEADER_BYTES).read_to_end(&mut head).map_err(|e| TableError::io(path, "read", e))?;
        if head.len() < 12 && head.len() >= 8 && head[..8] == MAGIC {
            return Err(TableError::corrupt(path, format!("truncated: file is {size} bytes, shorter than a header")));
        }
        if head.len() < 12 || head[..8] != MAGIC {
            return Err(TableError::NotATable { path: path.into(), found: head[..head.len().min(8)].to_vec() });
        }
        let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
        let Some(codec) = format::codec_of(version) else {
            return Err(TableError::Version { path: path.into(), expected: VERSION, found: version });
        };
        let mut rest: &[u8] = &head;
        let header: Header = format::bincode_options().deserialize_from(&mut rest).map_err(|e| match *e {
            bincode::ErrorKind::Io(ref io) if io.kind() == std::io::ErrorKind::UnexpectedEof && (head.len() as u64) < MAX_HEADER_BYTES => {
                TableError::corrupt(path, format!("truncated: file is {size} bytes, the header does not fit"))
            }
            _ => TableError::corrupt(path, format!("unreadable header: {e}")),
        })?;
        let header_len = (head.len() - rest.len()) as u64;
        if header.codec != codec {
            return Err(mismatch(path, "codec", codec, header.codec));
        }
        if header.block_entries == 0 {
            return Err(TableError::corrupt(path, "header says 0 values per block"));
        }
        let blocks = header.blocks();
        let index_len = (blocks + 1).checked_mul(8).filter(|&len| header_len + len + 8 <= size).ok_or_else(|| {
            TableError::corrupt(
                path,
                format!("truncated: the header announces {blocks} blocks, more than a file of {size} bytes can index"),
            )
        })?;
        let mut meta = vec![0u8; (header_len + index_len + 8) as usize];
        file.seek(SeekFrom::Start(0)).and_then(|_| file.read_exact(&mut meta)).map_err(|e| TableError::io(path, "read", e))?;
        let (covered, stored) = meta.split_at(meta.len() - 8);
        let stored = u64::from_le_bytes(stored.try_into().expect("8 bytes"));
        let computed = format::meta_checksum(covered);
        if stored != computed {
            return Err(TableError::corrupt(path, format!("header checksum {computed:#018x}, expected {stored:#018x}")));
        }
        let offsets: Vec<u64> =
            covered[header_len as usize..].chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))).collect();
        if offsets[0] != 0 || offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(TableError::corrupt(path, "block offsets are not increasing from 0"));
        }
        let data_start = meta.len() as u64;
        let expected_size = data_start + offsets[blocks as usize];
        if size != expected_size {
            let what = if size < expected_size { "truncated" } else { "trailing bytes" };
            return Err(TableError::corrupt(path, format!("{what}: file is {size} bytes, the index says {expected_size}")));
        }
        Ok(TableFile { path: path.into(), header, data_start, offsets, size })
    }

    /// Reads the header and index of tier `seeds` of `rules` at `path`, checking that they
    /// are what these rules expect.
    ///
    /// # Errors
    /// As [`TableFile::inspect`], and [`TableError::Mismatch`] if the file belongs to other
    /// rules, another board or another tier.
    pub fn open<R: TierLayout>(rules: &R, path: &Path, seeds: u32) -> Result<TableFile, TableError> {
        let file = TableFile::inspect(path)?;
        let header = &file.header;
        if header.rules != rules.name() {
            return Err(mismatch(path, "rules", rules.name(), &header.rules));
        }
        if header.parameters != rules.parameters() {
            return Err(mismatch(
                path,
                "rules parameters (holes per row)",
                format!("{:?}", rules.parameters()),
                format!("{:?}", header.parameters),
            ));
        }
        if header.seeds != seeds {
            return Err(mismatch(path, "tier (seeds on the board)", seeds, header.seeds));
        }
        if header.entries != rules.tier_size(seeds) {
            return Err(mismatch(path, "entries", rules.tier_size(seeds), header.entries));
        }
        Ok(file)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Decodes every value (one byte each, two's complement) and checks the checksum. A
    /// version 2 file decodes against the lower tiers, `lower[j]` for every `j` below its tier
    /// (a version 1 file ignores them).
    ///
    /// # Errors
    /// [`TableError`] if the file cannot be read, a block does not decode, the checksum of
    /// the values differs from the header's, or a lower tier is missing.
    pub fn read_values<R: TierLayout, T: TierValues>(&self, rules: &R, lower: &[T]) -> Result<Vec<u8>, TableError> {
        let mut values = crate::memory::zeroed_bytes(self.header.entries as usize);
        let checksums: Vec<u64> = values
            .par_chunks_mut(self.header.block_entries as usize)
            .enumerate()
            .map(|(block, out)| {
                let decoded = self.decode_frame(rules, &self.read_frame(block)?, block, lower)?;
                out.copy_from_slice(&decoded);
                Ok(format::checksum(&decoded))
            })
            .collect::<Result<_, TableError>>()?;
        let computed = if self.header.version == VERSION_1 { format::checksum(&values) } else { format::block_digest(&checksums) };
        self.check_values(computed)?;
        Ok(values)
    }

    /// Decodes every value straight into a [`CompactTier`] (a version 2 file block by block,
    /// in parallel, never holding the tier a byte a position), and checks the checksum.
    ///
    /// # Errors
    /// As [`TableFile::read_values`].
    pub fn read_compact<R: TierLayout, T: TierValues>(&self, rules: &R, lower: &[T]) -> Result<CompactTier, TableError> {
        let seeds = self.header.seeds;
        if self.header.version == VERSION_1 {
            let values = self.read_values(rules, lower)?;
            return CompactTier::from_values(seeds, &values).map_err(|e| TableError::corrupt(&self.path, e.to_string()));
        }
        let group = self.header.block_entries as usize;
        if group % LINE_POSITIONS != 0 {
            return Err(TableError::corrupt(&self.path, format!("{group} values per block, expected a multiple of {LINE_POSITIONS}")));
        }
        let checksums: Vec<AtomicU64> = (0..self.header.blocks()).map(|_| AtomicU64::new(0)).collect();
        let tier = CompactTier::assemble(seeds, self.header.entries, group, |block, lines| {
            let values = self.decode_frame(rules, &self.read_frame(block)?, block, lower)?;
            checksums[block].store(format::checksum(&values), Ordering::Relaxed);
            pack_lines(seeds, block * group, &values, lines).map_err(|e| TableError::corrupt(&self.path, e.to_string()))
        })?;
        let checksums: Vec<u64> = checksums.into_iter().map(AtomicU64::into_inner).collect();
        self.check_values(format::block_digest(&checksums))?;
        Ok(tier)
    }

    /// The value at `index`, decoding only its block (whose own checksum zstd verifies); a
    /// version 2 file needs the lower tiers, as [`TableFile::read_values`].
    ///
    /// # Errors
    /// [`TableError`] if the block cannot be read or decoded, or a lower tier is missing.
    ///
    /// # Panics
    /// Panics if `index` is not below the number of entries.
    pub fn value<R: TierLayout, T: TierValues>(&self, rules: &R, index: u64, lower: &[T]) -> Result<i8, TableError> {
        assert!(index < self.header.entries, "index {index} out of range");
        let block = (index / self.header.block_entries as u64) as usize;
        let values = self.decode_frame(rules, &self.read_frame(block)?, block, lower)?;
        Ok(values[(index % self.header.block_entries as u64) as usize] as i8)
    }

    /// The values of `block` (one byte each), its frame read and decoded alone: what a rank
    /// of a partitioned build loads of a tier it owns part of. A version 2 file needs the
    /// successors of the block's positions in the lower tiers, as [`TableFile::read_values`]
    /// (a [`FetchedTier`](super::FetchedTier) holds just those).
    ///
    /// # Errors
    /// As [`TableFile::value`].
    ///
    /// # Panics
    /// If `block` is not below the number of blocks.
    pub fn decode_block<R: TierLayout, T: TierValues>(&self, rules: &R, block: usize, lower: &[T]) -> Result<Vec<u8>, TableError> {
        self.decode_frame(rules, &self.read_frame(block)?, block, lower)
    }

    /// Fails unless `checksums`, those of every block's values in order, give the header's
    /// checksum: a file decoded block by block by several ranks is checked whole so.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] if they do not.
    pub fn check_block_checksums(&self, checksums: &[u64]) -> Result<(), TableError> {
        self.check_values(format::block_digest(checksums))
    }

    /// The frame of `block`, read alone (so that loading a tier holds one frame per thread,
    /// not the file).
    fn read_frame(&self, block: usize) -> Result<Vec<u8>, TableError> {
        let (start, end) = (self.offsets[block], self.offsets[block + 1]);
        let mut frame = vec![0u8; (end - start) as usize];
        let mut file = File::open(&self.path).map_err(|e| TableError::io(&self.path, "open", e))?;
        file.seek(SeekFrom::Start(self.data_start + start))
            .and_then(|_| file.read_exact(&mut frame))
            .map_err(|e| TableError::io(&self.path, "read", e))?;
        Ok(frame)
    }

    /// The values of `block`, from its frame.
    fn decode_frame<R: TierLayout, T: TierValues>(
        &self,
        rules: &R,
        frame: &[u8],
        block: usize,
        lower: &[T],
    ) -> Result<Vec<u8>, TableError> {
        let len = self.header.block_len(block as u64);
        let corrupt = |e: String| TableError::corrupt(&self.path, format!("block {block}: {e}"));
        if self.header.version == VERSION_1 {
            return format::decompress_block(frame, len).map_err(corrupt);
        }
        let seeds = self.header.seeds;
        if lower.len() < seeds as usize {
            return Err(TableError::MissingLower { path: self.path.clone(), seeds, present: lower.len() as u32 });
        }
        let residuals = format::decompress_up_to(frame, len).map_err(corrupt)?;
        let first = block as u64 * self.header.block_entries as u64;
        residual::decode(rules, seeds, first, len, &residuals, lower).map_err(corrupt)
    }

    fn check_values(&self, computed: u64) -> Result<(), TableError> {
        if computed != self.header.checksum {
            return Err(TableError::corrupt(
                &self.path,
                format!("values checksum {computed:#018x}, expected {:#018x}", self.header.checksum),
            ));
        }
        Ok(())
    }
}

fn mismatch(path: &Path, field: &'static str, expected: impl ToString, found: impl ToString) -> TableError {
    TableError::Mismatch { path: path.into(), field, expected: expected.to_string(), found: found.to_string() }
}

/// Writes the values of tier `seeds` (one byte each, two's complement) to `path` in format
/// version 2, atomically: to `path.tmp` first, synced, then renamed over `path`. `lower[j]`
/// holds the values of tier `j` for every `j < seeds` (the residuals are taken against them).
/// The bytes depend only on the values, so a rebuild, or another builder calling this, writes
/// the same file. Returns the file's size.
///
/// # Errors
/// [`TableError::Io`] if the file cannot be written (full disk, no permission, ...), and
/// [`TableError::Inconsistent`] if a value contradicts the lower tiers or a lower tier is
/// missing (the values are not a solved tier).
pub fn write_table<R: TierLayout, T: TierValues>(
    rules: &R,
    path: &Path,
    seeds: u32,
    values: &[u8],
    lower: &[T],
) -> Result<u64, TableError> {
    let blocks: Vec<EncodedBlock> = (0..block_count(values.len() as u64))
        .into_par_iter()
        .map(|block| encode_block(rules, path, seeds, values, block, lower))
        .collect::<Result<_, TableError>>()?;
    write_encoded_table(rules, path, seeds, values.len() as u64, &blocks)
}

/// One block of a table file as `encode_solved_block` makes it: the checksum of its values
/// and its compressed residuals. Processes sharing a build encode blocks apart and hand them
/// to the one that writes the file (`write_encoded_table`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedBlock {
    /// The checksum of the block's values ([`format::checksum`]).
    pub checksum: u64,
    /// The block's residuals, compressed.
    pub frame: Vec<u8>,
}

/// How many blocks a file of `entries` positions has.
pub(crate) fn block_count(entries: u64) -> usize {
    entries.div_ceil(u64::from(BLOCK_ENTRIES)) as usize
}

/// Encodes block `block` of the file of tier `seeds`, given all the tier's `values` and
/// `lower[j]`, the values of tier `j < seeds`. `path` is the file's, for error messages.
///
/// # Errors
/// [`TableError::Inconsistent`] if a value contradicts the lower tiers or a lower tier is
/// missing, [`TableError::Io`] if compression fails.
fn encode_block<R: TierLayout, T: TierValues>(
    rules: &R,
    path: &Path,
    seeds: u32,
    values: &[u8],
    block: usize,
    lower: &[T],
) -> Result<EncodedBlock, TableError> {
    if lower.len() < seeds as usize {
        return Err(TableError::Inconsistent { seeds, detail: format!("tiers 0..{seeds} needed, {} given", lower.len()) });
    }
    let (first, chunk) = block_values(values, block);
    let residuals =
        residual::encode(rules, seeds, first as u64, chunk, lower).map_err(|detail| TableError::Inconsistent { seeds, detail })?;
    compressed_block(path, chunk, &residuals)
}

/// [`write_table`] for a solved tier: the residuals come from the solve's marks, with no pass
/// over the lower tiers; the same bytes.
///
/// # Errors
/// [`TableError::Io`] if the file cannot be written.
pub(crate) fn write_solved<R: TierLayout>(rules: &R, path: &Path, seeds: u32, solved: &SolvedTier) -> Result<u64, TableError> {
    let blocks: Vec<EncodedBlock> = (0..block_count(solved.values.len() as u64))
        .into_par_iter()
        .map(|block| encode_solved_block(path, solved, block))
        .collect::<Result<_, TableError>>()?;
    write_encoded_table(rules, path, seeds, solved.values.len() as u64, &blocks)
}

/// Encodes block `block` of the file of the tier `solved` (for [`write_encoded_table`]) from
/// its marks: only compression, no pass over the lower tiers. `path` is the file's, for error
/// messages.
///
/// # Errors
/// [`TableError::Io`] if compression fails.
pub(crate) fn encode_solved_block(path: &Path, solved: &SolvedTier, block: usize) -> Result<EncodedBlock, TableError> {
    debug_assert_eq!(solved.values.len(), solved.marks.len());
    let (first, chunk) = block_values(&solved.values, block);
    compressed_block(path, chunk, &residual::from_marks(&solved.marks[first..first + chunk.len()]))
}

/// The index of the first position of block `block` and the block's values.
fn block_values(values: &[u8], block: usize) -> (usize, &[u8]) {
    let first = block * BLOCK_ENTRIES as usize;
    (first, &values[first..values.len().min(first + BLOCK_ENTRIES as usize)])
}

/// The block of values `chunk` with its `residuals` compressed.
pub(crate) fn compressed_block(path: &Path, chunk: &[u8], residuals: &[u8]) -> Result<EncodedBlock, TableError> {
    let frame = format::compress_block(residuals).map_err(|e| TableError::io(path, "compress", e))?;
    Ok(EncodedBlock { checksum: format::checksum(chunk), frame })
}

/// Writes the file of tier `seeds`, of `entries` positions, from its `blocks` (every block,
/// in order, as [`encode_solved_block`] made them), atomically as [`write_table`] does; the
/// file is the one [`write_table`] writes from the same values. Returns the file's size.
///
/// # Errors
/// [`TableError::Io`] if the file cannot be written, [`TableError::Inconsistent`] if
/// `blocks` is not one block per [`BLOCK_ENTRIES`] positions.
pub(crate) fn write_encoded_table<R: TierLayout>(
    rules: &R,
    path: &Path,
    seeds: u32,
    entries: u64,
    blocks: &[EncodedBlock],
) -> Result<u64, TableError> {
    if blocks.len() != block_count(entries) {
        return Err(TableError::Inconsistent {
            seeds,
            detail: format!("{} blocks for {entries} positions, {} expected", blocks.len(), block_count(entries)),
        });
    }
    let checksums: Vec<u64> = blocks.iter().map(|b| b.checksum).collect();
    let lengths: Vec<u64> = blocks.iter().map(|b| b.frame.len() as u64).collect();
    let meta = table_meta(rules, seeds, entries, &checksums, &lengths);
    write_atomically(path, |file| {
        file.write_all(&meta)?;
        blocks.iter().try_for_each(|block| file.write_all(&block.frame))
    })
    .map_err(|f| TableError::io(f.path, f.action, f.source))?;
    Ok(meta.len() as u64 + lengths.iter().sum::<u64>())
}

/// What a table file of tier `seeds`, of `entries` positions, holds before its frames: the
/// header, the offset index and the meta checksum, given every block's values checksum and
/// frame length, in order. Processes that write their blocks of one file apart (`dakon-mpi`)
/// each know it, and where their frames go: after it, at the sum of the lengths before them.
pub fn table_meta<R: TierLayout>(rules: &R, seeds: u32, entries: u64, checksums: &[u64], lengths: &[u64]) -> Vec<u8> {
    debug_assert_eq!(checksums.len(), lengths.len());
    let header = Header {
        magic: MAGIC,
        version: VERSION,
        rules: rules.name().to_string(),
        parameters: rules.parameters(),
        seeds,
        entries,
        codec: CODEC_PREDICTED,
        block_entries: BLOCK_ENTRIES,
        checksum: format::block_digest(checksums),
    };
    let mut meta = format::bincode_options().serialize(&header).expect("a header always serializes");
    let mut offset = 0u64;
    meta.extend_from_slice(&offset.to_le_bytes());
    for length in lengths {
        offset += length;
        meta.extend_from_slice(&offset.to_le_bytes());
    }
    let meta_checksum = format::meta_checksum(&meta);
    meta.extend_from_slice(&meta_checksum.to_le_bytes());
    meta
}
