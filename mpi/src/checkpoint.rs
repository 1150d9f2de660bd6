//! Checkpoints inside a tier of a partitioned build: at a level boundary every rank writes
//! its shard of the tier being built (two bytes a position: orders still to solve, values and
//! marks solved), atomically, to `<tier file>.rank<R>of<N>.level<L>.ckpt`; once all have,
//! rank 0 points the manifest `<tier file>.ckpt` at level `L`. A run that finds the manifest
//! for the same rank count resumes the tier at level `L`; another rank count restarts the tier,
//! and says so. A rank's file that is missing, truncated, damaged or of another build is
//! refused with its name and the reason. Once the tier's file is written, every checkpoint
//! file of the tier goes, whichever run left it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use dakon_solver::atomic_file::write_atomically;
use dakon_solver::tables::format::{checksum, PartsChecksum};
use dakon_solver::tables::{TableError, TierShard};
use dakon_solver::tier_layout::TierLayout;
use mpi::datatype::PartitionMut;
use mpi::traits::*;
use mpi::Count;

use crate::cluster::Cluster;
use crate::partition::displacements;
use crate::shard_file::agree;

/// The first bytes of a rank's checkpoint file.
const MAGIC: &[u8; 8] = b"DAKONCK1";

/// The slots a checkpoint converts to bytes at a time: a copy of the whole shard would add
/// two bytes a position to the rank's peak memory.
const SLOTS_A_PART: usize = 1 << 18;

/// The checkpoints of one tier being built by this rank.
pub(crate) struct Checkpoints<'a> {
    tier_path: &'a Path,
    /// The rules and tier, as the files name them.
    identity: String,
    rank: usize,
    ranks: usize,
    /// The level of this rank's last checkpoint file, removed once a newer one is in place.
    saved: Option<u32>,
}

impl<'a> Checkpoints<'a> {
    pub(crate) fn new<R: TierLayout>(cluster: &Cluster, rules: &R, seeds: u32, tier_path: &'a Path) -> Self {
        let identity = format!("rules {} {:?} tier {seeds}", rules.name(), rules.parameters());
        Checkpoints { tier_path, identity, rank: cluster.rank(), ranks: cluster.size(), saved: None }
    }

    fn manifest(&self) -> PathBuf {
        with_suffix(self.tier_path, ".ckpt")
    }

    fn rank_file(&self, level: u32) -> PathBuf {
        with_suffix(self.tier_path, &format!(".rank{}of{}.level{level}.ckpt", self.rank, self.ranks))
    }

    /// Saves `shard` with every level below `level` solved. Every rank must call it.
    ///
    /// # Errors
    /// [`TableError::Io`] on every rank if a rank's file or the manifest cannot be written.
    pub(crate) fn save(&mut self, cluster: &Cluster, shard: &TierShard, level: u32) -> Result<(), TableError> {
        let path = self.rank_file(level);
        let header = self.header(level, shard.slots().len());
        let written = write_atomically(&path, |file| {
            file.write_all(&header)?;
            let mut sum = PartsChecksum::new();
            let mut part = Vec::with_capacity(2 * SLOTS_A_PART);
            for_each_part(shard.slots(), &mut part, |bytes| {
                sum.update(bytes);
                Ok(())
            })?;
            file.write_all(&sum.value().to_le_bytes())?;
            for_each_part(shard.slots(), &mut part, |bytes| file.write_all(bytes))
        })
        .map_err(|f| ("write", f.source));
        agree(cluster, &path, written)?;
        let manifest = self.manifest();
        let pointed = if cluster.is_root() {
            write_atomically(&manifest, |file| writeln!(file, "{}\nranks {}\nlevel {level}", self.identity, self.ranks))
                .map_err(|f| ("write", f.source))
        } else {
            Ok(())
        };
        agree(cluster, &manifest, pointed)?;
        if let Some(old) = self.saved.replace(level).filter(|&old| old != level) {
            let _ = fs::remove_file(self.rank_file(old));
        }
        Ok(())
    }

    /// The level at which the tier resumes: that of the manifest, with this rank's shard
    /// restored from its file, if the manifest is of this build and rank count; 0 otherwise
    /// (rank 0 says why when there was a checkpoint). Every rank must call it.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] naming the file if the manifest or a rank's file is unreadable,
    /// truncated, damaged or of another build (on every rank).
    pub(crate) fn resume(&mut self, cluster: &Cluster, shard: &mut TierShard) -> Result<u32, TableError> {
        let manifest = self.manifest();
        let Ok(text) = fs::read_to_string(&manifest) else { return Ok(0) };
        let parsed = self.parse_manifest(&text);
        let level = match parsed {
            Ok(Some(level)) => level,
            Ok(None) => {
                if cluster.is_root() {
                    eprintln!(
                        "{}: a checkpoint of another rank count ({}); this run has {} ranks: tier {} restarts from its first level",
                        manifest.display(),
                        text.lines().nth(1).unwrap_or("?"),
                        self.ranks,
                        shard.seeds()
                    );
                }
                return Ok(0);
            }
            Err(reason) => return Err(TableError::Corrupt { path: manifest, detail: reason }),
        };
        let path = self.rank_file(level);
        let restored = self.load(&path, level, shard).map_err(|reason| format!("{}: {reason}", path.display()));
        if let Some(reasons) = failures(cluster, restored) {
            return Err(TableError::Corrupt {
                path: manifest,
                detail: format!("cannot resume tier {} at level {level}: {}", shard.seeds(), reasons.join("; ")),
            });
        }
        self.saved = Some(level);
        Ok(level)
    }

