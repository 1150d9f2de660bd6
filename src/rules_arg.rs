//! The `--rules` option shared by every command that plays or solves: which game.

use clap::Args;
use dakon_solver::dakon::Position;
use dakon_solver::ruleset::{RuleSet, RulesName};

use crate::cli_error::CliError;

/// Which rules the positions are played by.
#[derive(Args, Clone, Copy, Debug)]
pub struct RulesArgs {
    /// The rules: `dakon` (this project's Javanese rules: relay sowing, nembak and mikul), a Dakon
    /// variant `dakon:<options>` (comma-separated, any order: `nembak-lander`, a nembak also
    /// takes the landing seed; `no-mikul`; `skip-origin`, a lap skips the hole it was lifted
    /// from; `traditional`, those three; `no-first-turn-capture`, nothing is captured in a
    /// player's first turn (solve, best, verify, serve, show and play), e.g. `dakon:no-mikul,skip-origin`), `kalah` (standard
    /// Kalah: one lap, capture from an empty own hole when the facing hole holds seeds, the game
    /// ends when either side is empty and each player keeps their own side) or
    /// `kalah-empty-capture` (Kalah capturing the lone last seed even opposite an empty hole).
    #[arg(long, default_value = "dakon", value_name = "RULES", value_parser = parse_rules)]
    pub rules: RulesName,
}

impl RulesArgs {
    /// The rules for the board of `position`.
    pub fn of(&self, position: &Position) -> RuleSet {
        RuleSet::of(self.rules, position)
    }

    /// The rules for boards of `holes` holes per row.
    ///
    /// # Errors
    /// [`CliError::Input`] if `holes` is outside `1..=9`.
    /// [`CliError::Input`] too for rules with `no-first-turn-capture` (see
    /// [`RulesArgs::refuse_opening_rules`]).
    pub fn for_holes(&self, holes: usize) -> Result<RuleSet, CliError> {
        self.refuse_opening_rules()?;
        RuleSet::new(self.rules, holes).map_err(|e| CliError::Input(format!("--holes {holes}: {e}")))
    }
}

impl RulesArgs {
    /// The rules for boards of `holes` holes per row once both first turns are over: these
    /// rules without `no-first-turn-capture` (the rules themselves when they lack it), which
    /// the solver, the endgame tables and the leaves of the opening search play by.
    ///
    /// # Errors
    /// [`CliError::Input`] if `holes` is outside `1..=9`.
    pub fn after_opening_for_holes(&self, holes: usize) -> Result<RuleSet, CliError> {
        let rules = match self.rules {
            RulesName::Dakon(options) => RulesName::Dakon(options.board_rules()),
            rules => rules,
        };
        RuleSet::new(rules, holes).map_err(|e| CliError::Input(format!("--holes {holes}: {e}")))
    }

    /// Refuses rules with `no-first-turn-capture`, which only `dakon solve`, `best`, `verify`,
    /// `serve`, `show` and `play` play so far: every other command reads positions without the
    /// opening's first turns.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the rules.
    pub fn refuse_opening_rules(&self) -> Result<(), CliError> {
        if self.rules.needs_opening_state() {
            return Err(CliError::Input(format!(
                "the rules {} (no-first-turn-capture) are played by `dakon solve`, `best`, `verify`, `serve`, `show` and `play` only so far",
                self.rules
            )));
        }
        Ok(())
    }
}

fn parse_rules(text: &str) -> Result<RulesName, String> {
    text.parse().map_err(|e: dakon_solver::ruleset::UnknownRules| e.to_string())
}
