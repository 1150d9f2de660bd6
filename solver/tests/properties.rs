//! Properties of the engine that must hold for every position: notation and key round trips,
//! the perfect index is a bijection, moves conserve seeds and gain no more than the board
//! holds, and the two players are mirror images of each other.

use crate::reference;

use dakon_solver::tier_layout::TierLayout;
use std::collections::HashSet;

use dakon_solver::composition;
use dakon_solver::dakon::{Dakon, Key, Player, Position};
use dakon_solver::rules::Rules;
use dakon_solver::transposition_key::TranspositionKey;
use proptest::prelude::*;
use reference::notation;

/// Splits `total` seeds into `parts` parts at the sorted cut points `cuts` (values in
/// `0..=total`, one fewer than `parts`).
fn split(total: u32, mut cuts: Vec<u32>) -> Vec<u8> {
    cuts.sort_unstable();
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    let mut last = 0;
    for cut in cuts.into_iter().chain([total]) {
        parts.push((cut - last) as u8);
        last = cut;
    }
    parts
}

fn player(one: bool) -> Player {
    if one {
        Player::One
    } else {
        Player::Zero
    }
}

/// A valid position from `2n` hole counts and two store counts (`[S1, S0]`).
fn assemble(n: usize, seeds: &[u8], one: bool) -> Position {
    Position::from_rows(&seeds[..n], &seeds[n..2 * n], [seeds[2 * n], seeds[2 * n + 1]], player(one)).unwrap()
}

/// Any valid position: 1 to 9 holes a row, up to 255 seeds spread over holes and stores
/// (spread evenly, or a few seeds a hole), either player to move.
fn position() -> impl Strategy<Value = Position> {
    let spread = (1usize..=9, 0u32..=255).prop_flat_map(|(n, total)| {
        (Just(n), Just(total), prop::collection::vec(0..=total, 2 * n + 1), any::<bool>())
            .prop_map(|(n, total, cuts, one)| assemble(n, &split(total, cuts), one))
    });
    let sparse = (1usize..=9).prop_flat_map(|n| {
        (Just(n), prop::collection::vec(prop_oneof![Just(0u8), 0u8..=4], 2 * n), 0u8..=60, 0u8..=60, any::<bool>()).prop_map(
            |(n, mut seeds, s1, s0, one)| {
                seeds.extend([s1, s0]);
                assemble(n, &seeds, one)
            },
        )
    });
    prop_oneof![spread, sparse]
}

/// A 9-hole board with one hole of more than 127 seeds (the key's rank-based layout).
fn big_hole_position() -> impl Strategy<Value = Position> {
    (128u32..=255, 0usize..18, any::<bool>()).prop_flat_map(|(big, at, one)| {
        (0..=255 - big).prop_flat_map(move |rest| {
            prop::collection::vec(0..=rest, 19).prop_map(move |cuts| {
                let mut seeds = split(rest, cuts);
                seeds[at] += big as u8;
                assemble(9, &seeds, one)
            })
        })
    })
}

