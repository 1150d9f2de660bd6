//! The rule sets the server plays by: the one place that chooses rules (Dakon, Kalah and
//! Kalah with empty capture, on the same board and notation). Under `no-first-turn-capture` a
//! position is an [`OpeningState`]: the board and the players still in their first turn.

use dakon_solver::dakon::{DakonOptions, MoveError, OpeningState, Position};
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
        name.parse().map(RuleSet).map_err(|e: ruleset::UnknownRules| e.to_string())
    }

    /// Every rule set a server of these rules plays: Dakon's server plays each Dakon variant
    /// of the move, and the first-turn option alone and with `traditional` (a request or the
    /// new-game form names it), Kalah's its own rule set alone.
    pub fn family(self) -> Vec<RuleSet> {
        match self.0 {
            RulesName::Dakon(_) => {
                let first_turn = [DakonOptions::NONE, DakonOptions::TRADITIONAL]
                    .map(|options| RulesName::Dakon(options.with(DakonOptions::NO_FIRST_TURN_CAPTURE)));
                RulesName::EVERY.into_iter().filter(|name| name.is_dakon()).chain(first_turn).map(RuleSet).collect()
            }
            _ => vec![self],
        }
    }

    /// The options of these rules when they include `no-first-turn-capture`.
    pub fn opening_options(self) -> Option<DakonOptions> {
        match self.0 {
            RulesName::Dakon(options) if options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE) => Some(options),
            _ => None,
        }
    }

    /// The rules once both first turns are over (these rules, without `no-first-turn-capture`):
    /// what the solvers, their endgame tables and the results database play by.
    pub fn board(self) -> RuleSet {
        match self.0 {
            RulesName::Dakon(options) => RuleSet(RulesName::Dakon(options.board_rules())),
            _ => self,
        }
    }

    /// The rules a search of `state` plays by: these, or [`RuleSet::board`] once the opening
    /// is over, where the option changes nothing (so such a position shares their answers).
    pub fn searched_for(self, state: &OpeningState) -> RuleSet {
        if state.is_opening() {
            self
        } else {
            self.board()
        }
    }

    /// The rules of `position`'s board after the opening, as the solver and the command-line
    /// program see them.
    pub fn rules_for(self, position: &Position) -> ruleset::RuleSet {
        ruleset::RuleSet::of(self.board().0, position)
    }

    /// Plays the hole numbered `hole` in the notation (under `no-first-turn-capture`, capturing
    /// nothing in the mover's first turn).
    ///
    /// # Errors
    /// [`MoveError`] if the hole does not exist, is not the mover's, is empty, or the game is
    /// over.
    pub fn play(self, state: &OpeningState, hole: usize) -> Result<(OpeningState, Played), MoveError> {
        match self.opening_options() {
            Some(options) => state.play_hole_with(hole, options).map(|(next, outcome)| (next, Played::Dakon(outcome))),
            None => {
                let (next, played) = self.rules_for(&state.position).play_hole(&state.position, hole)?;
                Ok((OpeningState::after_opening(next), played))
            }
        }
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
        assert_eq!(RuleSet(RulesName::DAKON).family().len(), 10);
        assert_eq!(RuleSet(RulesName::Kalah).family(), vec![RuleSet(RulesName::Kalah)]);
        assert!(RuleSet::named("dakon:no-mikul,no-mikul").unwrap_err().contains("'no-mikul' is given twice"));
        let first_turn = RuleSet::named("dakon:traditional,no-first-turn-capture").unwrap();
        assert_eq!(first_turn.name(), "dakon:no-first-turn-capture,traditional");
        assert!(RuleSet(RulesName::DAKON).family().contains(&first_turn));
        assert_eq!(first_turn.board().name(), "dakon:traditional");
    }
}
