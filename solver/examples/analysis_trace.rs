//! Values every move of one position as `dakon serve` does (the position first, then every
//! move from the bound the position's value puts on it, [`Solver::move_analysis`]) and
//! prints what each took: where an analysis spends its work (node counts do not depend on
//! the machine's load; the times do).
//! With `--tests`, every null-window test of every move too: its target, fail-soft answer, the
//! child's bracket after it and the nodes it took.
//! `cargo run --release -p dakon-solver --example analysis_trace -- POSITION [THREADS] [TT_MB] [--tests]`
//! (Dakon rules; POSITION in the notation, e.g. `7,7,7,7,7,7,7/0,8,8,8,8,8,8 0/1 0`). With
//! `$DAKON_TABLES` set, the search reads the endgame tables in that directory.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Instant;

use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::oracle::Oracle;
use dakon_solver::rules::Rules;
use dakon_solver::search::{Config, Limits, MoveValue, Progress, Solver};
use dakon_solver::tables::TableSet;

fn main() {
    const USAGE: &str = "usage: analysis_trace POSITION [THREADS] [TT_MB] [--tests]";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let tests = args.iter().any(|a| a == "--tests");
    args.retain(|a| a != "--tests");
    let position: Position = args.first().expect(USAGE).parse().expect("a position in the notation");
    let threads = args.get(1).map_or(1, |a| a.parse().expect(USAGE));
    let mb: usize = args.get(2).map_or(256, |a| a.parse().expect(USAGE));
    let rules = Dakon::new(position.holes()).expect("1 to 9 holes");
    let tables = std::env::var_os("DAKON_TABLES").map(|dir| {
        let tables = TableSet::open(&rules, dir.as_ref()).expect("readable tables").expect("tier 0 in $DAKON_TABLES");
        println!("tables: tiers 0..={}", tables.max_seeds());
        Arc::new(tables) as Arc<dyn Oracle<Dakon>>
    });
    let solver = Solver::new(rules, Config { threads, tt_bytes: mb << 20 }, tables);
    let started = Instant::now();
    let solution = solver.solve(&position, &Limits::default());
    println!(
        "{position}: future gain {}..{}, {} nodes, {:.2} s",
        solution.lower,
        solution.upper,
        solution.nodes,
        started.elapsed().as_secs_f64()
    );
    // Every move is worth at most the position.
    let known: Vec<MoveValue> =
        rules.legal_moves(&position).as_slice().iter().map(|&mv| MoveValue { mv, lower: i32::MIN, upper: solution.upper }).collect();
    let mut analysis = solver.move_analysis(&position, &known);
    // Nodes of the move's round when its last test ended: each test's own is the difference.
    let last = Cell::new((u8::MAX, 0));
    let trace = |mv: u8, p: &Progress| {
        let (last_mv, last_nodes) = last.get();
        let before = if last_mv == mv { last_nodes } else { 0 };
        last.set((mv, p.nodes));
        if tests {
            let answer = if p.value >= p.target { "holds" } else { "fails" };
            println!("    move {mv}: >= {} {answer} ({}), child {}..{}, {} nodes", p.target, p.value, p.lower, p.upper, p.nodes - before);
        }
    };
    analysis.round_observed(&solver, &Limits::default(), &trace);
    for (value, nodes) in analysis.values().iter().zip(analysis.nodes()) {
        println!("  move {}: {}..{}, {nodes} nodes", value.mv, value.lower, value.upper);
    }
    let total = solution.nodes + analysis.nodes().iter().sum::<u64>();
    println!("{total} nodes in all, {:.2} s ({threads} thread(s), {mb} MiB)", started.elapsed().as_secs_f64());
}
