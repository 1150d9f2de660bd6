//! A position and its moves in the database: a move's bounds are its child's row seen from
//! the parent (`move = gain + child` after an extra move, `gain - child` otherwise), so one
//! search's moves become rows of their own, and rows become the next search's prior bounds.

use dakon_solver::dakon::Position;
use dakon_solver::rules::{Rules, Step};
use dakon_solver::ruleset::RuleSet;
use dakon_solver::search::MoveValue;

use super::entry::{Bounds, Entry, Proof};
use super::{Known, ResultsDb};

/// Bounds **proven earlier**, in future gains for the player to move: the position's (with its
/// best line, if exact and kept) and those of the moves whose child has a row.
#[derive(Clone, Debug, Default)]
pub struct Prior {
    pub position: Option<Bounds>,
    pub pv: Vec<u8>,
    pub moves: Vec<MoveValue>,
    /// Every legal move has a row.
    pub every_move: bool,
}

impl Prior {
    /// Whether the rows give the whole analysis: the position exact with its line (or the game
    /// over), and every move exact.
    pub fn is_complete(&self) -> bool {
        self.every_move
            && self.position.is_some_and(|b| b.is_exact())
            && (!self.pv.is_empty() || self.moves.is_empty())
            && self.moves.iter().all(|m| m.lower == m.upper)
    }
}

/// What the parent's mover gets from a move whose child's future gain is within `child`.
fn move_bounds(step: &Step<Position>, mv: u8, child: Bounds) -> MoveValue {
    let sign = if step.same_mover { 1 } else { -1 };
    let (a, b) = (step.gain + sign * child.lower, step.gain + sign * child.upper);
    MoveValue { mv, lower: a.min(b), upper: a.max(b) }
}

/// The child's future gain when the move is within `[m.lower, m.upper]`; `None` if that says
/// nothing more than the seeds on the child's board do (an exact value always says more, even
/// with no seeds left: the next analysis needs every move's row).
fn child_bounds(rules: &RuleSet, step: &Step<Position>, m: &MoveValue) -> Option<Bounds> {
    let k = rules.seeds_on_board(&step.next) as i64;
    let sign = if step.same_mover { 1 } else { -1 };
    let child = |v: i32| (sign * (i64::from(v) - i64::from(step.gain))).clamp(-k, k) as i32;
    let (a, b) = (child(m.lower), child(m.upper));
    let bounds = Bounds { lower: a.min(b), upper: a.max(b) };
    (bounds.is_exact() || i64::from(bounds.lower) > -k || i64::from(bounds.upper) < k).then_some(bounds)
}

/// What `db` knows about `position` under `rules` and about each of its moves.
///
/// # Errors
/// A message if the database cannot be read.
pub fn prior_of(db: &ResultsDb, rules: &RuleSet, position: &Position) -> Result<Prior, String> {
    let legal = rules.legal_moves(position);
    let steps: Vec<(u8, Step<Position>)> = legal.as_slice().iter().map(|&mv| (mv, rules.play(position, mv))).collect();
    let mut positions = vec![*position];
    positions.extend(steps.iter().map(|(_, step)| step.next));
    let mut found = db.lookup(rules.name(), &positions)?.into_iter();
    let own: Option<Known> = found.next().flatten();
    let moves: Vec<MoveValue> =
        steps.iter().zip(found).filter_map(|((mv, step), row)| row.map(|row| move_bounds(step, *mv, row.bounds))).collect();
    Ok(Prior {
        every_move: moves.len() == steps.len(),
        position: own.as_ref().map(|row| row.bounds),
        pv: own.map(|row| row.pv).unwrap_or_default(),
        moves,
    })
}

/// What one analysis proved, as rows: the position's bounds (future gains) and line, and each
/// move's bounds as its child's row. The position's row carries the cost.
pub struct Proved<'a> {
    pub position: &'a Position,
    pub bounds: Bounds,
    pub pv: &'a [u8],
    pub moves: &'a [MoveValue],
    pub proof: Proof,
    pub nodes: u64,
    pub seconds: f64,
}

/// The rows of `proved` under `rules`.
pub fn entries_of(rules: &RuleSet, proved: &Proved) -> Vec<Entry> {
    let name = rules.name();
    let own = Entry {
        rules: name,
        position: *proved.position,
        bounds: proved.bounds,
        pv: if proved.bounds.is_exact() { proved.pv.to_vec() } else { Vec::new() },
        proof: if rules.legal_moves(proved.position).is_empty() { Proof::GameOver } else { proved.proof },
        nodes: proved.nodes,
        seconds: proved.seconds,
    };
    let children = proved.moves.iter().filter_map(|m| {
        let step = rules.play(proved.position, m.mv);
        let bounds = child_bounds(rules, &step, m)?;
        let proof = if rules.legal_moves(&step.next).is_empty() { Proof::GameOver } else { proved.proof };
        Some(Entry { rules: name, position: step.next, bounds, pv: Vec::new(), proof, nodes: 0, seconds: 0.0 })
    });
    std::iter::once(own).chain(children).collect()
}

#[cfg(test)]
mod tests {
    use dakon_solver::dakon::Position;
    use dakon_solver::rules::Rules;
    use dakon_solver::ruleset::{RuleSet, RulesName};
    use dakon_solver::search::{Config, Limits, Solver};

    use super::{entries_of, prior_of, Proved};
    use crate::results_db::{Bounds, Proof, ResultsDb};

    #[test]
    fn an_analysis_written_as_rows_reads_back_as_the_same_bounds() {
        // The last: a move that ends the game (a child with no seeds left has a row too).
        for (rules, text) in [
            (RulesName::DAKON, "2,1,3,0,2,1/1,2,0,3,1,2 3/4 1"),
            (RulesName::Kalah, "3,3,3,3/3,3,0,4 0/1 0"),
            (RulesName::DAKON, "1,0/0,1 0/0 0"),
        ] {
            let position: Position = text.parse().unwrap();
            let rules = RuleSet::of(rules, &position);
            let solver = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 22 }, None);
            let solution = solver.solve(&position, &Limits::default());
            let moves = solver.analyse_moves(&position, &Limits::default());
            let dir = tempfile::tempdir().unwrap();
            let db = ResultsDb::open(&dir.path().join("r.db")).unwrap();
            let bounds = Bounds { lower: solution.lower, upper: solution.upper };
            let proved =
                Proved { position: &position, bounds, pv: &solution.pv, moves: &moves, proof: Proof::Search, nodes: 1, seconds: 0.1 };
            db.record(&entries_of(&rules, &proved)).unwrap();
            let prior = prior_of(&db, &rules, &position).unwrap();
            assert!(prior.is_complete(), "{text}");
            assert_eq!((prior.position, prior.pv), (Some(bounds), solution.pv.clone()));
            let (mut read, mut expected) = (prior.moves, moves);
            read.sort_by_key(|m| m.mv);
            expected.sort_by_key(|m| m.mv);
            assert_eq!(read, expected, "{text}");
            assert_eq!(solver.rules().legal_moves(&position).len(), expected.len());
        }
    }
}
