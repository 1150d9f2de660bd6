//! The results database: every exact value and proven bound that `serve`, `solve`, `best` and
//! `batch` compute, kept in one SQLite file (bundled SQLite, WAL mode) keyed by rules and
//! position (its holes and mover: future gains do not depend on the stores), with how it was
//! proven and what it cost.
//!
//! Writes merge: a row's bounds only narrow (both the old and the new bounds are proofs, so
//! their intersection holds), its cost adds up, and its line is the newest exact one. Each
//! [`ResultsDb::record`] is one transaction: a process killed while writing (kill -9) loses at
//! most that transaction, never the file (SQLite's write-ahead log).

mod entry;
mod moves;
mod search;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use dakon_solver::dakon::Position;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

pub use entry::{key_of, Bounds, Entry, Proof};
pub use moves::{entries_of, prior_of, Prior, Proved};
#[cfg(feature = "mpi")]
pub use search::prior_or_nothing;
#[cfg(feature = "mpi")]
pub use search::solve_kept_by;
pub use search::{analyse_moves_kept, keep, solve_kept};

/// `PRAGMA application_id` of a results database: "DAKR".
const APPLICATION_ID: i32 = 0x4441_4b52;
/// `PRAGMA user_version`: the schema below.
const SCHEMA_VERSION: i32 = 1;
/// How long a writer waits for another process's write to end.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

const SCHEMA: &str = "CREATE TABLE results (
    rules TEXT NOT NULL,
    position TEXT NOT NULL,
    lower INTEGER NOT NULL,
    upper INTEGER NOT NULL,
    pv TEXT NOT NULL,
    proof TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (rules, position)
) WITHOUT ROWID";

/// What the database holds about one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    pub bounds: Bounds,
    /// A best line (mover-relative moves), each move proven optimal; empty if none is kept.
    pub pv: Vec<u8>,
    pub proof: Proof,
    pub nodes: u64,
    pub seconds: f64,
}

/// An open results database, shared by the threads of one process.
pub struct ResultsDb {
    path: PathBuf,
    connection: Mutex<Connection>,
}

/// What [`ResultsDb::record`] did.
#[derive(Debug, Default)]
pub struct Recorded {
    /// Rows written (new or narrowed).
    pub written: usize,
    /// Entries refused because they contradict what the database holds (a wrong proof on
    /// one side), each described.
    pub contradictions: Vec<String>,
}

/// How many rows, of which exact, per rule set and proof.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub rules: String,
    pub proof: String,
    pub rows: u64,
    pub exact: u64,
    pub nodes: u64,
    pub seconds: f64,
}

