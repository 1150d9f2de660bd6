//! A node's lent region reachable from every other node: an MPI window over the world
//! (`MPI_Win_create`, the node's first rank exposing the node's copy) read and written with
//! one-sided atomics (`MPI_Get_accumulate` with a bitwise or of zero, `MPI_Compare_and_swap`),
//! so the tables of all nodes together are one table (see [`PeerRegion`]).

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};

use dakon_solver::peer_region::PeerRegion;
use mpi::ffi;
use serde::{Deserialize, Serialize};

/// The environment variable that sets from how many seeds on the board a position's entry
/// lives on its owner node (by default, see [`SHALLOW_SEEDS`]).
pub const SHARED_SEEDS: &str = "DAKON_MPI_SHARED_SEEDS";

/// By default, positions with at most this many seeds fewer than the root's keep their entries
/// on their owner node: each remote probe is a round trip between nodes, worth it only where
/// a subtree is large, and the deeper positions, far more of them, stay in the searching
/// node's own table.
pub const SHALLOW_SEEDS: u32 = 4;

/// The one-sided accesses a process made to other nodes' copies, and the bytes they moved
/// (read words, or a compare-and-swap's word sent and its old word fetched back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneSidedTraffic {
    /// Remote reads and compare-and-swaps.
    pub accesses: u64,
    /// Their bytes, both ways.
    pub bytes: u64,
}

// A process makes at most one `ClusterRegion` and never frees it, so the process's counts are
// the region's; keeping them here lets the solve driver report them without a handle to it.
static ACCESSES: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// This process's one-sided traffic so far (zero without a cross-node window).
pub fn one_sided_traffic() -> OneSidedTraffic {
    OneSidedTraffic { accesses: ACCESSES.load(Ordering::Relaxed), bytes: BYTES.load(Ordering::Relaxed) }
}

/// Counts one remote access that moved `bytes`.
fn count_access(bytes: usize) {
    ACCESSES.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
}

/// One lent region of every node, as one MPI window over the world.
pub struct ClusterRegion {
    window: ffi::MPI_Win,
    /// The world rank exposing each node's copy (its first rank), by node.
    leaders: Vec<i32>,
    node: usize,
    shared_from: u32,
}

// SAFETY: MPI is initialised with `MPI_THREAD_MULTIPLE` whenever a `ClusterRegion` is made
// (see `NodeMemory::join`), so any thread may use the window; the handle is a plain value.
unsafe impl Send for ClusterRegion {}
unsafe impl Sync for ClusterRegion {}

impl ClusterRegion {
    /// Collective over `world`: a window over `bytes` at `start` on each node's first rank
    /// (`exposes`), nothing on the others. `leaders` lists the first rank of every node,
    /// `node` is this rank's. Boards with at least `shared_from` seeds (unless [`SHARED_SEEDS`]
    /// says otherwise) keep their entries on their owner.
    ///
    /// # Safety
    /// `start..start + bytes` must stay mapped for as long as the process lives when
    /// `exposes`; the window is never freed (as the node's shared window is not).
    pub unsafe fn new(
        world: ffi::MPI_Comm,
        start: *mut u8,
        bytes: usize,
        exposes: bool,
        leaders: Vec<i32>,
        node: usize,
        shared_from: u32,
    ) -> Self {
        let mut window: ffi::MPI_Win = std::mem::zeroed();
        let (base, size) = if exposes { (start as *mut c_void, bytes) } else { (std::ptr::null_mut(), 0) };
        let code = ffi::MPI_Win_create(base, size as ffi::MPI_Aint, 8, ffi::RSMPI_INFO_NULL, world, &mut window);
        assert_eq!(code, 0, "MPI_Win_create of {bytes} bytes failed");
        let shared_from = std::env::var(SHARED_SEEDS).ok().and_then(|v| v.parse().ok()).unwrap_or(shared_from);
        ClusterRegion { window, leaders, node, shared_from }
    }

    /// Runs `access` on `node`'s copy (its world rank) within a shared lock of it.
    fn locked(&self, node: usize, access: impl FnOnce(i32)) {
        let target = self.leaders[node];
        // SAFETY: the window is valid for the process's life; the lock is released below.
        unsafe {
            let code = ffi::MPI_Win_lock(ffi::MPI_LOCK_SHARED as i32, target, 0, self.window);
            assert_eq!(code, 0, "MPI_Win_lock failed");
            access(target);
            let code = ffi::MPI_Win_unlock(target, self.window);
            assert_eq!(code, 0, "MPI_Win_unlock failed");
        }
    }
}

impl PeerRegion for ClusterRegion {
    fn nodes(&self) -> usize {
        self.leaders.len()
    }

    fn node(&self) -> usize {
        self.node
    }

    fn read(&self, node: usize, offset: usize, words: &mut [u64]) {
        let zeros = vec![0u64; words.len()];
        let count = words.len() as i32;
        self.locked(node, |target| {
            // SAFETY: both buffers hold `count` words; the target's region holds the words
            // asked for (every node's copy has the same size).
            let code = unsafe {
                ffi::MPI_Get_accumulate(
                    zeros.as_ptr() as *const c_void,
                    count,
                    ffi::RSMPI_UINT64_T,
                    words.as_mut_ptr() as *mut c_void,
                    count,
                    ffi::RSMPI_UINT64_T,
                    target,
                    offset as ffi::MPI_Aint,
                    count,
                    ffi::RSMPI_UINT64_T,
                    ffi::RSMPI_BOR,
                    self.window,
                )
            };
            assert_eq!(code, 0, "MPI_Get_accumulate failed");
        });
        count_access(words.len() * 8);
    }

    fn replace(&self, node: usize, offset: usize, old: u64, new: u64) {
        let mut found = 0u64;
        self.locked(node, |target| {
            // SAFETY: one word each, the target's word lies in its region.
            let code = unsafe {
                ffi::MPI_Compare_and_swap(
                    &new as *const u64 as *const c_void,
                    &old as *const u64 as *const c_void,
                    &mut found as *mut u64 as *mut c_void,
                    ffi::RSMPI_UINT64_T,
                    target,
                    offset as ffi::MPI_Aint,
                    self.window,
                )
            };
            assert_eq!(code, 0, "MPI_Compare_and_swap failed");
        });
        // The new and old words go out, the found word comes back.
        count_access(3 * 8);
    }

    fn shared_from_seeds(&self) -> u32 {
        self.shared_from
    }
}
