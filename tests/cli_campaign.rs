//! `dakon campaign` end to end: on small boards whose exact values the plain minimax of the
//! rules reference gives, the derived bounds always contain the value, every certificate
//! passes the checker, a killed run resumes without losing a record, and damaged or foreign
//! campaign files are refused.

use crate::memo_minimax;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use memo_minimax::{dakon, json_lines, no_tables, parse, Minimax, RefRules};
use serde_json::Value;

/// The arguments of a run of the campaign `file` on the start of `rules` with `holes` and
/// `seeds`, certificates in `certs`, one thread, a small table, then `extra`.
fn run_args(rules: &str, holes: u32, seeds: u32, file: &Path, certs: &Path, extra: &[&str]) -> Vec<String> {
    let (holes, seeds) = (holes.to_string(), seeds.to_string());
    let mut args: Vec<String> = ["campaign", "run", "start", "--rules", rules, "--holes", &holes, "--seeds", &seeds]
        .into_iter()
        .chain(["--threads", "1", "--tt-mb", "16", "--certificate-small-seeds", "6", "--json", "--campaign"])
        .map(String::from)
        .collect();
    args.extend([path(file).to_string(), "--certificates".to_string(), path(certs).to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn run(args: &[String]) -> Output {
    dakon(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The status of the campaign `file` as JSON.
fn status(file: &Path) -> Value {
    let out = dakon(&["campaign", "status", "--campaign", path(file), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn bounds(v: &Value) -> (i64, i64) {
    (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every position of a status holds its exact value (by minimax) within its bounds.
fn assert_contains_values(rules: &str, status: &Value) {
    let mut minimax = Minimax::of(RefRules::named(rules));
    for position in status["positions"].as_array().unwrap() {
        let board = parse(position["position"].as_str().unwrap()).unwrap();
        let value = i64::from(minimax.value(&board));
        let (lower, upper) = bounds(position);
        assert!(lower <= value && value <= upper, "{rules}: {position} does not contain the value {value}");
    }
}

/// The certificate files a campaign file names, relative to its directory.
fn certificates(file: &Path) -> Vec<PathBuf> {
    let home = file.parent().unwrap();
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|r| r["certificate"]["file"].as_str().map(|f| home.join(f)))
        .collect()
}

#[test]
fn derived_bounds_contain_the_exact_value_and_every_certificate_checks() {
    for (rules, holes, seeds) in [("kalah", 4, 2), ("kalah", 3, 3), ("dakon", 3, 3), ("kalah-empty-capture", 3, 2)] {
        let dir = tempfile::tempdir().unwrap();
        let (file, certs) = (dir.path().join("bounds.jsonl"), dir.path().join("certificates"));
        // Budgets far beyond what a test needs, even on a busy machine.
        let out = run(&run_args(rules, holes, seeds, &file, &certs, &["--test-seconds", "600"]));
        assert!(out.status.success(), "{rules} {holes}x{seeds}: {}", stderr(&out));
        let lines = json_lines(&out);
        let (tests, last) = lines.split_at(lines.len() - 1);
        assert!(tests.iter().all(|t| t["outcome"] == "proven"), "no limit, so every test is answered: {tests:?}");
        let value = i64::from(Minimax::of(RefRules::named(rules)).value(&parse(last[0]["root"].as_str().unwrap()).unwrap()));
        assert_eq!((bounds(&last[0]), &last[0]["exact"]), ((value, value), &Value::Bool(true)), "{rules} {holes}x{seeds}");
        let ended = status(&file);
        // The same status, but for the last digits of a sum of CPU seconds read back.
        let without_cpu = |v: &Value| {
            let mut v = v.clone();
            v.as_object_mut().unwrap().remove("cpu_seconds");
            v
        };
        assert_eq!(without_cpu(&ended), without_cpu(&last[0]), "the run ends by printing the status");
        assert_contains_values(rules, &ended);
        // The root's bounds say where they come from: a move and every move.
        let root = &ended["positions"][0];
        assert_eq!((&root["lower_from"]["kind"], &root["upper_from"]["kind"]), (&"move".into(), &"every_move".into()), "{root}");

        // Every bound has its certificate, and the checker accepts each.
        let files = certificates(&file);
        assert_eq!(files.len() as u64, ended["bounds_records"].as_u64().unwrap());
        let mut check = vec!["check".to_string()];
        check.extend(files.iter().map(|f| path(f).to_string()));
        let out = run(&check);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
        // The root again, from the certificates alone.
        let out = dakon(&["campaign", "check", "--campaign", path(&file), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let checked: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(bounds(&checked["root"]), (value, value), "{checked}");
        assert_eq!(checked["checked"], ended["bounds_records"]);

        // A run capped by a node budget ends with bounds that hold, never a wrong value.
        let capped = dir.path().join("capped.jsonl");
        let out = run(&run_args(rules, holes, seeds, &capped, &certs, &["--node-limit", "400"]));
        assert!(out.status.success(), "{}", stderr(&out));
        assert_contains_values(rules, &status(&capped));
    }
}

#[test]
fn a_killed_run_resumes_without_losing_a_finished_record() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certificates");
    // Uninterrupted, for comparison: Kalah(5,3) is +6.
    let whole = dir.path().join("whole.jsonl");
    let out = run(&run_args("kalah", 5, 3, &whole, &certs, &["--test-seconds", "600"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(bounds(&status(&whole)), (6, 6));

    let file = dir.path().join("bounds.jsonl");
    let args = run_args("kalah", 5, 3, &file, &certs, &["--test-seconds", "600"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_dakon"))
        .args(&args)
        .env("DAKON_TABLES", no_tables())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&file).map_or(0, |t| t.lines().count()) < 5 {
        assert!(started.elapsed() < Duration::from_secs(120), "the first tests took too long");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let mut before = std::fs::read_to_string(&file).unwrap();
    before.truncate(before.rfind('\n').map_or(0, |i| i + 1));
    let kept = before.lines().count();
    assert!(kept >= 5);
    // A run killed while appending leaves half a line: the next run cuts it off.
    std::fs::write(&file, format!("{before}{{\"record\":\"bound\",\"position\":")).unwrap();
    assert_eq!(status(&file)["bounds_records"].as_u64().unwrap() + status(&file)["stopped_records"].as_u64().unwrap(), kept as u64 - 1);

    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.starts_with(&before), "every finished record is kept as it was");
    assert!(after.lines().all(|l| serde_json::from_str::<Value>(l).is_ok()), "the unfinished line is gone:\n{after}");
    let resumed = status(&file);
    assert_eq!(bounds(&resumed), (6, 6), "the same bounds as the run never killed");
    let out = dakon(&["campaign", "check", "--campaign", path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn tests_stopped_by_their_budget_are_recorded_and_their_budget_grows() {
    let dir = tempfile::tempdir().unwrap();
    let (file, certs) = (dir.path().join("bounds.jsonl"), dir.path().join("certificates"));
    // Kalah(6,3) (+2) with tests of a millisecond at first, two seconds in all.
    let out = run(&run_args("kalah", 6, 3, &file, &certs, &["--test-seconds", "0.001", "--time-limit", "2", "--progress-seconds", "0.2"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("stopped by its budget") && text.contains("the next test of this goal is more careful and gets"), "{text}");
    let stopped: Vec<Value> = json_lines(&out).into_iter().filter(|t| t["outcome"] == "stopped").collect();
    assert!(!stopped.is_empty(), "{text}");
    let status = status(&file);
    assert_eq!(status["stopped_records"].as_u64(), Some(stopped.len() as u64));
    let (lower, upper) = bounds(&status);
    assert!(lower <= 2 && 2 <= upper, "{status}");
}

#[test]
fn damaged_or_foreign_campaign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (file, certs) = (dir.path().join("bounds.jsonl"), dir.path().join("certificates"));
    let args = |rules: &str, holes: u32, extra: &[&str]| run_args(rules, holes, 3, &file, &certs, extra);
    let out = run(&args("kalah", 3, &["--test-seconds", "600"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let good = std::fs::read_to_string(&file).unwrap();
    let refused = |out: Output, words: &[&str]| {
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(words.iter().all(|w| text.contains(w)), "{words:?} not in: {text}");
    };
    // Another campaign's options.
    refused(run(&args("dakon", 3, &[])), &["a campaign of the rules kalah", "dakon"]);
    refused(run(&args("kalah", 4, &[])), &["a campaign of the root '3,3,3/3,3,3 0/0 0'"]);
    refused(run(&args("kalah", 3, &["--depth", "2"])), &["depth 1", "--depth 2"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), good, "a refused run changes nothing");

    let lines: Vec<&str> = good.lines().collect();
    let with = |text: String| {
        let damaged = dir.path().join("damaged.jsonl");
        std::fs::write(&damaged, text).unwrap();
        let out = dakon(&["campaign", "status", "--campaign", path(&damaged)]);
        (damaged, out)
    };
    // A damaged line, named by its number.
    let (_, out) = with(format!("{}\n{}\nnot json\n{}\n", lines[0], lines[1], lines[2]));
    refused(out, &["line 3", "not a campaign record"]);
    // Records without their header, or two campaigns joined.
    let (_, out) = with(format!("{}\n", lines[1]));
    refused(out, &["line 1", "header"]);
    let (_, out) = with(format!("{good}{}\n", lines[0]));
    refused(out, &["a second campaign header"]);
    // A record of a position outside the tree, of other rules, or out of range.
    let foreign = lines[1].replacen("\"position\":\"", "\"position\":\"9,", 1);
    let (_, out) = with(format!("{}\n{foreign}\n", lines[0]));
    refused(out, &["line 2", "is not in this campaign's tree"]);
    let (_, out) = with(format!("{}\n{}\n", lines[0], lines[1].replace("\"rules\":\"kalah\"", "\"rules\":\"dakon\"")));
    refused(out, &["line 2", "under the rules dakon"]);
    let mut record: Value = serde_json::from_str(lines[1]).unwrap();
    record["value"] = 99.into();
    let (_, out) = with(format!("{}\n{record}\n", lines[0]));
    refused(out, &["line 2", "+99 is outside"]);
    // Records that contradict each other.
    let mut low = record.clone();
    (low["bound"], low["value"]) = ("at_least".into(), 4.into());
    let mut high = record.clone();
    (high["bound"], high["value"]) = ("at_most".into(), 2.into());
    let (_, out) = with(format!("{}\n{low}\n{high}\n", lines[0]));
    refused(out, &["contradict"]);
    // Another program's records, a missing file.
    let (_, out) = with("{\"holes\":3,\"seeds\":3,\"lower\":2}\n".to_string());
    refused(out, &["line 1", "not a campaign record"]);
    refused(dakon(&["campaign", "status", "--campaign", path(&dir.path().join("none.jsonl"))]), &["no such file"]);

    // A certificate changed or gone since it was written: `campaign check` exits 1.
    let files = certificates(&file);
    let mut bytes = std::fs::read(&files[0]).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&files[0], bytes).unwrap();
    std::fs::remove_file(&files[1]).unwrap();
    let out = dakon(&["campaign", "check", "--campaign", path(&file)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("is not the file recorded") && text.contains("cannot read"), "{text}");
    assert!(stderr(&out).contains("2 of"), "{}", stderr(&out));
}
