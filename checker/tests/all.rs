//! The checker's tests: one module per file of this directory, in one test binary, built and
//! linked once rather than once a file. `cargo test --profile ci -p dakon-check --test all
//! walk::` runs one file's tests.

mod common;

mod certificates;
mod cli;
mod fuzz_reader;
mod reference_rules;
mod tamper_at_scale;
mod walk;
mod worked_examples;
