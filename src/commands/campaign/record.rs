//! The lines of a campaign file (JSON Lines): a header naming the campaign, then one record
//! per finished test, a proven bound or a test a budget stopped.

use serde::{Deserialize, Serialize};

use super::bounds::Side;

/// The version of the records' layout, in the header.
pub const VERSION: u32 = 1;

/// One line of a campaign file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum Record {
    /// The first line: what the campaign is about.
    Campaign(Header),
    /// A bound proven for a position of the tree.
    Bound(BoundRecord),
    /// A test stopped by its budget: nothing proven, but the next budget for it grows.
    Stopped(StoppedRecord),
}

/// The campaign: its rules, root and tree depth. Every later run must name the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    pub rules: String,
    /// The root position in the notation.
    pub root: String,
    /// Turns of the tree (a move that earns an extra move stays in its turn).
    pub depth: u32,
    pub date: String,
}

/// A proven bound: the value of `position` (final store difference, its mover minus the
/// opponent) is at least, or at most, `value`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoundRecord {
    pub position: String,
    /// The holes played from the root to the position.
    pub line: Vec<usize>,
    pub rules: String,
    pub bound: Side,
    pub value: i32,
    /// How it was proven: `search` (a null-window test of the solver, exhaustive).
    pub proof: String,
    /// The certificate that proves it to the independent checker, if one was written.
    pub certificate: Option<CertificateRef>,
    #[serde(flatten)]
    pub work: Work,
}

/// A test its budget stopped before an answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoppedRecord {
    pub position: String,
    pub line: Vec<usize>,
    pub rules: String,
    #[serde(flatten)]
    pub work: Work,
}

/// What a test asked and what it cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Work {
    /// The test: "is the value at least `target`?"
    pub target: i32,
    /// Its budget of wall-clock seconds.
    pub budget_seconds: f64,
    pub nodes: u64,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
    /// CPU seconds of the search (every thread).
    pub cpu_seconds: f64,
    pub threads: usize,
    pub tt_mb: usize,
    /// Whether endgame tables answered positions.
    pub tables: bool,
    pub machine: String,
    /// When the test ended, UTC.
    pub date: String,
}

/// A certificate file that proves a bound.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CertificateRef {
    /// The file: relative to the campaign file's directory, or absolute.
    pub file: String,
    pub bytes: u64,
    /// XXH3-64 of the whole file, 16 hexadecimal digits.
    pub xxh3: String,
    /// The claim it proves (one side is the trivial bound).
    pub lower: i32,
    pub upper: i32,
    /// `L` of the file.
    pub small_seeds: u8,
    /// Extraction and writing, seconds.
    pub write_seconds: f64,
    /// The independent checker's verdict when it was written (`None`: not checked).
    pub checked: Option<bool>,
    pub check_seconds: Option<f64>,
}

/// The XXH3-64 of `bytes` as a [`CertificateRef`] writes it.
pub fn xxh3_hex(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

impl Record {
    /// The position a bound or stopped record is about.
    pub fn position(&self) -> Option<&str> {
        match self {
            Record::Campaign(_) => None,
            Record::Bound(r) => Some(&r.position),
            Record::Stopped(r) => Some(&r.position),
        }
    }

    /// The rules a bound or stopped record names.
    pub fn rules(&self) -> Option<&str> {
        match self {
            Record::Campaign(h) => Some(&h.rules),
            Record::Bound(r) => Some(&r.rules),
            Record::Stopped(r) => Some(&r.rules),
        }
    }
}
