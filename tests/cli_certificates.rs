//! Certificates as a user makes and checks them: `solve --certificate`, `verify
//! --certificates`, `dakon check`, their JSON, exit statuses and bad input.

use crate::run_dakon;

use std::path::Path;

use dakon_solver::certificate::{extract, Claim};
use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::search::{Config, Limits, Solver};
use run_dakon::{dakon, json};
use serde_json::Value;

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `dakon check FILE --json` of one file: its exit status and JSON object.
fn checked(path: &Path) -> (i32, Value) {
    let out = dakon(&["check", path_str(path), "--json"]);
    (out.status.code().unwrap(), serde_json::from_slice(&out.stdout).expect("one JSON object"))
}

#[test]
fn solve_writes_a_certificate_of_the_exact_value_that_checks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("5x5.dkc");
    let v = json(&["solve", "start", "--holes", "5", "--json", "--certificate", path_str(&file)]);
    let certificate = &v["certificate"];
    assert_eq!((&certificate["lower"], &certificate["upper"]), (&v["value"], &v["value"]));
    assert_eq!(certificate["checked"], true, "{certificate}");
    assert_eq!(certificate["small_seeds"], 12);
    assert_eq!(certificate["bytes"].as_u64(), Some(std::fs::metadata(&file).unwrap().len()));
    let (status, report) = checked(&file);
    assert_eq!((status, &report["status"]), (0, &"holds".into()), "{report}");
    assert_eq!((&report["claimed_lower"], &report["checked_upper"]), (&v["value"], &v["value"]));
    assert_eq!(report["lower"]["entries"], certificate["lower_entries"]);
    assert_eq!(report["upper"]["entries"], certificate["upper_entries"]);
    // The text output says where the file is and that the checker confirmed it.
    let out = dakon(&["solve", "start", "--holes", "4", "--certificate", path_str(&file), "--certificate-small-seeds", "6"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("5x5.dkc (") && text.contains("L = 6") && text.contains("checked by the independent checker: holds"), "{text}");
}

#[test]
fn kalah_results_get_kalah_certificates_that_check() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kalah-4x3.dkc");
    let v = json(&["solve", "start", "--rules", "kalah", "--holes", "4", "--seeds", "3", "--json", "--certificate", path_str(&file)]);
    assert_eq!(v["certificate"]["checked"], true, "{v}");
    let (status, report) = checked(&file);
    assert_eq!((status, &report["rules"], &report["claimed_lower"]), (0, &"kalah".into(), &v["value"]), "{report}");
    // verify names each file by its rules.
    let certs = dir.path().join("certs");
    let out = dakon(&["verify", "--rules", "kalah-empty-capture", "--holes", "3", "--seeds", "2", "--certificates", path_str(&certs)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (status, report) = checked(&certs.join("kalah-empty-capture-3x2.dkc"));
    assert_eq!((status, &report["rules"]), (0, &"kalah-empty-capture".into()), "{report}");
}

#[test]
fn bounds_and_at_least_answers_get_certificates_of_what_was_proven() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.dkc");
    let file = path_str(&file);
    let v = json(&["solve", "start", "--holes", "7", "--seeds", "4", "--node-limit", "3000", "--json", "--certificate", file]);
    assert_eq!(v["exact"], false);
    assert_eq!((&v["certificate"]["lower"], &v["certificate"]["upper"]), (&v["lower"], &v["upper"]));
    assert_eq!(v["certificate"]["checked"], true);
    // The 6 x 3 start is worth +18.
    for (bound, holds) in [(18, true), (19, false)] {
        let v =
            json(&["solve", "start", "--holes", "6", "--seeds", "3", "--at-least", &bound.to_string(), "--json", "--certificate", file]);
        assert_eq!(v["holds"], holds);
        let (lower, upper) = if holds { (bound, 36) } else { (-36, bound - 1) };
        assert_eq!((&v["certificate"]["lower"], &v["certificate"]["upper"]), (&lower.into(), &upper.into()));
        assert_eq!(v["certificate"]["checked"], true);
    }
    let v = json(&["solve", "start", "--holes", "3", "--json", "--certificate", file, "--no-check"]);
    assert_eq!(v["certificate"]["checked"], Value::Null);
    assert_eq!(checked(Path::new(file)).0, 0);
}

