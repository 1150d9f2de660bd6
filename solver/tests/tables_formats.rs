//! Format 2 files and the compact in-memory tiers against format 1 files (made by the program
//! before format 2, kept in `tests/data/tables-v1/`) and the plain byte arrays: every position
//! of tiers 0..=9 of the 3-hole board, for every rule set; the memory bound; background loading;
//! the tiers a build hands the search without decoding its files.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::tables::{
    build_and_load, build_tiers, tier_path, write_table, BuildOptions, CompactTier, LoadOptions, TableError, TableFile, TableSet,
    TierValues,
};
use dakon_solver::tier_layout::TierLayout;

const TOP: u32 = 9;

fn version_1_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tables-v1")
}

fn built(rules: &RuleSet) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build_tiers(rules, dir.path(), TOP, &BuildOptions { threads: 2, ..BuildOptions::default() }).unwrap();
    dir
}

#[test]
fn version_2_files_and_compact_tiers_hold_the_values_of_version_1_files() {
    for name in RulesName::ALL {
        let rules = RuleSet::new(name, 3).unwrap();
        let dir = built(&rules);
        let mut lower: Vec<Vec<u8>> = Vec::new();
        for k in 0..=TOP {
            let old_file = TableFile::open(&rules, &tier_path(&rules, &version_1_dir(), k), k).unwrap();
            let new_file = TableFile::open(&rules, &tier_path(&rules, dir.path(), k), k).unwrap();
            assert_eq!((old_file.header().version, new_file.header().version), (1, 2), "{name} tier {k}");
            let old = old_file.read_values(&rules, &lower).unwrap();
            assert_eq!(new_file.read_values(&rules, &lower).unwrap(), old, "{name} tier {k}");
            for compact in [
                new_file.read_compact(&rules, &lower).unwrap(),
                old_file.read_compact(&rules, &lower).unwrap(),
                CompactTier::from_values(k, &old).unwrap(),
            ] {
                assert_eq!(compact.entries(), old.len() as u64);
                for (index, &value) in old.iter().enumerate() {
                    assert_eq!(compact.value_at(index as u64), value as i8, "{name} tier {k} index {index}");
                }
            }
            for index in (0..old.len() as u64).step_by(7) {
                assert_eq!(new_file.value(&rules, index, &lower).unwrap(), old[index as usize] as i8, "{name} tier {k} index {index}");
            }
            // The writer alone, given the values and the lower tiers, writes the builder's bytes (the
            // builder takes the residuals from its solve's marks, the writer from the lower tiers).
            let copy = dir.path().join("copy.dkt");
            write_table(&rules, &copy, k, &old, &lower).unwrap();
            assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(new_file.path()).unwrap(), "{name} tier {k}");
            lower.push(old);
        }
        let (old_set, new_set) =
            (TableSet::open(&rules, &version_1_dir()).unwrap().unwrap(), TableSet::open(&rules, dir.path()).unwrap().unwrap());
        for (k, values) in lower.iter().enumerate() {
            for (index, &value) in values.iter().enumerate() {
                let expected = Some(value as i8 as i32);
                assert_eq!((old_set.value(k as u32, index as u64), new_set.value(k as u32, index as u64)), (expected, expected));
            }
        }
    }
}

#[test]
fn version_2_files_are_smaller_than_version_1_files() {
    let rules = RuleSet::new(RulesName::DAKON, 3).unwrap();
    let dir = built(&rules);
    let size = |d: &Path, k| std::fs::metadata(tier_path(&rules, d, k)).unwrap().len();
    assert!(
        size(dir.path(), TOP) < size(&version_1_dir(), TOP),
        "{} bytes, version 1: {}",
        size(dir.path(), TOP),
        size(&version_1_dir(), TOP)
    );
}

#[test]
fn values_that_contradict_the_lower_tiers_and_missing_lower_tiers_are_refused() {
    let rules = RuleSet::new(RulesName::DAKON, 3).unwrap();
    let dir = built(&rules);
    let lower: Vec<Vec<u8>> =
        (0..6).map(|k| TableFile::open(&rules, &tier_path(&rules, dir.path(), k), k).unwrap()).fold(Vec::new(), |mut acc, f| {
            let values = f.read_values(&rules, &acc).unwrap();
            acc.push(values);
            acc
        });
    let wrong = vec![0u8; rules.tier_size(6) as usize]; // 0 has the wrong parity... of nothing: tier 6 is even, so some contradict
    let error = write_table(&rules, &dir.path().join("wrong.dkt"), 6, &wrong, &lower).unwrap_err();
    assert!(matches!(error, TableError::Inconsistent { seeds: 6, .. }), "{error}");
    assert!(error.to_string().starts_with("tier 6: not a solved tier: position "), "{error}");
    let error = write_table(&rules, &dir.path().join("wrong.dkt"), 6, &wrong, &lower[..5]).unwrap_err();
    assert_eq!(error.to_string(), "tier 6: not a solved tier: tiers 0..6 needed, 5 given");

    let file = TableFile::open(&rules, &tier_path(&rules, dir.path(), 6), 6).unwrap();
    let error = file.read_values(&rules, &lower[..4]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "{}: a format 2 table decodes against tiers 0..6 of its board, found only tiers 0..4 (build them with dakon tables build)",
            file.path().display()
        )
    );
    // A gap in the tiers: the tiers above it are not loaded, as before.
    std::fs::remove_file(tier_path(&rules, dir.path(), 4)).unwrap();
    assert_eq!(TableSet::open(&rules, dir.path()).unwrap().unwrap().loaded_tiers().len(), 4);
}

