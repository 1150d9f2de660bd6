//! Table files: round trip, and damaged or foreign files refused with clear errors.

use std::fs;
use std::path::{Path, PathBuf};

use dakon_solver::dakon::Dakon;
use dakon_solver::oracle::Oracle;
use dakon_solver::tables::{build_tiers, tier_path, BuildOptions, TableError, TableFile, TableSet};
use dakon_solver::tier_layout::TierLayout;

/// Tiers 0..=9 of the 4-hole board (tier 9: 11440 positions, one block).
fn built(holes: usize, max_seeds: u32) -> (Dakon, tempfile::TempDir) {
    let rules = Dakon::new(holes).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build_tiers(&rules, dir.path(), max_seeds, &BuildOptions { threads: 2, ..BuildOptions::default() }).unwrap();
    (rules, dir)
}

fn flip_byte(path: &Path, at: usize) {
    let mut bytes = fs::read(path).unwrap();
    bytes[at] ^= 0x20;
    fs::write(path, bytes).unwrap();
}

fn header_len(path: &Path) -> usize {
    let file = TableFile::inspect(path).unwrap();
    (file.header().blocks() as usize + 1) * 8 + 8 + bincode::serialized_size(file.header()).unwrap() as usize
}

/// The values of tiers `0..=top`, read from `dir`.
fn values_up_to(rules: &Dakon, dir: &Path, top: u32) -> Vec<Vec<u8>> {
    (0..=top).fold(Vec::new(), |mut lower, k| {
        let values = TableFile::open(rules, &tier_path(rules, dir, k), k).unwrap().read_values(rules, &lower).unwrap();
        lower.push(values);
        lower
    })
}

#[test]
fn written_values_read_back_in_full_and_one_by_one() {
    let (rules, dir) = built(4, 9);
    let path = dir.path().join("copy.dkt");
    let mut lower = values_up_to(&rules, dir.path(), 9);
    let values = lower.pop().unwrap();
    let size = dakon_solver::tables::write_table(&rules, &path, 9, &values, &lower).unwrap();
    assert_eq!(size, fs::metadata(&path).unwrap().len());
    assert!(!PathBuf::from(format!("{}.tmp", path.display())).exists());
    let file = TableFile::open(&rules, &path, 9).unwrap();
    assert_eq!(file.read_values(&rules, &lower).unwrap(), values);
    for index in (0..values.len() as u64).step_by(97) {
        assert_eq!(file.value(&rules, index, &lower).unwrap(), values[index as usize] as i8);
    }
    let header = file.header();
    assert_eq!((header.rules.as_str(), header.parameters.as_slice(), header.seeds, header.entries), ("dakon", &[4][..], 9, 11440));
}

