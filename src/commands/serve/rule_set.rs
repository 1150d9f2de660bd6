//! The rule sets the server plays by: the one place that chooses rules, so that a second rule
//! set (Kalah, same board and notation) is added here and in [`super::registry`] alone.

use dakon_solver::dakon::{Dakon, MoveError, Outcome, Position};

/// A rule set a request may name with `rules=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    Dakon,
}

impl RuleSet {
    /// Every rule set the server knows.
    pub const ALL: [RuleSet; 1] = [RuleSet::Dakon];

    /// The name written in requests and answers (as in table headers).
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Dakon => "dakon",
        }
    }

    /// The rule set called `name`.
    ///
    /// # Errors
    /// A message naming the rule sets this server knows.
    pub fn named(name: &str) -> Result<RuleSet, String> {
        RuleSet::ALL.into_iter().find(|rules| rules.name() == name).ok_or_else(|| {
            let known: Vec<&str> = RuleSet::ALL.iter().map(|rules| rules.name()).collect();
            format!("unknown rules '{name}': this server plays {}", known.join(", "))
        })
    }

    /// The rules of `position`'s board, as the solver sees them.
    pub fn rules_for(self, position: &Position) -> Dakon {
        match self {
            RuleSet::Dakon => Dakon::of(position),
        }
    }

    /// Plays the hole numbered `hole` in the notation.
    ///
    /// # Errors
    /// [`MoveError`] if the hole does not exist, is not the mover's, is empty, or the game is
    /// over.
    pub fn play(self, position: &Position, hole: usize) -> Result<(Position, Outcome), MoveError> {
        match self {
            RuleSet::Dakon => position.play_hole(hole),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RuleSet;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused_with_the_known_ones() {
        for rules in RuleSet::ALL {
            assert_eq!(RuleSet::named(rules.name()), Ok(rules));
        }
        assert_eq!(RuleSet::named("oware"), Err("unknown rules 'oware': this server plays dakon".to_string()));
    }
}
