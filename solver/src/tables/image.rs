//! The memory image of a tier: its [`CompactTier`] as bytes, in a file beside the table file
//! (`dakon-7-k12.dkm` beside `dakon-7-k12.dkt`), so that a later load reads the tier instead of
//! decoding it (format 2 decodes a position by a one-ply look-up into the tiers below). The
//! layout, byte by byte, is in `docs/formats/tables.md` ("Memory images").
//!
//! ```text
//! length     u64: bytes of the header
//! header     bincode 1 (fixed-width integers, little endian), see [`ImageHeader`]
//! lines      the tier's 64-byte lines, as in memory
//! exceptions each group's exceptions, one after another (lengths in the header)
//! checksum   u64: XXH3-64 of every byte before it
//! ```
//!
//! The header names the table file it was made from by its rules, parameters, tier, size and
//! values checksum: an image of other values is *stale*, refused and made again from the
//! table file, as is a damaged one (checksum, length or layout). The lines are in the
//! machine's byte order, which the header records. An image is an optimisation only: one that
//! cannot be written (a read-only directory) leaves the tiers to be decoded at every load.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bincode::Options;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use super::compact::{CompactTier, Line, TierValues, LINE_POSITIONS};
use super::file::TableFile;
use crate::atomic_file::write_atomically;

/// The extension of image files.
pub const IMAGE_EXTENSION: &str = "dkm";
/// The first eight bytes of every image's header.
const MAGIC: [u8; 8] = *b"DAKONTM\0";
/// The image format version.
const VERSION: u32 = 1;
/// Written in the machine's byte order (the header's integers are little endian whatever
/// the machine): tells a host of the other byte order that the lines are not its own.
const BYTE_ORDER: u64 = 0x0102_0304_0506_0708;
/// The largest header accepted: a guard against absurd lengths in a damaged file.
const MAX_HEADER_BYTES: u64 = 1 << 20;

/// The header of an image file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct ImageHeader {
    /// [`MAGIC`].
    magic: [u8; 8],
    /// [`VERSION`].
    version: u32,
    /// [`BYTE_ORDER`]'s bytes as the writer's machine stores it.
    byte_order: [u8; 8],
    /// The table file's rules, parameters, tier, entries and values checksum.
    rules: String,
    parameters: Vec<u32>,
    seeds: u32,
    entries: u64,
    source_checksum: u64,
    /// Lines a group of exceptions serves.
    group_lines: u64,
    /// Bytes of each group's exceptions.
    exceptions: Vec<u64>,
}

impl ImageHeader {
    /// The header an image of `table`'s tier starts with, with `tier`'s layout.
    fn of(table: &TableFile, tier: &CompactTier) -> ImageHeader {
        let source = table.header();
        ImageHeader {
            magic: MAGIC,
            version: VERSION,
            byte_order: BYTE_ORDER.to_ne_bytes(),
            rules: source.rules.clone(),
            parameters: source.parameters.clone(),
            seeds: source.seeds,
            entries: source.entries,
            source_checksum: source.checksum,
            group_lines: tier.group_lines() as u64,
            exceptions: tier.exception_groups().iter().map(|e| e.len() as u64).collect(),
        }
    }

    /// Whether this image was made from `table` by this program: `Err` says how it differs.
    fn matches(&self, table: &TableFile) -> Result<(), String> {
        let source = table.header();
        let differs = |what: &str, expected: String, found: String| Err(format!("{what} {found}, expected {expected}"));
        if self.magic != MAGIC {
            return differs("magic", format!("{MAGIC:?}"), format!("{:?}", self.magic));
        }
        if self.version != VERSION {
            return differs("version", VERSION.to_string(), self.version.to_string());
        }
        if self.byte_order != BYTE_ORDER.to_ne_bytes() {
            return Err("made on a machine of the other byte order".into());
        }
        if (&self.rules, &self.parameters, self.seeds) != (&source.rules, &source.parameters, source.seeds) {
            return differs(
                "made for",
                format!("{} {:?} tier {}", source.rules, source.parameters, source.seeds),
                format!("{} {:?} tier {}", self.rules, self.parameters, self.seeds),
            );
        }
        if (self.entries, self.source_checksum) != (source.entries, source.checksum) {
            return Err(format!(
                "stale: made from a table of {} values with checksum {:#x}, the table has {} with {:#x}",
                self.entries, self.source_checksum, source.entries, source.checksum
            ));
        }
        Ok(())
    }
}

