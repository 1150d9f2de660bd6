//! The endgame tables of the page's board, prepared on a thread of their own while the server
//! answers: built where missing, or loaded a tier at a time. A search never waits for them: a
//! tier not ready yet answers no probe, so the search searches it instead (every answer stays
//! exact), and `/api/status` says how far they are.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::RuleSet;
use dakon_solver::tables::{tier_path, LoadOptions, TableSet};

use crate::search_args::build_and_say;
use crate::tables_arg::ProbeArgs;

/// The tiers the server builds for the page's board when no flag says otherwise: with them the
/// early 7 x 7 middle game gets exact within seconds.
pub const DEFAULT_BUILD_SEEDS: u32 = 16;

/// How the page's board gets its tables.
pub struct TablesToPrepare {
    /// Where they are (or are built): a per-user directory unless one is named.
    pub probe: ProbeArgs,
    pub holes: usize,
    /// Tiers `0..=max_seeds`.
    pub max_seeds: u32,
    /// Build the tiers missing from the directory first (else load those present).
    pub build: bool,
    /// Raised at shutdown: a build stops, keeping the tiers it finished.
    pub stop: Arc<AtomicBool>,
    /// Waited before loading: lets a test overlap requests with a load of small tables.
    pub load_delay: Duration,
}

/// Where the page's board's tables are in their preparation.
enum Phase {
    Building,
    /// Waiting to start loading.
    Waiting,
    /// Loading (or loaded): the set fills tier by tier, up to `planned` tiers.
    Loading {
        tables: Arc<TableSet<RuleSet>>,
        planned: u32,
    },
    /// Built and in memory.
    Built,
    Failed(String),
}