impl ResultsDb {
    /// Opens the database at `path`, creating it (and the schema) if it does not exist.
    ///
    /// # Errors
    /// A message naming the file if it cannot be opened or created, is not an SQLite
    /// database, or is one of another program or of a newer schema.
    pub fn open(path: &Path) -> Result<ResultsDb, String> {
        let fail = |e: rusqlite::Error| format!("results database {}: {e}", path.display());
        let connection = Connection::open(path).map_err(fail)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        let id: i32 = connection.pragma_query_value(None, "application_id", |row| row.get(0)).map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                format!("{} is not a results database (not an SQLite file); name another file with --db", path.display())
            }
            e => fail(e),
        })?;
        if id == 0 {
            let tables: i64 = connection.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0)).map_err(fail)?;
            if tables > 0 {
                return Err(format!(
                    "{} is an SQLite database of another program, not dakon's results; name another file with --db",
                    path.display()
                ));
            }
            connection
                .execute_batch(&format!(
                    "PRAGMA journal_mode = WAL; BEGIN IMMEDIATE; {SCHEMA}; PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
                ))
                .map_err(fail)?;
        } else if id != APPLICATION_ID {
            return Err(format!(
                "{} is an SQLite database of another program, not dakon's results; name another file with --db",
                path.display()
            ));
        } else {
            let version: i32 = connection.pragma_query_value(None, "user_version", |row| row.get(0)).map_err(fail)?;
            if version != SCHEMA_VERSION {
                return Err(format!(
                    "{} has results schema {version}, this program reads {SCHEMA_VERSION}; use the dakon that wrote it, or another file",
                    path.display()
                ));
            }
        }
        // WAL survives a killed process without losing a committed write; NORMAL syncs at
        // checkpoints, which a power cut (not a kill) could cost the last writes of.
        connection.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;").map_err(fail)?;
        Ok(ResultsDb { path: path.to_path_buf(), connection: Mutex::new(connection) })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.connection.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn failure(&self, e: rusqlite::Error) -> String {
        format!("results database {}: {e}", self.path.display())
    }

    /// What is known about each of `positions` under `rules`, in their order.
    ///
    /// # Errors
    /// A message if the file cannot be read.
    pub fn lookup(&self, rules: &str, positions: &[Position]) -> Result<Vec<Option<Known>>, String> {
        let connection = self.lock();
        let mut select = connection
            .prepare_cached("SELECT lower, upper, pv, proof, nodes, seconds FROM results WHERE rules = ?1 AND position = ?2")
            .map_err(|e| self.failure(e))?;
        positions
            .iter()
            .map(|position| {
                select
                    .query_row(params![rules, key_of(position)], |row| {
                        let pv: String = row.get(2)?;
                        let proof: String = row.get(3)?;
                        Ok(Known {
                            bounds: Bounds { lower: row.get(0)?, upper: row.get(1)? },
                            pv: parse_line(&pv),
                            proof: Proof::named(&proof).unwrap_or(Proof::Search),
                            nodes: row.get::<_, i64>(4)? as u64,
                            seconds: row.get(5)?,
                        })
                    })
                    .optional()
                    .map_err(|e| self.failure(e))
            })
            .collect()
    }

    /// Merges `entries` into the database in one transaction (see the module
    /// documentation).
    ///
    /// # Errors
    /// A message if the file cannot be written (full disk, read-only, locked too long).
    pub fn record(&self, entries: &[Entry]) -> Result<Recorded, String> {
        let mut connection = self.lock();
        let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(|e| self.failure(e))?;
        let mut recorded = Recorded::default();
        {
            let mut select = transaction
                .prepare_cached("SELECT lower, upper, pv, proof, nodes, seconds FROM results WHERE rules = ?1 AND position = ?2")
                .map_err(|e| self.failure(e))?;
            let mut upsert = transaction
                .prepare_cached(
                    "INSERT OR REPLACE INTO results (rules, position, lower, upper, pv, proof, nodes, seconds, updated)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, unixepoch())",
                )
                .map_err(|e| self.failure(e))?;
            for entry in entries {
                let key = key_of(&entry.position);
                let old = select
                    .query_row(params![entry.rules, key], |row| {
                        Ok((
                            Bounds { lower: row.get(0)?, upper: row.get(1)? },
                            row.get::<_, String>(2)?,
                            row.get::<_, String>(3)?,
                            row.get::<_, i64>(4)?,
                            row.get::<_, f64>(5)?,
                        ))
                    })
                    .optional()
                    .map_err(|e| self.failure(e))?;
                let new_line = if entry.bounds.is_exact() { format_line(&entry.pv) } else { String::new() };
                let (bounds, pv, proof, nodes, seconds) = match old {
                    None => (entry.bounds, new_line, entry.proof.as_str().to_string(), entry.nodes as i64, entry.seconds),
                    Some((bounds, pv, proof, nodes, seconds)) => {
                        let Some(merged) = bounds.intersect(&entry.bounds) else {
                            recorded.contradictions.push(format!(
                                "{} {key}: the database holds [{}, {}] ({proof}), the new result [{}, {}] ({})",
                                entry.rules,
                                bounds.lower,
                                bounds.upper,
                                entry.bounds.lower,
                                entry.bounds.upper,
                                entry.proof.as_str()
                            ));
                            continue;
                        };
                        // The proof named is the one that gave the tighter bounds.
                        let narrowed = merged != bounds;
                        let proof = if narrowed { entry.proof.as_str().to_string() } else { proof };
                        let pv = if new_line.is_empty() { pv } else { new_line };
                        (merged, pv, proof, nodes.saturating_add(entry.nodes as i64), seconds + entry.seconds)
                    }
                };
                upsert
                    .execute(params![entry.rules, key, bounds.lower, bounds.upper, pv, proof, nodes, seconds])
                    .map_err(|e| self.failure(e))?;
                recorded.written += 1;
            }
        }
        transaction.commit().map_err(|e| self.failure(e))?;
        Ok(recorded)
    }

    /// Rows per rule set and proof.
    ///
    /// # Errors
    /// A message if the file cannot be read.
    pub fn summary(&self) -> Result<Vec<SummaryRow>, String> {
        let connection = self.lock();
        let mut query = connection
            .prepare(
                "SELECT rules, proof, count(*), sum(lower = upper), sum(nodes), sum(seconds) FROM results GROUP BY rules, proof ORDER BY rules, proof",
            )
            .map_err(|e| self.failure(e))?;
        let rows = query
            .query_map([], |row| {
                Ok(SummaryRow {
                    rules: row.get(0)?,
                    proof: row.get(1)?,
                    rows: row.get::<_, i64>(2)? as u64,
                    exact: row.get::<_, i64>(3)? as u64,
                    nodes: row.get::<_, i64>(4)? as u64,
                    seconds: row.get(5)?,
                })
            })
            .map_err(|e| self.failure(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.failure(e))
    }

    /// Calls `each` with every row as a JSON object, ordered by rules and position.
    ///
    /// # Errors
    /// A message if the file cannot be read, or the error `each` returns.
    pub fn export(&self, mut each: impl FnMut(serde_json::Value) -> Result<(), String>) -> Result<u64, String> {
        let connection = self.lock();
        let mut query = connection
            .prepare("SELECT rules, position, lower, upper, pv, proof, nodes, seconds, updated FROM results ORDER BY rules, position")
            .map_err(|e| self.failure(e))?;
        let mut rows = query.query([]).map_err(|e| self.failure(e))?;
        let mut count = 0;
        while let Some(row) = rows.next().map_err(|e| self.failure(e))? {
            let read = |row: &rusqlite::Row| -> rusqlite::Result<serde_json::Value> {
                let (lower, upper): (i32, i32) = (row.get(2)?, row.get(3)?);
                let pv: String = row.get(4)?;
                Ok(serde_json::json!({
                    "rules": row.get::<_, String>(0)?, "position": row.get::<_, String>(1)?,
                    "future_gain": (lower == upper).then_some(lower), "exact": lower == upper, "lower": lower, "upper": upper,
                    "pv": parse_line(&pv), "proof": row.get::<_, String>(5)?, "nodes": row.get::<_, i64>(6)?,
                    "seconds": row.get::<_, f64>(7)?, "updated": row.get::<_, i64>(8)?,
                }))
            };
            each(read(row).map_err(|e| self.failure(e))?)?;
            count += 1;
        }
        Ok(count)
    }

    /// Whether SQLite finds the file sound (`PRAGMA integrity_check`): `Ok` or the problems.
    ///
    /// # Errors
    /// A message if the file cannot be read.
    pub fn integrity(&self) -> Result<Vec<String>, String> {
        let connection = self.lock();
        let mut query = connection.prepare("PRAGMA integrity_check").map_err(|e| self.failure(e))?;
        let rows = query.query_map([], |row| row.get::<_, String>(0)).map_err(|e| self.failure(e))?;
        let found: Vec<String> = rows.collect::<Result<_, _>>().map_err(|e| self.failure(e))?;
        Ok(found.into_iter().filter(|line| line != "ok").collect())
    }
}

