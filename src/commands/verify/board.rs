//! Deciding one board: the opening-turn proof, then a search within the budget.

use std::time::{Duration, Instant};

use dakon_solver::certificate::Claim;
use dakon_solver::dakon::{Player, Position};
use dakon_solver::opening::{best_turn, TurnLimits};
use dakon_solver::rules::Rules;
use dakon_solver::ruleset::{RuleSet, RulesName};
use dakon_solver::search::{Limits, Progress, Solution, SolveOptions, Solver};

use crate::certificate_writer::Written;
use crate::line::absolute_line;

/// A board size: holes per row and seeds per hole at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub holes: usize,
    pub seeds: u32,
}

impl Board {
    /// Seeds in the game.
    pub fn total(&self) -> u32 {
        2 * self.holes as u32 * self.seeds
    }
}

/// What the first player's result on a board rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A search finished: the value is exact.
    ExactSearch,
    /// The opening turn stores more than half of all seeds (the lower bound is its).
    OpeningTurn,
    /// A search stopped by the budget proved bounds that decide the result.
    SearchBound,
    /// Nothing proven decides the result.
    Unproven,
}

impl Proof {
    /// The name shown in reports.
    pub fn name(self) -> &'static str {
        match self {
            Proof::ExactSearch => "exact search",
            Proof::OpeningTurn => "opening turn",
            Proof::SearchBound => "search bound",
            Proof::Unproven => "none",
        }
    }

    /// The proof of a [`Proof::name`].
    pub fn from_name(name: &str) -> Option<Proof> {
        [Proof::ExactSearch, Proof::OpeningTurn, Proof::SearchBound, Proof::Unproven].into_iter().find(|p| p.name() == name)
    }
}

/// A first turn of player 0 from the opening, as anyone can replay it with `dakon play`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedTurn {
    /// The holes lifted, in the notation's numbering.
    pub holes: Vec<usize>,
    /// Player 0's store after the turn (the end-of-game sweep included).
    pub stored: u32,
}

impl PlayedTurn {
    /// Plays `moves` (rules-level: counted in player 0's sowing direction) from `start`.
    /// `None` if a move is not legal where it is played (a broken line from elsewhere).
    fn replay(rules: &RuleSet, start: &Position, moves: &[u8]) -> Option<PlayedTurn> {
        let (holes, end) = absolute_line(rules, start, moves);
        (holes.len() == moves.len()).then(|| PlayedTurn { holes, stored: end.store(Player::Zero) as u32 })
    }
}

/// The best turn of the turn search and what it proves on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnProof {
    pub turn: Option<PlayedTurn>,
    /// Proven lower bound of the final difference from this turn alone.
    pub lower: i32,
    /// Moves played by the turn search.
    pub nodes: u64,
    /// Whether the turn search saw every turn (so `turn` stores the most there is).
    pub complete: bool,
}

/// Everything `dakon verify` says about one board. Values are final store differences,
/// player 0 (who moves first) minus player 1.
#[derive(Clone, Debug)]
pub struct Row {
    /// The rules the board was played under.
    pub rules: RulesName,
    pub board: Board,
    pub lower: i32,
    pub upper: i32,
    pub proof: Proof,
    /// The opening shown: the first turn of a perfect line when the search was exact,
    /// otherwise the turn search's best.
    pub opening: Option<PlayedTurn>,
    /// Whether `opening` is proven optimal (from an exact search).
    pub opening_optimal: bool,
    pub turn_proof: TurnProof,
    /// Positions the search visited (0 without a search).
    pub nodes: u64,
    /// Wall-clock time for the board, turn search and search together.
    pub seconds: f64,
    /// The search budget the board had, in seconds (`None`: the opening turn alone).
    pub budget: Option<f64>,
    /// Whether endgame tables were used.
    pub tables: bool,
    /// Whether Ctrl-C stopped the search of this board.
    pub interrupted: bool,
    /// Whether the upper bound rests on the enumeration of every first turn (under
    /// `no-first-turn-capture`: no turn takes every seed), which no certificate holds.
    pub upper_by_walk: bool,
    /// The certificate written with `--certificates`, or why it could not be.
    pub certificate: Option<Result<Written, String>>,
}

