//! Table file names: one file per rule set, parameters and tier.

use std::path::{Path, PathBuf};

use crate::rules::Rules;

/// The extension of table files.
pub const EXTENSION: &str = "dkt";

/// The file name of tier `seeds`: the rules' name, each parameter, then the tier, e.g.
/// `dakon-7-k12.dkt` for Dakon with 7 holes per row and 12 seeds on the board.
///
/// ```
/// use dakon_solver::dakon::Dakon;
/// use dakon_solver::tables::file_name;
/// assert_eq!(file_name(&Dakon::new(7).unwrap(), 12), "dakon-7-k12.dkt");
/// ```
pub fn file_name<R: Rules>(rules: &R, seeds: u32) -> String {
    let parameters: String = rules.parameters().iter().map(|p| format!("-{p}")).collect();
    format!("{}{parameters}-k{seeds}.{EXTENSION}", rules.name())
}

/// The path of tier `seeds` in `dir`.
pub fn tier_path<R: Rules>(rules: &R, dir: &Path, seeds: u32) -> PathBuf {
    dir.join(file_name(rules, seeds))
}
