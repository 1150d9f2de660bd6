//! The MPI job this process runs in, if any: with `--features mpi` under a launcher with
//! more than one rank, `tables build` is shared by the ranks (docs/DISTRIBUTED.md). Without
//! the feature there never is one, and the commands run as a single process.

#[cfg(feature = "mpi")]
pub use dakon_mpi::Cluster;

/// Without the `mpi` feature no process is part of a job: this type has no values.
#[cfg(not(feature = "mpi"))]
pub enum Cluster {}

/// Joins the MPI job when a launcher started this process in one of several ranks.
pub fn join() -> Option<Cluster> {
    #[cfg(feature = "mpi")]
    return Cluster::join();
    #[cfg(not(feature = "mpi"))]
    None
}

/// Whether this process prints results: rank 0 of a job, or a process on its own.
pub fn prints(cluster: Option<&Cluster>) -> bool {
    #[cfg(feature = "mpi")]
    return cluster.is_none_or(|c| c.is_root());
    #[cfg(not(feature = "mpi"))]
    match cluster {
        None => true,
        Some(never) => match *never {},
    }
}

/// Worker threads per process by default: all cores, divided among the ranks of a job that
/// share this node.
pub fn default_threads(cluster: Option<&Cluster>) -> usize {
    match cluster {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        #[cfg(feature = "mpi")]
        Some(cluster) => cluster.default_threads(),
        #[cfg(not(feature = "mpi"))]
        Some(never) => match *never {},
    }
}

/// How this process names itself in an error message: ` (rank R of N)` in a job, else
/// nothing.
pub fn label(cluster: Option<&Cluster>) -> String {
    match cluster {
        None => String::new(),
        #[cfg(feature = "mpi")]
        Some(cluster) => format!(" (rank {} of {})", cluster.rank(), cluster.size()),
        #[cfg(not(feature = "mpi"))]
        Some(never) => match *never {},
    }
}

/// Rank 0's `bytes` on every rank of `cluster`.
pub fn broadcast_bytes(cluster: &Cluster, bytes: Vec<u8>) -> Vec<u8> {
    #[cfg(feature = "mpi")]
    return dakon_mpi::broadcast_bytes(cluster, bytes);
    #[cfg(not(feature = "mpi"))]
    {
        let _ = bytes;
        match *cluster {}
    }
}

/// Rank 0 hands out the jobs `next` gives to the other ranks and passes their answers to
/// `deliver` (see `dakon_mpi::serve_jobs`).
pub fn serve_jobs(cluster: &Cluster, next: impl Fn() -> Option<u64>, deliver: impl FnMut(u64, Vec<u8>)) {
    #[cfg(feature = "mpi")]
    dakon_mpi::serve_jobs(cluster, next, deliver);
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (next, deliver);
        match *cluster {}
    }
}

/// A rank other than 0 solves jobs from rank 0 on `slots` threads until none is left (see
/// `dakon_mpi::work_jobs`).
pub fn work_jobs(cluster: &Cluster, slots: usize, solve: impl Fn(u64) -> Vec<u8> + Sync) {
    #[cfg(feature = "mpi")]
    dakon_mpi::work_jobs(cluster, slots, solve);
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (slots, solve);
        match *cluster {}
    }
}
