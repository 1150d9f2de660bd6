//! The program's end-to-end tests (the MPI ones are in `mpi.rs`): one module per file of this
//! directory, in one test binary, built and linked once rather than once a file.
//! `cargo test --profile ci --test all cli_batch::` runs one file's tests.

// The helpers the files share; each binary uses only part of them.
#[allow(dead_code, unused_imports)]
mod memo_minimax;
#[path = "../solver/tests/reference/mod.rs"]
mod reference;
#[allow(dead_code)]
mod run_dakon;
#[allow(dead_code)]
mod server;

mod certificate_first_turn;
mod certificate_tampering;
mod certificate_variants;
mod certificates;
mod checker_rules_vs_engine;
mod cli_batch;
mod cli_campaign;
mod cli_certificates;
mod cli_first_turn;
mod cli_game;
mod cli_review;
mod cli_rules;
mod cli_search;
mod cli_tables;
mod cli_variants;
mod cli_verify;
mod serve_api;
mod serve_browser;
mod serve_db;
mod serve_load;
mod serve_tables;
mod variant_atlas;

/// Every test file of the workspace's packages is a module of its package's test binary: with
/// `autotests = false`, a file left out of the list would never run.
#[test]
fn every_test_file_is_a_module_of_a_test_binary() {
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, roots) in [("tests", &["all.rs", "mpi.rs"][..]), ("solver/tests", &["all.rs"][..]), ("checker/tests", &["all.rs"][..])] {
        let dir = workspace.join(dir);
        let declared: String = roots.iter().map(|root| std::fs::read_to_string(dir.join(root)).unwrap()).collect();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if let Some(module) = name.strip_suffix(".rs").filter(|_| !roots.contains(&name.as_str())) {
                assert!(
                    declared.lines().any(|line| line == format!("mod {module};")),
                    "{}/{name} is not a module of a test binary",
                    dir.display()
                );
            }
        }
    }
}
