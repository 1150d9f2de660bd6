//! One module per subcommand: its arguments and what it does.

pub mod batch;
pub mod best;
pub mod campaign;
pub mod check;
pub mod db;
pub mod perft;
pub mod play;
pub mod review;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tables;
pub mod verify;
