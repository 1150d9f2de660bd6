//! `dakon batch` (placeholder: not implemented yet).

use crate::cli_error::CliError;

/// Not implemented yet.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::Failure("dakon batch is not implemented yet".to_string()))
}
