//! How much transposition table a search needs at most: the library's rule, which the Python
//! package's `solve_many` shares.

pub use dakon_solver::tt_budget::capped;
