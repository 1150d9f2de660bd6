//! The POSITION argument shared by every command: the notation, or `start`.

use clap::Args;
use dakon_solver::dakon::Position;
use dakon_solver::ruleset::RuleSet;

use crate::cli_error::CliError;
use crate::rules_arg::RulesArgs;

/// Options that say which position a command starts from.
#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    /// The position: its notation (quote it: it contains spaces), e.g.
    /// "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", or `start` for the opening of --holes/--seeds.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// Holes per row for `start` (1 to 9).
    #[arg(long, default_value_t = 7, value_name = "N")]
    pub holes: usize,
    /// Seeds per hole for `start` [default: equal to --holes].
    #[arg(long, value_name = "S")]
    pub seeds: Option<u32>,
    #[command(flatten)]
    pub rules: RulesArgs,
}

impl PositionArgs {
    /// The position these options name.
    ///
    /// # Errors
    /// [`CliError::Input`] with the notation error (column and problem) or the reason `start`
    /// cannot be set up.
    pub fn position(&self) -> Result<Position, CliError> {
        parse_position(&self.position, self.holes, self.seeds)
    }

    /// The position these options name and the rules it is played by.
    ///
    /// # Errors
    /// As [`PositionArgs::position`].
    /// [`CliError::Input`] too for rules with `no-first-turn-capture`, which only `solve` and
    /// `best` play (they read an opening state, not a position).
    pub fn position_and_rules(&self) -> Result<(Position, RuleSet), CliError> {
        self.rules.refuse_opening_rules()?;
        let position = self.position()?;
        Ok((position, self.rules.of(&position)))
    }
}

/// Parses a position argument: `start` (for `holes` and `seeds`, default `holes`) or notation.
///
/// # Errors
/// [`CliError::Input`] saying what is wrong and where.
pub fn parse_position(text: &str, holes: usize, seeds: Option<u32>) -> Result<Position, CliError> {
    if text.trim() == "start" {
        let seeds = seeds.unwrap_or(holes as u32);
        return Position::start(holes, seeds)
            .map_err(|e| CliError::Input(format!("cannot set up the start of --holes {holes} --seeds {seeds}: {e}")));
    }
    parse_notation(text).map_err(CliError::Input)
}

/// Parses a position in the notation.
///
/// # Errors
/// The notation parser's message (the column and the problem), quoting `text`.
pub fn parse_notation(text: &str) -> Result<Position, String> {
    text.parse().map_err(|e| {
        let hint = if text.contains(" first") {
            " (the field 'first:...' of an opening state needs --rules dakon:no-first-turn-capture, with solve, best, verify, serve, show or play)"
        } else {
            ""
        };
        format!("invalid position '{text}': {e}{hint}")
    })
}
