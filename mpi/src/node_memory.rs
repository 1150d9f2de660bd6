//! The memory that the ranks on one node share (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`
//! gives them): each table a solver asks for is one file that every rank of the node maps, so
//! a probe of an entry another rank stored is a plain load, as between threads. The file is
//! on a tmpfs of the job's own in huge pages ([`HugeSharedFile`]); where the host allows no
//! such mount (or [`HUGE_FILES`] is `0`), it is an MPI-3 shared-memory window
//! (`MPI_Win_allocate_shared`), a file of `/dev/shm`, in whatever pages that mount gives.
//!
//! Across nodes, each region is also a window over the world ([`ClusterRegion`]): a table
//! keeps the entries of the positions another node owns on that node, reached by one-sided
//! atomics, so the nodes' tables are one table of their sum (unless [`CROSS_NODE`] is `0`).
//!
//! With [`SEPARATE_RANKS`] set, every rank is a node of its own (its own table): the
//! cross-node path of a distributed solve, testable on one machine.

use std::ffi::c_void;
use std::sync::Mutex;

use dakon_solver::search_memory::{LentMemory, SearchMemory};
use mpi::collective::{CommunicatorCollectives, Root, SystemOperation};
use mpi::topology::{Color, Communicator, SimpleCommunicator};
use mpi::traits::AsRaw;

use crate::cluster::Cluster;
use crate::cluster_region::ClusterRegion;
use crate::huge_shared_file::{HugeSharedFile, SharedMapping};

/// The environment variable that makes every rank its own node (any value but `0`).
pub const SEPARATE_RANKS: &str = "DAKON_MPI_SEPARATE_RANKS";

/// The environment variable that, set to `0`, keeps each node's table to itself (as before
/// the nodes shared one).
pub const CROSS_NODE: &str = "DAKON_MPI_CROSS_NODE";

/// The environment variable that, set to `0`, puts the node's tables in MPI windows of
/// `/dev/shm` instead of files of a tmpfs of the job's own in huge pages.
pub const HUGE_FILES: &str = "DAKON_MPI_HUGE_FILES";

/// The ranks of this node, lending their solvers shared windows.
pub struct NodeMemory {
    node: SimpleCommunicator,
    /// The nodes each region is shared with; `None` when the regions stay on the node.
    cluster: Option<Nodes>,
    /// Why the last region lent is not in a file of huge pages, if it is not.
    fallback: Mutex<Option<String>>,
}

/// The nodes of a job, as the regions shared across them see them.
struct Nodes {
    /// The world's copy the windows are made over.
    world: SimpleCommunicator,
    /// The first rank of every node, in order: the one exposing the node's regions.
    leaders: Vec<i32>,
    /// This rank's node, its place in `leaders`.
    node: usize,
    /// Boards with at least this many seeds keep their entries on their owner node.
    shared_from: u32,
}

// SAFETY: the communicator is only used by `lend`, which the solver calls while it is built,
// on the thread that joined MPI (see `Cluster::join`); MPI handles are plain values.
unsafe impl Send for NodeMemory {}
unsafe impl Sync for NodeMemory {}

impl NodeMemory {
    /// The ranks of `cluster` on this node (all ranks must call it): those that share memory,
    /// or this rank alone when [`SEPARATE_RANKS`] says so. Across nodes, the boards with at
    /// least `shared_from` seeds keep their entries on the node that owns them.
    pub fn join(cluster: &Cluster, shared_from: u32) -> NodeMemory {
        let world = cluster.world();
        let node = if separate_ranks() {
            world.split_by_color(Color::with_value(world.rank())).expect("every rank gives a colour")
        } else {
            world.split_shared(world.rank())
        };
        let mut leader = world.rank();
        node.process_at_rank(0).broadcast_into(&mut leader);
        let mut leaders = vec![0i32; world.size() as usize];
        world.all_gather_into(&leader, &mut leaders[..]);
        leaders.sort_unstable();
        leaders.dedup();
        let wanted = std::env::var_os(CROSS_NODE).is_none_or(|v| v != "0");
        // Every rank sees the same leaders and, under one launch, the same environment and
        // threading level, so all or none make the collective windows of `lend`.
        let shared = wanted && leaders.len() > 1 && cluster.threads_may_call_mpi();
        let cluster = shared.then(|| {
            let node = leaders.iter().position(|&l| l == leader).expect("this node's first rank is a leader");
            Nodes { world: world.duplicate(), leaders, node, shared_from }
        });
        NodeMemory { node, cluster, fallback: Mutex::new(None) }
    }

    /// Ranks on this node.
    pub fn ranks(&self) -> usize {
        self.node.size() as usize
    }

