//! `dakon tables build` under `mpirun`, partitioned among the ranks: the files of 1, 2, 3, 4
//! and 8 ranks are those of one process, byte for byte, for Dakon 3 to 7 holes and Kalah 4 to
//! 6; a build whose rank was killed ends with an error and resumes, inside the tier it was
//! building; a memory budget that one process cannot keep, four ranks keep.
//! Needs `--features mpi` and Open MPI's `mpirun` (`.ci/run` installs it).
#![cfg(feature = "mpi")]

use crate::damage::flip_byte;
use crate::mpi_run;

use std::path::{Path, PathBuf};

use mpi_run::{dakon, mpirun, stderr};

/// The boards of the test and their highest tiers: small enough that 40 builds take about a
/// minute, and the top tiers of 6 and 7 holes span several file blocks (the unit each rank
/// owns: 301,056 positions), so that several ranks own part of them.
const BOARDS: [(&str, &str, &str); 8] = [
    ("dakon", "3", "12"),
    ("dakon", "4", "11"),
    ("dakon", "5", "10"),
    ("dakon", "6", "10"),
    ("dakon", "7", "9"),
    ("kalah", "4", "11"),
    ("kalah", "5", "10"),
    ("kalah", "6", "10"),
];

/// The rank counts of the test.
const RANKS: [usize; 5] = [1, 2, 3, 4, 8];

fn build_args<'a>(rules: &'a str, holes: &'a str, max_seeds: &'a str, dir: &'a Path) -> Vec<&'a str> {
    vec![
        "tables",
        "build",
        "--rules",
        rules,
        "--holes",
        holes,
        "--max-seeds",
        max_seeds,
        "--threads",
        "1",
        "--json",
        "--tables-dir",
        dir.to_str().unwrap(),
    ]
}

/// Every file of `dir`, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

fn scratch(name: &str) -> PathBuf {
    mpi_run::scratch("mpi-tables", name)
}

#[test]
fn tables_of_one_to_eight_ranks_are_the_files_of_one_process() {
    for (rules, holes, max_seeds) in BOARDS {
        let alone = scratch(&format!("{rules}-{holes}-alone"));
        let out = dakon(&build_args(rules, holes, max_seeds, &alone));
        assert!(out.status.success(), "{}", stderr(&out));
        let expected = tier_files(&alone);
        assert_eq!(expected.len(), max_seeds.parse::<usize>().unwrap() + 1);
        for ranks in RANKS {
            let dir = scratch(&format!("{rules}-{holes}-np{ranks}"));
            let out = mpirun(ranks, &build_args(rules, holes, max_seeds, &dir));
            assert!(out.status.success(), "{rules} {holes} holes, {ranks} ranks: {}", stderr(&out));
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object, from rank 0 only");
            if ranks > 1 {
                let exchange = &report["exchange"];
                assert_eq!(exchange["ranks"], ranks);
                let per_rank = exchange["per_rank"].as_array().unwrap();
                assert_eq!(per_rank.len(), ranks);
                assert!(per_rank.iter().all(|r| r["peak_rss_bytes"].as_u64().unwrap() > 0), "{exchange}");
                // The top tiers of 6 and 7 holes are split: their ranks ask each other.
                if holes.parse::<u32>().unwrap() >= 6 {
                    assert!(exchange["sent_bytes"].as_u64().unwrap() > 0, "{exchange}");
                }
            } else {
                assert!(report.get("exchange").is_none(), "one rank builds as one process");
            }
            assert!(tier_files(&dir) == expected, "{rules} {holes} holes, {ranks} ranks: the files differ from one process's");
        }
    }
}