/// The bincode options of the header: bincode 1's default layout, with a length limit.
fn bincode_options() -> impl Options {
    bincode::DefaultOptions::new().with_fixint_encoding().with_little_endian().allow_trailing_bytes().with_limit(MAX_HEADER_BYTES)
}

/// The image file of the table file at `table`.
pub fn image_path(table: &Path) -> PathBuf {
    table.with_extension(IMAGE_EXTENSION)
}

/// What became of an image on loading.
#[derive(Debug)]
pub(crate) enum ImageRead {
    /// There is none.
    Missing,
    /// It is stale or damaged: what is wrong.
    Refused(String),
}

/// The tier of `table` from its image file.
///
/// # Errors
/// [`ImageRead::Missing`] if there is no image, [`ImageRead::Refused`] (saying why) if it is
/// unreadable, damaged, or made from other values than the table file's.
pub(crate) fn read_image(table: &TableFile) -> Result<CompactTier, ImageRead> {
    let path = image_path(table.path());
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ImageRead::Missing),
        Err(e) => return Err(ImageRead::Refused(format!("cannot be opened: {e}"))),
    };
    let refused = |detail: String| ImageRead::Refused(detail);
    let mut reader = HashingReader { inner: BufReader::new(file), hash: Xxh3::new() };
    let (header, _) = read_header(&mut reader, table)?;
    let tier = CompactTier::from_parts(header.seeds, header.entries, header.group_lines as usize, &header.exceptions, |bytes| {
        reader.read_exact(bytes)
    })
    .map_err(|e| match e {
        PartsError::Layout(detail) => refused(detail),
        PartsError::Read(e) => io_refused(e),
    })?;
    let computed = reader.hash.digest();
    let mut stored = [0u8; 8];
    reader.inner.read_exact(&mut stored).map_err(io_refused)?;
    if u64::from_le_bytes(stored) != computed {
        return Err(refused(format!("checksum {:#x}, computed {computed:#x}", u64::from_le_bytes(stored))));
    }
    if reader.inner.read(&mut [0u8; 1]).map_err(io_refused)? != 0 {
        return Err(refused("bytes after the checksum".into()));
    }
    Ok(tier)
}

/// Reads the length and the header at the start of an image, and checks that it was made from
/// `table`; returns the header and the bytes read.
fn read_header(reader: &mut impl Read, table: &TableFile) -> Result<(ImageHeader, u64), ImageRead> {
    let mut length = [0u8; 8];
    reader.read_exact(&mut length).map_err(io_refused)?;
    let length = u64::from_le_bytes(length);
    if length > MAX_HEADER_BYTES {
        return Err(ImageRead::Refused(format!("a header of {length} bytes, at most {MAX_HEADER_BYTES} expected")));
    }
    let mut head = vec![0u8; length as usize];
    reader.read_exact(&mut head).map_err(io_refused)?;
    let header: ImageHeader = bincode_options().deserialize(&head).map_err(|e| ImageRead::Refused(format!("unreadable header: {e}")))?;
    header.matches(table).map_err(ImageRead::Refused)?;
    Ok((header, 8 + length))
}

/// A read error as a refusal.
fn io_refused(e: io::Error) -> ImageRead {
    ImageRead::Refused(if e.kind() == io::ErrorKind::UnexpectedEof { "truncated".into() } else { format!("cannot be read: {e}") })
}

/// An image read a range of positions at a time, as a rank of a partitioned build reads its
/// own blocks of a finished tier without ever holding the others'. Its checksum covers the
/// whole file, which such a reader does not read: the caller checks the values it takes
/// against the table file's checksum instead (every block's, gathered from the ranks).
pub struct ImageRanges {
    file: File,
    header: ImageHeader,
    /// Where the lines begin.
    lines_at: u64,
    /// Where each group's exceptions begin.
    exceptions_at: Vec<u64>,
}

