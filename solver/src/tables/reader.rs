//! Probing: the tiers of one rule set in memory as [`CompactTier`]s, an [`Oracle`] for the
//! search, loaded at once or by a background thread while the search already runs.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::build_report::BuildReport;
use super::compact::{CompactTier, TierValues};
use super::error::TableError;
use super::file::TableFile;
use super::image::{image_path, read_image, write_image, ImageRead};
use super::name::tier_path;
use crate::oracle::Oracle;
use crate::tier_layout::TierLayout;

/// How to load the tiers of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// No tier above this many seeds (a position with `s` seeds never needs a tier above `s`).
    pub max_seeds: u32,
    /// The most bytes the loaded tiers may hold in memory (`None`: no bound). Tiers load from
    /// 0 upwards; the first that would pass the bound and every tier above it are not loaded.
    pub max_bytes: Option<u64>,
    /// Whether a tier decoded from its table file gets its memory image written beside it,
    /// so that the next load reads that instead (see `image.rs`); images present are read
    /// either way.
    pub write_images: bool,
}

impl Default for LoadOptions {
    /// Every tier present, no memory bound, no image written.
    fn default() -> Self {
        LoadOptions { max_seeds: u32::MAX, max_bytes: None, write_images: false }
    }
}

/// Which tiers a [`TableSet`] loads, decided from the headers before any is decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadPlan {
    /// Tiers `0..loaded` are loaded (or being loaded).
    pub loaded: u32,
    /// Their positions.
    pub positions: u64,
    /// Tiers present above them that the memory bound leaves out: `loaded..loaded + beyond`.
    pub beyond_bound: u32,
    /// Memory images refused while loading (stale or damaged) and made again, each saying why
    /// ([`TableError::ImageRefused`]); filled by [`TableSet::open_with`] only (in the
    /// background they go to its `report`).
    pub refused_images: Vec<String>,
}

/// The tiers `0..=K` of one rule set found in a directory, each in memory at about 3.6 bits a
/// position ([`CompactTier`]), so that a probe is an index computation and a line read. A tier
/// still loading answers no probe (the search then searches), so every answer is exact.
pub struct TableSet<R: TierLayout> {
    rules: R,
    /// `tiers[k]`: tier `k`, once decoded.
    tiers: Vec<OnceLock<CompactTier>>,
}

/// Tables opened while they load in the background, and what is loaded.
pub type Opened<R> = (Arc<TableSet<R>>, LoadPlan);

