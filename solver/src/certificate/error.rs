//! Why a certificate could not be extracted.

use std::fmt;

use crate::dakon::{Player, Position};

/// Why [`extract`](super::extract) gave no certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtractError {
    /// `L` above what the format allows on the board.
    SmallSeeds {
        /// The `L` asked for.
        found: u8,
        /// The largest the board allows ([`max_small_seeds`](super::max_small_seeds)).
        most: u8,
    },
    /// A lower bound above the upper bound.
    Bounds {
        /// The claimed lower bound.
        lower: i32,
        /// The claimed upper bound.
        upper: i32,
    },
    /// A limit (time, nodes, Ctrl-C) stopped a search the extraction needed.
    Stopped,
    /// The solver could not back a claim: at `position` the half's owner needs a final store
    /// difference of `needed` and no move achieves it (the claim is false).
    NotProven {
        /// `"lower"` or `"upper"`.
        half: &'static str,
        /// The player whose strategy the half is.
        owner: Player,
        /// The position, with its stores.
        position: Position,
        /// The final store difference (the owner's minus the other's) the owner needs.
        needed: i32,
    },
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::SmallSeeds { found, most } => {
                write!(f, "a certificate of this board leaves out positions with at most 0 to {most} seeds, found {found}")
            }
            ExtractError::Bounds { lower, upper } => write!(f, "the claimed lower bound {lower:+} is above the upper bound {upper:+}"),
            ExtractError::Stopped => write!(f, "stopped by a limit or Ctrl-C before the certificate was complete"),
            ExtractError::NotProven { half, owner, position, needed } => {
                write!(f, "the {half} bound does not hold: at {position} player {owner} cannot be sure of a final difference of {needed:+}")
            }
        }
    }
}

impl std::error::Error for ExtractError {}
