//! The committed variant atlas (`atlas/variants/`, built by `scripts/variant_atlas.py`): every
//! board of every variant is recorded, 7 x 7 is exact under each variant of the move itself,
//! every exact board has a certificate, and every certificate (and every answer to the
//! traditional claim asked alone) is confirmed by the independent checker as proving exactly
//! what its record states, under the variant its directory names.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Directory under `atlas/variants/`, rules name, and whether every board has a certificate
/// (the first-turn option's atlas keeps a board without one when writing it took too long).
const VARIANTS: [(&str, &str, bool); 6] = [
    ("nembak-lander", "dakon:nembak-lander", true),
    ("no-mikul", "dakon:no-mikul", true),
    ("skip-origin", "dakon:skip-origin", true),
    ("traditional", "dakon:traditional", true),
    ("first-turn", "dakon:no-first-turn-capture", false),
    ("first-turn-traditional", "dakon:no-first-turn-capture,traditional", false),
];

fn atlas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("atlas").join("variants")
}

/// The records of `atlas/variants/<variant>/<file>` (JSON Lines).
fn records_in(variant: &str, file: &str) -> Vec<Value> {
    let path = atlas().join(variant).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// The atlas's record of every board of `variant`.
fn records(variant: &str) -> Vec<Value> {
    records_in(variant, "atlas.jsonl")
}

/// The independent checker's report on the certificate `file` (relative to the repository),
/// which must hold under `rules`.
fn checked_certificate(file: &str, rules: &str) -> dakon_check::Report {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report = dakon_check::check(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(report.holds(), "{}: {report}", path.display());
    assert_eq!(report.rules_name, rules, "{}", path.display());
    report
}

/// The bounds a board's certificate proves: the record's, but every seed as the upper bound
/// where that rests on the enumeration of every first turn (`upper_by_walk`), which no
/// certificate holds.
fn certified_bounds(row: &Value) -> (i64, i64) {
    let upper = if row["upper_by_walk"] == true { row["total"].as_i64().unwrap() } else { row["upper"].as_i64().unwrap() };
    (row["lower"].as_i64().unwrap(), upper)
}

#[test]
fn every_board_of_every_variant_is_recorded() {
    for (variant, rules, _) in VARIANTS {
        let rows = records(variant);
        assert_eq!(rows.len(), 9 * 14, "{variant}");
        for holes in 1..=9 {
            for seeds in 1..=14 {
                let row = rows.iter().find(|r| r["holes"] == holes && r["seeds"] == seeds);
                let row = row.unwrap_or_else(|| panic!("{variant}: no record of {holes}x{seeds}"));
                assert_eq!(row["rules"], rules);
                let (lower, upper) = (row["lower"].as_i64().unwrap(), row["upper"].as_i64().unwrap());
                assert!(lower <= upper, "{row}");
                assert_eq!(row["exact"] == true, lower == upper, "{row}");
            }
        }
    }
}

#[test]
fn seven_by_seven_is_exact_under_every_variant_of_the_move() {
    for (variant, rules, _) in VARIANTS.iter().filter(|(_, rules, _)| !rules.contains("no-first-turn-capture")) {
        let seven = records(variant).into_iter().find(|r| r["holes"] == 7 && r["seeds"] == 7).unwrap();
        assert_eq!(seven["exact"], true, "{rules}: 7x7 {seven}");
    }
}

#[test]
fn every_committed_variant_certificate_proves_its_record() {
    for (variant, rules, every_board) in VARIANTS {
        let mut checked = 0;
        let rows = records(variant);
        for row in &rows {
            let Some(file) = row["certificate"]["file"].as_str() else {
                assert!(!every_board && row["exact"] != true, "{variant}: a board without a certificate: {row}");
                continue;
            };
            assert!(!file.contains(':'), "{file}: a ':' cannot be in a file name on every system");
            let report = checked_certificate(file, rules);
            assert_eq!((report.checked_lower(), report.checked_upper()), certified_bounds(row), "{file}");
            checked += 1;
        }
        assert!(checked > 0, "{variant}: no certificate checked");
    }
}

/// The traditional claim's boards (n x n, 5 to 9) under the first-turn variants, each asked
/// alone whether the first player wins (`dakon solve --prove-win`): every answer given has a
/// certificate that the checker confirms proves exactly it.
#[test]
fn every_answer_to_the_claim_is_certified() {
    for (variant, rules, _) in VARIANTS.iter().filter(|(_, rules, _)| rules.contains("no-first-turn-capture")) {
        let rows = records_in(variant, "claim.jsonl");
        assert_eq!(rows.len(), 5, "{variant}");
        for row in rows {
            assert_eq!(row["rules"], *rules, "{row}");
            assert_eq!(row["holes"], row["seeds"], "{row}");
            let Some(holds) = row["holds"].as_bool() else { continue };
            let report = checked_certificate(row["certificate"]["file"].as_str().unwrap(), rules);
            if holds {
                assert_eq!(report.checked_lower(), 1, "{row}");
            } else {
                assert_eq!(report.checked_upper(), 0, "{row}");
            }
        }
    }
}

/// 7 x 7 under the first-turn variants, solved alone (`seven.json`): exact, and the
/// certificate proves exactly the recorded bounds (a take-all turn the enumeration found is in
/// it; an upper bound below every seed that rests on the enumeration is not).
#[test]
fn seven_by_seven_solved_alone_under_the_first_turn_variants_is_certified() {
    for (variant, rules, _) in VARIANTS.iter().filter(|(_, rules, _)| rules.contains("no-first-turn-capture")) {
        let path = atlas().join(variant).join("seven.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let row: Value = serde_json::from_str(&text).unwrap();
        assert_eq!((&row["holes"], &row["seeds"], &row["rules"]), (&Value::from(7), &Value::from(7), &Value::from(*rules)));
        let report = checked_certificate(row["certificate"]["file"].as_str().unwrap(), rules);
        let (lower, upper) = (row["lower"].as_i64().unwrap(), row["upper"].as_i64().unwrap());
        let (walk, every_seed) = (&row["take_all_enumeration"], 2 * 7 * 7);
        if walk.is_object() && upper < every_seed {
            // The upper bound rests on the enumeration of every first turn, finished.
            assert_eq!(walk["walks_done"], walk["walks"], "{row}");
            assert_eq!((report.checked_lower(), report.checked_upper()), (lower, every_seed), "{row}");
        } else {
            assert_eq!((report.checked_lower(), report.checked_upper()), (lower, upper), "{row}");
        }
        if walk["decision"] == "found" {
            assert_eq!((lower, walk["turn"].as_array().map(Vec::is_empty)), (every_seed, Some(false)), "{row}");
        }
        assert_eq!((&row["exact"], lower), (&Value::Bool(true), upper), "{row}");
    }
}
