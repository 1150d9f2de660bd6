//! `dakon.Position`: a position and the rules it is played by.

use dakon_solver::dakon::MoveError;
use dakon_solver::dakon::{OpeningState, Player, Position};
use dakon_solver::ruleset::{Played, RuleSet, RulesName};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::int_arg::{int_in, optional_int_in, out_of_range, type_name};
use crate::played::PyPlayed;
use crate::rules_name;

/// The most holes a row has.
const MAX_HOLES: i128 = 9;

/// The most seeds a position holds (stores included).
const MAX_SEEDS: i128 = 255;

/// A position (holes, stores, player to move) and the rules it is played by; under
/// `dakon:no-first-turn-capture` (alone or with other options) also the players still in their
/// first turn (`first_turns`, the notation's field `first:0,1`).
///
/// Holes are numbered as in the notation: `0..n` is player 1's row (the top, sown right to
/// left into store S1), `n..2n` player 0's (the bottom, sown left to right into S0). Two
/// positions are equal when board, stores, player to move, first turns and rules are.
///
/// >>> import dakon
/// >>> p = dakon.Position.start(3, 2)
/// >>> str(p)
/// '2,2,2/2,2,2 0/0 0'
/// >>> p.legal_moves()
/// [3, 4, 5]
/// >>> after, played = p.play(4)
/// >>> str(after), played.extra_move
/// ('2,2,2/2,0,3 0/1 0', True)
/// >>> str(dakon.Position([1, 0, 2, 3], stores=(4, 5), to_move=1, rules="kalah"))
/// '1,0/2,3 5/4 1'
#[pyclass(name = "Position", module = "dakon", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub position: Position,
    pub rules: RulesName,
    /// The players still in their first turn (always none unless `rules` has
    /// `no-first-turn-capture`), as [`OpeningState::pending_bits`] gives them.
    first_turns: u8,
}

impl PyPosition {
    /// `position` under `rules`, every first turn over (as under rules without them).
    pub fn after_opening(position: Position, rules: RulesName) -> PyPosition {
        PyPosition { position, rules, first_turns: 0 }
    }

    /// `state` under `rules` (which have `no-first-turn-capture` when a first turn is pending).
    fn of_state(state: &OpeningState, rules: RulesName) -> PyPosition {
        PyPosition { position: state.position, rules, first_turns: state.pending_bits() }
    }

    /// The rules for this position's board once both first turns are over: what its solver
    /// and endgame tables play by.
    pub fn rule_set(&self) -> RuleSet {
        let rules = match rules_name::opening_options(self.rules) {
            Some(options) => RulesName::Dakon(options.board_rules()),
            None => self.rules,
        };
        RuleSet::of(rules, &self.position)
    }

    /// The position with the players still in their first turn.
    pub fn state(&self) -> OpeningState {
        let players = [Player::Zero, Player::One];
        let pending: Vec<Player> = players.into_iter().filter(|&p| self.first_turns & (1 << p.number()) != 0).collect();
        OpeningState::new(self.position, &pending)
    }

    /// This position under `rules`: its first turns kept under rules that have them, none else.
    fn under(&self, rules: RulesName) -> PyPosition {
        let first_turns = if rules_name::opening_options(rules).is_some() { self.first_turns } else { 0 };
        PyPosition { position: self.position, rules, first_turns }
    }
}

/// Parses the notation under `rules`: with `no-first-turn-capture`, optionally followed by
/// the field `first:...`; the command line's message otherwise.
///
/// # Errors
/// `ValueError`: "invalid position 'TEXT': column C: PROBLEM".
pub fn parse_notation(text: &str, rules: RulesName) -> PyResult<PyPosition> {
    let invalid = |e: &dyn std::fmt::Display| {
        let hint = if text.contains(" first") { " (the field 'first:...' needs rules='dakon:no-first-turn-capture')" } else { "" };
        PyValueError::new_err(format!("invalid position '{text}': {e}{hint}"))
    };
    if rules_name::opening_options(rules).is_some() {
        let state: OpeningState = text.parse().map_err(|e| invalid(&e))?;
        return Ok(PyPosition::of_state(&state, rules));
    }
    Ok(PyPosition::after_opening(text.parse().map_err(|e| invalid(&e))?, rules))
}

