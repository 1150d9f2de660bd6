//! The committed variant atlas (`atlas/variants/`, built by `scripts/variant_atlas.py`): every
//! board of every variant is recorded, 7 x 7 is exact under each, and every certificate is
//! confirmed by the independent checker as proving exactly the bounds its record states, under
//! the variant its directory names.

use std::path::{Path, PathBuf};

use serde_json::Value;

const VARIANTS: [&str; 4] = ["nembak-lander", "no-mikul", "skip-origin", "traditional"];

fn atlas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("atlas").join("variants")
}

fn records(variant: &str) -> Vec<Value> {
    let path = atlas().join(variant).join("atlas.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn every_board_of_every_variant_is_recorded_and_seven_by_seven_is_exact() {
    for variant in VARIANTS {
        let rows = records(variant);
        for holes in 1..=9 {
            for seeds in 1..=14 {
                let row = rows.iter().find(|r| r["holes"] == holes && r["seeds"] == seeds);
                let row = row.unwrap_or_else(|| panic!("{variant}: no record of {holes}x{seeds}"));
                assert_eq!(row["rules"], format!("dakon:{variant}"));
                assert!(row["lower"].as_i64() <= row["upper"].as_i64(), "{row}");
            }
        }
        let seven = rows.iter().find(|r| r["holes"] == 7 && r["seeds"] == 7).unwrap();
        assert_eq!(seven["exact"], true, "{variant}: 7x7 {seven}");
    }
}

#[test]
fn every_committed_variant_certificate_proves_its_record() {
    let mut checked = 0;
    for variant in VARIANTS {
        for row in records(variant) {
            let file = row["certificate"]["file"].as_str().unwrap_or_else(|| panic!("{variant}: a board without a certificate: {row}"));
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let report = dakon_check::check(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(report.holds(), "{}: {report}", path.display());
            assert_eq!(report.rules().name(), format!("dakon:{variant}"), "{}", path.display());
            assert_eq!(
                (report.checked_lower(), report.checked_upper()),
                (row["lower"].as_i64().unwrap(), row["upper"].as_i64().unwrap()),
                "{}",
                path.display()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, VARIANTS.len() * 9 * 14);
}

/// The atlas of the first-turn option (`scripts/first_turn_atlas.py`), with and without
/// `traditional`: every board is recorded, an exact one with a certificate the independent
/// checker confirms under the full rules name, one stopped by the budget with its bounds and
/// none.
#[test]
fn every_first_turn_board_is_recorded_and_every_exact_one_is_certified() {
    for (directory, rules) in
        [("first-turn", "dakon:no-first-turn-capture"), ("first-turn-traditional", "dakon:no-first-turn-capture,traditional")]
    {
        let rows = records(directory);
        assert_eq!(rows.len(), 9 * 14, "{directory}");
        for row in rows {
            assert_eq!(row["rules"], rules, "{row}");
            let (lower, upper) = (row["lower"].as_i64().unwrap(), row["upper"].as_i64().unwrap());
            if row["exact"] != true {
                assert!(lower < upper && row["certificate"].is_null(), "{directory}: {row}");
                continue;
            }
            assert_eq!(lower, upper, "{row}");
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(row["certificate"]["file"].as_str().unwrap());
            let report = dakon_check::check(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(report.holds(), "{}: {report}", path.display());
            assert_eq!(report.rules_name, rules, "{}", path.display());
            assert_eq!((report.checked_lower(), report.checked_upper()), (lower, upper), "{}", path.display());
        }
    }
}
