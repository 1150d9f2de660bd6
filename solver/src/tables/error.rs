//! What can go wrong while building or reading endgame tables.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// An error of the endgame tables: every variant names the file (when there is one) and says
/// what was expected and what was found.
#[derive(Debug)]
pub enum TableError {
    /// Reading, writing or renaming a file failed (missing directory, full disk, ...).
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done ("read", "write", ...).
        action: &'static str,
        /// The system's error.
        source: io::Error,
    },
    /// The file does not start with the table magic bytes.
    NotATable {
        /// The file.
        path: PathBuf,
        /// Its first bytes.
        found: Vec<u8>,
    },
    /// The file was written in another format version.
    Version {
        /// The file.
        path: PathBuf,
        /// The version this program reads.
        expected: u32,
        /// The version in the file.
        found: u32,
    },
    /// A header field differs from what the reader expects (rules, board, tier, entries).
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which field.
        field: &'static str,
        /// What the reader expected.
        expected: String,
        /// What the header says.
        found: String,
    },
    /// The file is damaged: truncated, a checksum differs, a block does not decode.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, with expected and found values.
        detail: String,
    },
    /// A tier this format or builder cannot hold.
    Unsupported {
        /// The tier (seeds on the board).
        seeds: u32,
        /// Why.
        detail: String,
    },
    /// Values handed to the writer contradict the lower tiers (they are not a solved tier),
    /// or the lower tiers are missing.
    Inconsistent {
        /// The tier.
        seeds: u32,
        /// What is wrong.
        detail: String,
    },
    /// Loading a tier would pass the memory bound given for the tables.
    OverBound {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        seeds: u32,
        /// Bytes the tiers up to this one hold.
        needed: u64,
        /// The bound.
        bound: u64,
    },
    /// A version 2 file decodes against the tiers below it, and they were not all given.
    MissingLower {
        /// The file.
        path: PathBuf,
        /// Its tier.
        seeds: u32,
        /// How many lower tiers were given (tiers `0..present`).
        present: u32,
    },
    /// The rules broke the [`crate::build_schedule::BuildSchedule::tier_order`] contract: a move
    /// within a tier does not lower the tier order.
    Order {
        /// The tier.
        seeds: u32,
        /// The position's index.
        index: u64,
        /// The successor's index.
        successor: u64,
    },
    /// The processes sharing a build (`dakon-mpi`) do not agree, for example on which tiers
    /// are present because they do not see the same tables directory.
    Shared {
        /// The tier.
        seeds: u32,
        /// What differs.
        detail: String,
    },
}

impl TableError {
    pub(crate) fn io(path: impl Into<PathBuf>, action: &'static str, source: io::Error) -> TableError {
        TableError::Io { path: path.into(), action, source }
    }

    pub(crate) fn corrupt(path: impl Into<PathBuf>, detail: impl Into<String>) -> TableError {
        TableError::Corrupt { path: path.into(), detail: detail.into() }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io { path, action, source } => write!(f, "{}: cannot {action}: {source}", path.display()),
            TableError::NotATable { path, found } => {
                write!(f, "{}: not an endgame table: expected magic bytes {:?}, found {:?}", path.display(), super::format::MAGIC, found)
            }
            TableError::Version { path, expected, found } => {
                write!(
                    f,
                    "{}: format version {found}, expected {expected} or 1 (delete the file and rebuild it with dakon tables build)",
                    path.display()
                )
            }
            TableError::Mismatch { path, field, expected, found } => {
                write!(f, "{}: header says {field} {found}, expected {expected}", path.display())
            }
            TableError::Corrupt { path, detail } => write!(f, "{}: corrupt table: {detail}", path.display()),
            TableError::Unsupported { seeds, detail } => write!(f, "tier {seeds}: {detail}"),
            TableError::Inconsistent { seeds, detail } => write!(f, "tier {seeds}: not a solved tier: {detail}"),
            TableError::OverBound { path, seeds, needed, bound } => write!(
                f,
                "{}: tiers 0..={seeds} need {needed} bytes in memory, over the bound of {bound}: tier {seeds} and those above it are not used",
                path.display()
            ),
            TableError::MissingLower { path, seeds, present } => write!(
                f,
                "{}: a format 2 table decodes against tiers 0..{seeds} of its board, found only tiers 0..{present} (build them with dakon tables build)",
                path.display()
            ),
            TableError::Shared { seeds, detail } => write!(f, "tier {seeds}: the ranks sharing the build disagree: {detail}"),
            TableError::Order { seeds, index, successor } => write!(
                f,
                "tier {seeds}: position {index} has a successor {successor} in the same tier whose \
                 tier_order is not lower (the rules' tier_order is wrong)"
            ),
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
