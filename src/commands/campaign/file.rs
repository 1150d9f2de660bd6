//! The campaign file: its header, its records, appending one durably, and the checks that
//! refuse a damaged file or another campaign's.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::{RuleSet, RulesName};

use super::bounds::Side;
use super::derive::Proven;
use super::record::{Header, Record, VERSION};
use super::tree::Tree;
use crate::cli_error::CliError;
use crate::position_arg::parse_notation;
use crate::records_file::{complete_lines, numbered_lines};

/// A campaign file read into memory.
pub struct CampaignFile {
    pub path: PathBuf,
    pub header: Header,
    /// Every record after the header, with its line number (from 1).
    pub records: Vec<(usize, Record)>,
}

impl CampaignFile {
    /// Opens the campaign file of a run: creates it with `header` if it is missing or empty,
    /// else cuts an unfinished last line off (a run killed while appending) and reads it,
    /// requiring the same campaign (rules, root, depth).
    ///
    /// # Errors
    /// [`CliError::Input`] for a damaged file or another campaign's, [`CliError::Failure`]
    /// if it cannot be read or written.
    pub fn open_for_run(path: &Path, header: Header) -> Result<CampaignFile, CliError> {
        match complete_lines(path)? {
            Some(bytes) if bytes.iter().any(|b| !b.is_ascii_whitespace()) => {
                let file = CampaignFile::parse(path, &bytes)?;
                file.same_campaign(&header)?;
                Ok(file)
            }
            _ => {
                let file = CampaignFile { path: path.to_path_buf(), header: header.clone(), records: Vec::new() };
                file.write_line(&Record::Campaign(header))?;
                Ok(file)
            }
        }
    }