#[test]
fn flipped_data_byte_is_refused() {
    let (rules, dir) = built(4, 9);
    let path = tier_path(&rules, dir.path(), 9);
    let size = fs::metadata(&path).unwrap().len() as usize;
    flip_byte(&path, size - 10);
    let lower = values_up_to(&rules, dir.path(), 8);
    let file = TableFile::open(&rules, &path, 9).unwrap(); // header and index are intact
    let error = file.read_values(&rules, &lower).unwrap_err();
    assert!(matches!(error, TableError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("dakon-4-k9.dkt: corrupt table"), "{error}");
    assert!(file.value(&rules, 0, &lower).is_err(), "a probe of the damaged block must fail");
    let error = file.read_compact(&rules, &lower).unwrap_err();
    assert!(error.to_string().contains("dakon-4-k9.dkt: corrupt table"), "{error}");
    let error = TableSet::open(&rules, dir.path()).err().expect("a damaged tier is refused");
    assert!(error.to_string().contains("corrupt"), "{error}");
    let error = build_tiers(&rules, dir.path(), 10, &BuildOptions::default()).unwrap_err();
    assert!(error.to_string().contains("corrupt"), "a build must not go on from a damaged tier: {error}");
}

#[test]
fn flipped_header_bytes_are_refused() {
    let (rules, dir) = built(4, 9);
    let path = tier_path(&rules, dir.path(), 9);
    let pristine = fs::read(&path).unwrap();
    let lower = values_up_to(&rules, dir.path(), 8);
    for at in 12..header_len(&path) {
        fs::write(&path, &pristine).unwrap();
        flip_byte(&path, at);
        let result = TableFile::open(&rules, &path, 9).and_then(|f| f.read_values(&rules, &lower));
        assert!(result.is_err(), "byte {at} flipped was not noticed");
    }
    fs::write(&path, &pristine).unwrap();
    flip_byte(&path, 2);
    let error = TableFile::open(&rules, &path, 9).unwrap_err();
    assert!(matches!(error, TableError::NotATable { .. }), "{error}");
    assert!(error.to_string().contains("expected magic bytes"), "{error}");
}

#[test]
fn truncated_files_are_refused() {
    let (rules, dir) = built(4, 9);
    let path = tier_path(&rules, dir.path(), 9);
    let pristine = fs::read(&path).unwrap();
    for len in [0, 5, 10, 30, header_len(&path) - 1, header_len(&path) + 3, pristine.len() - 1] {
        fs::write(&path, &pristine[..len]).unwrap();
        let error = TableFile::open(&rules, &path, 9).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("truncated") || text.contains("not an endgame table") || text.contains("unreadable header"), "{len}: {text}");
    }
}

#[test]
fn wrong_version_board_and_tier_are_refused() {
    let (rules, dir) = built(3, 5);
    let path = tier_path(&rules, dir.path(), 5);
    let mut bytes = fs::read(&path).unwrap();
    bytes[8] = 3;
    let other = dir.path().join("v3.dkt");
    fs::write(&other, &bytes).unwrap();
    let error = TableFile::open(&rules, &other, 5).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{}: format version 3, expected 2 or 1 (delete the file and rebuild it with dakon tables build)", other.display())
    );
    // A format 2 file that claims to be format 1 is refused by its codec.
    bytes[8] = 1;
    fs::write(&other, &bytes).unwrap();
    let error = TableFile::open(&rules, &other, 5).unwrap_err();
    assert_eq!(error.to_string(), format!("{}: header says codec 2, expected 1", other.display()));

    let four = Dakon::new(4).unwrap();
    let error = TableFile::open(&four, &path, 5).unwrap_err();
    assert_eq!(error.to_string(), format!("{}: header says rules parameters (holes per row) [3], expected [4]", path.display()));

    let error = TableFile::open(&rules, &path, 4).unwrap_err();
    assert_eq!(error.to_string(), format!("{}: header says tier (seeds on the board) 5, expected 4", path.display()));

    // A 3-hole file under a 4-hole name is refused when loading 4-hole tables.
    let four_dir = tempfile::tempdir().unwrap();
    fs::copy(tier_path(&rules, dir.path(), 0), tier_path(&four, four_dir.path(), 0)).unwrap();
    let error = TableSet::open(&four, four_dir.path()).err().expect("a file of another board is refused");
    assert!(error.to_string().contains("expected [4]"), "{error}");
}

#[test]
fn no_tables_means_none_and_max_seeds_is_the_contiguous_prefix() {
    let (rules, dir) = built(3, 6);
    assert!(TableSet::open(&Dakon::new(5).unwrap(), dir.path()).unwrap().is_none());
    fs::remove_file(tier_path(&rules, dir.path(), 4)).unwrap();
    let tables = TableSet::open(&rules, dir.path()).unwrap().unwrap();
    assert_eq!(tables.max_seeds(), 3);
    assert_eq!(tables.probe(&rules.position_at(5, 0)), None);
}

#[test]
fn tiers_beyond_one_byte_values_are_refused() {
    let rules = Dakon::new(1).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let error = build_tiers(&rules, dir.path(), 128, &BuildOptions::default()).unwrap_err();
    assert_eq!(error.to_string(), "tier 128: values need more than one byte above 127 seeds");
    // Everything below was built and kept.
    assert!(tier_path(&rules, dir.path(), 127).exists());
}