#[test]
fn a_killed_rank_ends_the_build_with_an_error_and_the_rerun_resumes() {
    let (rules, holes, max_seeds) = ("dakon", "5", "15");
    let alone = scratch("killed-alone");
    assert!(dakon(&build_args(rules, holes, max_seeds, &alone)).status.success());
    let dir = scratch("killed");
    let child = mpi_run::spawn_mpirun(3, &build_args(rules, holes, max_seeds, &dir));
    // Kill rank 1 once some tiers are written and before the last is.
    let killed = std::cell::Cell::new(0);
    let out = mpi_run::kill_rank_when(child, 1, || {
        let written =
            std::fs::read_dir(&dir).map_or(0, |d| d.filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "dkt")).count());
        killed.set(written);
        written >= 10
    });
    let killed = killed.get();
    assert!(!out.status.success(), "a build with a dead rank must fail");
    let message = stderr(&out);
    assert!(message.contains("rank 1") || message.contains("signal 9") || message.contains("killed"), "no clear message: {message}");
    let kept = files(&dir).into_iter().filter(|(name, _)| name.ends_with(".dkt")).count();
    assert!(kept >= killed && kept <= 16, "kept {kept} tiers");
    assert!(kept < 16, "rank 1 was killed after the last tier: use a larger build");
    // The rerun keeps what was written and builds the rest, the files of one process.
    let out = mpirun(3, &build_args(rules, holes, max_seeds, &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let present = report["tiers"].as_array().unwrap().iter().filter(|t| t["built"] == false).count();
    assert_eq!(present, kept, "the rerun resumes after the tiers kept");
    let dkt = |dir: &Path| files(dir).into_iter().filter(|(name, _)| name.ends_with(".dkt")).collect::<Vec<_>>();
    assert!(dkt(&dir) == dkt(&alone), "the resumed files differ from one process's");
}

#[test]
fn ranks_that_see_different_directories_are_told_so() {
    // Each rank's own directory (as without a shared file system): rank 0's already holds
    // tiers 0..=5, so rank 0 starts at tier 6 while the others start at tier 0.
    let root = scratch("unshared");
    let seeded = root.join("rank0");
    assert!(dakon(&build_args("dakon", "3", "5", &seeded)).status.success());
    let script = format!(
        "if [ \"$OMPI_COMM_WORLD_RANK\" = 0 ]; then d={0}/rank0; else d={0}/rank$OMPI_COMM_WORLD_RANK; fi; exec {1} tables build --holes 3 --max-seeds 8 --threads 1 --tables-dir $d",
        root.display(),
        env!("CARGO_BIN_EXE_dakon")
    );
    let out = mpi_run::mpirun_program(2, "sh", &["-c", &script]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("same tables directory"), "{}", stderr(&out));
}

/// `build_args` with a checkpoint at every level.
fn checkpointed<'a>(rules: &'a str, holes: &'a str, max_seeds: &'a str, dir: &'a Path) -> Vec<&'a str> {
    let mut args = build_args(rules, holes, max_seeds, dir);
    args.extend(["--checkpoint-seconds", "0"]);
    args
}

/// The level of the checkpoint manifest of `file` (a tier file's name) in `dir`, if any.
fn checkpoint_level(dir: &Path, file: &str) -> Option<u32> {
    let text = std::fs::read_to_string(dir.join(format!("{file}.ckpt"))).ok()?;
    text.lines().find_map(|l| l.strip_prefix("level ")?.trim().parse().ok())
}

/// The `.dkt` files of `dir`, by name, with their bytes: the tables themselves (a one-process
/// build also writes memory images, `.dkm`, a cache of its own in-memory form).
fn tier_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir).into_iter().filter(|(name, _)| name.ends_with(".dkt")).collect()
}

/// The names of the checkpoint files (and unfinished ones) in `dir`.
fn checkpoint_files(dir: &Path) -> Vec<String> {
    files(dir).into_iter().map(|(name, _)| name).filter(|name| name.contains(".ckpt")).collect()
}

