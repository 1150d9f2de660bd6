//! Running the `dakon` binary from the CLI tests that read its JSON objects.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `dakon` binary with `args`.
pub fn dakon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).output().expect("dakon runs")
}

/// The one JSON object a successful run of `dakon args` prints.
pub fn json(args: &[&str]) -> Value {
    let out = dakon(args);
    assert!(out.status.success(), "dakon {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}
