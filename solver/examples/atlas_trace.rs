//! Solves one board's start and prints every null-window test of the driver as it ends (the
//! target, its fail-soft answer, the bracket, the nodes it took): where a hard board spends
//! its work.
//! `cargo run --release -p dakon-solver --example atlas_trace -- [RULES] HOLES SEEDS THREADS [TT_MB] [NODE_LIMIT]`
//! (RULES: `dakon`, the default, `kalah` or `kalah-empty-capture`). With `$DAKON_TABLES` set,
//! the endgame tables in that directory are used.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Instant;

use dakon_solver::dakon::Position;
use dakon_solver::opening::{best_turn, TurnLimits};
use dakon_solver::oracle::Oracle;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Config, Limits, Progress, SolveOptions, Solver};
use dakon_solver::tables::TableSet;

fn main() {
    const USAGE: &str = "usage: atlas_trace [RULES] HOLES SEEDS THREADS [TT_MB] [NODE_LIMIT]";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let name: RulesName =
        if args.first().is_some_and(|a| a.parse::<u64>().is_err()) { args.remove(0).parse().expect(USAGE) } else { RulesName::DAKON };
    let args: Vec<u64> = args.iter().map(|a| a.parse().expect(USAGE)).collect();
    let (holes, seeds, threads) = (args[0] as usize, args[1] as u32, args[2] as usize);
    let mb = args.get(3).copied().unwrap_or(1024) as usize;
    let limits = Limits { nodes: args.get(4).copied(), ..Limits::default() };
    let rules = RuleSet::new(name, holes).expect("holes 1..=9");
    let tables = std::env::var_os("DAKON_TABLES").map(|dir| {
        let tables = TableSet::open(&rules, dir.as_ref()).expect("readable tables").expect("tier 0 in $DAKON_TABLES");
        println!("tables: tiers 0..={}", tables.max_seeds());
        Arc::new(tables) as Arc<dyn Oracle<RuleSet>>
    });
    let solver = Solver::new(rules, Config { threads, tt_bytes: mb << 20 }, tables);
    let start = Position::start(holes, seeds).expect("a valid start");
    let started = Instant::now();
    let last = Cell::new(0u64);
    let observer = |p: &Progress| {
        println!(
            "test >= {:5}: {} {:5}  bracket [{:5}, {:5}]  {:12} nodes  {:8.2} s",
            p.target,
            if p.value >= p.target { ">=" } else { "<=" },
            p.value,
            p.lower,
            p.upper,
            p.nodes - last.get(),
            started.elapsed().as_secs_f64()
        );
        last.set(p.nodes);
    };
    // The bound the best opening turn proves, as `dakon verify` starts from it.
    let turn = best_turn(solver.rules(), &start, TurnLimits { nodes: 2_000_000, goal: None });
    let proven_lower = turn.best.map(|t| t.lower);
    println!("opening turn proves at least {proven_lower:?}");
    let s = solver.solve_with(&start, &limits, SolveOptions { proven_lower, proven_upper: None, observer: Some(&observer) });
    println!(
        "{holes}x{seeds}, {threads} thread(s), {mb} MiB: [{}, {}], {} nodes, {:.2} s",
        s.lower,
        s.upper,
        s.nodes,
        started.elapsed().as_secs_f64()
    );
}
