//! What the check of one certificate found, as text and as JSON.

use std::fmt;
use std::time::Duration;

use serde_json::{json, Value};

use crate::half::{Failure, HalfReport, Shortfall};
use crate::rules::{Position, Rules};

/// The outcome of checking a well-formed certificate.
#[derive(Clone, Debug)]
pub struct Report {
    /// The position `P` whose value the certificate bounds (its rules and board size too).
    pub root: Position,
    /// The rules' name as the certificate gives it, options included.
    pub rules_name: String,
    /// The claimed lower bound of the value (the mover's final store difference).
    pub claimed_lower: i32,
    /// The claimed upper bound.
    pub claimed_upper: i32,
    /// `L`: positions with at most this many seeds on the board were solved by the checker.
    pub small_seeds: u8,
    /// The lower half: the mover's strategy.
    pub lower: HalfReport,
    /// The upper half: the other player's strategy.
    pub upper: HalfReport,
    /// Positions visited: the calls of the walk's `visit` in both halves (as
    /// `docs/formats/certificates.md` defines them).
    pub visited: u64,
    /// Positions (board and player to move) of at most `L` seeds solved by this checker's
    /// minimax, for both halves: its own cost, not a figure of the format.
    pub solved_small: u64,
    /// How long reading and checking took.
    pub elapsed: Duration,
}

impl Report {
    /// Whether the certificate proves its claim: both halves hold.
    pub fn holds(&self) -> bool {
        self.lower.holds() && self.upper.holds()
    }

    /// The rule set of the certificate (after the opening, under `no-first-turn-capture`).
    pub fn rules(&self) -> Rules {
        self.root.rules()
    }

    /// The board size, holes per row.
    pub fn holes_per_row(&self) -> usize {
        self.root.holes_per_row()
    }

    /// The lower bound the check proved: the claimed one if the lower half holds, else the
    /// trivial one (the mover loses every seed left). Never more than the claim: the walk
    /// stops where the claim is settled, so it does not learn what more a strategy gives.
    pub fn checked_lower(&self) -> i64 {
        let trivial = self.root.store_difference(self.root.player()) - i64::from(self.root.seeds_on_board());
        if self.lower.holds() {
            self.claimed_lower.into()
        } else {
            trivial
        }
    }

    /// The upper bound the check proved: the claimed one if the upper half holds, else the
    /// trivial one (the mover takes every seed left).
    pub fn checked_upper(&self) -> i64 {
        let trivial = self.root.store_difference(self.root.player()) + i64::from(self.root.seeds_on_board());
        if self.upper.holds() {
            self.claimed_upper.into()
        } else {
            trivial
        }
    }

    /// One JSON object: the fields of the text report, for scripts.
    pub fn to_json(&self) -> Value {
        let half = |half: &HalfReport| {
            json!({
                "holds": half.holds(),
                "owner": half.owner,
                "needed": half.needed,
                "entries": half.entries,
                "visited": half.visited,
                "failure": half.failure.as_ref().map(|failure| json!({
                    "position": failure.position.to_string(),
                    "line": failure.line,
                    "needed": failure.needed,
                    "reason": failure.shortfall.to_string(),
                })),
            })
        };
        json!({
            "holds": self.holds(),
            "rules": self.rules_name,
            "holes_per_row": self.holes_per_row(),
            "position": self.root.to_string(),
            "L": self.small_seeds,
            "claimed_lower": self.claimed_lower,
            "claimed_upper": self.claimed_upper,
            "checked_lower": self.checked_lower(),
            "checked_upper": self.checked_upper(),
            "lower": half(&self.lower),
            "upper": half(&self.upper),
            "visited": self.visited,
            "solved_small": self.solved_small,
            "seconds": self.elapsed.as_secs_f64(),
        })
    }
}

/// Several lines, each indented by two spaces, ending in a newline.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  position  {}  ({}, {} holes per row, L = {})", self.root, self.rules_name, self.holes_per_row(), self.small_seeds)?;
        writeln!(f, "  claimed   {} <= value <= {}", signed(self.claimed_lower.into()), signed(self.claimed_upper.into()))?;
        writeln!(f, "  checked   {} <= value <= {}", signed(self.checked_lower()), signed(self.checked_upper()))?;
        for (name, half) in [("lower", &self.lower), ("upper", &self.upper)] {
            let verdict = if half.holds() { "holds" } else { "FAILS" };
            write!(f, "  {name}     {verdict}: player {}'s strategy, {} entries, {} positions", half.owner, half.entries, half.visited)?;
            match &half.failure {
                None => writeln!(f)?,
                Some(failure) => writeln!(f, "\n            {failure}")?,
            }
        }
        writeln!(
            f,
            "  visited   {} positions (and {} small ones solved by its tables) in {:.3} s",
            self.visited,
            self.solved_small,
            self.elapsed.as_secs_f64()
        )
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line: Vec<String> = self.line.iter().map(usize::to_string).collect();
        let after = if line.is_empty() { "the root".to_string() } else { format!("moves {}", line.join(" ")) };
        write!(f, "at {} (after {after}): ", self.position)?;
        match self.shortfall {
            Shortfall::IllegalMove(_) => write!(f, "{}", self.shortfall),
            Shortfall::GameOver(got) | Shortfall::SmallPosition(got) | Shortfall::NoEntry(got) => {
                let (owner, needed) = (self.owner, signed(self.needed));
                write!(f, "player {owner} needs {needed}, {} (short by {})", self.shortfall, self.needed - got)
            }
        }
    }
}

impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Shortfall::GameOver(got) => write!(f, "but the game is over with {}", signed(got)),
            Shortfall::SmallPosition(got) => write!(f, "but perfect play from this small position gives {}", signed(got)),
            Shortfall::NoEntry(got) => write!(f, "but the strategy has no entry for this board (only {} is sure)", signed(got)),
            Shortfall::IllegalMove(hole) => write!(f, "the strategy's entry for this board lifts hole {hole}, which is not a legal move"),
        }
    }
}

/// A value with its sign: `+3`, `0`, `-3`.
fn signed(value: i64) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}
