//! The command line: `dakon-check FILE... [--json] [--help]`.

use std::io::Write;

use serde_json::json;

use crate::check;

const HELP: &str = "\
dakon-check: check dakon proof certificates, without trusting the solver

Usage: dakon-check FILE... [--json] [--help]

A certificate (.dkc, written by `dakon solve --certificate FILE` or `dakon verify
--certificates DIR`) claims `lower <= value <= upper` for one position: the final store
difference, the player to move minus the other, with perfect play. Its lower half is a
strategy for the player to move, its upper half one for the other player. The checker plays
each strategy against every reply, by its own rules (dakon, kalah or kalah-empty-capture,
written from tables/CERTIFICATES.md and sharing no code with the solver), solves positions
with at most L seeds on the board itself by minimax, and reports for each file the position,
the claimed bounds, the bounds it checked, the positions visited and the time. A half that
falls short is reported at the first position where it does, with the moves that lead there.

Options:
  --json   one JSON object per file per line: file, status (holds, fails, malformed or
           unreadable), and for a checked file position, rules, holes_per_row, L,
           claimed_lower, claimed_upper, checked_lower, checked_upper, lower and upper (holds,
           owner, needed, entries, visited, failure), visited, seconds; else error
  --help   this text

Exit status:
  0  every file holds: it proves its claim
  1  some file is well formed but does not prove its claim (and none is malformed)
  2  some file cannot be read or is not a well-formed certificate (damaged, truncated,
     foreign, another version), or the arguments are wrong

Examples:
  dakon-check dakon-7x7.dkc
  dakon-check certificates/*.dkc --json | jq 'select(.status != \"holds\")'
";

/// Runs the command line `args` (the arguments after the program name), writing reports to
/// `stdout` and problems to `stderr`; returns the exit status: 0 if every file holds, 1 if
/// some well-formed file does not prove its claim, 2 if some file cannot be read or is
/// malformed, or for bad arguments.
pub fn run(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let mut json = false;
    let mut files = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--help" | "-h" => return report_written(stdout.write_all(HELP.as_bytes()), 0),
            "--json" => json = true,
            option if option.starts_with('-') => {
                return report_written(
                    writeln!(stderr, "dakon-check: unknown option {option}; usage: dakon-check FILE... [--json] [--help]"),
                    2,
                );
            }
            file => files.push(file),
        }
    }
    if files.is_empty() {
        return report_written(writeln!(stderr, "dakon-check: no certificate given; usage: dakon-check FILE... [--json] [--help]"), 2);
    }
    let mut status = 0;
    for file in files {
        let checked = match std::fs::read(file) {
            Ok(bytes) => check(&bytes).map_err(|error| ("malformed", error.to_string())),
            Err(error) => Err(("unreadable", format!("cannot read the file: {error}"))),
        };
        let (file_status, verdict) = match &checked {
            Ok(report) if report.holds() => (0, "holds"),
            Ok(_) => (1, "fails"),
            Err((verdict, _)) => (2, *verdict),
        };
        status = status.max(file_status);
        let written = match (&checked, json) {
            (Ok(report), false) => write!(stdout, "{file}: {verdict}\n{report}"),
            (Err((_, error)), false) => writeln!(stderr, "{file}: {error}"),
            (Ok(report), true) => {
                let mut object = report.to_json();
                object["file"] = json!(file);
                object["status"] = json!(verdict);
                writeln!(stdout, "{object}")
            }
            (Err((_, error)), true) => writeln!(stdout, "{}", json!({"file": file, "status": verdict, "error": error})),
        };
        if written.is_err() {
            return 2;
        }
    }
    status
}

/// `status`, or 2 if the message could not be written.
fn report_written(written: std::io::Result<()>, status: i32) -> i32 {
    if written.is_ok() {
        status
    } else {
        2
    }
}
