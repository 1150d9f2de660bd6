//! Writing a file whole or not at all, so that an interrupted or failed write never leaves a
//! half-written file under the final name (endgame tables, certificates).

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// A write that failed: which file, what was being done, and the system's error.
#[derive(Debug)]
pub struct WriteFailure {
    /// The temporary file being written, or the final file being renamed into.
    pub path: PathBuf,
    /// What was being done ("write", "rename the finished file into").
    pub action: &'static str,
    /// The system's error.
    pub source: io::Error,
}

impl fmt::Display for WriteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: cannot {}: {}", self.path.display(), self.action, self.source)
    }
}

impl std::error::Error for WriteFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Writes `path` atomically: `contents` writes `path.tmp`, which is synced and then renamed
/// over `path`, and the directory is synced so that the rename lasts.
///
/// # Errors
/// [`WriteFailure`] if the temporary file cannot be created or written (missing directory, no
/// permission, full disk) or cannot be renamed; `path` is then untouched.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("hello.txt");
/// dakon_solver::atomic_file::write_atomically(&path, |file| std::io::Write::write_all(file, b"hello")).unwrap();
/// assert_eq!(std::fs::read(&path).unwrap(), b"hello");
/// assert!(dakon_solver::atomic_file::write_atomically(&dir.path().join("no/such/dir"), |_| Ok(())).is_err());
/// ```
pub fn write_atomically(path: &Path, contents: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>) -> Result<(), WriteFailure> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> io::Result<()> {
        let mut file = BufWriter::new(File::create(&tmp)?);
        contents(&mut file)?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()
    };
    write().map_err(|source| WriteFailure { path: tmp.clone(), action: "write", source })?;
    fs::rename(&tmp, path).map_err(|source| WriteFailure { path: path.into(), action: "rename the finished file into", source })?;
    // Make the rename itself durable; a directory that cannot be synced is not an error.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}