#[test]
fn a_rank_killed_inside_a_tier_resumes_there_and_another_rank_count_restarts_it() {
    let (rules, holes, max_seeds) = ("dakon", "6", "12");
    let alone = scratch("resume-alone");
    assert!(dakon(&build_args(rules, holes, max_seeds, &alone)).status.success());
    let top = "dakon-6-k12.dkt";
    let dir = scratch("resume");
    // Killed once tier 12 has a checkpoint past its tenth level (of about seventy).
    let killed_at = std::cell::Cell::new(0);
    let child = mpi_run::spawn_mpirun(3, &checkpointed(rules, holes, max_seeds, &dir));
    let out = mpi_run::kill_rank_when(child, 1, || {
        let level = checkpoint_level(&dir, top).unwrap_or(0);
        killed_at.set(level);
        level >= 10
    });
    assert!(!out.status.success(), "a build with a dead rank must fail");
    assert!(!dir.join(top).exists(), "rank 1 was killed after the last tier was written");
    let checkpoint = checkpoint_level(&dir, top).expect("the checkpoint stays");
    assert!(checkpoint >= killed_at.get());
    // A kill between the manifest's move to this level and the ranks' removal of the level
    // before leaves that level's files too (the kill above lands there at times): made sure.
    let stale = dir.join(format!("{top}.rank0of3.level{}.ckpt", checkpoint - 1));
    if !stale.exists() {
        std::fs::copy(dir.join(format!("{top}.rank0of3.level{checkpoint}.ckpt")), &stale).unwrap();
    }
    // The same rank count resumes inside tier 12, at the checkpoint's level (without a
    // checkpoint a level, which only the killed runs need).
    let out = mpirun(3, &build_args(rules, holes, max_seeds, &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("resumed tier 12 at level {checkpoint} of")), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["exchange"]["resumed"], serde_json::json!([{ "tier": 12, "level": checkpoint }]));
    assert!(tier_files(&dir) == tier_files(&alone), "the resumed files differ from one process's");
    assert_eq!(checkpoint_files(&dir), Vec::<String>::new(), "checkpoints left behind");

    // Another rank count says that the tier restarts, builds the same files and removes the
    // checkpoints of the killed run.
    std::fs::remove_file(dir.join(top)).unwrap();
    let child = mpi_run::spawn_mpirun(3, &checkpointed(rules, holes, max_seeds, &dir));
    let out = mpi_run::kill_rank_when(child, 2, || checkpoint_level(&dir, top).unwrap_or(0) >= 5);
    assert!(!out.status.success());
    assert!(!dir.join(top).exists(), "rank 2 was killed after the last tier was written");
    let out = mpirun(2, &build_args(rules, holes, max_seeds, &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("this run has 2 ranks: tier 12 restarts from its first level"), "{}", stderr(&out));
    assert!(tier_files(&dir) == tier_files(&alone), "the restarted files differ from one process's");
    assert_eq!(checkpoint_files(&dir), Vec::<String>::new(), "the killed run's checkpoints left behind");
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused_with_its_file_and_why() {
    let (rules, holes, max_seeds) = ("dakon", "6", "11");
    let dir = scratch("bad-checkpoint");
    let top = "dakon-6-k11.dkt";
    let child = mpi_run::spawn_mpirun(2, &checkpointed(rules, holes, max_seeds, &dir));
    let out = mpi_run::kill_rank_when(child, 0, || checkpoint_level(&dir, top).unwrap_or(0) >= 5);
    assert!(!out.status.success());
    let level = checkpoint_level(&dir, top).unwrap();
    let rank_file = dir.join(format!("{top}.rank1of2.level{level}.ckpt"));
    let bytes = std::fs::read(&rank_file).unwrap();
    // Truncated.
    std::fs::write(&rank_file, &bytes[..bytes.len() - 7]).unwrap();
    let out = mpirun(2, &checkpointed(rules, holes, max_seeds, &dir));
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(message.contains(&rank_file.display().to_string()) && message.contains("truncated"), "{message}");
    // Another build's manifest.
    std::fs::write(&rank_file, &bytes).unwrap();
    let manifest = dir.join(format!("{top}.ckpt"));
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("tier 11", "tier 10")).unwrap();
    let out = mpirun(2, &checkpointed(rules, holes, max_seeds, &dir));
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(message.contains(&manifest.display().to_string()) && message.contains("a checkpoint of"), "{message}");
    // Put back, the build resumes and finishes.
    std::fs::write(&manifest, text).unwrap();
    let out = mpirun(2, &build_args(rules, holes, max_seeds, &dir));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("resumed tier 11 at level {level} of")), "{}", stderr(&out));
    assert_eq!(checkpoint_files(&dir), Vec::<String>::new(), "checkpoints left behind");
}

