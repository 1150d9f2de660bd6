//! `--resume`: what an earlier, interrupted run of the same batch already wrote.

use std::collections::BTreeMap;
use std::path::Path;

use dakon_solver::ruleset::RulesName;
use serde_json::Value;

use super::input::Item;
use crate::cli_error::CliError;
use crate::records_file::{complete_lines, numbered_lines};

/// The input lines already answered in the output file `path`, each with whether its record
/// is an error record. An unfinished last line (the run was killed while writing it) is cut
/// off the file, so that the new records follow complete ones. A missing file answers
/// nothing.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be read or cut; [`CliError::Input`] if a complete
/// line is not a record of this batch (another input's output, another rule set's, or a
/// damaged file; a record that names no rules is Dakon's, as batch wrote before it named them).
pub fn answered(path: &Path, items: &[Item], rules: RulesName) -> Result<BTreeMap<u64, bool>, CliError> {
    let Some(bytes) = complete_lines(path)? else { return Ok(BTreeMap::new()) };
    let inputs: BTreeMap<u64, &Item> = items.iter().map(|item| (item.line, item)).collect();
    let mut answered = BTreeMap::new();
    for (number, raw) in numbered_lines(&bytes) {
        let bad = |why: String| CliError::Input(format!("--resume: line {number} of {}: {why}", path.display()));
        let record: Value = serde_json::from_slice(raw).map_err(|e| bad(format!("not a JSON record ({e})")))?;
        let line = record["line"].as_u64().ok_or_else(|| bad("no input line number".to_string()))?;
        let written_under = record.get("rules").map_or(Some(RulesName::DAKON.as_str()), Value::as_str);
        if written_under != Some(rules.as_str()) {
            return Err(bad(format!(
                "written under the {} rules, but this run plays {rules}; resume with the same --rules",
                written_under.unwrap_or("(unreadable)")
            )));
        }
        let item = inputs.get(&line).ok_or_else(|| bad(format!("answers input line {line}, which holds no position in this input")))?;
        let failed = record.get("error").is_some();
        let (field, expected) = match &item.position {
            Ok(position) if !failed => ("position", position.to_string()),
            _ => ("input", item.text.clone()),
        };
        if record[field].as_str() != Some(expected.as_str()) {
            return Err(bad(format!("answers input line {line} with {field} {}, but that line is now '{}'", record[field], item.text)));
        }
        answered.insert(line, failed);
    }
    Ok(answered)
}
