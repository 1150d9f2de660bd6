//! The command line: `dakon-check FILE... [--json] [--help]`.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde_json::json;

use crate::rules::Rules;
use crate::{Certificate, Report};

const HELP: &str = "\
dakon-check: check dakon proof certificates, without trusting the solver

Usage: dakon-check FILE... [--rules NAME,...] [--json] [--help]

A certificate (.dkc, written by `dakon solve --certificate FILE` or `dakon verify
--certificates DIR`) claims `lower <= value <= upper` for one position: the final store
difference, the player to move minus the other, with perfect play. Its lower half is a
strategy for the player to move, its upper half one for the other player. The checker plays
each strategy against every reply, by its own rules (dakon, its options dakon:nembak-lander,
dakon:no-mikul, dakon:skip-origin and their combinations, kalah or kalah-empty-capture,
written from docs/formats/certificates.md and sharing no code with the solver), solves positions
with at most L seeds on the board itself (a memoised minimax into tables of a byte a board, up
to C(L + 2n, 2n) bytes: 226 MB for L = 20 on 6 holes a row), and reports for each file the
position, the claimed bounds, the bounds it checked (never more than the claim), the positions
visited (the calls of the walk's `visit` defined in docs/formats/certificates.md, not the small
positions it solves, which are reported apart) and the time. A half that falls
short is reported at the first position where the walk fails, with the moves that lead there.

Options:
  --rules NAME,...
           check only certificates of these rule sets (dakon, dakon:<options>, kalah,
           kalah-empty-capture; default all): a well-formed file of another rule set is
           not checked and
           gets status unsupported (exit status 3), e.g. when you have reviewed only the
           checker's dakon rules
  --json   one JSON object per file per line: file, status (holds, fails, unsupported,
           malformed or unreadable), and for a checked file position, rules, holes_per_row,
           L, claimed_lower, claimed_upper, checked_lower, checked_upper, lower and upper
           (holds, owner, needed, entries, visited, failure), visited, solved_small,
           seconds; for an unsupported one rules; else error
  --help   this text

Exit status:
  0  every file holds: it proves its claim
  1  some file is well formed but does not prove its claim (and none is malformed)
  2  some file cannot be read or is not a well-formed certificate (damaged, truncated,
     foreign, another version), or the arguments are wrong
  3  none of the above, but some well-formed file is of a rule set left out by --rules,
     or of rules or Dakon options this checker does not know (not checked: it says
     nothing about the claim)

