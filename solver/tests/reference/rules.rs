//! The references' rule sets by name, for the tests that are generic over the rule set: each
//! data line names its rules (`dakon`, `kalah`, `kalah-empty-capture`), and a test loops over
//! [`RefRules::ALL`].

use dakon_solver::ruleset::{RuleSet, RulesName};

use super::kalah::Kalah;
use super::Board;

/// The reference of one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefRules {
    Dakon,
    Kalah(Kalah),
}

impl RefRules {
    pub const ALL: [RefRules; 3] = [RefRules::Dakon, RefRules::Kalah(Kalah::STANDARD), RefRules::Kalah(Kalah::EMPTY_CAPTURE)];

    /// The name in data files, tables and certificates.
    pub fn name(self) -> &'static str {
        match self {
            RefRules::Dakon => "dakon",
            RefRules::Kalah(kalah) => kalah.name(),
        }
    }

    /// The rules called `name` in a data file.
    ///
    /// # Panics
    /// If no reference has that name.
    pub fn named(name: &str) -> RefRules {
        RefRules::ALL.into_iter().find(|rules| rules.name() == name).unwrap_or_else(|| panic!("no rules named {name:?}"))
    }

    /// The engine's rules of the same name for `n` holes per row.
    pub fn engine(self, n: usize) -> RuleSet {
        let name: RulesName = self.name().parse().expect("the engine knows every reference's name");
        RuleSet::new(name, n).expect("1 to 9 holes per row")
    }

    /// The legal moves, ascending.
    pub fn moves(self, board: &Board) -> Vec<usize> {
        match self {
            RefRules::Dakon => board.moves(),
            RefRules::Kalah(kalah) => kalah.moves(board),
        }
    }

    /// The position after `hole`, a legal move.
    pub fn play(self, board: &Board, hole: usize) -> Board {
        match self {
            RefRules::Dakon => board.play(hole).0,
            RefRules::Kalah(kalah) => kalah.play(board, hole).0,
        }
    }

    /// The final store difference, player to move minus opponent, of a finished game.
    pub fn final_difference(self, board: &Board) -> i32 {
        match self {
            // The seeds left (all on the other side) go to the other player.
            RefRules::Dakon => board.stores[board.to_move] as i32 - board.stores[1 - board.to_move] as i32 - board.seeds_on_board() as i32,
            RefRules::Kalah(kalah) => kalah.final_difference(board),
        }
    }

    /// Leaves of the move tree at `depth` plies (an extra move is a ply of its own).
    pub fn perft(self, board: &Board, depth: u32) -> u64 {
        super::perft_with(board, depth, &|b| self.moves(b), &|b, h| self.play(b, h))
    }
}