impl<R: TierLayout + Clone + 'static> TableSet<R> {
    /// Loads every tier of `rules` present in `dir`, from tier 0 up to the first missing one.
    /// Returns `None` when tier 0 is missing (no tables for this board).
    ///
    /// # Errors
    /// [`TableError`] if a file of these tiers cannot be read, is damaged (checksums are
    /// verified) or belongs to other rules, another board or another tier.
    pub fn open(rules: &R, dir: &Path) -> Result<Option<TableSet<R>>, TableError> {
        TableSet::open_with(rules, dir, &LoadOptions::default()).map(|t| t.map(|(tables, _)| tables))
    }

    /// As [`TableSet::open`], loading no tier above `max_seeds`.
    ///
    /// # Errors
    /// As [`TableSet::open`].
    pub fn open_up_to(rules: &R, dir: &Path, max_seeds: u32) -> Result<Option<TableSet<R>>, TableError> {
        TableSet::open_with(rules, dir, &LoadOptions { max_seeds, ..LoadOptions::default() }).map(|t| t.map(|(tables, _)| tables))
    }

    /// Loads the tiers `options` allows, before it returns, and says which: each from its
    /// memory image (`image.rs`) if it has a sound one, else decoded from its table file
    /// and its image written.
    ///
    /// # Errors
    /// As [`TableSet::open`].
    pub fn open_with(rules: &R, dir: &Path, options: &LoadOptions) -> Result<Option<(TableSet<R>, LoadPlan)>, TableError> {
        let Some((files, mut plan)) = plan(rules, dir, options)? else { return Ok(None) };
        let tables = TableSet { rules: rules.clone(), tiers: (0..files.len()).map(|_| OnceLock::new()).collect() };
        let refused = std::sync::Mutex::new(Vec::new());
        tables.load(&files, options, &|note| refused.lock().expect("no panic holds it").push(note.to_string()))?;
        plan.refused_images = refused.into_inner().expect("no panic holds it");
        Ok(Some((tables, plan)))
    }

    /// Checks the headers of the tiers `options` allows now, and loads them (as
    /// [`TableSet::open_with`]) on a thread of their own, lowest first: the search can start
    /// at once, and each tier answers probes as soon as it is in memory. `report` is told of a
    /// tier that failed to load (damaged, or over the memory bound after all); that tier and
    /// those above it answer nothing. It is also told of a memory image refused and made again
    /// ([`TableError::ImageRefused`]), which changes nothing else.
    ///
    /// # Errors
    /// [`TableError`] if a header is unreadable, damaged or belongs to other rules, another
    /// board or another tier (a damaged block is only found while loading).
    pub fn open_in_background(
        rules: &R,
        dir: &Path,
        options: &LoadOptions,
        report: impl Fn(TableError) + Send + 'static,
    ) -> Result<Option<Opened<R>>, TableError> {
        let Some((files, plan)) = plan(rules, dir, options)? else { return Ok(None) };
        let tables = Arc::new(TableSet { rules: rules.clone(), tiers: (0..files.len()).map(|_| OnceLock::new()).collect() });
        let loader = tables.clone();
        let options = *options;
        std::thread::Builder::new()
            .name("dakon-tables".into())
            .spawn(move || {
                if let Err(e) = loader.load(&files, &options, &|note| report(note)) {
                    report(e);
                }
            })
            .map_err(|e| TableError::io(dir, "start a thread to load the tables of", e))?;
        Ok(Some((tables, plan)))
    }

    /// The tiers `0..values.len()` from their values (`values[k]`: tier `k`, one byte a
    /// position), packed in memory and freed one by one; `report` names their files, for
    /// errors. What [`build_and_load`](super::build_and_load) hands the search.
    pub(crate) fn from_values(rules: &R, values: Vec<Vec<u8>>, report: &BuildReport) -> Result<TableSet<R>, TableError> {
        let tiers = values
            .into_iter()
            .zip(&report.tiers)
            .map(|(values, tier)| {
                let packed = CompactTier::from_values(tier.seeds, &values).map_err(|e| TableError::corrupt(&tier.path, e.to_string()))?;
                Ok(OnceLock::from(packed))
            })
            .collect::<Result<_, TableError>>()?;
        Ok(TableSet { rules: rules.clone(), tiers })
    }

    /// Writes the memory image of each tier `report` says was built now, from its in-memory
    /// form, beside its table file; an image that cannot be written is left out (the next
    /// load decodes that tier and tries again).
    ///
    /// # Errors
    /// [`TableError`] if a table file just written cannot be read back.
    pub(crate) fn write_built_images(&self, report: &BuildReport) -> Result<(), TableError> {
        for tier in report.tiers.iter().filter(|tier| tier.built) {
            let file = TableFile::open(&self.rules, &tier.path, tier.seeds)?;
            let packed = self.tiers[tier.seeds as usize].get().expect("a built set holds every tier");
            let _ = write_image(&file, packed);
        }
        Ok(())
    }

    /// Loads `files` (tiers `0..`) in order into `self.tiers`, within `options.max_bytes`:
    /// each from its memory image if sound, else decoded, its image then written if
    /// `options.write_images` (an image that cannot be written is left out: the next load
    /// decodes again); `refused` is told of each image refused.
    fn load(&self, files: &[TableFile], options: &LoadOptions, refused: &dyn Fn(TableError)) -> Result<(), TableError> {
        let mut used = 0u64;
        for (seeds, file) in files.iter().enumerate() {
            let tier = match read_image(file) {
                Ok(tier) => tier,
                Err(read) => {
                    if let ImageRead::Refused(detail) = read {
                        refused(TableError::ImageRefused { path: image_path(file.path()), detail });
                    }
                    let lower: Vec<&CompactTier> = self.tiers[..seeds].iter().map(|t| t.get().expect("lower tiers load first")).collect();
                    let tier = file.read_compact(&self.rules, &lower)?;
                    if options.write_images {
                        // A directory that takes no image only costs the next load its decoding.
                        let _ = write_image(file, &tier);
                    }
                    tier
                }
            };
            used += tier.bytes();
            if let Some(bound) = options.max_bytes.filter(|&bound| used > bound) {
                return Err(TableError::OverBound { path: file.path().into(), seeds: seeds as u32, needed: used, bound });
            }
            self.tiers[seeds].set(tier).expect("each tier loads once");
        }
        Ok(())
    }
}

