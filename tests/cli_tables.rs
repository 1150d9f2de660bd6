//! `dakon tables build | info | verify` and `solve --build-tables` end to end, with a temporary
//! tables directory.

use std::path::Path;
use std::process::{Command, Output};

use dakon_solver::dakon::Dakon;
use dakon_solver::search::{Config, Limits, Solver};

fn dakon(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).arg("--tables-dir").arg(dir).env_remove("DAKON_TABLES").output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn build_info_verify_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let built = dakon(dir.path(), &["tables", "build", "--holes", "3", "--max-seeds", "6", "--threads", "2", "--json"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let report: serde_json::Value = serde_json::from_str(&stdout(&built)).unwrap();
    assert_eq!(report["tiers"].as_array().unwrap().len(), 7);
    assert_eq!(report["built_entries"], 924); // C(12, 6): boards of 0..=6 seeds over 6 holes
    assert_eq!(report["interrupted"], false);
    // Each tier's memory image is written beside it, so that the first load reads it.
    for k in 0..=6 {
        assert!(dir.path().join(format!("dakon-3-k{k}.dkm")).exists(), "tier {k}");
    }

    let again = dakon(dir.path(), &["tables", "build", "--holes", "3", "--max-seeds", "7"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let text = stdout(&again);
    assert_eq!(text.matches("already present").count(), 7, "{text}");
    assert!(text.contains("tier   7:           792 positions"), "{text}");

    let info = dakon(dir.path(), &["tables", "info", "--json"]);
    assert!(info.status.success(), "{}", stderr(&info));
    let files: serde_json::Value = serde_json::from_str(&stdout(&info)).unwrap();
    let seeds: Vec<u64> = files.as_array().unwrap().iter().map(|f| f["seeds"].as_u64().unwrap()).collect();
    assert_eq!(seeds, (0..=7).collect::<Vec<_>>());
    assert!(files[7]["file"].as_str().unwrap().ends_with("dakon-3-k7.dkt"));
    assert_eq!(files[7]["entries"], 792);

    // A probe gives the value the search finds (stores 3/4, player 1 to move: -1 + future gain).
    let position = "1,0,2/0,2,1 3/4 1";
    let probe = dakon(dir.path(), &["tables", "probe", position, "--json"]);
    assert!(probe.status.success(), "{}", stderr(&probe));
    let probed: serde_json::Value = serde_json::from_str(&stdout(&probe)).unwrap();
    let rules = Dakon::new(3).unwrap();
    let searched = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 20 }, None).solve(&position.parse().unwrap(), &Limits::default());
    assert_eq!(probed["future_gain"], searched.lower);
    assert_eq!(probed["value"], searched.lower - 1);
    assert_eq!(probed["seeds"], 6);
    let missing = dakon(dir.path(), &["tables", "probe", "3,3,3/3,3,3 0/0 0"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("no table for 18 seeds"), "{}", stderr(&missing));

    let verify = dakon(dir.path(), &["tables", "verify", "--samples", "5"]);
    assert!(verify.status.success(), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).matches("checksum ok, 5 positions re-solved by search agree").count(), 8, "{}", stdout(&verify));

    // A memory bound that holds every tier changes nothing and says nothing; 0 holds none.
    let bounded = dakon(dir.path(), &["solve", position, "--tables-mb", "1", "--json"]);
    assert!(bounded.status.success(), "{}", stderr(&bounded));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stdout(&bounded)).unwrap()["value"], searched.lower - 1);
    assert!(!stderr(&bounded).contains("not loaded"), "{}", stderr(&bounded));
    let none = dakon(dir.path(), &["solve", position, "--tables-mb", "0"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        stderr(&none).contains("--tables-mb 0: holds no tier of the endgame tables; give at least 1 (MiB), or --no-tables"),
        "{}",
        stderr(&none)
    );
}

