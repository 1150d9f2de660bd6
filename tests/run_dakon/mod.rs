//! Running the `dakon` binary from the CLI tests that read its JSON objects, and the checker's
//! command line on a certificate.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `dakon` binary with `args`, its default tables directory an empty one: endgame
/// tables a user built in `./tables` or `$DAKON_TABLES` never change what a test sees.
pub fn dakon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).env("DAKON_TABLES", no_tables()).output().expect("dakon runs")
}

/// An empty directory of the tests' own: `$DAKON_TABLES` for every `dakon` a test runs.
pub fn no_tables() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-tables");
    std::fs::create_dir_all(&dir).expect("a directory for the tests");
    dir
}

/// The one JSON object a successful run of `dakon args` prints.
pub fn json(args: &[&str]) -> Value {
    let out = dakon(args);
    assert!(out.status.success(), "dakon {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The exit status of the independent checker's command line on the certificate `bytes` (from
/// a file), and what it printed.
pub fn checker_status(bytes: &[u8]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("certificate.dkc");
    std::fs::write(&path, bytes).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = dakon_check::run(&[path.display().to_string()], &mut out, &mut err);
    (status, String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err))
}
