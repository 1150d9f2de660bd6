//! Dakon's rule options: the readings of the rules that local play differs on, each a switch
//! away from this project's default (`docs/rules.md`, "Variants").
//!
//! ```
//! use dakon_solver::dakon::DakonOptions;
//! let options: DakonOptions = "skip-origin,no-mikul".parse().unwrap();
//! assert_eq!(options.rules_name(), "dakon:no-mikul,skip-origin");
//! assert_eq!(DakonOptions::TRADITIONAL.rules_name(), "dakon:traditional");
//! assert_eq!(DakonOptions::NONE.rules_name(), "dakon");
//! ```

use std::fmt;
use std::str::FromStr;

/// A set of Dakon rule options; [`DakonOptions::NONE`] is the project's default rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DakonOptions(u8);

/// One option: its bit, its name, and what it changes, in the canonical (alphabetical) order.
struct NamedOption {
    bit: u8,
    name: &'static str,
}

/// Every option, in the canonical order of a combined name.
const OPTIONS: [NamedOption; 4] = [
    NamedOption { bit: DakonOptions::NEMBAK_LANDER.0, name: "nembak-lander" },
    NamedOption { bit: DakonOptions::NO_FIRST_TURN_CAPTURE.0, name: "no-first-turn-capture" },
    NamedOption { bit: DakonOptions::NO_MIKUL.0, name: "no-mikul" },
    NamedOption { bit: DakonOptions::SKIP_ORIGIN.0, name: "skip-origin" },
];

/// The name of the combination of every option.
const TRADITIONAL: &str = "traditional";

/// The rules name of each set of options, by its bits: written out once so that a name is a
/// `&'static str`, as table and certificate headers take it. `traditional` names the three
/// board options; `no-first-turn-capture` is named beside it (see `docs/rules.md`).
const NAMES: [&str; 16] = [
    "dakon",
    "dakon:nembak-lander",
    "dakon:no-mikul",
    "dakon:nembak-lander,no-mikul",
    "dakon:skip-origin",
    "dakon:nembak-lander,skip-origin",
    "dakon:no-mikul,skip-origin",
    "dakon:traditional",
    "dakon:no-first-turn-capture",
    "dakon:nembak-lander,no-first-turn-capture",
    "dakon:no-first-turn-capture,no-mikul",
    "dakon:nembak-lander,no-first-turn-capture,no-mikul",
    "dakon:no-first-turn-capture,skip-origin",
    "dakon:nembak-lander,no-first-turn-capture,skip-origin",
    "dakon:no-first-turn-capture,no-mikul,skip-origin",
    "dakon:no-first-turn-capture,traditional",
];

impl DakonOptions {
    /// The default rules: no option.
    pub const NONE: DakonOptions = DakonOptions(0);
    /// `nembak-lander`: a nembak that takes seeds also takes the landing seed.
    pub const NEMBAK_LANDER: DakonOptions = DakonOptions(1);
    /// `no-mikul`: a last seed in an empty hole of the opponent's side captures nothing.
    pub const NO_MIKUL: DakonOptions = DakonOptions(2);
    /// `skip-origin`: a lap of `2n + 1` seeds or more skips the hole it was lifted from.
    pub const SKIP_ORIGIN: DakonOptions = DakonOptions(4);
    /// `no-first-turn-capture`: while a player has not finished their first turn, a lap
    /// ending in an empty hole takes nothing. Given to [`Position::play_with`] it means that
    /// the mover is still in their first turn; which turn that is, only an
    /// [`OpeningState`](crate::dakon::OpeningState) knows.
    ///
    /// [`Position::play_with`]: crate::dakon::Position::play_with
    pub const NO_FIRST_TURN_CAPTURE: DakonOptions = DakonOptions(8);
    /// `traditional`: the three options of the move itself (nembak-lander, no-mikul,
    /// skip-origin); `no-first-turn-capture` is added by name.
    pub const TRADITIONAL: DakonOptions = DakonOptions(7);

    /// Every set of the options of the move itself (no `no-first-turn-capture`), the default
    /// first, each once: the variants whose positions need no more than the board.
    pub const ALL: [DakonOptions; 8] = [
        DakonOptions(0),
        DakonOptions(1),
        DakonOptions(2),
        DakonOptions(4),
        DakonOptions(3),
        DakonOptions(5),
        DakonOptions(6),
        DakonOptions(7),
    ];

    /// Whether every option of `other` is set here.
    #[inline(always)]
    pub const fn contains(self, other: DakonOptions) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether this is the default rules.
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// These options without `no-first-turn-capture`: the rules once both first turns are over,
    /// which the search, the tables and the certificates' strategies play by.
    #[inline(always)]
    pub const fn board_rules(self) -> DakonOptions {
        DakonOptions(self.0 & !DakonOptions::NO_FIRST_TURN_CAPTURE.0)
    }

