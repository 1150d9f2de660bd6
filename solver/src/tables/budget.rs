//! The memory budget of a table build (`--memory-mb`): before a tier is started, whether the
//! memory it will hold fits, and if not, the figures and the rank count of a partitioned
//! build (`dakon-mpi`) at which each rank's share would.
//!
//! One process holds every lower tier a byte a position and the tier being built two bytes a
//! position. A rank of a partitioned build holds its shards of the lower tiers packed (under
//! 4 bits a position), its share of the tier being built at two bytes a position, that share
//! packed once it is solved, and the buffers of one round of requests.

use super::error::TableError;
use super::shard::ShardMap;

/// Bytes a position of a finished tier takes packed, for estimates: 3.48 bits of lines and the
/// exceptions, rounded up.
const PACKED_BYTES_PER_POSITION: f64 = 0.5;

/// Bytes a position of the tier being built takes: its value and mark, or its order.
const BUILDING_BYTES_PER_POSITION: u64 = 2;

/// Bytes of one round of a partitioned level: the moves of the positions of a round, their
/// successors' keys and values sorted for the owners, and the messages.
pub const ROUND_BYTES: u64 = 8 << 20;

/// This process's resident memory now (`VmRSS`), 0 where the system does not say.
pub fn resident_bytes() -> u64 {
    status_kib("VmRSS:") * 1024
}

/// This process's peak resident memory so far (`VmHWM`), 0 where the system does not say.
pub fn peak_resident_bytes() -> u64 {
    status_kib("VmHWM:") * 1024
}

/// A `kB` line of `/proc/self/status`.
fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field)).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

/// What a tier of `tier_size` positions needs of each of `ranks` ranks, beside `fixed` bytes
/// (the program and its buffers) and the packed shards of the `lower_positions` below it.
fn rank_need(fixed: u64, lower_positions: u64, tier_size: u64, ranks: usize) -> u64 {
    let share = ShardMap::new(0, ranks).largest_count(tier_size);
    let packed = (lower_positions + share) as f64 * PACKED_BYTES_PER_POSITION;
    fixed + (packed / ranks as f64) as u64 + share * BUILDING_BYTES_PER_POSITION
}

/// The fewest ranks (up to 2^16) whose share of tier `tier_size` fits `limit` bytes each,
/// `fixed` bytes of a rank apart from the shards (a round's buffers included).
fn ranks_that_fit(limit: u64, fixed: u64, lower_positions: u64, tier_size: u64) -> Option<usize> {
    (2..=1 << 16).find(|&n| rank_need(fixed, lower_positions, tier_size, n) <= limit)
}

fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// The partitioned advice of a refusal.
fn advice(limit: u64, fixed: u64, lower_positions: u64, tier_size: u64) -> String {
    match ranks_that_fit(limit, fixed, lower_positions, tier_size) {
        Some(n) => format!(
            "a build partitioned among {n} ranks would need about {} MiB a rank (mpirun -np {n} dakon tables build ...)",
            mib(rank_need(fixed, lower_positions, tier_size, n))
        ),
        None => "no rank count up to 65536 fits: the program alone takes more".into(),
    }
}

/// Fails unless one process building tier `seeds` (`tier_size` positions) fits `limit`
/// bytes, holding `resident` bytes now, of which `lower_bytes` are the lower tiers
/// (`lower_positions` of them, a byte each).
///
/// # Errors
/// [`TableError::OverBudget`] with the estimate and the rank count that would fit.
pub fn check_one_process(seeds: u32, limit: u64, resident: u64, lower_positions: u64, tier_size: u64) -> Result<(), TableError> {
    let need = resident + tier_size * BUILDING_BYTES_PER_POSITION;
    if need <= limit {
        return Ok(());
    }
    // A rank also holds a round's buffers, which one process does not.
    let fixed = resident.saturating_sub(lower_positions) + ROUND_BYTES;
    Err(TableError::OverBudget {
        seeds,
        detail: format!(
            "one process needs about {} MiB ({} MiB now, with {lower_positions} positions of lower tiers, and 2 bytes for each of the tier's {tier_size} positions), over --memory-mb {}; {}",
            mib(need),
            mib(resident),
            mib(limit),
            advice(limit, fixed, lower_positions, tier_size)
        ),
    })
}

/// The bytes a rank of `ranks` building tier `seeds` (`tier_size` positions) is estimated to
/// need, holding `resident` bytes now (a round's buffers included, once a tier was built), of
/// which `own_lower_bytes` are its shards of the `lower_positions` below (over all ranks);
/// fails if they pass `limit`.
///
/// # Errors
/// [`TableError::OverBudget`] with the estimate and the rank count that would fit.
pub fn check_rank(
    seeds: u32,
    limit: u64,
    ranks: usize,
    resident: u64,
    own_lower_bytes: u64,
    lower_positions: u64,
    tier_size: u64,
) -> Result<u64, TableError> {
    let fixed = resident.saturating_sub(own_lower_bytes);
    let need = rank_need(fixed, lower_positions, tier_size, ranks);
    if need <= limit {
        return Ok(need);
    }
    Err(TableError::OverBudget {
        seeds,
        detail: format!(
            "each of {ranks} ranks needs about {} MiB ({} MiB now, and its share of the tier's {tier_size} positions), over --memory-mb {}; {}",
            mib(need),
            mib(resident),
            mib(limit),
            advice(limit, fixed, lower_positions, tier_size)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tier_over_the_budget_names_the_ranks_that_would_fit() {
        let (tier, lower) = (200_000_000, 400_000_000);
        assert!(check_one_process(22, 2 << 30, 100 << 20, lower, tier).is_ok());
        let refused = check_one_process(22, 300 << 20, 500 << 20, lower, tier).unwrap_err().to_string();
        assert!(refused.contains("over --memory-mb 300") && refused.contains("mpirun -np"), "{refused}");
        let n = ranks_that_fit(300 << 20, 100 << 20, lower, tier).unwrap();
        assert!(rank_need(100 << 20, lower, tier, n) <= 300 << 20 && rank_need(100 << 20, lower, tier, n - 1) > 300 << 20);
        assert!(check_rank(22, 300 << 20, n, 100 << 20, 0, lower, tier).is_ok());
        assert!(check_rank(22, 300 << 20, n - 1, 100 << 20, 0, lower, tier).is_err());
        assert!(advice(1 << 20, 2 << 20, lower, tier).contains("no rank count"));
    }
}