impl Row {
    /// Whether the value is known exactly.
    pub fn exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The bounds the board's certificate holds: the row's, except an upper bound that rests on
    /// the enumeration of every first turn, widened to every seed.
    pub fn certificate_claim(&self) -> Claim {
        let upper = if self.upper_by_walk { self.board.total() as i32 } else { self.upper };
        Claim { lower: self.lower, upper }
    }

    /// Narrows the bounds to those an earlier run proved as well (both are proven, so the
    /// value lies in their intersection); a result decided only by the earlier bounds rests
    /// on a [`Proof::SearchBound`].
    ///
    /// # Errors
    /// Both ranges, if they do not meet (then the row is left as it was).
    pub fn keep_earlier_bounds(&mut self, earlier: &Row) -> Result<(), String> {
        let (lower, upper) = (self.lower.max(earlier.lower), self.upper.min(earlier.upper));
        if lower > upper {
            return Err(format!(
                "board {}x{}: the earlier record proves [{}, {}], this run [{}, {}]; they do not meet",
                self.board.holes, self.board.seeds, earlier.lower, earlier.upper, self.lower, self.upper
            ));
        }
        let was_exact = self.exact();
        // The upper bound kept rests on the walk only if every run that proved it used one.
        self.upper_by_walk = match self.upper.cmp(&earlier.upper) {
            std::cmp::Ordering::Less => self.upper_by_walk,
            std::cmp::Ordering::Greater => earlier.upper_by_walk,
            std::cmp::Ordering::Equal => self.upper_by_walk && earlier.upper_by_walk,
        };
        (self.lower, self.upper) = (lower, upper);
        let decides = lower > 0 || upper < 0 || self.exact();
        if (self.proof == Proof::Unproven && decides) || (self.exact() && !was_exact) {
            self.proof = Proof::SearchBound;
        }
        Ok(())
    }

    /// The first player's result: `win`, `draw`, `loss`, or `unknown` while the bounds
    /// straddle zero.
    pub fn verdict(&self) -> &'static str {
        if self.lower > 0 {
            "win"
        } else if self.upper < 0 {
            "loss"
        } else if self.lower == 0 && self.upper == 0 {
            "draw"
        } else {
            "unknown"
        }
    }
}

/// How to decide one board.
pub struct Plan<'a> {
    /// The rules of the board.
    pub rules: RuleSet,
    /// Budget of the turn search.
    pub turn_nodes: u64,
    /// The solver and its limits, or `None` for the opening-turn proof alone.
    pub search: Option<(&'a Solver<RuleSet>, &'a Limits)>,
    pub tables: bool,
    /// Hears of each test of the search as the bounds tighten.
    pub observer: Option<&'a dyn Fn(&Progress)>,
}

/// Decides the opening of `board` with player 0 to move.
///
/// # Panics
/// Panics if the board is not a valid start (callers check sizes first).
pub fn verify(board: Board, plan: &Plan) -> Row {
    let started = Instant::now();
    let start = Position::start(board.holes, board.seeds).expect("board sizes are checked before");
    let rules = plan.rules;
    let total = board.total() as i32;
    let found = best_turn(&rules, &start, TurnLimits { nodes: plan.turn_nodes, goal: None });
    let best = found.best.as_ref();
    // The start has empty stores, so future gains are final differences.
    let turn_proof = TurnProof {
        turn: best.and_then(|t| PlayedTurn::replay(&rules, &start, &t.moves)),
        lower: best.map_or(-total, |t| t.lower),
        nodes: found.nodes,
        complete: found.complete,
    };
    let mut row = Row {
        rules: rules.rules_name(),
        board,
        lower: turn_proof.lower,
        upper: total,
        proof: Proof::Unproven,
        opening: turn_proof.turn.clone(),
        opening_optimal: false,
        turn_proof,
        nodes: 0,
        seconds: 0.0,
        budget: plan.search.and_then(|(_, limits)| limits.time).map(|t| t.as_secs_f64()),
        tables: plan.tables,
        interrupted: false,
        upper_by_walk: false,
        certificate: None,
    };
    if let Some((solver, limits)) = plan.search {
        let limits = remaining(limits, started);
        // The search starts from what the opening turn proved.
        let options = SolveOptions { proven_lower: Some(row.lower), proven_upper: None, observer: plan.observer };
        let solution = solver.solve_with(&start, &limits, options);
        row.nodes = solution.nodes;
        row.interrupted = limits.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        row.lower = row.lower.max(solution.lower);
        row.upper = solution.upper;
        if solution.is_exact() {
            row.proof = Proof::ExactSearch;
            if let Some(turn) = optimal_turn(solver, &start, &solution, &limits).and_then(|m| PlayedTurn::replay(&rules, &start, &m)) {
                row.opening = Some(turn);
                row.opening_optimal = true;
            }
        } else if row.lower > 0 {
            row.proof = if solution.lower <= row.turn_proof.lower { Proof::OpeningTurn } else { Proof::SearchBound };
        } else if row.upper < 0 || row.exact() {
            row.proof = Proof::SearchBound;
        }
    } else if row.lower > 0 {
        row.proof = Proof::OpeningTurn;
    }
    row.seconds = started.elapsed().as_secs_f64();
    row
}

