//! The probe cost of the endgame tables, in memory one byte a position (format 1's reader)
//! against the compact tiers: the same random positions of one tier probed through the
//! search's path (seeds on the board, index, value). `scripts/bench-tables` runs it:
//! `cargo run --release -p dakon-solver --example table_probe -- DIR HOLES TIER [PROBES] [--once]`.
//!
//! Each probe is summed over all positions by a function of its own, never inlined
//! ([`sum_plain`], [`sum_compact`]), so that callgrind can count the instructions of each
//! alone: with `--once` each runs once, untimed, for
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*sum_plain*' --toggle-collect='*sum_compact*'`.

use std::path::Path;
use std::time::Instant;

use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::tables::{TableSet, TierValues};
use dakon_solver::tier_layout::TierLayout;

/// The values of `positions` summed, each read from `bytes` (a byte a position per tier).
#[inline(never)]
fn sum_plain(rules: &Dakon, bytes: &[Vec<u8>], positions: &[Position]) -> i64 {
    positions.iter().map(|p| bytes[rules.seeds_on_board(p) as usize][rules.index(p) as usize] as i8 as i64).sum()
}

/// The values of `positions` summed, each probed in the compact tiers as the search does.
#[inline(never)]
fn sum_compact(tables: &TableSet<Dakon>, positions: &[Position]) -> i64 {
    positions.iter().map(|p| tables.probe(p).expect("a loaded tier") as i64).sum()
}

/// A way to probe positions: the sum of the values found.
type Probe<'a> = &'a dyn Fn(&[Position]) -> i64;

/// Nanoseconds per probe of `positions` with each of two probes, rounds interleaved (so that
/// the load of a shared machine falls on both alike): the median of `rounds` rounds each, and
/// the sums of the values found.
fn median_ns(positions: &[Position], rounds: usize, probes: [Probe<'_>; 2]) -> [(f64, i64); 2] {
    let mut times = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    let mut sums = [0i64; 2];
    for _ in 0..rounds {
        for (which, probe) in probes.iter().enumerate() {
            let started = Instant::now();
            sums[which] += probe(positions);
            times[which].push(started.elapsed().as_secs_f64() * 1e9 / positions.len() as f64);
        }
    }
    [0, 1].map(|which| {
        times[which].sort_by(f64::total_cmp);
        (times[which][rounds / 2], sums[which])
    })
}

/// `len` zeroed bytes, their 2 MiB-aligned interior advised for huge pages before any is touched.
fn huge_page_bytes(len: usize) -> Vec<u8> {
    const HUGE_PAGE: usize = 2 << 20;
    let mut bytes = vec![0u8; len];
    let skip = bytes.as_mut_ptr().align_offset(HUGE_PAGE).min(len);
    let advised = (len - skip) / HUGE_PAGE * HUGE_PAGE;
    if advised > 0 {
        // SAFETY: advice on part of our own fresh allocation; it changes only how it is backed.
        unsafe { libc::madvise(bytes.as_mut_ptr().add(skip) as *mut libc::c_void, advised, libc::MADV_HUGEPAGE) };
    }
    bytes
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: table_probe DIR HOLES TIER [PROBES] [--once]";
    let once = args.iter().any(|a| a == "--once");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--once").collect();
    let dir = Path::new(args.get(1).expect(usage));
    let holes: usize = args.get(2).expect(usage).parse().expect(usage);
    let tier: u32 = args.get(3).expect(usage).parse().expect(usage);
    let probes: usize = args.get(4).map_or(4_000_000, |p| p.parse().expect(usage));
    let rules = Dakon::new(holes).expect("a board of 1 to 9 holes");

    let started = Instant::now();
    let tables = TableSet::open_up_to(&rules, dir, tier).expect("readable tables").expect("tables in DIR");
    let load = started.elapsed().as_secs_f64();
    let tiers = tables.loaded_tiers();
    assert_eq!(tiers.len(), tier as usize + 1, "tiers 0..={tier} in {}", dir.display());
    // The byte a position that the reader held before the compact tiers, in huge pages as
    // it was (`memory::zeroed_bytes`).
    let bytes: Vec<Vec<u8>> = tiers
        .iter()
        .map(|t| {
            let mut values = huge_page_bytes(t.entries() as usize);
            values.iter_mut().enumerate().for_each(|(i, v)| *v = t.value_at(i as u64) as u8);
            values
        })
        .collect();

    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let positions: Vec<_> = (0..probes)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            rules.position_at(tier, state % rules.tier_size(tier))
        })
        .collect();
    if once {
        let (plain, compact) = (sum_plain(&rules, &bytes, &positions), sum_compact(&tables, &positions));
        assert_eq!(plain, compact, "both give the same values");
        println!("holes {holes} tier {tier}: {probes} probes of each kind, once (for callgrind)");
        return;
    }
    let plain_probe = |p: &[Position]| sum_plain(&rules, &bytes, p);
    let compact_probe = |p: &[Position]| sum_compact(&tables, p);
    let [(plain, plain_sum), (compact, compact_sum)] = median_ns(&positions, 9, [&plain_probe, &compact_probe]);
    assert_eq!(plain_sum, compact_sum, "both give the same values");
    println!(
        "holes {holes} tier {tier}: {} positions, {probes} random probes; load (tiers 0..={tier}) {load:.2} s; \
         one byte a position {plain:.1} ns/probe, compact {compact:.1} ns/probe: ratio {:.3}; compact tiers {} bytes, {:.3} bits/position",
        rules.tier_size(tier),
        compact / plain,
        tables.bytes(),
        8.0 * tables.bytes() as f64 / tiers.iter().map(|t| t.entries()).sum::<u64>() as f64
    );
}