Examples:
  dakon-check dakon-7x7.dkc
  dakon-check certificates/*.dkc --json | jq 'select(.status != \"holds\")'
";

const USAGE: &str = "usage: dakon-check FILE... [--rules NAME,...] [--json] [--help]";

/// What became of one file.
enum Outcome {
    /// Boxed: a report is far larger than the other outcomes.
    Checked(Box<Report>),
    /// Well formed, of a rule set left out by `--rules`: its name.
    Unsupported(&'static str),
    /// Intact, but of rules this checker does not know: their name.
    UnknownRules(String),
    /// `unreadable` or `malformed`, and why.
    Refused(&'static str, String),
}

impl Outcome {
    /// The status word and the file's exit status.
    fn status(&self) -> (&'static str, i32) {
        match self {
            Outcome::Checked(report) if report.holds() => ("holds", 0),
            Outcome::Checked(_) => ("fails", 1),
            Outcome::Unsupported(_) | Outcome::UnknownRules(_) => ("unsupported", 3),
            Outcome::Refused(word, _) => (word, 2),
        }
    }
}

/// Which of two exit statuses the command returns: 2 before 1 before 3 before 0.
fn worse(a: i32, b: i32) -> i32 {
    let rank = |status| [0, 2, 3, 1][status as usize];
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Reads and checks one file, if the checker is to play its rules.
fn outcome(file: &str, plays: &[Rules]) -> Outcome {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(error) => return Outcome::Refused("unreadable", format!("cannot read the file: {error}")),
    };
    let started = std::time::Instant::now();
    match Certificate::read(&bytes) {
        Err(error) => match error.unknown_rules {
            Some(name) => Outcome::UnknownRules(name),
            None => Outcome::Refused("malformed", error.to_string()),
        },
        Ok(certificate) if !plays.contains(&certificate.root.rules()) => Outcome::Unsupported(certificate.root.rules().name()),
        Ok(certificate) => {
            let report = with_progress(file, |visits| certificate.check_counted(visits));
            Outcome::Checked(Box::new(Report { elapsed: started.elapsed(), ..report }))
        }
    }
}

/// Runs `check` while, on a terminal, a line on stderr counts the positions it has visited
/// every second: a big certificate takes minutes.
fn with_progress(file: &str, check: impl FnOnce(&AtomicU64) -> Report) -> Report {
    let visits = AtomicU64::new(0);
    if !std::io::stderr().is_terminal() {
        return check(&visits);
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let started = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                if started.elapsed() >= Duration::from_secs(1) && !done.load(Ordering::Relaxed) {
                    let seconds = started.elapsed().as_secs();
                    eprint!("\rchecking {file}: {} positions visited, {seconds} s ", visits.load(Ordering::Relaxed));
                }
            }
            if started.elapsed() >= Duration::from_secs(1) {
                eprint!("\r\x1b[2K");
            }
        });
        let report = check(&visits);
        done.store(true, Ordering::Relaxed);
        report
    })
}

/// The rule sets named by `--rules` (a comma-separated list).
fn rule_sets(list: &str) -> Result<Vec<Rules>, String> {
    list.split(',')
        .map(|name| {
            Rules::from_name(name).ok_or_else(|| {
                let known: Vec<&str> = Rules::ALL.iter().map(|rules| rules.name()).collect();
                format!("--rules: unknown rule set {name:?}, expected one of {}", known.join(" "))
            })
        })
        .collect()
}

/// Runs the command line `args` (the arguments after the program name), writing reports to
/// `stdout` and problems to `stderr`; returns the exit status: 2 if some file cannot be read
/// or is malformed, or for bad arguments; else 1 if some well-formed file does not prove its
/// claim; else 3 if some file's rule set was left out by `--rules`; else 0.
pub fn run(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let mut json = false;
    let mut plays = Rules::ALL.to_vec();
    let mut files = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--help" | "-h" => return report_written(stdout.write_all(HELP.as_bytes()), 0),
            "--json" => json = true,
            "--rules" => match args.next().map(|list| rule_sets(list)) {
                Some(Ok(named)) => plays = named,
                Some(Err(error)) => return report_written(writeln!(stderr, "dakon-check: {error}"), 2),
                None => return report_written(writeln!(stderr, "dakon-check: --rules needs a list of rule sets; {USAGE}"), 2),
            },
            option if option.starts_with('-') => {
                return report_written(writeln!(stderr, "dakon-check: unknown option {option}; {USAGE}"), 2);
            }
            file => files.push(file),
        }
    }
    if files.is_empty() {
        return report_written(writeln!(stderr, "dakon-check: no certificate given; {USAGE}"), 2);
    }
    let mut status = 0;
    for file in files {
        let outcome = outcome(file, &plays);
        let (word, file_status) = outcome.status();
        status = worse(status, file_status);
        let written = match (&outcome, json) {
            (Outcome::Checked(report), false) => write!(stdout, "{file}: {word}\n{report}"),
            (Outcome::Checked(report), true) => {
                let mut object = report.to_json();
                object["file"] = json!(file);
                object["status"] = json!(word);
                writeln!(stdout, "{object}")
            }
            (Outcome::Unsupported(rules), false) => {
                writeln!(stdout, "{file}: unsupported: well formed, rules {rules} not among --rules: not checked")
            }
            (Outcome::UnknownRules(rules), false) => writeln!(
                stdout,
                "{file}: unsupported: rules \"{rules}\" unknown to this checker (it knows {}): not checked",
                Rules::ALL.iter().map(|rules| rules.name()).collect::<Vec<_>>().join(" ")
            ),
            (Outcome::Unsupported(rules), true) => writeln!(stdout, "{}", json!({"file": file, "status": word, "rules": rules})),
            (Outcome::UnknownRules(rules), true) => writeln!(stdout, "{}", json!({"file": file, "status": word, "rules": rules})),
            (Outcome::Refused(_, error), false) => writeln!(stderr, "{file}: {error}"),
            (Outcome::Refused(_, error), true) => writeln!(stdout, "{}", json!({"file": file, "status": word, "error": error})),
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