    /// These options with `other`'s added.
    pub const fn with(self, other: DakonOptions) -> DakonOptions {
        DakonOptions(self.0 | other.0)
    }

    /// The rules name: `dakon`, `dakon:<options>` in the canonical order, or
    /// `dakon:traditional` for all of them.
    pub fn rules_name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The names of the single options, in the canonical order.
    pub fn option_names() -> impl Iterator<Item = &'static str> {
        OPTIONS.iter().map(|o| o.name)
    }
}

impl fmt::Display for DakonOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rules_name())
    }
}

/// Why a list of options was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// A name that is no option.
    Unknown(String),
    /// The same option twice.
    Repeated(String),
    /// `traditional` (the three options of the move) combined with one of them.
    TraditionalWithOthers(String),
    /// `dakon:` with nothing after it.
    Empty,
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = || DakonOptions::option_names().chain([TRADITIONAL]).collect::<Vec<_>>().join(", ");
        match self {
            OptionsError::Unknown(name) => write!(f, "unknown Dakon option '{name}': expected {}", known()),
            OptionsError::Repeated(name) => write!(f, "the Dakon option '{name}' is given twice"),
            OptionsError::TraditionalWithOthers(name) => {
                write!(f, "'traditional' already sets nembak-lander, no-mikul and skip-origin, so '{name}' contradicts or repeats it")
            }
            OptionsError::Empty => write!(f, "'dakon:' names no option: expected {}", known()),
        }
    }
}

impl std::error::Error for OptionsError {}

impl FromStr for DakonOptions {
    type Err = OptionsError;

    /// Parses a comma-separated list of options, in any order.
    ///
    /// # Errors
    /// [`OptionsError`] for an unknown or repeated option, `traditional` with another option
    /// of the move, or an empty list.
    fn from_str(text: &str) -> Result<DakonOptions, OptionsError> {
        if text.is_empty() {
            return Err(OptionsError::Empty);
        }
        let names: Vec<&str> = text.split(',').collect();
        let opening = OPTIONS[1].name;
        if let Some(other) = names.iter().find(|&&n| n != TRADITIONAL && n != opening).filter(|_| names.contains(&TRADITIONAL)) {
            return Err(OptionsError::TraditionalWithOthers(other.to_string()));
        }
        let mut options = DakonOptions::NONE;
        for name in names {
            let bit = match name {
                TRADITIONAL => DakonOptions::TRADITIONAL.0,
                _ => OPTIONS.iter().find(|o| o.name == name).ok_or_else(|| OptionsError::Unknown(name.to_string()))?.bit,
            };
            if options.0 & bit != 0 {
                return Err(OptionsError::Repeated(name.to_string()));
            }
            options.0 |= bit;
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_its_options() {
        for options in DakonOptions::ALL.into_iter().flat_map(|o| [o, o.with(DakonOptions::NO_FIRST_TURN_CAPTURE)]) {
            let name = options.rules_name();
            let parsed = name.strip_prefix("dakon:").map_or(Ok(DakonOptions::NONE), str::parse);
            assert_eq!(parsed, Ok(options), "{name}");
            let board = options.board_rules().rules_name();
            assert!(board.len() <= 32, "{board}: table and certificate headers hold 32 bytes");
        }
    }

    #[test]
    fn any_order_gives_the_canonical_name() {
        let options: DakonOptions = "skip-origin,nembak-lander".parse().unwrap();
        assert_eq!(options.rules_name(), "dakon:nembak-lander,skip-origin");
        let all: DakonOptions = "skip-origin,no-mikul,nembak-lander".parse().unwrap();
        assert_eq!(all, DakonOptions::TRADITIONAL);
        let opening: DakonOptions = "traditional,no-first-turn-capture".parse().unwrap();
        assert_eq!(opening.rules_name(), "dakon:no-first-turn-capture,traditional");
        assert_eq!(opening.board_rules(), DakonOptions::TRADITIONAL);
    }

    #[test]
    fn bad_lists_are_refused_naming_the_option() {
        let error = |text: &str| text.parse::<DakonOptions>().unwrap_err().to_string();
        assert_eq!(
            error("no-relay"),
            "unknown Dakon option 'no-relay': expected nembak-lander, no-first-turn-capture, no-mikul, skip-origin, traditional"
        );
        assert_eq!(error("no-mikul,no-mikul"), "the Dakon option 'no-mikul' is given twice");
        assert!(error("traditional,skip-origin")
            .contains("'traditional' already sets nembak-lander, no-mikul and skip-origin, so 'skip-origin'"));
        assert!(error("").contains("names no option"));
    }
}
