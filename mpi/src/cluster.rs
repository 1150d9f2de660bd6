//! Joining the MPI job this process was launched in.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mpi::collective::CommunicatorCollectives;
use mpi::environment::Universe;
use mpi::topology::{Communicator, SimpleCommunicator};

/// How long a rank with nothing to do sleeps between looks for a message or for the other
/// ranks: MPI's blocking calls spin while they wait, which takes a core from the work (this
/// rank's own threads, or another rank's on the same cores).
pub(crate) const IDLE_POLL: Duration = Duration::from_micros(200);

/// Raised by SIGTERM once [`Cluster::watch_termination`] installed its handler.
static TERMINATED: AtomicBool = AtomicBool::new(false);

extern "C" fn note_termination(_signal: libc::c_int) {
    // Only an atomic store: all a signal handler may safely do here.
    TERMINATED.store(true, Ordering::SeqCst);
}

/// The environment variables by which launchers announce an MPI job: Open MPI's `mpirun`,
/// PMI (MPICH's Hydra, Slurm's `srun --mpi=pmi2`) and PMIx (`srun --mpi=pmix`, Open MPI 5).
const LAUNCHER_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"];

/// This process's place in an MPI job of at least two ranks. MPI is finalized when it is
/// dropped.
pub struct Cluster {
    /// Keeps MPI initialized.
    _universe: Universe,
    world: SimpleCommunicator,
    /// Whether MPI granted `MPI_THREAD_MULTIPLE`.
    multiple: bool,
}

/// Open MPI's setting for a rank waiting in a collective: spin (its default) or yield the core
/// between polls. On cores that other processes share (a loaded machine, more threads than
/// cores), a spinning rank takes the core from the rank it waits for, and a table build waits
/// at every level, so ranks yield unless the user set it.
const YIELD_WHEN_IDLE: &str = "OMPI_MCA_mpi_yield_when_idle";

impl Cluster {
    /// Joins the MPI job if a launcher started this process in one of more than one rank;
    /// `None` otherwise (no launcher, or a single rank: the program then runs as it does
    /// without MPI). MPI is initialized only under a launcher, so a plain run never starts
    /// MPI's singleton machinery.
    ///
    /// MPI is asked for its "multiple" threading level: the messages of each rank go through
    /// the thread that calls this, but the search threads reach the tables of other nodes
    /// themselves (see [`crate::NodeMemory`]), which they only do when MPI granted it.
    pub fn join() -> Option<Cluster> {
        if !LAUNCHER_VARIABLES.iter().any(|v| std::env::var_os(v).is_some()) {
            return None;
        }
        if std::env::var_os(YIELD_WHEN_IDLE).is_none() {
            std::env::set_var(YIELD_WHEN_IDLE, "1");
        }
        let (universe, threading) = mpi::initialize_with_threading(mpi::Threading::Multiple)?;
        let world = universe.world();
        let multiple = threading == mpi::Threading::Multiple;
        (world.size() > 1).then_some(Cluster { _universe: universe, world, multiple })
    }

    /// Whether any thread of this rank may call MPI (`MPI_THREAD_MULTIPLE` was granted).
    pub fn threads_may_call_mpi(&self) -> bool {
        self.multiple
    }

    /// This rank's number, `0..size`.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// The ranks in the job.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Whether this is rank 0, which prints the results and writes the files.
    pub fn is_root(&self) -> bool {
        self.rank() == 0
    }

    /// Worker threads a rank should use by default: the cores divided among the ranks that
    /// share this node (`OMPI_COMM_WORLD_LOCAL_SIZE` or Slurm's `SLURM_NTASKS_PER_NODE`,
    /// else all ranks), at least 1.
    pub fn default_threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let local = ["OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"]
            .iter()
            .find_map(|v| std::env::var(v).ok()?.parse::<usize>().ok())
            .unwrap_or(self.size());
        (cores / local.max(1)).max(1)
    }

    /// Ends every rank of the job with `code`, after this rank printed why: a rank that
    /// failed alone would leave the others waiting in a collective exchange forever.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// From now on SIGTERM only raises a flag ([`Cluster::terminated`]) instead of ending
    /// this process. `mpirun` ends a job whose rank died by sending SIGTERM to the others
    /// (SIGKILL follows a few seconds later): with this, rank 0 of a solve can still say
    /// what it proved and why it stops.
    pub fn watch_termination(&self) {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe { libc::signal(libc::SIGTERM, note_termination as extern "C" fn(libc::c_int) as libc::sighandler_t) };
    }

    /// Whether SIGTERM arrived since [`Cluster::watch_termination`].
    pub fn terminated(&self) -> bool {
        TERMINATED.load(Ordering::SeqCst)
    }

    pub(crate) fn world(&self) -> &SimpleCommunicator {
        &self.world
    }

    /// The world communicator, once every rank has reached this call: for a collective that
    /// ranks reach after unequal shares of work. The wait is a non-blocking barrier polled
    /// with sleeps of [`IDLE_POLL`], where MPI's collective would spin (Open MPI's
    /// `mpi_yield_when_idle` only yields between spins, so the waiting ranks still take
    /// their share of cores the working ranks need).
    pub(crate) fn all_arrived(&self) -> &SimpleCommunicator {
        let mut barrier = self.world.immediate_barrier();
        loop {
            match barrier.test() {
                Ok(_) => return &self.world,
                Err(pending) => {
                    barrier = pending;
                    std::thread::sleep(IDLE_POLL);
                }
            }
        }
    }
}