/// The files of the tiers to load and the plan; `None` when tier 0 is missing.
fn plan<R: TierLayout>(rules: &R, dir: &Path, options: &LoadOptions) -> Result<Option<(Vec<TableFile>, LoadPlan)>, TableError> {
    let mut files: Vec<TableFile> = (0..=options.max_seeds.min(i8::MAX as u32))
        .map(|k| (k, tier_path(rules, dir, k)))
        .take_while(|(_, path)| path.exists())
        .map(|(k, path)| TableFile::open(rules, &path, k))
        .collect::<Result<_, _>>()?;
    if files.is_empty() {
        return Ok(None);
    }
    let present = files.len() as u32;
    let mut planned = 0u64;
    let within = files
        .iter()
        .take_while(|f| {
            planned += CompactTier::line_bytes(f.header().entries);
            options.max_bytes.is_none_or(|bound| planned <= bound)
        })
        .count();
    files.truncate(within);
    let positions = files.iter().map(|f| f.header().entries).sum();
    Ok(Some((files, LoadPlan { loaded: within as u32, positions, beyond_bound: present - within as u32, refused_images: Vec::new() })))
}

/// The exact future gain of the position at `index` in tier `seeds`, read from that tier's
/// file in `dir` without loading it: only the one block is decoded, against the tiers below
/// it (which a format 2 block needs, so those are loaded). What `dakon tables probe` does.
///
/// # Errors
/// [`TableError`] if the tier's file is missing, damaged or of other rules, or a lower tier is.
///
/// # Panics
/// Panics if `index` is not below the tier's number of entries.
pub fn probe_file<R: TierLayout + Clone + 'static>(rules: &R, dir: &Path, seeds: u32, index: u64) -> Result<i8, TableError> {
    let lower = match seeds {
        0 => None,
        _ => TableSet::open_up_to(rules, dir, seeds - 1)?,
    };
    let lower = lower.as_ref().map(TableSet::loaded_tiers).unwrap_or_default();
    TableFile::open(rules, &tier_path(rules, dir, seeds), seeds)?.value(rules, index, &lower)
}

impl<R: TierLayout> TableSet<R> {
    /// The exact future gain of the position at `index` in tier `seeds`, if that tier is
    /// loaded.
    pub fn value(&self, seeds: u32, index: u64) -> Option<i32> {
        let tier = self.tiers.get(seeds as usize)?.get()?;
        (index < tier.entries()).then(|| tier.value_at(index) as i32)
    }

    /// The tiers loaded so far, from tier 0 up to the first one not loaded.
    pub fn loaded_tiers(&self) -> Vec<&CompactTier> {
        self.tiers.iter().map_while(OnceLock::get).collect()
    }

    /// Bytes the tiers loaded so far hold in memory.
    pub fn bytes(&self) -> u64 {
        self.tiers.iter().filter_map(OnceLock::get).map(CompactTier::bytes).sum()
    }

    /// Whether every planned tier is loaded.
    pub fn is_loaded(&self) -> bool {
        self.tiers.iter().all(|t| t.get().is_some())
    }
}

impl<R: TierLayout> Oracle<R> for TableSet<R> {
    #[inline]
    fn probe(&self, pos: &R::Position) -> Option<i32> {
        let tier = self.tiers.get(self.rules.seeds_on_board(pos) as usize)?.get()?;
        Some(tier.value_at(self.rules.index(pos)) as i32)
    }

    fn max_seeds(&self) -> u32 {
        self.tiers.len() as u32 - 1
    }

    #[inline]
    fn prefetch(&self, pos: &R::Position) {
        if let Some(tier) = self.tiers.get(self.rules.seeds_on_board(pos) as usize).and_then(OnceLock::get) {
            tier.prefetch(self.rules.index(pos));
        }
    }
}
