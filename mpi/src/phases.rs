//! Where a rank's time goes in a shared table build, to see what keeps the build from
//! scaling: its own work, or waiting for the others.

use std::time::{Duration, Instant};

/// Wall time and CPU time (all the process's threads) spent in one phase. Unlike the wall
/// time, the CPU time hardly changes with the load of other processes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    /// Wall time.
    pub wall: Duration,
    /// CPU time, user and system.
    pub cpu: Duration,
}

/// A rank's time in each phase of a shared build, summed over the tiers it built.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phases {
    /// Sorting its positions of each tier by level of `tier_order`.
    pub sort: Spent,
    /// Solving its positions, level by level, and encoding its level messages.
    pub solve: Spent,
    /// In the level exchanges: waiting for the slowest rank, and the transfers (its CPU time
    /// is Open MPI polling).
    pub exchange: Spent,
    /// Recording the values the other ranks found.
    pub record: Spent,
    /// Encoding its share of each tier file's blocks.
    pub encode: Spent,
    /// Gathering the encoded blocks on rank 0, and rank 0 writing the file.
    pub write: Spent,
    /// The CPU time of the slowest rank's solving, summed over the levels: with every rank on
    /// cores of its own, what the solving takes (each level waits for the slowest rank).
    pub slowest_solve_cpu: Duration,
}

impl Phases {
    /// What the build would take with every rank on idle cores of its own, from the CPU
    /// times: each level's slowest rank, this rank's sort, record and encode (the ranks'
    /// shares are alike), and the wall time of the writing. Per thread: with `t` threads a
    /// rank, the CPU times are divided by `t`.
    pub fn on_idle_cores(&self, threads: usize) -> Duration {
        (self.slowest_solve_cpu + self.sort.cpu + self.record.cpu + self.encode.cpu) / threads.max(1) as u32 + self.write.wall
    }
}

/// The CPU time this process has used so far (all its threads, user and system).
pub(crate) fn process_cpu() -> Duration {
    // SAFETY: zeroes are a valid `rusage`, which `getrusage` fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable `rusage`.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `work`, adding its wall and CPU time to `phase`.
pub(crate) fn timed<T>(phase: &mut Spent, work: impl FnOnce() -> T) -> T {
    let (started, cpu) = (Instant::now(), process_cpu());
    let result = work();
    phase.wall += started.elapsed();
    phase.cpu += process_cpu().saturating_sub(cpu);
    result
}
