//! `dakon.Position`: a position and the rules it is played by.

use dakon_solver::dakon::{Player, Position};
use dakon_solver::ruleset::{RuleSet, RulesName};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::played::PyPlayed;
use crate::rules_name;

/// A position (holes, stores, player to move) and the rules it is played by.
///
/// Holes are numbered as in the notation: `0..n` is player 1's row (the top, sown right to
/// left into store S1), `n..2n` player 0's (the bottom, sown left to right into S0). Two
/// positions are equal when board, stores, player to move and rules are.
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
}

impl PyPosition {
    /// The rules for this position's board.
    pub fn rule_set(&self) -> RuleSet {
        RuleSet::of(self.rules, &self.position)
    }
}

/// Parses the notation, with the command line's message.
///
/// # Errors
/// `ValueError`: "invalid position 'TEXT': column C: PROBLEM".
pub fn parse_notation(text: &str) -> PyResult<Position> {
    text.parse().map_err(|e| PyValueError::new_err(format!("invalid position '{text}': {e}")))
}

#[pymethods]
impl PyPosition {
    /// A position from its parts: `board`, the seeds of holes `0..2n` in the notation's order
    /// (a list or a numpy array), `stores` as `(S0, S1)` (player 0's, player 1's), `to_move`
    /// 0 or 1.
    ///
    /// Raises ValueError for an odd board length, more than 9 holes per row, more than 255
    /// seeds or a player other than 0 and 1.
    #[new]
    #[pyo3(signature = (board, stores = (0, 0), to_move = 0, rules = "dakon"))]
    fn new(board: Vec<u8>, stores: (u8, u8), to_move: u8, rules: &str) -> PyResult<PyPosition> {
        let rules = rules_name::parse(rules)?;
        if board.len() % 2 != 0 {
            return Err(PyValueError::new_err(format!("a board has two rows of equal length: found {} holes", board.len())));
        }
        let mover =
            Player::from_number(to_move).ok_or_else(|| PyValueError::new_err(format!("the player to move is 0 or 1, found {to_move}")))?;
        let (top, bottom) = board.split_at(board.len() / 2);
        let position = Position::from_rows(top, bottom, [stores.1, stores.0], mover)
            .map_err(|e| PyValueError::new_err(format!("invalid position: {e}")))?;
        Ok(PyPosition { position, rules })
    }

    /// The position written in the notation `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0>
    /// <player>`, or `start` for the opening of `holes` and `seeds` (default: `holes`).
    ///
    /// Raises ValueError with the command line's message: the column and what is wrong.
    ///
    /// >>> dakon.Position.parse("1,2/3 0/0 0")
    /// Traceback (most recent call last):
    /// ValueError: invalid position '1,2/3 0/0 0': column 1: both rows must have the same length: the top row has 2 holes, the bottom row 1
    #[staticmethod]
    #[pyo3(signature = (text, rules = "dakon"))]
    fn parse(text: &str, rules: &str) -> PyResult<PyPosition> {
        let rules = rules_name::parse(rules)?;
        Ok(PyPosition { position: parse_notation(text)?, rules })
    }

    /// The opening: `holes` holes per row (1 to 9) of `seeds` seeds each (default `holes`),
    /// empty stores, player 0 to move.
    ///
    /// >>> str(dakon.Position.start(6, 4, rules="kalah"))
    /// '4,4,4,4,4,4/4,4,4,4,4,4 0/0 0'
    #[staticmethod]
    #[pyo3(signature = (holes = 7, seeds = None, rules = "dakon"))]
    fn start(holes: usize, seeds: Option<u32>, rules: &str) -> PyResult<PyPosition> {
        let rules = rules_name::parse(rules)?;
        let seeds = seeds.unwrap_or(holes as u32);
        let position = Position::start(holes, seeds)
            .map_err(|e| PyValueError::new_err(format!("cannot set up the start of {holes} holes with {seeds} seeds: {e}")))?;
        Ok(PyPosition { position, rules })
    }

    /// The rules' name: `"dakon"`, `"kalah"` or `"kalah-empty-capture"`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.as_str()
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> usize {
        self.position.holes()
    }

    /// The player to move, 0 or 1 (after the end: the player who could not move, as the
    /// notation keeps it).
    #[getter]
    fn to_move(&self) -> u8 {
        self.position.mover().number()
    }

    /// The stores as `(S0, S1)`: player 0's, player 1's.
    #[getter]
    fn stores(&self) -> (u8, u8) {
        (self.position.store(Player::Zero), self.position.store(Player::One))
    }

    /// The seeds of holes `0..2n` as a numpy array of `uint8` (a copy), in the notation's
    /// order: player 1's row, then player 0's.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "uint8")?;
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
    /// Raises ValueError for a hole that does not exist, is not the mover's, is empty, or a
    /// game that is over, with the command line's message.
    fn play(&self, hole: usize) -> PyResult<(PyPosition, PyPlayed)> {
        let (next, played) = self
            .rule_set()
            .play_hole(&self.position, hole)
            .map_err(|e| PyValueError::new_err(format!("hole {hole} in position '{}': {e}", self.position)))?;
        Ok((PyPosition { position: next, rules: self.rules }, PyPlayed::new(hole, &played)))
    }

    /// The same board under other rules.
    fn with_rules(&self, rules: &str) -> PyResult<PyPosition> {
        Ok(PyPosition { position: self.position, rules: rules_name::parse(rules)? })
    }

    fn __str__(&self) -> String {
        self.position.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}', rules='{}')", self.position, self.rules)
    }

    /// Pickling: the notation and the rules.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let this = slf.get();
        Ok((slf.get_type().getattr("parse")?, (this.position.to_string(), this.rules.as_str())))
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
    /// `ValueError` for malformed notation or unknown rules.
    pub fn resolve(&self, rules: Option<&str>) -> PyResult<PyPosition> {
        let rules = rules.map(rules_name::parse).transpose()?;
        match self {
            PositionArg::Position(p) => Ok(PyPosition { position: p.position, rules: rules.unwrap_or(p.rules) }),
            PositionArg::Text(text) => Ok(PyPosition { position: parse_notation(text)?, rules: rules.unwrap_or(RulesName::Dakon) }),
        }
    }
}