    /// The level of a manifest of this build and rank count, `None` for another rank count.
    fn parse_manifest(&self, text: &str) -> Result<Option<u32>, String> {
        let mut lines = text.lines();
        let identity = lines.next().unwrap_or_default();
        if identity != self.identity {
            return Err(format!("a checkpoint of {identity:?}, this build is {:?}", self.identity));
        }
        let number = |line: Option<&str>, field: &str| {
            line.and_then(|l| l.strip_prefix(field)).and_then(|n| n.trim().parse::<u32>().ok()).ok_or_else(|| format!("no {field}line"))
        };
        let ranks = number(lines.next(), "ranks ")?;
        let level = number(lines.next(), "level ")?;
        Ok((ranks as usize == self.ranks).then_some(level))
    }

    fn header(&self, level: u32, count: usize) -> Vec<u8> {
        let mut header = MAGIC.to_vec();
        let identity = format!("{} rank {} of {} level {level} positions {count}", self.identity, self.rank, self.ranks);
        header.extend_from_slice(&(identity.len() as u32).to_le_bytes());
        header.extend_from_slice(identity.as_bytes());
        header
    }

    /// Restores `shard` from `path`, the file of this rank at `level`.
    fn load(&self, path: &Path, level: u32, shard: &mut TierShard) -> Result<(), String> {
        let bytes = fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
        let header = self.header(level, shard.slots().len());
        let rest = bytes.strip_prefix(&header[..]).ok_or_else(|| {
            let found = bytes.get(12..).map(|b| String::from_utf8_lossy(&b[..b.len().min(header.len() - 12)]).into_owned());
            format!(
                "not this rank's checkpoint of this build: expected {:?}, found {:?}",
                String::from_utf8_lossy(&header[12..]),
                found.unwrap_or_default()
            )
        })?;
        let expected = 8 + 2 * shard.slots().len();
        if rest.len() != expected {
            return Err(format!("truncated: {} bytes after the header, expected {expected}", rest.len()));
        }
        let (stored, slots) = rest.split_at(8);
        if checksum(slots).to_le_bytes() != stored {
            return Err("checksum differs: the file is damaged".into());
        }
        let slots: Vec<u16> = slots.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
        shard.restore(&slots)
    }

    /// Removes every checkpoint file of the tier once its file is written: this rank's of
    /// every level, then (rank 0) those of any rank count and the manifest. Not only the level
    /// last saved: a run killed after the manifest moved on but before the ranks removed the
    /// level before leaves those files, and a run of another rank count leaves its own.
    pub(crate) fn remove(&mut self, cluster: &Cluster) {
        self.saved = None;
        remove_checkpoint_files(self.tier_path, &format!(".rank{}of{}.level", self.rank, self.ranks));
        cluster.all_arrived();
        if cluster.is_root() {
            remove_checkpoint_files(self.tier_path, ".rank");
            let _ = fs::remove_file(self.manifest());
        }
    }
}

/// Removes the files beside `tier_path` named `<tier file><infix>….ckpt`, and their unfinished
/// `.ckpt.tmp`; a file that cannot be removed is left (it no longer matters once the tier's
/// file is written).
fn remove_checkpoint_files(tier_path: &Path, infix: &str) {
    let Some(name) = tier_path.file_name().and_then(|n| n.to_str()) else { return };
    let prefix = format!("{name}{infix}");
    let dir = tier_path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        if file.starts_with(&prefix) && (file.ends_with(".ckpt") || file.ends_with(".ckpt.tmp")) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Every rank's failure, if any rank's `step` failed (each rank's reason, on every rank).
fn failures(cluster: &Cluster, step: Result<(), String>) -> Option<Vec<String>> {
    let mine = step.err().map(|reason| format!("rank {}: {reason}", cluster.rank())).unwrap_or_default();
    let mut lengths = vec![0 as Count; cluster.size()];
    cluster.all_arrived().all_gather_into(&(mine.len() as Count), &mut lengths[..]);
    if lengths.iter().all(|&l| l == 0) {
        return None;
    }
    let starts = displacements(&lengths, 0).ok()?;
    let mut all = vec![0u8; lengths.iter().map(|&l| l as usize).sum()];
    let scratch = [0u8; 1];
    let bytes = if mine.is_empty() { &scratch[..0] } else { mine.as_bytes() };
    cluster.world().all_gather_varcount_into(bytes, &mut PartitionMut::new(&mut all[..], &lengths[..], &starts[..]));
    Some(
        lengths
            .iter()
            .zip(&starts)
            .filter(|(&l, _)| l > 0)
            .map(|(&l, &at)| String::from_utf8_lossy(&all[at as usize..(at + l) as usize]).into_owned())
            .collect(),
    )
}

/// Calls `f` with `slots` as little-endian bytes, [`SLOTS_A_PART`] slots at a time, converted
/// into `part`.
fn for_each_part(slots: &[u16], part: &mut Vec<u8>, mut f: impl FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
    for chunk in slots.chunks(SLOTS_A_PART) {
        part.clear();
        part.extend(chunk.iter().flat_map(|s| s.to_le_bytes()));
        f(part)?;
    }
    Ok(())
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}
