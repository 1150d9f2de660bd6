//! Values asked of their owners: every rank sends each other rank the keys of the positions it
//! needs from that rank's shards (sorted, without repeats, one message per owner), and gets
//! their values back in the same order: two `MPI_Alltoallv`, keys out and values back. Every
//! rank must take part in each exchange, with nothing to ask if need be.

use dakon_solver::tables::{SuccessorKey, TableError};
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::*;
use mpi::Count;
use rayon::prelude::*;

use crate::cluster::Cluster;
use crate::partition::{displacements, message_count};

/// Keys a thread answers at a time.
const ANSWER_RUN: usize = 1 << 12;

/// The exchanges of one rank, with the bytes it sent and received.
pub(crate) struct SuccessorExchange<'c> {
    cluster: &'c Cluster,
    /// Bytes this rank sent (keys asked and values answered).
    pub(crate) sent_bytes: u64,
    /// Bytes this rank received.
    pub(crate) received_bytes: u64,
    /// Exchanges made.
    pub(crate) rounds: u64,
}

impl<'c> SuccessorExchange<'c> {
    pub(crate) fn new(cluster: &'c Cluster) -> Self {
        SuccessorExchange { cluster, sent_bytes: 0, received_bytes: 0, rounds: 0 }
    }

    /// Asks rank `r` for the values of `asked[r]` (keys it owns; none of this rank's own) and
    /// answers the keys the others ask of this rank with `answer` (`answer(keys, values)`
    /// writes the values of a run of keys, as bytes; in parallel on `pool`; the MPI calls
    /// stay on this thread, as MPI's "funneled" level requires); returns, for each rank, the
    /// values of the keys asked of it, in order. `seeds` names the tier in errors.
    ///
    /// # Errors
    /// [`TableError::Shared`] if a message passes MPI's `int` counts, and the first error of
    /// `answer`.
    pub(crate) fn fetch(
        &mut self,
        pool: &rayon::ThreadPool,
        seeds: u32,
        asked: &[Vec<SuccessorKey>],
        answer: impl Fn(&[u64], &mut [u8]) -> Result<(), TableError> + Sync,
    ) -> Result<Vec<Vec<i8>>, TableError> {
        let ranks = self.cluster.size();
        debug_assert_eq!(asked.len(), ranks);
        let send_counts = asked.iter().map(|a| message_count(a.len() as u64, seeds)).collect::<Result<Vec<Count>, _>>()?;
        let mut receive_counts = vec![0 as Count; ranks];
        self.cluster.all_arrived().all_to_all_into(&send_counts[..], &mut receive_counts[..]);
        let send_starts = displacements(&send_counts, seeds)?;
        let receive_starts = displacements(&receive_counts, seeds)?;
        let total_asked: usize = send_counts.iter().map(|&c| c as usize).sum();
        let total_received: usize = receive_counts.iter().map(|&c| c as usize).sum();
        // Never empty: MPI refuses two buffers at the same dangling address as aliased.
        let mut keys_out = Vec::with_capacity(total_asked.max(1));
        keys_out.extend(asked.iter().flatten().map(|k| k.0));
        keys_out.resize(total_asked.max(1), 0);
        let mut keys_in = vec![0u64; total_received.max(1)];
        self.cluster.world().all_to_all_varcount_into(
            &Partition::new(&keys_out[..], &send_counts[..], &send_starts[..]),
            &mut PartitionMut::new(&mut keys_in[..], &receive_counts[..], &receive_starts[..]),
        );
        let mut answers = vec![0u8; total_received.max(1)];
        pool.install(|| {
            answers[..total_received]
                .par_chunks_mut(ANSWER_RUN)
                .zip(keys_in[..total_received].par_chunks(ANSWER_RUN))
                .try_for_each(|(values, keys)| answer(keys, values))
        })?;
        let mut values = vec![0u8; total_asked.max(1)];
        self.cluster.all_arrived().all_to_all_varcount_into(
            &Partition::new(&answers[..], &receive_counts[..], &receive_starts[..]),
            &mut PartitionMut::new(&mut values[..], &send_counts[..], &send_starts[..]),
        );
        self.sent_bytes += 8 * total_asked as u64 + total_received as u64;
        self.received_bytes += 8 * total_received as u64 + total_asked as u64;
        self.rounds += 1;
        Ok(send_starts
            .iter()
            .zip(&send_counts)
            .map(|(&start, &count)| values[start as usize..(start + count) as usize].iter().map(|&v| v as i8).collect())
            .collect())
    }
}