fn seeds_in_all(p: &Position) -> u32 {
    p.seeds_on_board() + p.store(Player::Zero) as u32 + p.store(Player::One) as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn notation_round_trip(p in position()) {
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>(), Ok(p));
        // The reference reads the same numbers from it.
        prop_assert_eq!(notation::format(&notation::parse(&text).unwrap()), text);
    }

    #[test]
    fn key_round_trip(p in prop_oneof![position(), big_hole_position()]) {
        let n = p.holes();
        let key = Key::of(&p);
        let board = key.board(n);
        prop_assert_eq!(board, p.board_only().with_mover(Player::Zero));
        prop_assert_eq!(Key::of(&board), key);
        // Stores and the mover's name do not enter the key.
        prop_assert_eq!(Key::of(&p.with_mover(p.mover().other())), key);
        prop_assert_eq!(Dakon::new(n).unwrap().key(&p), key);
    }

    /// Only tiers whose size fits the index's 64 bits (for n = 9 up to 88 seeds);
    /// `rank_round_trip` covers the larger boards.
    #[test]
    fn index_round_trip(p in position()) {
        let rules = Dakon::new(p.holes()).unwrap();
        let seeds = p.seeds_on_board();
        if composition::count(seeds as usize, 2 * p.holes()) > u64::MAX as u128 {
            return Ok(());
        }
        let index = rules.index(&p);
        prop_assert!(index < rules.tier_size(seeds));
        let back = rules.position_at(seeds, index);
        prop_assert_eq!(back, p.board_only().with_mover(Player::Zero));
    }

    #[test]
    fn rank_round_trip(parts in 1usize..=18, total in 0u32..=255, cuts in prop::collection::vec(any::<prop::sample::Index>(), 17)) {
        let cuts: Vec<u32> = cuts[..parts - 1].iter().map(|c| c.index(total as usize + 1) as u32).collect();
        let board = split(total, cuts);
        let rank = composition::rank(&board);
        prop_assert!(rank < composition::count(total as usize, parts));
        let mut back = vec![0u8; parts];
        composition::unrank(total as usize, rank, &mut back);
        prop_assert_eq!(back, board);
    }

    #[test]
    fn moves_conserve_seeds_and_bound_the_gain(p in position()) {
        let rules = Dakon::new(p.holes()).unwrap();
        let mover_store = |q: &Position| q.store(p.mover()) as i32 - q.store(p.mover().other()) as i32;
        for &r in rules.legal_moves(&p).as_slice() {
            let step = rules.play(&p, r);
            prop_assert_eq!(seeds_in_all(&step.next), seeds_in_all(&p), "{} move {}", p, r);
            prop_assert!(step.gain.unsigned_abs() <= p.seeds_on_board(), "{} move {}: gain {}", p, r, step.gain);
            prop_assert_eq!(step.gain, mover_store(&step.next) - mover_store(&p), "{} move {}", p, r);
        }
    }

    #[test]
    fn the_players_are_mirror_images(p in position()) {
        let q = p.with_mover(p.mover().other());
        let mirrored = notation::format(&notation::parse(&p.to_string()).unwrap().mirror());
        prop_assert_eq!(q.to_string(), mirrored);
        prop_assert_eq!(p.moves(), q.moves());
        for &r in p.moves().as_slice() {
            let (p_next, p_outcome) = p.play(r as usize);
            let (q_next, q_outcome) = q.play(r as usize);
            prop_assert_eq!(q_next, p_next.with_mover(p_next.mover().other()), "{} move {}", p, r);
            prop_assert_eq!(q_outcome.gain(q.mover()), p_outcome.gain(p.mover()));
            prop_assert_eq!((q_outcome.extra_move, q_outcome.capture, q_outcome.laps), (p_outcome.extra_move, p_outcome.capture, p_outcome.laps));
            let mirror_hole = |h: Option<u8>| h.map(|h| 2 * p.holes() as u8 - 1 - h);
            prop_assert_eq!(q_outcome.last_hole, mirror_hole(p_outcome.last_hole));
            prop_assert_eq!(q_outcome.sweep.map(|s| (s.to.other(), s.seeds)), p_outcome.sweep.map(|s| (s.to, s.seeds)));
        }
    }
}

/// Every board of `total` seeds over `parts` holes, by plain recursion.
fn all_boards(parts: usize, total: u32) -> Vec<Vec<u8>> {
    if parts == 1 {
        return vec![vec![total as u8]];
    }
    (0..=total)
        .flat_map(|first| {
            all_boards(parts - 1, total - first).into_iter().map(move |mut rest| {
                rest.insert(0, first as u8);
                rest
            })
        })
        .collect()
}

#[test]
fn rank_is_a_bijection_on_small_boards() {
    for parts in 1..=6 {
        for total in 0..=9 {
            let boards = all_boards(parts, total);
            assert_eq!(composition::count(total as usize, parts), boards.len() as u128, "count({total}, {parts})");
            let ranks: HashSet<u128> = boards.iter().map(|b| composition::rank(b)).collect();
            assert_eq!(ranks, (0..boards.len() as u128).collect::<HashSet<_>>(), "ranks of {parts} parts, {total} seeds");
            let mut back = vec![0u8; parts];
            for board in &boards {
                composition::unrank(total as usize, composition::rank(board), &mut back);
                assert_eq!(&back, board);
            }
        }
    }
}

#[test]
fn tier_index_is_a_bijection_on_small_boards() {
    for n in 1..=3 {
        let rules = Dakon::new(n).unwrap();
        for seeds in 0..=8 {
            let boards = all_boards(2 * n, seeds);
            assert_eq!(rules.tier_size(seeds), boards.len() as u64, "n = {n}, tier {seeds}");
            let mut indices = HashSet::new();
            for board in &boards {
                // Both players to move, with stores: the index depends on the board alone.
                for one in [false, true] {
                    let mut seeds_and_stores = board.clone();
                    seeds_and_stores.extend([3, 4]);
                    let p = assemble(n, &seeds_and_stores, one);
                    let index = rules.index(&p);
                    assert_eq!(rules.position_at(seeds, index), p.board_only().with_mover(Player::Zero), "{p}");
                    indices.insert((one, index));
                }
            }
            assert_eq!(indices.len(), 2 * boards.len(), "n = {n}, tier {seeds}: indices collide");
            assert!(indices.iter().all(|&(_, i)| i < rules.tier_size(seeds)));
        }
    }
}
