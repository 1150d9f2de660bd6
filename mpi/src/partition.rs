//! The counts and displacements of a variable-count collective (`MPI_Allgatherv`,
//! `MPI_Gatherv`), from each rank's message length, within MPI's `int` counts.

use dakon_solver::tables::TableError;
use mpi::Count;

/// A message length as an MPI count (`seeds` names the tier in the error).
pub(crate) fn message_count(bytes: u64, seeds: u32) -> Result<Count, TableError> {
    Count::try_from(bytes).map_err(|_| TableError::Shared {
        seeds,
        detail: format!("a message of {bytes} bytes is beyond MPI's 2 GiB count: use more ranks"),
    })
}

/// Where each rank's message starts in the gathered buffer.
pub(crate) fn displacements(counts: &[Count], seeds: u32) -> Result<Vec<Count>, TableError> {
    let mut start: Count = 0;
    counts
        .iter()
        .map(|&c| {
            let at = start;
            start = start.checked_add(c).ok_or_else(|| TableError::Shared {
                seeds,
                detail: "the gathered messages exceed MPI's 2 GiB count: use more ranks".into(),
            })?;
            Ok(at)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_follow_each_other_and_too_long_ones_are_refused() {
        assert_eq!(displacements(&[3, 0, 5, 1], 7).unwrap(), vec![0, 3, 3, 8]);
        assert!(displacements(&[Count::MAX, 1], 7).is_err());
        assert_eq!(message_count(12, 7).unwrap(), 12);
        assert!(message_count(1 << 31, 7).is_err());
    }
}