#[test]
fn bad_certificate_destinations_are_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no").join("such.dkc");
    for (args, message) in [
        (vec!["--certificate", path_str(&missing)], "does not exist"),
        (vec!["--certificate", path_str(dir.path())], "is a directory"),
        (vec!["--certificate", "x.dkc", "--certificate-small-seeds", "18"], "a certificate of 9 holes a row allows at most 17"),
    ] {
        let out = dakon(&[&["solve", "start", "--holes", "9"], args.as_slice()].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(message), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "{args:?}: nothing is solved");
    }
}

#[test]
fn verify_writes_and_checks_one_certificate_per_board() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    let report = dir.path().join("report.md");
    let out = dakon(&["verify", "--holes", "3..5", "--certificates", path_str(&certs), "--json", "--out", path_str(&report)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        let file = certs.join(format!("dakon-{}x{}.dkc", row["holes"], row["seeds"]));
        let certificate = &row["certificate"];
        assert_eq!(certificate["file"], path_str(&file));
        assert_eq!((&certificate["lower"], &certificate["upper"], &certificate["checked"]), (&row["lower"], &row["upper"], &true.into()));
        let (status, checked) = checked(&file);
        assert_eq!((status, &checked["claimed_lower"]), (0, &row["value"]));
    }
    let markdown = std::fs::read_to_string(&report).unwrap();
    assert!(markdown.contains("| certificate |") && markdown.contains("| checked, "), "{markdown}");
    let out = dakon(&["verify", "--holes", "4", "--certificates", path_str(&certs)]);
    assert!(String::from_utf8(out.stdout).unwrap().contains("checked, 157 B"));
}

#[test]
fn resumed_verify_keeps_the_certificates_written_and_writes_the_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    let report = dir.path().join("atlas.md");
    let records = dir.path().join("atlas.jsonl");
    let run = |extra: &[&str]| {
        let base = ["verify", "--holes", "2,3", "--seeds", "1,2", "--threads", "1", "--json", "--out", path_str(&report)];
        let out = dakon(&base.iter().chain(extra).copied().collect::<Vec<_>>());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(&records).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect::<Vec<Value>>()
    };
    let modified = |board: &str| std::fs::metadata(certs.join(format!("dakon-{board}.dkc"))).unwrap().modified().unwrap();
    // Records without certificates: resumed with --certificates, every board is searched again.
    let plain = run(&[]);
    assert!(plain.iter().all(|row| row["certificate"].is_null()));
    let first = run(&["--certificates", path_str(&certs), "--resume"]);
    assert_eq!(first.len(), 4);
    for row in &first {
        assert_eq!((&row["certificate"]["checked"], &row["certificate"]["lower"]), (&true.into(), &row["lower"]), "{row}");
    }
    // One file lost: only its board is searched again; the others keep records and files.
    let kept = modified("2x1");
    std::fs::remove_file(certs.join("dakon-3x2.dkc")).unwrap();
    let second = run(&["--certificates", path_str(&certs), "--resume"]);
    assert_eq!(second[..3], first.iter().filter(|r| r["holes"] != 3 || r["seeds"] != 2).cloned().collect::<Vec<_>>()[..]);
    assert_eq!((&second[3]["holes"], &second[3]["seeds"], &second[3]["certificate"]["checked"]), (&3.into(), &2.into(), &true.into()));
    assert_eq!(checked(&certs.join("dakon-3x2.dkc")).0, 0);
    assert_eq!(modified("2x1"), kept, "a kept board's certificate is not written again");
    let markdown = std::fs::read_to_string(&report).unwrap();
    assert_eq!(markdown.matches("| checked, ").count(), 4, "{markdown}");
}

