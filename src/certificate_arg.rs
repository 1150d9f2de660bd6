//! Proof certificates from the command line: the options shared by `solve`, `verify` and
//! `campaign`, and the check of `--certificate`'s destination. Writing one is
//! [`crate::certificate_writer`].

use std::path::Path;

use clap::Args;
use dakon_solver::certificate::max_small_seeds;

use crate::cli_error::CliError;

/// How certificates are written.
#[derive(Args, Clone, Debug)]
pub struct CertificateOptions {
    /// Positions with at most L seeds on the board get no entry in a certificate: the checker
    /// solves them by its own tables. A larger L makes smaller files that take longer to check;
    /// at most 29 on 6 holes a row (64 on 1 to 3, 61 on 4, 39 on 5, 23 on 7, 20 on 8, 17 on
    /// 9) [default: 12 for boards of up to 6 holes per row, 10 for 7, 9 for 8, 8 for 9].
    #[arg(long = "certificate-small-seeds", value_name = "L")]
    pub small_seeds: Option<u8>,
    /// Do not check the certificate with the independent checker after writing it (by default
    /// it is read back from the file and checked).
    #[arg(long)]
    pub no_check: bool,
}

impl CertificateOptions {
    /// Checks, before any work, that `--certificate-small-seeds` fits a board of `holes` holes
    /// a row.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the largest `L` the board allows.
    pub fn check_small_seeds(&self, holes: usize) -> Result<(), CliError> {
        match self.small_seeds {
            Some(found) if found > max_small_seeds(holes) => Err(CliError::Input(format!(
                "--certificate-small-seeds {found}: a certificate of {holes} holes a row allows at most {}",
                max_small_seeds(holes)
            ))),
            _ => Ok(()),
        }
    }
}

/// Checks, before any work, that a certificate can be written to `path`: its directory exists
/// and it is not itself a directory.
///
/// # Errors
/// [`CliError::Input`] saying what is wrong with `path`.
pub fn check_destination(path: &Path) -> Result<(), CliError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if path.is_dir() {
        return Err(CliError::Input(format!("--certificate {}: is a directory, expected a file name", path.display())));
    }
    if !dir.is_dir() {
        return Err(CliError::Input(format!("--certificate {}: the directory {} does not exist", path.display(), dir.display())));
    }
    Ok(())
}