/// The page's board's tables as an [`Oracle`] that answers nothing until they are ready.
pub struct PageTables {
    rules: RuleSet,
    dir: PathBuf,
    max_seeds: u32,
    phase: Mutex<Phase>,
    ready: OnceLock<Arc<dyn Oracle<RuleSet>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl PageTables {
    /// Starts preparing `rules`' tables of tiers `0..=plan.max_seeds` in `plan.probe`'s
    /// directory on a thread of its own (`threads` threads for a build) and returns at once.
    pub fn prepare(rules: RuleSet, plan: &TablesToPrepare, threads: usize) -> Arc<PageTables> {
        let dir = plan.probe.tables.dir();
        let present = (0..=plan.max_seeds).take_while(|&k| tier_path(&rules, &dir, k).exists()).count() as u32;
        let building = plan.build && present <= plan.max_seeds;
        // Loading, the search asks no tier above those present.
        let max_seeds = if building { plan.max_seeds } else { present.saturating_sub(1) };
        let tables = Arc::new(PageTables {
            rules,
            dir,
            max_seeds,
            phase: Mutex::new(if building { Phase::Building } else { Phase::Waiting }),
            ready: OnceLock::new(),
            worker: Mutex::new(None),
        });
        let (worker, probe, stop, delay) = (tables.clone(), plan.probe.clone(), plan.stop.clone(), plan.load_delay);
        let spawned = std::thread::Builder::new().name("dakon-page-tables".into()).spawn(move || {
            // A build or a load (decoding, writing images) takes the cores the searches leave:
            // a search's time limit then holds while the tables get ready.
            yield_to_searches();
            if building {
                worker.build(&probe, max_seeds, threads, stop);
            } else {
                std::thread::sleep(delay);
                worker.load(&probe);
            }
        });
        match spawned {
            Ok(handle) => *tables.worker.lock().expect("not poisoned") = Some(handle),
            Err(e) => tables.fail(format!("cannot start a thread to prepare the tables: {e}")),
        }
        tables
    }

    fn build(&self, probe: &ProbeArgs, max_seeds: u32, threads: usize, stop: Arc<AtomicBool>) {
        // A restarted server then reads the images instead of decoding the tiers.
        match build_and_say(self.rules, probe, max_seeds, threads, stop, true, "dakon serve") {
            Ok((tables, _)) => {
                let _ = self.ready.set(Arc::new(tables));
                *self.phase.lock().expect("not poisoned") = Phase::Built;
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    fn load(self: &Arc<Self>, probe: &ProbeArgs) {
        let options =
            LoadOptions { max_seeds: self.max_seeds, max_bytes: probe.tables_mb.map(|mb| mb.saturating_mul(1 << 20)), write_images: true };
        let failed = self.clone();
        let report = move |e: dakon_solver::tables::TableError| failed.fail(e.to_string());
        match TableSet::open_in_background(&self.rules, &self.dir, &options, report) {
            Ok(Some((tables, plan))) => {
                let _ = self.ready.set(tables.clone());
                let mut phase = self.phase.lock().expect("not poisoned");
                if !matches!(*phase, Phase::Failed(_)) {
                    *phase = Phase::Loading { tables, planned: plan.loaded };
                }
            }
            Ok(None) => self.fail(format!("no tables of {} holes in {}", self.rules.holes(), self.dir.display())),
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Says the failure once, on stderr and in the status; the searches go on without tables.
    fn fail(&self, message: String) {
        eprintln!(
            "dakon serve: the {}-hole board's endgame tables could not be prepared: {message}; its searches go on without them",
            self.rules.holes()
        );
        *self.phase.lock().expect("not poisoned") = Phase::Failed(message);
    }

    /// Whether some tier answers probes now.
    pub fn answering(&self) -> bool {
        match &*self.phase.lock().expect("not poisoned") {
            Phase::Built => true,
            Phase::Loading { tables, .. } => !tables.loaded_tiers().is_empty(),
            Phase::Building | Phase::Waiting | Phase::Failed(_) => false,
        }
    }

    /// Waits for the preparing thread (a build stopped at shutdown says which tiers it kept).
    pub fn finish(&self) {
        let worker = self.worker.lock().expect("not poisoned").take();
        if let Some(worker) = worker {
            let _ = worker.join();
        }
    }

    /// The state for `/api/status`: `building`, `loading`, `ready` or `failed`, the tiers ready
    /// of those planned, the directory, and a failure's message.
    pub fn json(&self) -> serde_json::Value {
        let total = self.max_seeds + 1;
        let (state, ready, total, message) = match &*self.phase.lock().expect("not poisoned") {
            Phase::Building => {
                let built = (0..total).take_while(|&k| tier_path(&self.rules, &self.dir, k).exists()).count() as u32;
                ("building", built, total, None)
            }
            Phase::Waiting => ("loading", 0, total, None),
            Phase::Loading { tables, planned } => {
                let loaded = tables.loaded_tiers().len() as u32;
                (if loaded >= *planned { "ready" } else { "loading" }, loaded, *planned, None)
            }
            Phase::Built => ("ready", total, total, None),
            Phase::Failed(message) => ("failed", 0, total, Some(message.clone())),
        };
        serde_json::json!({
            "holes": self.rules.holes(),
            "state": state,
            "tiers_ready": ready,
            "tiers": total,
            "dir": self.dir.display().to_string(),
            "message": message,
        })
    }
}

impl Oracle<RuleSet> for PageTables {
    #[inline]
    fn probe(&self, pos: &<RuleSet as Rules>::Position) -> Option<i32> {
        self.ready.get()?.probe(pos)
    }

    fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    #[inline]
    fn prefetch(&self, pos: &<RuleSet as Rules>::Position) {
        if let Some(tables) = self.ready.get() {
            tables.prefetch(pos);
        }
    }
}

/// Lowers the calling thread's priority (nice 10, unless it is lower already), and so that of
/// the threads it starts, which inherit it: a build or a load takes the cores the searches
/// leave.
fn yield_to_searches() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread (Linux gives each thread its own nice
    // value: `who` 0 names the caller), with no memory passed.
    unsafe {
        const BUILD_NICENESS: libc::c_int = 10;
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, 0);
        if *libc::__errno_location() == 0 && now < BUILD_NICENESS {
            libc::setpriority(libc::PRIO_PROCESS, 0, BUILD_NICENESS);
        }
    }
}

/// The per-user directory the server builds the page's tables in when none is named:
/// `$XDG_DATA_HOME/dakon/tables`, else `$HOME/.local/share/dakon/tables`, else `None`.
pub fn user_tables_dir(xdg_data_home: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    let data = match (xdg_data_home.filter(|d| d.is_absolute()), home) {
        (Some(data), _) => data.to_path_buf(),
        (None, Some(home)) => home.join(".local/share"),
        (None, None) => return None,
    };
    Some(data.join("dakon").join("tables"))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::user_tables_dir;

    #[test]
    fn the_users_tables_are_under_xdg_data_home_else_under_home() {
        let (xdg, home) = (Path::new("/data"), Path::new("/home/a"));
        assert_eq!(user_tables_dir(Some(xdg), Some(home)), Some(PathBuf::from("/data/dakon/tables")));
        assert_eq!(user_tables_dir(None, Some(home)), Some(PathBuf::from("/home/a/.local/share/dakon/tables")));
        // A relative $XDG_DATA_HOME is invalid by the specification, and ignored.
        assert_eq!(user_tables_dir(Some(Path::new("data")), Some(home)), Some(PathBuf::from("/home/a/.local/share/dakon/tables")));
        assert_eq!(user_tables_dir(None, None), None);
    }
}