#[test]
fn check_exit_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.dkc");
    assert!(dakon(&["solve", "start", "--holes", "4", "--certificate", path_str(&good), "--no-check"]).status.success());
    // A well-formed certificate whose claim is one too high.
    let solver = Solver::new(Dakon::new(4).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
    let start = Position::start(4, 4).unwrap();
    let mut certificate = extract(&solver, &start, Claim { lower: 32, upper: 32 }, 12, &Limits::default()).unwrap().certificate;
    certificate.claim = Claim { lower: 31, upper: 31 };
    let fails = dir.path().join("fails.dkc");
    certificate.write(&fails).unwrap();
    let garbage = dir.path().join("garbage.dkc");
    std::fs::write(&garbage, b"DKNCERT\0 but nothing else").unwrap();
    let status = |files: &[&Path]| {
        let args: Vec<&str> = ["check"].into_iter().chain(files.iter().map(|f| path_str(f))).collect();
        dakon(&args).status.code().unwrap()
    };
    assert_eq!(status(&[&good]), 0);
    assert_eq!(status(&[&good, &fails]), 1);
    assert_eq!(status(&[&fails, &garbage, &good]), 2);
    let out = dakon(&["check", path_str(&fails)]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("upper     FAILS") && text.contains("claimed   +31 <= value <= +31"), "{text}");
    assert_eq!(dakon(&["check"]).status.code(), Some(2), "no file");
    assert!(dakon(&["check", "--help"]).status.success());
}

/// The Kalah values published by Irving, Donkers and Uiterwijk (2000), as this project's
/// certificates in `atlas/kalah/` prove them: (holes, seeds, value for the first player).
const KALAH_ATLAS: [(u8, u8, i64); 11] =
    [(4, 1, 2), (4, 2, 6), (4, 3, 6), (4, 4, 2), (4, 5, 4), (5, 1, 0), (5, 2, 2), (5, 3, 6), (6, 1, 2), (6, 2, 6), (6, 3, 2)];

#[test]
fn the_kalah_atlas_certificates_prove_the_published_values() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("atlas/kalah");
    let files: Vec<String> =
        KALAH_ATLAS.iter().map(|(holes, seeds, _)| path_str(&dir.join(format!("kalah-{holes}x{seeds}.dkc"))).to_string()).collect();
    let mut args = vec!["check", "--json"];
    args.extend(files.iter().map(String::as_str));
    let out = dakon(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let reports: Vec<Value> =
        out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
    assert_eq!(reports.len(), KALAH_ATLAS.len());
    for ((holes, seeds, value), report) in KALAH_ATLAS.iter().zip(&reports) {
        assert_eq!(report["status"], "holds", "{report}");
        assert_eq!((report["rules"].as_str(), report["holes_per_row"].as_u64()), (Some("kalah"), Some(u64::from(*holes))), "{report}");
        let seeds_in_row = vec![seeds.to_string(); usize::from(*holes)].join(",");
        assert!(report["position"].as_str().is_some_and(|p| p.starts_with(&seeds_in_row)), "{report}");
        assert_eq!((report["checked_lower"].as_i64(), report["checked_upper"].as_i64()), (Some(*value), Some(*value)), "{report}");
    }
}

/// On a terminal `dakon check` draws a progress line from a second thread once a check has
/// run a second: it must finish, not wait for the standard error the main thread holds.
/// `script` (util-linux) gives it a terminal.
#[test]
fn a_check_on_a_terminal_with_its_progress_line_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("6x3.dkc");
    // L = 15: the checker solves tens of millions of small positions, some seconds of work.
    let written = dakon(
        &["solve", "start", "--rules", "kalah", "--holes", "6", "--seeds", "3", "--tt-mb", "64", "--no-check"]
            .into_iter()
            .chain(["--certificate", path_str(&file), "--certificate-small-seeds", "15"])
            .collect::<Vec<_>>(),
    );
    assert!(written.status.success(), "{}", String::from_utf8_lossy(&written.stderr));
    let command = format!("{} check {}", env!("CARGO_BIN_EXE_dakon"), path_str(&file));
    let log = dir.path().join("terminal.log");
    let mut child = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &command, path_str(&log)])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("script (util-linux) runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("dakon check on a terminal did not finish in 300 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let terminal = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "{terminal}");
    assert!(terminal.contains("positions visited"), "no progress line: {terminal}");
    assert!(terminal.contains("holds"), "{terminal}");
}