#[test]
fn solve_builds_its_tables_and_searches_with_them() {
    let (dir, reference) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let position = "2,1,0,3/1,0,2,2 0/0 0"; // 11 seeds: the tables answer below the root
    let args = ["solve", position, "--rules", "kalah", "--threads", "1", "--json"];
    let built = dakon(dir.path(), &[&args[..], &["--build-tables", "8"]].concat());
    assert!(built.status.success(), "{}", stderr(&built));
    let solved: serde_json::Value = serde_json::from_str(&stdout(&built)).unwrap();
    assert_eq!((solved["tables"].clone(), solved["tables_built"]["tiers"].clone()), (true.into(), 9.into()));
    assert_eq!(solved["tables_built"]["positions"], 12870); // C(16, 8): boards of 0..=8 seeds over 8 holes
    assert!(stderr(&built).contains("tiers 0..=8: 12870 positions built"), "{}", stderr(&built));
    // The memory once built, for a caller fitting the run in a budget: resident within the peak.
    let memory = &solved["tables_built"];
    let (resident, peak) = (memory["resident_bytes_after"].as_u64().unwrap(), memory["peak_bytes_by_then"].as_u64().unwrap());
    assert!(!cfg!(target_os = "linux") || (0 < resident && resident <= peak), "{resident} {peak}");
    let searched = dakon(reference.path(), &[&args[..], &["--no-tables"]].concat());
    assert_eq!(solved["value"], serde_json::from_str::<serde_json::Value>(&stdout(&searched)).unwrap()["value"]);
    // The files are the build's, and a second run reads them instead of building.
    assert!(dakon(reference.path(), &["tables", "build", "--rules", "kalah", "--holes", "4", "--max-seeds", "8"]).status.success());
    for k in 0..=8 {
        let name = format!("kalah-4-k{k}.dkt");
        assert_eq!(std::fs::read(dir.path().join(&name)).unwrap(), std::fs::read(reference.path().join(&name)).unwrap(), "{name}");
    }
    let again = dakon(dir.path(), &[&args[..], &["--build-tables", "8"]].concat());
    let again: serde_json::Value = serde_json::from_str(&stdout(&again)).unwrap();
    assert_eq!((again["value"].clone(), again["tables_built"]["positions"].clone()), (solved["value"].clone(), 0.into()));
    let refused = dakon(dir.path(), &[&args[..], &["--build-tables", "8", "--no-tables"]].concat());
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
}

#[test]
fn verify_and_info_report_damaged_files() {
    let dir = tempfile::tempdir().unwrap();
    assert!(dakon(dir.path(), &["tables", "build", "--holes", "2", "--max-seeds", "8"]).status.success());
    let path = dir.path().join("dakon-2-k8.dkt");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 6;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let verify = dakon(dir.path(), &["tables", "verify", "--samples", "1"]);
    assert_eq!(verify.status.code(), Some(1));
    assert!(stdout(&verify).contains("dakon-2-k8.dkt: corrupt table"), "{}", stdout(&verify));
    assert!(stderr(&verify).contains("1 of 9 table files failed verification"), "{}", stderr(&verify));

    std::fs::write(&path, &bytes[..40]).unwrap();
    let info = dakon(dir.path(), &["tables", "info"]);
    assert_eq!(info.status.code(), Some(1));
    assert!(stdout(&info).contains("dakon-2-k8.dkt: corrupt table: truncated"), "{}", stdout(&info));

    // A build refuses to go on from a damaged tier rather than guess.
    let build = dakon(dir.path(), &["tables", "build", "--holes", "2", "--max-seeds", "9"]);
    assert_eq!(build.status.code(), Some(1));
    assert!(stderr(&build).contains("dakon-2-k8.dkt"), "{}", stderr(&build));
}

#[test]
fn bad_options_are_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    let output = dakon(dir.path(), &["tables", "build", "--holes", "12", "--max-seeds", "3"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--holes 12: a row must have 1 to 9 holes, found 12"), "{}", stderr(&output));
    let output = dakon(dir.path(), &["tables", "build", "--holes", "4", "--max-seeds", "200"]);
    assert_eq!(output.status.code(), Some(2));
    let empty = dakon(&dir.path().join("absent"), &["tables", "info"]);
    assert!(empty.status.success());
    assert!(stdout(&empty).contains("no table files"));
}
