//! The command line: what it prints for each file, and its exit statuses.

use crate::common;

use std::path::{Path, PathBuf};

use common::{exact_certificate, start, Draft, Solver};
use dakon_check::rules::Rules;

/// Runs `dakon_check::run` on `args`; returns the exit status, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = dakon_check::run(&args, &mut stdout, &mut stderr);
    (status, String::from_utf8(stdout).expect("UTF-8"), String::from_utf8(stderr).expect("UTF-8"))
}

/// Three files in `directory`: one that holds, one that fails, one that is damaged.
fn files(directory: &Path) -> [String; 3] {
    let root = start(Rules::DAKON, 2, 3);
    let (value, draft) = exact_certificate(&mut Solver::default(), &root, 0);
    let raised = Draft { lower: value as i32 + 1, upper: value as i32 + 1, ..draft.clone() };
    let mut damaged = draft.bytes();
    damaged[30] ^= 1;
    [("holds.dkc", draft.bytes()), ("fails.dkc", raised.bytes()), ("damaged.dkc", damaged)].map(|(name, bytes)| {
        let path: PathBuf = directory.join(name);
        std::fs::write(&path, bytes).expect("write");
        path.to_str().expect("UTF-8").to_string()
    })
}

#[test]
fn exit_statuses() {
    let directory = tempfile::tempdir().expect("tempdir");
    let [holds, fails, damaged] = files(directory.path());
    let missing = directory.path().join("missing.dkc").to_str().expect("UTF-8").to_string();
    assert_eq!(run(&[&holds]).0, 0);
    assert_eq!(run(&[&holds, &holds, "--json"]).0, 0);
    assert_eq!(run(&[&fails]).0, 1);
    assert_eq!(run(&[&holds, &fails]).0, 1);
    assert_eq!(run(&[&damaged]).0, 2);
    assert_eq!(run(&[&fails, &damaged, &holds]).0, 2);
    assert_eq!(run(&[&missing]).0, 2);
    let (status, stdout, stderr) = run(&[]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(stderr.contains("no certificate given; usage: dakon-check FILE... [--rules NAME,...] [--json] [--help]"), "{stderr}");
    let (status, _, stderr) = run(&[&holds, "--jsn"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("unknown option --jsn"), "{stderr}");
    let (status, stdout, _) = run(&[&damaged, "--help"]);
    assert_eq!(status, 0);
    assert!(stdout.contains("Exit status:") && stdout.contains("Examples:"), "{stdout}");
}

#[test]
fn a_rule_set_left_out_by_rules_is_not_checked_and_exits_3() {
    let directory = tempfile::tempdir().expect("tempdir");
    let [holds, fails, damaged] = files(directory.path());
    let (_, kalah) = exact_certificate(&mut Solver::default(), &start(Rules::Kalah, 2, 2), 0);
    let kalah_file = directory.path().join("kalah.dkc").to_str().expect("UTF-8").to_string();
    std::fs::write(&kalah_file, kalah.bytes()).expect("write");
    assert_eq!(run(&[&kalah_file]).0, 0, "every rule set is played by default");
    assert_eq!(run(&[&kalah_file, "--rules", "kalah,dakon"]).0, 0);
    let (status, stdout, _) = run(&[&kalah_file, "--rules", "dakon"]);
    assert_eq!(status, 3);
    assert_eq!(stdout, format!("{kalah_file}: unsupported: well formed, rules kalah not among --rules: not checked\n"));
    let (status, stdout, _) = run(&["--rules", "dakon,kalah-empty-capture", &kalah_file, "--json"]);
    assert_eq!(status, 3);
    let object: serde_json::Value = serde_json::from_str(stdout.trim()).expect("JSON");
    assert_eq!((object["status"].as_str(), object["rules"].as_str()), (Some("unsupported"), Some("kalah")));
    // 2 before 1 before 3 before 0, whatever the order of the files.
    assert_eq!(run(&[&holds, &kalah_file, "--rules", "dakon"]).0, 3);
    assert_eq!(run(&[&kalah_file, &fails, "--rules", "dakon"]).0, 1);
    assert_eq!(run(&[&fails, &kalah_file, "--rules", "dakon"]).0, 1);
    assert_eq!(run(&[&damaged, &kalah_file, &fails, "--rules", "dakon"]).0, 2);
    // A damaged file is malformed whatever its rules: the reader comes first.
    assert_eq!(run(&[&damaged, "--rules", "kalah"]).0, 2);
    let (status, _, stderr) = run(&[&holds, "--rules", "chess"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("--rules: unknown rule set \"chess\""), "{stderr}");
    assert_eq!(run(&[&holds, "--rules"]).0, 2);
}

#[test]
fn text_report() {
    let directory = tempfile::tempdir().expect("tempdir");
    let [holds, fails, damaged] = files(directory.path());
    let (_, stdout, stderr) = run(&[&holds, &fails, &damaged]);
    assert!(stdout.starts_with(&format!("{holds}: holds\n  position  3,3/3,3 0/0 0  (dakon, 2 holes per row, L = 0)\n")), "{stdout}");
    for expected in [
        &format!("{fails}: fails\n"),
        "  claimed   +13 <= value <= +13\n",
        "  checked   -12 <= value <= +13\n",
        "  lower     FAILS: player 0's strategy, ",
        "            at ",
        "  upper     holds: player 1's strategy, ",
        "  visited   ",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in {stdout}");
    }
    assert!(stderr.starts_with(&format!("{damaged}: file checksum ")), "{stderr}");
}

#[test]
fn json_report() {
    let directory = tempfile::tempdir().expect("tempdir");
    let [holds, fails, damaged] = files(directory.path());
    let (status, stdout, stderr) = run(&["--json", &holds, &fails, &damaged]);
    assert_eq!((status, stderr.as_str()), (2, ""));
    let lines: Vec<serde_json::Value> = stdout.lines().map(|line| serde_json::from_str(line).expect("one JSON object a line")).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["file"], holds.as_str());
    assert_eq!(lines[0]["status"], "holds");
    assert_eq!(lines[0]["position"], "3,3/3,3 0/0 0");
    assert_eq!(lines[0]["rules"], "dakon");
    assert_eq!(lines[0]["claimed_lower"], 12);
    assert_eq!(lines[0]["checked_upper"], 12);
    assert_eq!(lines[0]["lower"]["holds"], true);
    assert!(lines[0]["visited"].as_u64().expect("a count") > 0);
    assert!(lines[0]["seconds"].is_number());
    assert_eq!(lines[1]["status"], "fails");
    assert_eq!(lines[1]["lower"]["failure"]["needed"], 13);
    assert!(lines[1]["lower"]["failure"]["line"].is_array());
    assert!(lines[1]["lower"]["failure"]["reason"].as_str().expect("text").starts_with("but "));
    assert_eq!(lines[1]["upper"]["failure"], serde_json::Value::Null);
    assert_eq!(lines[2]["status"], "malformed");
    assert!(lines[2]["error"].as_str().expect("text").starts_with("file checksum "));
}

#[test]
fn the_binary_exits_with_the_status() {
    let directory = tempfile::tempdir().expect("tempdir");
    let [holds, fails, damaged] = files(directory.path());
    let binary = env!("CARGO_BIN_EXE_dakon-check");
    for (file, expected) in [(&holds, 0), (&fails, 1), (&damaged, 2)] {
        let status = std::process::Command::new(binary).arg(file).output().expect("runs").status;
        assert_eq!(status.code(), Some(expected), "{file}");
    }
}
