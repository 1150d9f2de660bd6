//! Dakon's variants end to end: bad `--rules` refused with a message naming the options, the
//! variant carried into batch records, certificates (checked by `dakon check`), the results
//! database and table files, and tables of one variant refused for another.

use crate::run_dakon;

use run_dakon::{dakon, json};

/// Runs `dakon args`, which must fail with `status`; returns its standard error.
fn refused(args: &[&str], status: i32) -> String {
    let out = dakon(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(status), "dakon {args:?}: {stderr}");
    stderr
}

#[test]
fn bad_rules_are_refused_naming_the_options() {
    for (rules, expected) in [
        (
            "dakon:no-relay",
            "unknown Dakon option 'no-relay': expected nembak-lander, no-first-turn-capture, no-mikul, skip-origin, traditional",
        ),
        ("dakon:no-mikul,no-mikul", "the Dakon option 'no-mikul' is given twice"),
        (
            "dakon:traditional,skip-origin",
            "'traditional' already sets nembak-lander, no-mikul and skip-origin, so 'skip-origin' contradicts or repeats it",
        ),
        ("dakon:", "'dakon:' names no option"),
        ("kalah:no-mikul", "only dakon takes options (nembak-lander, no-first-turn-capture, no-mikul, skip-origin)"),
        ("oware", "unknown rules 'oware'"),
    ] {
        let stderr = refused(&["solve", "start", "--holes", "3", "--rules", rules], 2);
        assert!(stderr.contains(expected), "--rules {rules}: {stderr}");
    }
}

#[test]
fn options_in_any_order_are_one_variant() {
    let a = json(&["solve", "start", "--holes", "3", "--seeds", "4", "--rules", "dakon:skip-origin,no-mikul", "--json"]);
    let b = json(&["solve", "start", "--holes", "3", "--seeds", "4", "--rules", "dakon:no-mikul,skip-origin", "--json"]);
    assert_eq!(a["rules"], "dakon:no-mikul,skip-origin");
    assert_eq!(a["value"], b["value"]);
}

#[test]
fn batch_records_and_the_results_database_carry_the_variant() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "3,3,3/3,3,3 0/0 0\n").unwrap();
    let db = dir.path().join("r.db");
    let (input, db) = (input.to_str().unwrap(), db.to_str().unwrap());
    let out = dakon(&["batch", "--rules", "dakon:traditional", "--db", db, input]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let record: serde_json::Value = serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(record["rules"], "dakon:traditional");
    let out = dakon(&["db", "--db", db, "--export", "-"]);
    let rows = String::from_utf8_lossy(&out.stdout);
    assert!(rows.contains(r#""rules":"dakon:traditional""#), "{rows}");
}

#[test]
fn a_variant_certificate_passes_dakon_check() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.dkc");
    let file = file.to_str().unwrap();
    json(&["solve", "start", "--holes", "3", "--seeds", "3", "--rules", "dakon:skip-origin", "--json", "--certificate", file]);
    let out = dakon(&["check", file]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("holds") && stdout.contains("(dakon:skip-origin, 3 holes per row"), "{stdout}");
}

#[test]
fn tables_of_another_variant_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("built");
    let built_text = built.to_str().unwrap();
    let out = dakon(&["tables", "build", "--rules", "dakon:no-mikul", "--holes", "3", "--max-seeds", "5", "--tables-dir", built_text]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(built.join("dakon:no-mikul-3-k5.dkt").exists(), "a variant's tables are named after it");
    // Used by their own variant, with the value found without them.
    let with = json(&["solve", "start", "--holes", "3", "--seeds", "3", "--rules", "dakon:no-mikul", "--tables-dir", built_text, "--json"]);
    let without = json(&["solve", "start", "--holes", "3", "--seeds", "3", "--rules", "dakon:no-mikul", "--no-tables", "--json"]);
    assert_eq!(with["tables"], true);
    assert_eq!(with["value"], without["value"]);
    // Renamed as the default rules' (or another variant's) tables, their header gives them away.
    for other in ["dakon", "dakon:skip-origin"] {
        let renamed = dir.path().join(other.replace(':', "_"));
        std::fs::create_dir_all(&renamed).unwrap();
        for k in 0..=5 {
            std::fs::copy(built.join(format!("dakon:no-mikul-3-k{k}.dkt")), renamed.join(format!("{other}-3-k{k}.dkt"))).unwrap();
        }
        let stderr =
            refused(&["solve", "start", "--holes", "3", "--seeds", "3", "--rules", other, "--tables-dir", renamed.to_str().unwrap()], 1);
        assert!(stderr.contains(&format!("header says rules dakon:no-mikul, expected {other}")), "{stderr}");
    }
}
