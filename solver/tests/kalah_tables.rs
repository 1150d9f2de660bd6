//! Kalah endgame tables are never read as Dakon ones, nor standard Kalah tables as
//! empty-capture ones (their agreement with minimax and their tier order are checked with
//! every rule set's in `tables_exhaustive.rs`).

use std::fs;

use dakon_solver::dakon::Dakon;
use dakon_solver::kalah::{CaptureRule, Kalah};
use dakon_solver::tables::{build_tiers, tier_path, BuildOptions, TableError, TableFile, TableSet};

#[test]
fn tables_of_one_rule_set_are_never_read_as_another() {
    let dir = tempfile::tempdir().unwrap();
    let kalah = Kalah::new(3, CaptureRule::FacingSeeds).unwrap();
    let empty_capture = Kalah::new(3, CaptureRule::Always).unwrap();
    let dakon = Dakon::new(3).unwrap();
    build_tiers(&kalah, dir.path(), 4, &BuildOptions::default()).unwrap();
    assert!(tier_path(&kalah, dir.path(), 4).ends_with("kalah-3-k4.dkt"));
    // Other rules look for other file names, and find none.
    assert!(TableSet::open(&dakon, dir.path()).unwrap().is_none());
    assert!(TableSet::open(&empty_capture, dir.path()).unwrap().is_none());
    // A Kalah file under another rule set's name is refused by its header.
    fs::copy(tier_path(&kalah, dir.path(), 0), tier_path(&dakon, dir.path(), 0)).unwrap();
    let error = TableSet::open(&dakon, dir.path()).err().expect("a Kalah table is refused as Dakon");
    assert!(matches!(error, TableError::Mismatch { field: "rules", .. }), "{error}");
    assert!(error.to_string().contains("header says rules kalah, expected dakon"), "{error}");
    fs::copy(tier_path(&kalah, dir.path(), 0), tier_path(&empty_capture, dir.path(), 0)).unwrap();
    let error = TableFile::open(&empty_capture, &tier_path(&empty_capture, dir.path(), 0), 0).unwrap_err();
    assert!(error.to_string().contains("header says rules kalah, expected kalah-empty-capture"), "{error}");
}
