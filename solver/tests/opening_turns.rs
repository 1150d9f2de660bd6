//! The opening-turn search against a plain enumeration of every turn and against exact values
//! from a memoized minimax, both written here on the rules engine alone.

use std::collections::HashMap;

use dakon_solver::dakon::{Dakon, Player, Position, Side};
use dakon_solver::opening::{best_turn, Turn, TurnLimits};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const UNLIMITED: TurnLimits = TurnLimits { nodes: u64::MAX, goal: None };

fn stores(p: &Position, player: Player) -> i32 {
    p.store(player) as i32 - p.store(player.other()) as i32
}

/// The bound every complete turn of `pos`'s mover proves on their future gain, by brute force:
/// no memo, no pruning.
fn every_turn_bound(pos: &Position, at: &Position, out: &mut Vec<i32>) {
    let mover = pos.mover();
    for hole in at.legal_holes() {
        let (next, _) = at.play_hole(hole).unwrap();
        let gained = stores(&next, mover) - stores(pos, mover);
        if next.is_over() {
            let end = if next.mover() == mover { next.final_difference() } else { -next.final_difference() };
            out.push(end - stores(pos, mover));
        } else if next.mover() != mover {
            out.push(gained - next.seeds_on_board() as i32);
        } else {
            every_turn_bound(pos, &next, out);
        }
    }
}

/// The exact final store difference for the mover, by memoized minimax over the rules engine.
fn value(p: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let v = p
        .legal_holes()
        .into_iter()
        .map(|hole| {
            let (next, _) = p.play_hole(hole).unwrap();
            let v = if next.is_over() { next.final_difference() } else { value(&next, memo) };
            if next.mover() == p.mover() {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap_or_else(|| p.final_difference());
    memo.insert(*p, v);
    v
}

/// Replays a turn found by the search with the rules engine: it must be one complete turn,
/// and its bound must be what the position after it shows.
fn replay(pos: &Position, turn: &Turn) -> Position {
    let mover = pos.mover();
    let mut at = *pos;
    for (i, &mv) in turn.moves.iter().enumerate() {
        assert_eq!(at.mover(), mover, "move {i} of {:?} is not the mover's", turn.moves);
        let hole = at.absolute_hole(mover, mv as usize);
        at = at.play_hole(hole).unwrap().0;
        let last = i + 1 == turn.moves.len();
        assert_eq!(last, at.mover() != mover || at.is_over(), "the turn {:?} ends at move {i}", turn.moves);
    }
    assert_eq!(turn.gain, stores(&at, mover) - stores(pos, mover));
    assert_eq!(turn.ends_game, at.is_over());
    let expected = if at.is_over() { turn.gain } else { turn.gain - at.seeds_on_board() as i32 };
    assert_eq!(turn.lower, expected);
    at
}

fn random_position(rng: &mut ChaCha8Rng, holes: usize, max_seeds: u32) -> Position {
    loop {
        let mut row = || (0..holes).map(|_| rng.gen_range(0..=3u8)).collect::<Vec<u8>>();
        let (top, bottom) = (row(), row());
        let mover = if rng.gen_bool(0.5) { Player::Zero } else { Player::One };
        let p = Position::from_rows(&top, &bottom, [rng.gen_range(0..5), rng.gen_range(0..5)], mover).unwrap();
        if !p.is_over() && p.seeds_on_board() <= max_seeds {
            return p;
        }
    }
}

#[test]
fn best_turn_is_the_best_of_every_turn_and_a_true_lower_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut memo = HashMap::new();
    for case in 0..300 {
        let holes = 1 + case % 4;
        let pos = random_position(&mut rng, holes, 14);
        let found = best_turn(&Dakon::new(holes).unwrap(), &pos, UNLIMITED);
        assert!(found.complete);
        let turn = found.best.expect("a position with moves has a turn");
        replay(&pos, &turn);
        let mut bounds = Vec::new();
        every_turn_bound(&pos, &pos, &mut bounds);
        assert_eq!(Some(turn.lower), bounds.into_iter().max(), "{pos}");
        let exact_future_gain = value(&pos, &mut memo) - pos.store_of_side(Side::Mover) as i32 + pos.store_of_side(Side::Opponent) as i32;
        assert!(turn.lower <= exact_future_gain, "{pos}: turn proves {} but the value is {exact_future_gain}", turn.lower);
    }
}

#[test]
fn opening_turn_proves_a_first_player_win_on_the_traditional_boards() {
    for holes in 5..=9 {
        let start = Position::start(holes, holes as u32).unwrap();
        let found = best_turn(&Dakon::new(holes).unwrap(), &start, TurnLimits { nodes: 2_000_000, goal: Some(1) });
        let turn = found.best.unwrap();
        assert!(found.complete && turn.lower > 0, "{holes}x{holes}: best turn proves only {}", turn.lower);
        let after = replay(&start, &turn);
        let total = 2 * holes as u32 * holes as u32;
        assert!(2 * after.store(Player::Zero) as u32 > total, "{holes}x{holes}: stored {}", after.store(Player::Zero));
        assert_eq!(turn.lower, 2 * after.store(Player::Zero) as i32 - total as i32);
    }
}

#[test]
fn budget_and_goal_stop_the_search_and_say_so() {
    let start = Position::start(7, 7).unwrap();
    let rules = Dakon::new(7).unwrap();
    let cut = best_turn(&rules, &start, TurnLimits { nodes: 10, goal: None });
    assert_eq!(cut.nodes, 10);
    assert!(!cut.complete);
    replay(&start, cut.best.as_ref().unwrap());
    let goal = best_turn(&rules, &start, TurnLimits { nodes: 1_000_000, goal: Some(50) });
    assert!(goal.complete && goal.best.unwrap().lower >= 50);
    assert!(goal.nodes < 1_000_000);
}

#[test]
fn a_finished_game_has_no_turn() {
    let over: Position = "0,0/0,0 6/6 0".parse().unwrap();
    let found = best_turn(&Dakon::new(2).unwrap(), &over, UNLIMITED);
    assert_eq!((found.best, found.complete), (None, true));
}
