//! `dakon tables` (placeholder: not implemented yet).

use crate::cli_error::CliError;

/// Build, list and verify endgame tables (not implemented yet).
#[derive(clap::Subcommand)]
pub enum Command {
    /// Build the missing tiers (not implemented yet).
    Build,
}

pub fn run(_command: Command) -> Result<(), CliError> {
    Err(CliError::Failure("dakon tables is not implemented yet".to_string()))
}