#[pymethods]
impl PyPosition {
    /// A position from its parts: `board`, the seeds of holes `0..2n` in the notation's order
    /// (a list or a numpy array), `stores` as `(S0, S1)` (player 0's, player 1's: the notation
    /// writes them the other way round, `S1/S0`), `to_move` 0 or 1.
    ///
    /// Raises ValueError for an odd board length, more than 9 holes per row, a number out of
    /// range (each naming the argument: `board[i]`, `stores[0]`, `to_move`) or more than 255
    /// seeds in all; TypeError for a number that is not an integer.
    #[new]
    #[pyo3(signature = (board, stores = None, to_move = None, rules = "dakon"))]
    fn new(
        board: &Bound<'_, PyAny>,
        stores: Option<&Bound<'_, PyAny>>,
        to_move: Option<&Bound<'_, PyAny>>,
        rules: &str,
    ) -> PyResult<PyPosition> {
        let rules = rules_name::parse(rules)?;
        let board: Vec<u8> = board
            .try_iter()
            .map_err(|_| PyTypeError::new_err(format!("board: expected a sequence of integers, found {}", type_name(board))))?
            .enumerate()
            .map(|(i, seeds)| int_in(&format!("board[{i}]"), &seeds?, 0..=MAX_SEEDS))
            .collect::<PyResult<_>>()?;
        if board.len() % 2 != 0 {
            return Err(PyValueError::new_err(format!("a board has two rows of equal length: found {} holes", board.len())));
        }
        let stores: [u8; 2] = match stores.filter(|s| !s.is_none()) {
            None => [0, 0],
            Some(s) => {
                let (s0, s1): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
                    s.extract().map_err(|_| PyTypeError::new_err(format!("stores: expected a pair (S0, S1), found {}", type_name(s))))?;
                [int_in("stores[0]", &s0, 0..=MAX_SEEDS)?, int_in("stores[1]", &s1, 0..=MAX_SEEDS)?]
            }
        };
        let mover = optional_int_in("to_move", to_move, 0..=1)?.and_then(Player::from_number).unwrap_or(Player::Zero);
        let (top, bottom) = board.split_at(board.len() / 2);
        let position = Position::from_rows(top, bottom, [stores[1], stores[0]], mover)
            .map_err(|e| PyValueError::new_err(format!("invalid position: {e}")))?;
        Ok(PyPosition::after_opening(position, rules))
    }

    /// The position written in the notation `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0>
    /// <player>` (the stores player 1's first), or `"start"` for the opening of `holes` holes
    /// per row of `seeds` seeds each (default: `holes`), as the command line reads it. Under
    /// `no-first-turn-capture` the notation may end in the field `first:0,1`, `first:0` or
    /// `first:1`, the players still in their first turn (none without it).
    ///
    /// Raises ValueError with the command line's message: the column and what is wrong.
    ///
    /// >>> dakon.Position.parse("1,2/3 0/0 0")
    /// Traceback (most recent call last):
    /// ValueError: invalid position '1,2/3 0/0 0': column 1: both rows must have the same length: the top row has 2 holes, the bottom row 1
    /// >>> str(dakon.Position.parse("start", holes=3))
    /// '3,3,3/3,3,3 0/0 0'
    #[staticmethod]
    #[pyo3(signature = (text, rules = "dakon", holes = None, seeds = None))]
    fn parse(text: &str, rules: &str, holes: Option<&Bound<'_, PyAny>>, seeds: Option<&Bound<'_, PyAny>>) -> PyResult<PyPosition> {
        if text.trim() == "start" {
            return PyPosition::start(holes, seeds, rules);
        }
        parse_notation(text, rules_name::parse(rules)?)
    }

    /// The opening: `holes` holes per row (1 to 9, default 7) of `seeds` seeds each (default
    /// `holes`; at most 255 in all), empty stores, player 0 to move; under
    /// `no-first-turn-capture` both players in their first turn.
    ///
    /// >>> str(dakon.Position.start(6, 4, rules="kalah"))
    /// '4,4,4,4,4,4/4,4,4,4,4,4 0/0 0'
    #[staticmethod]
    #[pyo3(signature = (holes = None, seeds = None, rules = "dakon"))]
    fn start(holes: Option<&Bound<'_, PyAny>>, seeds: Option<&Bound<'_, PyAny>>, rules: &str) -> PyResult<PyPosition> {
        let rules = rules_name::parse(rules)?;
        let holes: usize = optional_int_in("holes", holes, 1..=MAX_HOLES)?.unwrap_or(7);
        let most = MAX_SEEDS / (2 * holes as i128);
        let seeds: u32 = optional_int_in(&format!("seeds (with {holes} holes per row)"), seeds, 0..=most)?.unwrap_or(holes as u32);
        let position = Position::start(holes, seeds)
            .map_err(|e| PyValueError::new_err(format!("cannot set up the start of {holes} holes with {seeds} seeds: {e}")))?;
        if rules_name::opening_options(rules).is_some() {
            return Ok(PyPosition::of_state(&OpeningState::new(position, &[Player::Zero, Player::One]), rules));
        }
        Ok(PyPosition::after_opening(position, rules))
    }