/// `limits` with the time already spent on the board taken off its time budget.
pub fn remaining(limits: &Limits, started: Instant) -> Limits {
    Limits { time: limits.time.map(|t| t.saturating_sub(started.elapsed()).max(Duration::from_millis(1))), ..limits.clone() }
}

/// The first turn of the exact solution's principal variation, completed by further exact
/// searches if the variation stops inside the turn. `None` if that cannot be done exactly.
fn optimal_turn(solver: &Solver<RuleSet>, start: &Position, solution: &Solution, limits: &Limits) -> Option<Vec<u8>> {
    let rules = solver.rules();
    let mut position = *start;
    let mut pv = solution.pv.iter().copied();
    let mut moves = Vec::new();
    loop {
        let mv = match pv.next() {
            Some(mv) => mv,
            None => {
                let rest = solver.solve(&position, limits);
                if !rest.is_exact() {
                    return None;
                }
                rest.best_move?
            }
        };
        if !rules.legal_moves(&position).as_slice().contains(&mv) {
            return None;
        }
        moves.push(mv);
        let next = rules.play(&position, mv).next;
        if next.mover() != start.mover() || rules.is_over(&next) {
            return Some(moves);
        }
        position = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(lower: i32, upper: i32, proof: Proof) -> Row {
        Row {
            rules: RulesName::DAKON,
            board: Board { holes: 8, seeds: 14 },
            lower,
            upper,
            proof,
            opening: None,
            opening_optimal: false,
            turn_proof: TurnProof { turn: None, lower: -180, nodes: 10, complete: true },
            nodes: 5,
            seconds: 1.0,
            budget: Some(60.0),
            tables: false,
            interrupted: false,
            upper_by_walk: false,
            certificate: None,
        }
    }

    #[test]
    fn a_resumed_row_keeps_the_intersection_of_both_runs_bounds() {
        let mut new = row(-180, 214, Proof::Unproven);
        new.keep_earlier_bounds(&row(-170, 72, Proof::Unproven)).unwrap();
        assert_eq!((new.lower, new.upper, new.proof), (-170, 72, Proof::Unproven));
        // The earlier upper bound decides the result: the first player loses.
        let mut new = row(-180, 214, Proof::Unproven);
        new.keep_earlier_bounds(&row(-180, -8, Proof::SearchBound)).unwrap();
        assert_eq!((new.lower, new.upper, new.proof, new.verdict()), (-180, -8, Proof::SearchBound, "loss"));
        // Together they close the range.
        let mut new = row(-180, -100, Proof::SearchBound);
        new.keep_earlier_bounds(&row(-200, -180, Proof::SearchBound)).unwrap();
        assert!(new.exact() && new.lower == -180 && new.proof == Proof::SearchBound);
        // A looser earlier record changes nothing, an exact new one stays an exact search.
        let mut new = row(-180, -180, Proof::ExactSearch);
        new.keep_earlier_bounds(&row(-224, 224, Proof::Unproven)).unwrap();
        assert_eq!((new.lower, new.upper, new.proof), (-180, -180, Proof::ExactSearch));
    }

    #[test]
    fn bounds_that_do_not_meet_are_refused_and_the_row_kept() {
        let mut new = row(-180, 72, Proof::Unproven);
        let why = new.keep_earlier_bounds(&row(80, 100, Proof::SearchBound)).unwrap_err();
        assert!(why.contains("8x14") && why.contains("[80, 100]") && why.contains("[-180, 72]"), "{why}");
        assert_eq!((new.lower, new.upper), (-180, 72));
    }
}
