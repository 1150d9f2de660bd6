//! The library's tests: one module per file of this directory, in one test binary, built and
//! linked once rather than once a file. `cargo test --profile ci -p dakon-solver --test all
//! perft::` runs one file's tests.

// The helpers the files share: a plain minimax, random positions, the rules reference, a
// file damaged on purpose.
mod damage;
#[allow(dead_code)]
mod minimax;
#[allow(dead_code)]
mod random;
mod reference;

mod first_turn_capture;
mod kalah_search_exact;
mod kalah_tables;
mod kalah_worked_examples;
mod notation_errors;
mod opening_turns;
mod perft;
mod properties;
mod reference_vs_engine;
mod search_exact;
mod start_position;
mod tables_exhaustive;
mod tables_files;
mod tables_formats;
mod tables_images;
mod tables_resume;
mod tables_search;
mod value_parity;
mod worked_examples;