/// A line of mover-relative moves as the database writes it: `3 0 5`.
fn format_line(line: &[u8]) -> String {
    line.iter().map(|mv| mv.to_string()).collect::<Vec<_>>().join(" ")
}

/// The line `format_line` wrote (words that are not moves are dropped).
fn parse_line(text: &str) -> Vec<u8> {
    text.split_whitespace().filter_map(|word| word.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::{Bounds, Entry, Proof, ResultsDb};
    use dakon_solver::dakon::Position;

    fn entry(position: &str, lower: i32, upper: i32) -> Entry {
        Entry {
            rules: "dakon",
            position: position.parse().unwrap(),
            bounds: Bounds { lower, upper },
            pv: if lower == upper { vec![1, 0] } else { Vec::new() },
            proof: Proof::Search,
            nodes: 10,
            seconds: 0.5,
        }
    }

    #[test]
    fn bounds_only_narrow_and_stores_do_not_matter() {
        let dir = tempfile::tempdir().unwrap();
        let db = ResultsDb::open(&dir.path().join("r.db")).unwrap();
        assert_eq!(db.record(&[entry("1,2/3,0 4/5 0", -4, 6)]).unwrap().written, 1);
        db.record(&[entry("1,2/3,0 0/0 0", -8, 2)]).unwrap();
        let same_holes: Position = "1,2/3,0 9/9 0".parse().unwrap();
        let known = db.lookup("dakon", &[same_holes]).unwrap().remove(0).unwrap();
        assert_eq!((known.bounds, known.nodes, known.seconds), (Bounds { lower: -4, upper: 2 }, 20, 1.0));
        let other: Position = "1,2/3,0 0/0 1".parse().unwrap();
        assert_eq!(db.lookup("dakon", &[other]).unwrap(), vec![None], "the mover is part of the key");
        assert_eq!(db.lookup("kalah", &[same_holes]).unwrap(), vec![None], "so are the rules");
        let recorded = db.record(&[entry("1,2/3,0 0/0 0", 4, 4)]).unwrap();
        assert_eq!((recorded.written, recorded.contradictions.len()), (0, 1), "a contradiction is refused and said");
        db.record(&[entry("1,2/3,0 0/0 0", 0, 0)]).unwrap();
        let known = db.lookup("dakon", &[same_holes]).unwrap().remove(0).unwrap();
        assert_eq!((known.bounds, known.pv), (Bounds { lower: 0, upper: 0 }, vec![1, 0]));
        drop(db);
        let reopened = ResultsDb::open(&dir.path().join("r.db")).unwrap();
        assert_eq!(reopened.summary().unwrap()[0].exact, 1);
        assert!(reopened.integrity().unwrap().is_empty());
    }

    #[test]
    fn other_files_are_refused_with_their_name() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "not a database, but long enough to look like a file header to sqlite ......").unwrap();
        let message = ResultsDb::open(&text).err().unwrap();
        assert!(message.contains("notes.txt is not a results database"), "{message}");
        let other = dir.path().join("other.db");
        rusqlite::Connection::open(&other).unwrap().execute_batch("CREATE TABLE t (x)").unwrap();
        let message = ResultsDb::open(&other).err().unwrap();
        assert!(message.contains("of another program"), "{message}");
    }
}
