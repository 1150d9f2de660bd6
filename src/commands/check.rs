//! `dakon check`: the independent certificate checker, `dakon-check`, inside the main program.

/// Check proof certificates without trusting the solver: the independent checker (crate
/// `dakon-check`, which shares no code with the solver) reads each file, plays each strategy
/// against every reply by its own rules, solves the small positions left out by its own
/// minimax, and reports the position, the claimed bounds, the bounds it checked, the positions
/// it visited and the time. A half that falls short is reported at the first position where it
/// does.
///
/// Exit status: 0 when every file holds, 1 when some well-formed file does not prove its claim,
/// 2 when some file cannot be read or is malformed (damaged, truncated, foreign, another
/// version), 3 when a well-formed file's rule set was left out by --rules (2 before 1 before
/// 3). The same as the stand-alone `dakon-check`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  dakon solve start --certificate 7x7.dkc     write a certificate of the 7 x 7 value
  dakon check 7x7.dkc                         ... and check it
  dakon verify --certificates certs           one certificate per board, checked as written
  dakon check certs/*.dkc --json              one JSON object per file: status holds, fails, unsupported, malformed or unreadable")]
pub struct Args {
    /// The certificate files (.dkc).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// Check only certificates of these rule sets (dakon, kalah, kalah-empty-capture; default
    /// all): a well-formed file of another is not checked (status unsupported, exit 3).
    #[arg(long, value_name = "NAME,...")]
    rules: Option<String>,
    /// One JSON object per file per line instead of text.
    #[arg(long)]
    json: bool,
}

/// Checks the files and returns the checker's exit status.
pub fn run(args: Args) -> i32 {
    let mut forwarded = args.files;
    if args.json {
        forwarded.push("--json".to_string());
    }
    if let Some(rules) = args.rules {
        forwarded.extend(["--rules".to_string(), rules]);
    }
    // Stderr unlocked: the checker writes its progress line from another thread.
    dakon_check::run(&forwarded, &mut std::io::stdout().lock(), &mut std::io::stderr())
}
