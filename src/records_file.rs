//! A JSON Lines file of records written one by one, read back to resume: a run killed
//! while writing leaves an unfinished last line, which is cut off before new records follow.

use std::fs::OpenOptions;
use std::path::Path;

use crate::cli_error::CliError;

/// The complete lines of the records file `path` (`None` if there is no such file), after
/// cutting an unfinished last line off the file itself.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be read or cut.
pub fn complete_lines(path: &Path) -> Result<Option<Vec<u8>>, CliError> {
    let mut bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::Failure(format!("--resume: cannot read {}: {e}", path.display()))),
    };
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if complete < bytes.len() {
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|file| file.set_len(complete as u64))
            .map_err(|e| CliError::Failure(format!("--resume: cannot cut the unfinished last line off {}: {e}", path.display())))?;
        bytes.truncate(complete);
    }
    Ok(Some(bytes))
}

/// The non-empty lines of `bytes`, each with its line number (from 1).
pub fn numbered_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    bytes.split(|&b| b == b'\n').enumerate().map(|(i, line)| (i + 1, line)).filter(|(_, line)| !line.is_empty())
}