    /// This rank's number on its node.
    pub fn rank(&self) -> usize {
        self.node.rank() as usize
    }

    /// Why the regions lent so far are in an MPI window of `/dev/shm` in 4 KiB pages, if they
    /// are (on this node; the reason is the node's first rank's when it could not make the file).
    pub fn small_pages(&self) -> Option<String> {
        self.fallback().filter(|_| shared_memory_in_huge_pages() != Some(true))
    }

    /// Where the regions lent so far are, for a report: `file of huge pages` (on a tmpfs of
    /// the job's own), or `MPI window of /dev/shm in huge pages` or `... in 4 KiB pages (why)`.
    pub fn table_memory(&self) -> String {
        match self.fallback() {
            None => "file of huge pages".to_string(),
            Some(_) if shared_memory_in_huge_pages() == Some(true) => "MPI window of /dev/shm in huge pages".to_string(),
            Some(why) => format!("MPI window of /dev/shm in 4 KiB pages ({why})"),
        }
    }

    /// Why the last region lent is in an MPI window, if it is.
    fn fallback(&self) -> Option<String> {
        self.fallback.lock().expect("no rank panics holding it").clone()
    }

    /// `bytes` of a file of huge pages that every rank of the node maps (collective on the
    /// node), or why not (on every rank of the node alike, or on none).
    fn huge_file(&self, bytes: usize) -> Result<SharedMapping, String> {
        if std::env::var_os(HUGE_FILES).is_some_and(|v| v == "0") {
            return Err(format!("{HUGE_FILES}=0"));
        }
        let created = (self.node.rank() == 0).then(|| HugeSharedFile::create(bytes));
        let mut locator = [0i32; 3];
        if let Some(Ok(file)) = &created {
            let (pid, fd) = file.locator();
            locator = [1, pid, fd];
        }
        self.node.process_at_rank(0).broadcast_into(&mut locator[..]);
        let mapped = match (&created, locator) {
            (Some(Err(e)), _) => Err(e.to_string()),
            (_, [0, ..]) => Err("the node's first rank could not make the file".to_string()),
            (Some(Ok(file)), _) => file.map(bytes).map_err(|e| format!("mmap: {e}")),
            (None, [_, pid, fd]) => HugeSharedFile::open(pid, fd).and_then(|file| file.map(bytes)).map_err(|e| e.to_string()),
        };
        // The first rank's descriptor stays open (`created`) until every rank has opened it.
        let (mine, mut all) = (mapped.is_ok() as i32, 0);
        self.node.all_reduce_into(&mine, &mut all, SystemOperation::min());
        drop(created);
        match (mapped, all) {
            (Ok(mapping), 1) => Ok(mapping),
            (Err(e), _) => Err(e),
            (Ok(_), _) => Err("another rank of the node could not open or map the file".to_string()),
        }
    }

    /// `bytes` of an MPI shared window of the node (collective on the node), zeroed: the
    /// node's first rank allocates, all map it, each zeroes a share, and none goes on before
    /// all have.
    fn window(&self, bytes: usize) -> *mut u8 {
        let mine = if self.node.rank() == 0 { bytes + 64 } else { 0 };
        let mut base: *mut c_void = std::ptr::null_mut();
        let mut window: mpi::ffi::MPI_Win = unsafe { std::mem::zeroed() };
        // SAFETY: the arguments are valid for the duration of the calls; MPI writes the
        // window handle and base pointers we pass.
        unsafe {
            let code = mpi::ffi::MPI_Win_allocate_shared(
                mine as mpi::ffi::MPI_Aint,
                1,
                mpi::ffi::RSMPI_INFO_NULL,
                self.node.as_raw(),
                &mut base as *mut *mut c_void as *mut c_void,
                &mut window,
            );
            assert_eq!(code, 0, "MPI_Win_allocate_shared of {bytes} bytes failed");
            let (mut size, mut unit) = (0 as mpi::ffi::MPI_Aint, 0);
            let code = mpi::ffi::MPI_Win_shared_query(window, 0, &mut size, &mut unit, &mut base as *mut *mut c_void as *mut c_void);
            assert_eq!(code, 0, "MPI_Win_shared_query failed");
        }
        let base = base as *mut u8;
        // Every process maps the segment at a page boundary, so the offset is the same on all.
        let start = base.wrapping_add(base.align_offset(64));
        let (ranks, rank) = (self.ranks(), self.rank());
        let share = bytes.div_ceil(ranks);
        let from = (rank * share).min(bytes);
        // SAFETY: `start..start + bytes` lies in the window; each rank zeroes its own share.
        unsafe { std::ptr::write_bytes(start.add(from), 0, share.min(bytes - from)) };
        self.node.barrier();
        // The window is never freed: `MPI_Win_free` is collective, and each rank drops its
        // solver when it is done with it, not at one moment of the job; the memory goes when
        // the process ends.
        start
    }
}

