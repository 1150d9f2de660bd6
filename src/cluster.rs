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
