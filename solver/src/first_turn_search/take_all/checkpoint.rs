//! The file a resumable take-all enumeration keeps its progress in: which walks (the states
//! of its breadth-first start, in their order) are finished, and the counts so far, so that a
//! run stopped by a limit, Ctrl-C or a crash goes on from there.
//!
//! Layout, little-endian: the magic `DKTKALL\n` (8 bytes); the version (u32, 1); the body's
//! length in bytes (u64); the body, the bincode (1.x, default options) of [`Saved`]; and the
//! xxh3-64 of every byte before it (u64). A file with a wrong magic, version, length or
//! checksum is refused as corrupt; one of another start, rule options or breadth-first start
//! is refused as another run's.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use crate::atomic_file::{write_atomically, WriteFailure};

const MAGIC: &[u8; 8] = b"DKTKALL\n";
const VERSION: u32 = 1;

/// Where a resumable enumeration keeps its progress, and how often it writes it.
#[derive(Clone, Debug)]
pub struct TakeAllCheckpoint {
    /// The checkpoint file: read at the start when it exists, rewritten whole (atomically)
    /// every `every` and at the end.
    pub path: PathBuf,
    /// The time between writes.
    pub every: Duration,
}

/// Why a checkpoint could not be used.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file exists but cannot be read.
    Read { path: PathBuf, source: io::Error },
    /// The file is not a whole checkpoint of this version.
    Corrupt { path: PathBuf, why: String },
    /// The file is a checkpoint of another enumeration.
    OtherRun { path: PathBuf, why: String },
    /// The checkpoint cannot be written (the last one written is left as it was).
    Write(WriteFailure),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Read { path, source } => write!(f, "{}: cannot read the checkpoint: {source}", path.display()),
            CheckpointError::Corrupt { path, why } => write!(f, "{}: not a take-all checkpoint: {why}", path.display()),
            CheckpointError::OtherRun { path, why } => {
                write!(f, "{}: a checkpoint of another enumeration ({why}); give another file or remove it", path.display())
            }
            CheckpointError::Write(failure) => write!(f, "cannot write the checkpoint: {failure}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// What a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Saved {
    /// The start, in the project's notation.
    pub state: String,
    /// The rule options (`dakon:…`).
    pub options: String,
    /// The xxh3-64 of the breadth-first start's states, in notation, one a line.
    pub fingerprint: u64,
    /// The walks (states of the breadth-first start).
    pub walks: u64,
    /// Bit `i % 64` of word `i / 64` set: walk `i` is finished, every turn end in it refuted.
    pub done: Vec<u64>,
    /// The counts so far, of every run, work of unfinished walks included.
    pub turn_states: u64,
    pub turn_ends: u64,
    pub screened: u64,
    pub searched: u64,
    pub elapsed_ms: u64,
}

impl TakeAllCheckpoint {
    /// The saved progress, or `None` when the file does not exist.
    ///
    /// # Errors
    /// [`CheckpointError::Read`] or [`CheckpointError::Corrupt`].
    pub(super) fn load(&self) -> Result<Option<Saved>, CheckpointError> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(CheckpointError::Read { path: self.path.clone(), source }),
        };
        decode(&bytes).map(Some).map_err(|why| CheckpointError::Corrupt { path: self.path.clone(), why })
    }

    /// Writes `saved` over the checkpoint, whole or not at all.
    ///
    /// # Errors
    /// [`CheckpointError::Write`].
    pub(super) fn save(&self, saved: &Saved) -> Result<(), CheckpointError> {
        let bytes = encode(saved);
        write_atomically(&self.path, |file| io::Write::write_all(file, &bytes)).map_err(CheckpointError::Write)
    }
}

fn encode(saved: &Saved) -> Vec<u8> {
    let body = bincode::serialize(saved).expect("a checkpoint serializes");
    let mut bytes = Vec::with_capacity(body.len() + 28);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&body);
    let checksum = xxh3_64(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

fn decode(bytes: &[u8]) -> Result<Saved, String> {
    let word = |at: usize| -> Option<u64> { Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?)) };
    if bytes.get(..8) != Some(MAGIC.as_slice()) {
        return Err("no DKTKALL magic".into());
    }
    let version = bytes.get(8..12).map(|v| u32::from_le_bytes(v.try_into().expect("four bytes")));
    if version != Some(VERSION) {
        return Err(format!("version {version:?}, this program reads {VERSION}"));
    }
    let length = word(12).ok_or("truncated header")? as usize;
    let end = 20usize
        .checked_add(length)
        .filter(|&end| end + 8 == bytes.len())
        .ok_or_else(|| format!("{} bytes, the header promises {}", bytes.len(), 28u64.saturating_add(length as u64)))?;
    if word(end) != Some(xxh3_64(&bytes[..end])) {
        return Err("checksum mismatch".into());
    }
    bincode::deserialize(&bytes[20..end]).map_err(|e| format!("body: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved() -> Saved {
        Saved {
            state: "7,7/7,7 0/0 0".into(),
            options: "dakon:no-first-turn-capture".into(),
            fingerprint: 42,
            walks: 70,
            done: vec![0b1011, 1 << 5],
            turn_states: 1,
            turn_ends: 2,
            screened: 3,
            searched: 4,
            elapsed_ms: 5,
        }
    }

    #[test]
    fn a_checkpoint_round_trips_and_every_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = TakeAllCheckpoint { path: dir.path().join("walk.ckpt"), every: Duration::from_secs(1) };
        assert_eq!(checkpoint.load().unwrap(), None);
        checkpoint.save(&saved()).unwrap();
        assert_eq!(checkpoint.load().unwrap(), Some(saved()));
        let bytes = std::fs::read(&checkpoint.path).unwrap();
        for at in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(decode(&damaged).is_err(), "a flipped bit at byte {at} went unseen");
        }
        for length in 0..bytes.len() {
            assert!(decode(&bytes[..length]).is_err(), "truncated to {length} bytes went unseen");
        }
        std::fs::write(&checkpoint.path, b"hello").unwrap();
        assert!(matches!(checkpoint.load(), Err(CheckpointError::Corrupt { .. })));
    }
}