impl ImageRanges {
    /// The image of `table`, if there is one whose header was made from `table`'s values and
    /// whose length is its layout's.
    ///
    /// # Errors
    /// Why there is none to read: missing, unreadable, stale, or of another length.
    pub fn open(table: &TableFile) -> Result<ImageRanges, String> {
        let why = |read: ImageRead| match read {
            ImageRead::Missing => "no memory image".to_string(),
            ImageRead::Refused(detail) => detail,
        };
        let path = image_path(table.path());
        let mut file =
            File::open(&path).map_err(|e| why(if e.kind() == io::ErrorKind::NotFound { ImageRead::Missing } else { io_refused(e) }))?;
        let (header, lines_at) = read_header(&mut BufReader::new(&mut file), table).map_err(why)?;
        let lines = header.entries.div_ceil(LINE_POSITIONS as u64);
        if header.group_lines == 0 || lines.div_ceil(header.group_lines) != header.exceptions.len() as u64 {
            return Err(format!("{} groups of {} lines for {lines} lines", header.exceptions.len(), header.group_lines));
        }
        let mut exceptions_at = Vec::with_capacity(header.exceptions.len());
        let mut at = lines_at + lines * std::mem::size_of::<Line>() as u64;
        for &bytes in &header.exceptions {
            exceptions_at.push(at);
            at += bytes;
        }
        let length = file.metadata().map_err(|e| why(io_refused(e)))?.len();
        if length != at + 8 {
            return Err(format!("{length} bytes, the layout's {}", at + 8));
        }
        Ok(ImageRanges { file, header, lines_at, exceptions_at })
    }

    /// The values (a byte each, two's complement) of positions `first..first + len`, which
    /// must begin on a group of lines and end on one or at the tier's end.
    ///
    /// # Errors
    /// A range off the groups, or the file's read failing, or a layout that does not fit.
    pub fn values(&mut self, first: u64, len: usize) -> Result<Vec<u8>, String> {
        let group = self.header.group_lines * LINE_POSITIONS as u64;
        let end = first + len as u64;
        if first % group != 0 || (end % group != 0 && end != self.header.entries) || end > self.header.entries {
            return Err(format!("positions {first}..{end} are not whole groups of {group}"));
        }
        let groups = (first / group) as usize..end.div_ceil(group) as usize;
        let mut places = std::iter::once(self.lines_at + first / LINE_POSITIONS as u64 * std::mem::size_of::<Line>() as u64)
            .chain(self.exceptions_at[groups.clone()].iter().copied());
        let file = &mut self.file;
        let range = CompactTier::from_parts(
            self.header.seeds,
            len as u64,
            self.header.group_lines as usize,
            &self.header.exceptions[groups],
            |bytes| {
                file.seek(SeekFrom::Start(places.next().expect("a place for the lines and each group")))?;
                file.read_exact(bytes)
            },
        )
        .map_err(|e| match e {
            PartsError::Layout(detail) => detail,
            PartsError::Read(e) => e.to_string(),
        })?;
        Ok((0..len as u64).map(|index| range.value_at(index) as u8).collect())
    }
}

/// Writes the image of `tier`, decoded from `table`, beside the table file (atomically).
///
/// # Errors
/// The write's failure (the image is then simply missing).
pub(crate) fn write_image(table: &TableFile, tier: &CompactTier) -> Result<(), crate::atomic_file::WriteFailure> {
    let head = bincode_options().serialize(&ImageHeader::of(table, tier)).expect("an image header serializes");
    write_atomically(&image_path(table.path()), |out| {
        let mut out = HashingWriter { inner: out, hash: Xxh3::new() };
        out.write_all(&(head.len() as u64).to_le_bytes())?;
        out.write_all(&head)?;
        out.write_all(tier.line_bytes_of())?;
        for group in tier.exception_groups() {
            out.write_all(group)?;
        }
        let checksum = out.hash.digest();
        out.inner.write_all(&checksum.to_le_bytes())
    })
}

/// Why [`CompactTier::from_parts`] failed.
#[derive(Debug)]
pub(crate) enum PartsError {
    /// The layout does not fit the tier: what is wrong.
    Layout(String),
    /// Reading the lines or exceptions failed.
    Read(io::Error),
}

/// A reader that hashes what it reads.
struct HashingReader<R> {
    inner: R,
    hash: Xxh3,
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

/// A writer that hashes what it writes.
struct HashingWriter<W> {
    inner: W,
    hash: Xxh3,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