/// A copy of the one-process build in `from` without its top tier `top` (its table and
/// memory image), so that a build of `dir` reads the lower tiers and only checks and builds
/// the top one.
fn without_top_tier(from: &Path, top: &str, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in files(from).into_iter().filter(|(name, _)| !name.starts_with(top)) {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

#[test]
fn ranks_read_the_lower_tiers_from_their_memory_images_and_decode_when_one_is_wrong() {
    // Tiers 11 and 12 of 6 holes span several blocks, so that each rank reads its own.
    let (rules, holes, max_seeds, top) = ("kalah", "6", "12", "kalah-6-k12.");
    let alone = scratch("images-reference");
    assert!(dakon(&build_args(rules, holes, max_seeds, &alone)).status.success());
    // With the images, a table file whose values no longer decode (its last byte changed) is
    // not decoded; with an image whose values are wrong, the ranks decode the file instead.
    let last_byte: fn(usize) -> usize = |len| len - 1;
    let middle_byte: fn(usize) -> usize = |len| len / 2;
    for (damaged, name, at) in [("a table file's values", "kalah-6-k11.dkt", last_byte), ("an image", "kalah-6-k11.dkm", middle_byte)] {
        let dir = scratch(&format!("images-{name}"));
        without_top_tier(&alone, top, &dir);
        flip_byte(&dir.join(name), at);
        let out = mpirun(3, &build_args(rules, holes, max_seeds, &dir));
        assert!(out.status.success(), "damaged {damaged}: {}", stderr(&out));
        let built = |dir: &Path| files(dir).into_iter().find(|(file, _)| file == &format!("{top}dkt")).map(|(_, bytes)| bytes);
        assert!(built(&dir) == built(&alone), "damaged {damaged}: the top tier differs from one process's");
    }
}

/// The MiB a refused build's message says it needs: the number after `needs about `.
fn needed_mib(message: &str) -> u64 {
    let after = message.split("needs about ").nth(1).unwrap_or_else(|| panic!("no estimate in: {message}"));
    after.split(' ').next().unwrap().parse().unwrap_or_else(|_| panic!("no estimate in: {message}"))
}

/// `args` with `--memory-mb mib`, owned.
fn capped(args: Vec<&str>, mib: u64) -> Vec<String> {
    args.into_iter().map(String::from).chain(["--memory-mb".into(), mib.to_string()]).collect()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_budget_one_process_refuses_four_ranks_keep() {
    // Large enough that the tiers, not the program, weigh most in one process. The lower
    // tiers come from one build, so each capped run loads them and builds only tier 17; the
    // budget comes from one process's estimate for that tier, and the ranks' measured peaks
    // must keep it.
    let (rules, holes, max_seeds, top) = ("kalah", "6", "17", "kalah-6-k17.");
    let alone = scratch("budget-reference");
    assert!(dakon(&build_args(rules, holes, max_seeds, &alone)).status.success());
    let lower = |name: &str| {
        let dir = scratch(name);
        without_top_tier(&alone, top, &dir);
        dir
    };

    let probe = lower("budget-probe-np1");
    let out = dakon(&strs(&capped(build_args(rules, holes, max_seeds, &probe), 1)));
    assert!(!out.status.success(), "one process kept --memory-mb 1");
    let one_process = needed_mib(&stderr(&out));
    // Just under one process's estimate (which a run's resident memory moves by well under a
    // MiB).
    let budget = one_process - 2;

    let one = lower("budget-capped-np1");
    let out = dakon(&strs(&capped(build_args(rules, holes, max_seeds, &one), budget)));
    assert!(!out.status.success(), "one process kept --memory-mb {budget}");
    let message = stderr(&out);
    assert!(message.contains(&format!("over --memory-mb {budget}")) && message.contains("mpirun -np"), "{message}");
    assert!(!one.join(format!("{top}dkt")).exists(), "one process wrote the tier it refused");

    let four = lower("budget-capped-np4");
    let out = mpirun(4, &strs(&capped(build_args(rules, holes, max_seeds, &four), budget)));
    assert!(out.status.success(), "four ranks refused --memory-mb {budget}: {}", stderr(&out));
    assert!(tier_files(&four) == tier_files(&alone), "the files of the capped build differ from one process's");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let peak_mib = report["exchange"]["max_peak_rss_bytes"].as_u64().unwrap() >> 20;
    assert!(peak_mib <= budget, "a rank's peak, {peak_mib} MiB, passed --memory-mb {budget}");
    let a_rank = report["exchange"]["max_estimated_bytes"].as_u64().expect("the ranks' estimate under --memory-mb").div_ceil(1 << 20);
    assert!(a_rank < one_process, "a rank of four needs {a_rank} MiB, one process {one_process}");
    assert!(a_rank <= peak_mib + 8, "a rank was estimated at {a_rank} MiB and peaked at {peak_mib}");
}
