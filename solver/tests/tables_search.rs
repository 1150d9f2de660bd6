//! The search gives the same values with and without the tables as its oracle.

use std::sync::Arc;

use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::oracle::Oracle;
use dakon_solver::search::{Config, Limits, Solver};
use dakon_solver::tables::{build_tiers, BuildOptions, TableSet};
use dakon_solver::tier_layout::TierLayout;
use rand::{Rng, SeedableRng};

fn solver(rules: Dakon, oracle: Option<Arc<dyn Oracle<Dakon>>>) -> Solver<Dakon> {
    Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 20 }, oracle)
}

#[test]
fn solve_and_analyse_agree_with_and_without_tables() {
    let rules = Dakon::new(4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build_tiers(&rules, dir.path(), 7, &BuildOptions::default()).unwrap();
    let tables: Arc<dyn Oracle<Dakon>> = Arc::new(TableSet::open(&rules, dir.path()).unwrap().unwrap());
    let (with, without) = (solver(rules, Some(tables)), solver(rules, None));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let limits = Limits::default();
    let mut positions: Vec<Position> = (0..12).map(|_| rules.position_at(10, rng.gen_range(0..rules.tier_size(10)))).collect();
    positions.push("1,1,1,1/1,1,1,1 0/0 0".parse().unwrap());
    positions.push("2,0,1,3/0,2,1,1 4/3 1".parse().unwrap());
    for pos in &positions {
        let (a, b) = (with.solve(pos, &limits), without.solve(pos, &limits));
        assert!(a.is_exact() && b.is_exact());
        assert_eq!(a.lower, b.lower, "{pos}");
        let moves = |s: &Solver<Dakon>| {
            let mut m: Vec<(u8, i32)> = s.analyse_moves(pos, &limits).iter().map(|m| (m.mv, m.lower)).collect();
            m.sort();
            m
        };
        assert_eq!(moves(&with), moves(&without), "{pos}");
    }
}