    /// The rules' name: `"dakon"`, `"kalah"`, `"kalah-empty-capture"` or a Dakon variant
    /// (`"dakon:<options>"`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.as_str()
    }

    /// The players still in their first turn (0, 1 or both, ascending): under
    /// `no-first-turn-capture` their laps capture nothing. Empty under other rules.
    ///
    /// >>> p = dakon.Position.start(3, rules="dakon:no-first-turn-capture")
    /// >>> str(p), p.first_turns
    /// ('3,3,3/3,3,3 0/0 0 first:0,1', [0, 1])
    #[getter]
    fn first_turns(&self) -> Vec<usize> {
        [0, 1].into_iter().filter(|p| self.first_turns & (1 << p) != 0).collect()
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> usize {
        self.position.holes()
    }

    /// The player to move, 0 or 1 (after the end: the player who could not move, as the
    /// notation keeps it).
    #[getter]
    // The Python attribute's name, not a conversion.
    #[allow(clippy::wrong_self_convention)]
    fn to_move(&self) -> u8 {
        self.position.mover().number()
    }

    /// The stores as `(S0, S1)`: player 0's, player 1's (the notation writes `S1/S0`).
    #[getter]
    fn stores(&self) -> (u8, u8) {
        (self.position.store(Player::Zero), self.position.store(Player::One))
    }

    /// The seeds of holes `0..2n` as a numpy array of `int16` (a copy, wide enough that
    /// differences of holes do not wrap), in the notation's order: player 1's row, then
    /// player 0's.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "int16")?;
        let seeds = PyList::new(py, self.position.holes_in_notation_order())?;
        py.import("numpy")?.getattr("array")?.call((seeds,), Some(&kwargs))
    }

    /// Seeds still on the board (not in a store).
    #[getter]
    fn seeds_on_board(&self) -> u32 {
        self.position.seeds_on_board()
    }

    /// The legal moves (holes), ascending; empty when the game is over.
    fn legal_moves(&self) -> Vec<usize> {
        self.rule_set().legal_holes(&self.position)
    }

    /// Whether the game is over (no legal move).
    fn is_over(&self) -> bool {
        self.rule_set().is_over(&self.position)
    }

    /// The final store difference, player to move minus opponent, of a finished game (the
    /// rules' end included); ValueError while the game goes on.
    fn final_difference(&self) -> PyResult<i32> {
        let rules = self.rule_set();
        if !rules.is_over(&self.position) {
            return Err(PyValueError::new_err(format!("position '{}': the game is not over", self.position)));
        }
        Ok(rules.final_difference(&self.position))
    }

    /// Plays `hole`: the new position and what happened (a `Played`).
    ///
    /// Raises ValueError for a hole that does not exist (naming the range), is not the
    /// mover's, is empty, or a game that is over, with the command line's message.
    fn play(&self, hole: &Bound<'_, PyAny>) -> PyResult<(PyPosition, PyPlayed)> {
        // Holes past the board get the command line's message below, which names the range.
        let number: i128 = int_in("hole", hole, i128::MIN..=i128::MAX)?;
        let hole = usize::try_from(number).map_err(|_| out_of_range("hole", number, 0..=2 * self.position.holes() as i128 - 1))?;
        let refused = |e: MoveError| PyValueError::new_err(format!("hole {hole} in position '{}': {e}", self.state()));
        if let Some(options) = rules_name::opening_options(self.rules) {
            let (next, outcome) = self.state().play_hole_with(hole, options).map_err(refused)?;
            return Ok((PyPosition::of_state(&next, self.rules), PyPlayed::new(hole, &Played::Dakon(outcome))));
        }
        let (next, played) = self.rule_set().play_hole(&self.position, hole).map_err(refused)?;
        Ok((PyPosition::after_opening(next, self.rules), PyPlayed::new(hole, &played)))
    }

    /// The same board under other rules (its first turns kept under rules that have them).
    fn with_rules(&self, rules: &str) -> PyResult<PyPosition> {
        Ok(self.under(rules_name::parse(rules)?))
    }

    fn __str__(&self) -> String {
        self.state().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}', rules='{}')", self.state(), self.rules)
    }

    /// Pickling: the notation and the rules.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let this = slf.get();
        Ok((slf.get_type().getattr("parse")?, (this.state().to_string(), this.rules.as_str())))
    }
}

/// A position argument: a `Position`, or notation played by `rules` (default Dakon).
#[derive(FromPyObject)]
pub enum PositionArg {
    Position(PyPosition),
    Text(String),
}

impl PositionArg {
    /// The position, under `rules` when given, else its own (notation: Dakon's).
    ///
    /// # Errors
    /// `ValueError` for malformed notation.
    pub fn resolve(&self, rules: Option<RulesName>) -> PyResult<PyPosition> {
        match self {
            PositionArg::Position(p) => Ok(p.under(rules.unwrap_or(p.rules))),
            PositionArg::Text(text) => parse_notation(text, rules.unwrap_or(RulesName::DAKON)),
        }
    }
}
