//! The MPI tests (`--features mpi`, Open MPI's `mpirun`; `scripts/test` installs it): one
//! module per file, in one test binary.
#![cfg(feature = "mpi")]

// The helpers the files share; each binary uses only part of them.
#[path = "../solver/tests/damage.rs"]
mod damage;
#[allow(dead_code, unused_imports)]
mod memo_minimax;
mod mpi_run;
#[path = "../solver/tests/reference/mod.rs"]
mod reference;
#[allow(dead_code)]
mod run_dakon;

mod mpi_batch;
mod mpi_solve;
mod mpi_tables;
mod mpi_verify;