    /// Reads a campaign file without changing it (an unfinished last line is left out).
    ///
    /// # Errors
    /// [`CliError::Input`] for a missing, empty or damaged file, [`CliError::Failure`] if it
    /// cannot be read.
    pub fn read(path: &Path) -> Result<CampaignFile, CliError> {
        let mut bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(CliError::Input(format!("--campaign {}: no such file (a `dakon campaign run` creates it)", path.display())))
            }
            Err(e) => return Err(CliError::Failure(format!("cannot read the campaign file {}: {e}", path.display()))),
        };
        bytes.truncate(bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1));
        CampaignFile::parse(path, &bytes)
    }

    fn parse(path: &Path, bytes: &[u8]) -> Result<CampaignFile, CliError> {
        let mut lines = numbered_lines(bytes).map(|(number, raw)| {
            let record = std::str::from_utf8(raw)
                .map_err(|_| "not text".to_string())
                .and_then(|text| serde_json::from_str::<Record>(text).map_err(|e| format!("not a campaign record ({e})")));
            record.map(|r| (number, r)).map_err(|why| bad_line(path, number, &why))
        });
        let header = match lines.next().transpose()? {
            Some((_, Record::Campaign(header))) => header,
            Some((number, _)) => {
                return Err(bad_line(path, number, "the first record must be the campaign's header (\"record\": \"campaign\")"))
            }
            None => return Err(CliError::Input(format!("--campaign {}: the file is empty", path.display()))),
        };
        if header.version != VERSION {
            return Err(bad_line(path, 1, &format!("campaign file version {}, this program reads version {VERSION}", header.version)));
        }
        let records = lines.collect::<Result<Vec<_>, _>>()?;
        if let Some((number, _)) = records.iter().find(|(_, r)| matches!(r, Record::Campaign(_))) {
            return Err(bad_line(path, *number, "a second campaign header: two campaign files were joined"));
        }
        Ok(CampaignFile { path: path.to_path_buf(), header, records })
    }

    /// # Errors
    /// [`CliError::Input`] saying how the file's campaign differs from `wanted`.
    fn same_campaign(&self, wanted: &Header) -> Result<(), CliError> {
        let h = &self.header;
        let differs = |what: &str, found: &str, asked: &str| {
            CliError::Input(format!(
                "--campaign {}: a campaign of {what} {found}, but this run asks for {asked} (give the options of the campaign, or another file)",
                self.path.display()
            ))
        };
        if h.rules != wanted.rules {
            return Err(differs("the rules", &h.rules, &wanted.rules));
        }
        if h.root != wanted.root {
            return Err(differs("the root", &format!("'{}'", h.root), &format!("'{}'", wanted.root)));
        }
        if h.depth != wanted.depth {
            return Err(differs("depth", &h.depth.to_string(), &format!("--depth {}", wanted.depth)));
        }
        Ok(())
    }

    /// The root position and rules of the campaign.
    ///
    /// # Errors
    /// [`CliError::Input`] if the header names unknown rules or a malformed root.
    pub fn root(&self) -> Result<(Position, RuleSet), CliError> {
        let bad = |why: String| bad_line(&self.path, 1, &why);
        let name: RulesName = self.header.rules.parse().map_err(|e: dakon_solver::ruleset::UnknownRules| bad(e.to_string()))?;
        let root = parse_notation(&self.header.root).map_err(bad)?;
        Ok((root, RuleSet::of(name, &root)))
    }

    /// Checks that every record names the campaign's rules and a position of `tree`, with a
    /// bound inside the position's trivial bounds.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the first line that does not.
    pub fn validate<P>(&self, tree: &Tree<P>) -> Result<(), CliError> {
        for (number, record) in &self.records {
            let bad = |why: String| bad_line(&self.path, *number, &why);
            let rules = record.rules().unwrap_or_default();
            if rules != self.header.rules {
                return Err(bad(format!("a record under the rules {rules}, but the campaign plays {}", self.header.rules)));
            }
            let position = record.position().unwrap_or_default();
            let Some(&node) = tree.nodes_of(position).first() else {
                return Err(bad(format!(
                    "position '{position}' is not in this campaign's tree (root '{}', depth {})",
                    self.header.root, self.header.depth
                )));
            };
            if let Record::Bound(b) = record {
                let trivial = tree.nodes[node].trivial;
                if b.value < trivial.lower || b.value > trivial.upper {
                    return Err(bad(format!(
                        "{} {:+} is outside what the position allows, [{:+}, {:+}]",
                        b.bound.words(),
                        b.value,
                        trivial.lower,
                        trivial.upper
                    )));
                }
            }
        }
        Ok(())
    }

    /// The bounds the records prove for each node of `tree`; the evidence numbers are indices
    /// into [`CampaignFile::records`].
    pub fn proven<P>(&self, tree: &Tree<P>) -> Vec<Proven> {
        let mut proven = vec![Proven::default(); tree.nodes.len()];
        for (n, (_, record)) in self.records.iter().enumerate() {
            if let Record::Bound(b) = record {
                for &node in tree.nodes_of(&b.position) {
                    proven[node].add(b.bound == Side::AtLeast, b.value, n);
                }
            }
        }
        proven
    }

    /// Appends `record` and syncs it to disk before returning: a run killed afterwards keeps it.
    ///
    /// # Errors
    /// [`CliError::Failure`] if the file cannot be written (the record is then not kept).
    pub fn append(&mut self, record: Record) -> Result<(), CliError> {
        self.write_line(&record)?;
        let number = self.records.last().map_or(2, |(n, _)| n + 1);
        self.records.push((number, record));
        Ok(())
    }

    fn write_line(&self, record: &Record) -> Result<(), CliError> {
        let line = serde_json::to_string(record).expect("records are plain data") + "\n";
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut file| file.write_all(line.as_bytes()).and_then(|()| file.sync_data()))
            .map_err(|e| CliError::Failure(format!("cannot append to the campaign file {}: {e}", self.path.display())))
    }
}

fn bad_line(path: &Path, number: usize, why: &str) -> CliError {
    CliError::Input(format!("--campaign {}: line {number}: {why}", path.display()))
}