/// Whether the node's shared tables can be in huge pages, from `/proc/mounts` and
/// `/sys/kernel/mm/transparent_hugepage/shmem_enabled`; `None` where they cannot be read.
///
/// Open MPI keeps a shared window in a file of `/dev/shm`, which is in huge pages only if that
/// mount says `huge=always` or `huge=within_size` (or `shmem_enabled` is `force`); else the
/// ranks' table is in 4 KiB pages, and a search without endgame tables waits on the TLB
/// (`docs/DISTRIBUTED.md`, "How a solve is shared").
pub fn shared_memory_in_huge_pages() -> Option<bool> {
    let forced = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/shmem_enabled").is_ok_and(|s| s.contains("[force]"));
    let mounts = std::fs::read_to_string("/proc/mounts").ok()?;
    Some(forced || dev_shm_in_huge_pages(&mounts))
}

/// Whether the last mount of `/dev/shm` in `mounts` (as `/proc/mounts` lists them) asks for
/// huge pages for every file.
fn dev_shm_in_huge_pages(mounts: &str) -> bool {
    let options = mounts.lines().filter_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(1) == Some(&"/dev/shm")).then(|| fields.get(3).copied().unwrap_or_default())
    });
    options.last().is_some_and(|options| options.split(',').any(|o| o == "huge=always" || o == "huge=within_size"))
}

/// Whether [`SEPARATE_RANKS`] is set.
pub fn separate_ranks() -> bool {
    std::env::var_os(SEPARATE_RANKS).is_some_and(|v| v != "0")
}

impl SearchMemory for NodeMemory {
    /// Collective on the node: a file of huge pages if the node can make one, else an MPI
    /// window (see [`NodeMemory::huge_file`] and [`NodeMemory::window`]).
    fn lend(&self, bytes: usize) -> LentMemory {
        let (start, kept): (*mut u8, Box<dyn Send + Sync>) = match self.huge_file(bytes) {
            Ok(mapping) => {
                *self.fallback.lock().expect("no rank panics holding it") = None;
                let start = mapping.as_ptr();
                if self.cluster.is_some() {
                    // Other nodes may reach into it until this process ends, as into a window.
                    std::mem::forget(mapping);
                    (start, Box::new(()))
                } else {
                    (start, Box::new(mapping))
                }
            }
            Err(why) => {
                *self.fallback.lock().expect("no rank panics holding it") = Some(why);
                (self.window(bytes), Box::new(()))
            }
        };
        // SAFETY: the region is zeroed, aligned to 64 and `bytes` long, and stays mapped while
        // `kept` lives (a window, or a mapping other nodes reach, until the process ends).
        let lent = unsafe { LentMemory::new(start, kept) };
        match &self.cluster {
            Some(nodes) => {
                let exposes = self.node.rank() == 0;
                // SAFETY: the region stays mapped for the process's life (above).
                let region = unsafe {
                    ClusterRegion::new(nodes.world.as_raw(), start, bytes, exposes, nodes.leaders.clone(), nodes.node, nodes.shared_from)
                };
                lent.with_peers(Box::new(region))
            }
            None => lent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::dev_shm_in_huge_pages;

    #[test]
    fn dev_shm_is_in_huge_pages_only_when_its_last_mount_says_so() {
        let plain = "proc /proc proc rw 0 0\ntmpfs /dev/shm tmpfs rw,relatime,size=24683792k 0 0\n";
        assert!(!dev_shm_in_huge_pages(plain));
        for huge in ["always", "within_size"] {
            let mounted = format!("tmpfs /dev/shm tmpfs rw,relatime,size=24683792k,huge={huge} 0 0\n");
            assert!(dev_shm_in_huge_pages(&mounted), "{mounted}");
            assert!(!dev_shm_in_huge_pages(&format!("{mounted}{plain}")), "a later mount wins");
            assert!(dev_shm_in_huge_pages(&format!("{plain}{mounted}")), "a later mount wins");
        }
        for other in ["never", "advise", "deny"] {
            assert!(!dev_shm_in_huge_pages(&format!("tmpfs /dev/shm tmpfs rw,huge={other} 0 0\n")), "{other}");
        }
        assert!(!dev_shm_in_huge_pages("tmpfs /run tmpfs rw,huge=always 0 0\n"), "another mount");
        assert!(!dev_shm_in_huge_pages(""));
    }
}
