//! The names of the rule sets, as users type them and table and certificate headers carry
//! them: `dakon` and its options (`dakon:no-mikul,skip-origin`), `kalah`,
//! `kalah-empty-capture`.

use std::fmt;
use std::str::FromStr;

use crate::dakon::{DakonOptions, OptionsError};

/// Which rules, for any board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesName {
    /// Dakon, the Javanese rules of this project ([`crate::dakon`]), with its options
    /// ([`DakonOptions::NONE`]: the default rules).
    Dakon(DakonOptions),
    /// Standard Kalah ([`crate::kalah`]).
    Kalah,
    /// Kalah with the empty-capture rule.
    KalahEmptyCapture,
}

impl RulesName {
    /// The default rules: Dakon without options.
    pub const DAKON: RulesName = RulesName::Dakon(DakonOptions::NONE);

    /// The base rule sets, in the order `--help` lists them.
    pub const ALL: [RulesName; 3] = [RulesName::DAKON, RulesName::Kalah, RulesName::KalahEmptyCapture];

    /// Every rule set, Dakon's variants included: the base rule sets, then Dakon's variants.
    pub const EVERY: [RulesName; 10] = [
        RulesName::DAKON,
        RulesName::Kalah,
        RulesName::KalahEmptyCapture,
        RulesName::Dakon(DakonOptions::ALL[1]),
        RulesName::Dakon(DakonOptions::ALL[2]),
        RulesName::Dakon(DakonOptions::ALL[3]),
        RulesName::Dakon(DakonOptions::ALL[4]),
        RulesName::Dakon(DakonOptions::ALL[5]),
        RulesName::Dakon(DakonOptions::ALL[6]),
        RulesName::Dakon(DakonOptions::ALL[7]),
    ];

    /// The name as written: `dakon`, `dakon:<options>` (canonical order), `kalah` or
    /// `kalah-empty-capture`.
    pub fn as_str(self) -> &'static str {
        match self {
            RulesName::Dakon(options) => options.rules_name(),
            RulesName::Kalah => "kalah",
            RulesName::KalahEmptyCapture => "kalah-empty-capture",
        }
    }

    /// Whether a position alone does not say how play goes on: Dakon with
    /// `no-first-turn-capture`, whose opening needs an
    /// [`OpeningState`](crate::dakon::OpeningState). Everything that reads bare positions
    /// (tables, certificates, records) refuses these rules.
    pub fn needs_opening_state(self) -> bool {
        matches!(self, RulesName::Dakon(options) if options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE))
    }

    /// Whether these are Dakon's rules, with or without options.
    pub fn is_dakon(self) -> bool {
        matches!(self, RulesName::Dakon(_))
    }
}

impl fmt::Display for RulesName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownRules {
    /// No rule set has this name.
    Name(String),
    /// `dakon:` with options that are refused.
    Options(String, OptionsError),
    /// Options after a rule set that has none (`kalah:...`).
    NoOptions(String),
}

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = RulesName::ALL.iter().map(|r| r.as_str()).collect();
        let options: Vec<&str> = DakonOptions::option_names().collect();
        match self {
            UnknownRules::Name(name) => write!(
                f,
                "unknown rules '{name}': expected one of {}, or dakon:<options> with options {} or traditional (comma-separated)",
                known.join(", "),
                options.join(", ")
            ),
            UnknownRules::Options(name, error) => write!(f, "rules '{name}': {error}"),
            UnknownRules::NoOptions(name) => write!(f, "rules '{name}': only dakon takes options ({})", options.join(", ")),
        }
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for RulesName {
    type Err = UnknownRules;

    /// Parses a rule set's name; Dakon's options may come in any order.
    ///
    /// ```
    /// use dakon_solver::dakon::DakonOptions;
    /// use dakon_solver::ruleset::RulesName;
    /// assert_eq!("kalah".parse(), Ok(RulesName::Kalah));
    /// assert_eq!("dakon:skip-origin,no-mikul".parse::<RulesName>().unwrap().as_str(), "dakon:no-mikul,skip-origin");
    /// assert!("oware".parse::<RulesName>().unwrap_err().to_string().starts_with("unknown rules 'oware': expected one of dakon, kalah, kalah-empty-capture"));
    /// ```
    ///
    /// # Errors
    /// [`UnknownRules`] naming the known rule sets and options.
    fn from_str(text: &str) -> Result<RulesName, UnknownRules> {
        let (base, options) = match text.split_once(':') {
            Some((base, options)) => (base, Some(options)),
            None => (text, None),
        };
        let name = RulesName::ALL.into_iter().find(|r| r.as_str() == base).ok_or_else(|| UnknownRules::Name(text.to_string()))?;
        match (name, options) {
            (_, None) => Ok(name),
            (RulesName::Dakon(_), Some(options)) => {
                options.parse().map(RulesName::Dakon).map_err(|e| UnknownRules::Options(text.to_string(), e))
            }
            (_, Some(_)) => Err(UnknownRules::NoOptions(text.to_string())),
        }
    }
}
