//! The names of the rule sets, as users type them and table and certificate headers carry
//! them.

use std::fmt;
use std::str::FromStr;

/// Which rules, for any board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesName {
    /// Dakon, the Javanese rules of this project ([`crate::dakon`]).
    Dakon,
    /// Standard Kalah ([`crate::kalah`]).
    Kalah,
    /// Kalah with the empty-capture rule.
    KalahEmptyCapture,
}

impl RulesName {
    /// Every rule set, in the order `--help` lists them.
    pub const ALL: [RulesName; 3] = [RulesName::Dakon, RulesName::Kalah, RulesName::KalahEmptyCapture];

    /// The name as written: `dakon`, `kalah` or `kalah-empty-capture`.
    pub fn as_str(self) -> &'static str {
        match self {
            RulesName::Dakon => "dakon",
            RulesName::Kalah => "kalah",
            RulesName::KalahEmptyCapture => "kalah-empty-capture",
        }
    }
}

impl fmt::Display for RulesName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of [`RulesName::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = RulesName::ALL.iter().map(|r| r.as_str()).collect();
        write!(f, "unknown rules '{}': expected one of {}", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for RulesName {
    type Err = UnknownRules;

    /// Parses a rule set's name.
    ///
    /// ```
    /// use dakon_solver::ruleset::RulesName;
    /// assert_eq!("kalah".parse(), Ok(RulesName::Kalah));
    /// assert_eq!("oware".parse::<RulesName>().unwrap_err().to_string(),
    ///     "unknown rules 'oware': expected one of dakon, kalah, kalah-empty-capture");
    /// ```
    ///
    /// # Errors
    /// [`UnknownRules`] naming the known ones.
    fn from_str(text: &str) -> Result<RulesName, UnknownRules> {
        RulesName::ALL.into_iter().find(|r| r.as_str() == text).ok_or_else(|| UnknownRules(text.to_string()))
    }
}
