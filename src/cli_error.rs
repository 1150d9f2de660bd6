//! The program's errors and their exit statuses.

use std::fmt;

/// An error that ends the program: bad input (exit status 2) or a failure while working
/// (exit status 1).
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong: a malformed position, an illegal move, a bad option.
    Input(String),
    /// Something failed while working: a file could not be read or written.
    Failure(String),
    /// The work ran to its end (on every rank of an MPI job too) and its outcome is a failure:
    /// some lines or certificates failed, or Ctrl-C cut it short. Exit status 1, like
    /// `Failure`, but no rank is left waiting in an exchange, so the job need not be aborted.
    FailedOutcome(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failure(_) | CliError::FailedOutcome(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(message) | CliError::Failure(message) | CliError::FailedOutcome(message) => f.write_str(message),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(error: std::io::Error) -> Self {
        CliError::Failure(error.to_string())
    }
}
