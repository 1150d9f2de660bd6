//! The rule sets the server plays by: the one place that chooses rules (Dakon, Kalah and
//! Kalah with empty capture, on the same board and notation).

use dakon_solver::dakon::{MoveError, Position};
use dakon_solver::ruleset::{self, Played, RulesName};

/// A rule set a request may name with `rules=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet(pub RulesName);

impl RuleSet {
    /// The name written in requests and answers (as in table headers).
    pub fn name(self) -> &'static str {
        self.0.as_str()
    }

    /// The rule set called `name` (Dakon's options in any order).
    ///
    /// # Errors
    /// A message naming the rule sets and options this server knows.
    pub fn named(name: &str) -> Result<RuleSet, String> {
        let rules: RulesName = name.parse().map_err(|e: ruleset::UnknownRules| e.to_string())?;
        if rules.needs_opening_state() {
            return Err(format!("rules '{rules}': no-first-turn-capture is not served yet (`dakon solve` and `dakon best` play it)"));
        }
        Ok(RuleSet(rules))
    }

    /// Every rule set a server of these rules plays: Dakon's server plays each Dakon variant
    /// (a request or the new-game form names it), Kalah's its own rule set alone.
    pub fn family(self) -> Vec<RuleSet> {
        match self.0 {
            RulesName::Dakon(_) => RulesName::EVERY.into_iter().filter(|name| name.is_dakon()).map(RuleSet).collect(),
            _ => vec![self],
        }
    }

    /// The rules of `position`'s board, as the solver and the command-line program see them.
    pub fn rules_for(self, position: &Position) -> ruleset::RuleSet {
        ruleset::RuleSet::of(self.0, position)
    }

    /// Plays the hole numbered `hole` in the notation.
    ///
    /// # Errors
    /// [`MoveError`] if the hole does not exist, is not the mover's, is empty, or the game is
    /// over.
    pub fn play(self, position: &Position, hole: usize) -> Result<(Position, Played), MoveError> {
        self.rules_for(position).play_hole(position, hole)
    }
}

#[cfg(test)]
mod tests {
    use super::{RuleSet, RulesName};

    #[test]
    fn names_round_trip_and_unknown_names_are_refused_with_the_known_ones() {
        for rules in RulesName::EVERY.map(RuleSet) {
            assert_eq!(RuleSet::named(rules.name()), Ok(rules));
        }
        assert!(RuleSet::named("oware")
            .unwrap_err()
            .starts_with("unknown rules 'oware': expected one of dakon, kalah, kalah-empty-capture"));
        assert_eq!(RuleSet::named("dakon:skip-origin,no-mikul").map(RuleSet::name), Ok("dakon:no-mikul,skip-origin"));
        assert_eq!(RuleSet(RulesName::DAKON).family().len(), 8);
        assert_eq!(RuleSet(RulesName::Kalah).family(), vec![RuleSet(RulesName::Kalah)]);
        assert!(RuleSet::named("dakon:no-mikul,no-mikul").unwrap_err().contains("'no-mikul' is given twice"));
        assert!(RuleSet::named("dakon:no-first-turn-capture").unwrap_err().contains("no-first-turn-capture is not served yet"));
    }
}
