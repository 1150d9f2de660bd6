//! One module per subcommand: its arguments and what it does.

pub mod perft;
pub mod play;
pub mod show;