#[test]
fn a_memory_bound_loads_the_tiers_that_fit_and_says_which_are_left_out() {
    let rules = RuleSet::new(RulesName::DAKON, 3).unwrap();
    let dir = built(&rules);
    let full = TableSet::open(&rules, dir.path()).unwrap().unwrap();
    let lines = |top: u32| (0..=top).map(|k| CompactTier::line_bytes(rules.tier_size(k))).sum::<u64>();
    let options = LoadOptions { max_bytes: Some(lines(5) + 10), ..LoadOptions::default() };
    let (tables, plan) = TableSet::open_with(&rules, dir.path(), &options).unwrap().unwrap();
    assert_eq!((plan.loaded, plan.beyond_bound), (6, 4));
    assert_eq!(plan.positions, (0..=5).map(|k| rules.tier_size(k)).sum::<u64>());
    assert!(tables.bytes() <= lines(5) + 10);
    assert_eq!(tables.value(5, 3), full.value(5, 3));
    assert_eq!(tables.value(6, 0), None);
    // The lines fit, the exceptions on top do not: refused while loading, naming the bound.
    assert!(full.bytes() > lines(TOP), "tier {TOP} of 3 holes has exceptions");
    let options = LoadOptions { max_bytes: Some(lines(TOP)), ..LoadOptions::default() };
    let error = TableSet::open_with(&rules, dir.path(), &options).err().unwrap();
    assert!(matches!(error, TableError::OverBound { .. }), "{error}");
    assert!(error.to_string().contains(&format!("over the bound of {}", lines(TOP))), "{error}");
}

#[test]
fn tiers_loaded_in_the_background_answer_once_loaded() {
    for name in RulesName::ALL {
        let rules = RuleSet::new(name, 3).unwrap();
        let dir = built(&rules);
        let full = TableSet::open(&rules, dir.path()).unwrap().unwrap();
        let (tables, plan) = TableSet::open_in_background(&rules, dir.path(), &LoadOptions::default(), |e| panic!("{e}")).unwrap().unwrap();
        assert_eq!((plan.loaded, plan.beyond_bound), (TOP + 1, 0));
        let started = Instant::now();
        while !tables.is_loaded() {
            assert!(started.elapsed() < Duration::from_secs(60), "the tables did not load");
            std::thread::sleep(Duration::from_millis(5));
        }
        for k in 0..=TOP {
            for index in 0..rules.tier_size(k) {
                assert_eq!(tables.value(k, index), full.value(k, index));
            }
        }
    }
}

#[test]
fn tiers_kept_from_a_build_answer_as_the_files_it_wrote() {
    for name in RulesName::ALL {
        let rules = RuleSet::new(name, 3).unwrap();
        let reference = built(&rules);
        let from_files = TableSet::open(&rules, reference.path()).unwrap().unwrap();
        let options = BuildOptions { threads: 2, ..BuildOptions::default() };
        // From nothing, and on top of tiers 0..=4 already on disk (read, not built).
        let (empty, half) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        build_tiers(&rules, half.path(), 4, &options).unwrap();
        for (dir, built_now) in [(&empty, TOP + 1), (&half, TOP - 4)] {
            let (report, kept) = build_and_load(&rules, dir.path(), TOP, &options).unwrap();
            let kept = kept.expect("not interrupted");
            assert_eq!((report.tiers.len(), report.tiers.iter().filter(|t| t.built).count()), ((TOP + 1) as usize, built_now as usize));
            for k in 0..=TOP {
                let file = tier_path(&rules, dir.path(), k);
                assert_eq!(
                    std::fs::read(&file).unwrap(),
                    std::fs::read(tier_path(&rules, reference.path(), k)).unwrap(),
                    "{name} tier {k}"
                );
                for index in 0..rules.tier_size(k) {
                    assert_eq!(kept.value(k, index), from_files.value(k, index), "{name} tier {k} index {index}");
                    assert!(kept.value(k, index).is_some());
                }
            }
            assert_eq!(kept.value(TOP + 1, 0), None);
        }
    }
}
