//! The references' rule sets by name, for the tests that are generic over the rule set: each
//! data line names its rules (`dakon`, `kalah`, `kalah-empty-capture`), and a test loops over
//! [`RefRules::ALL`].

use dakon_solver::ruleset::{RuleSet, RulesName};

use super::kalah::Kalah;
use super::{Board, Options};

/// The reference of one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefRules {
    Dakon(Options),
    Kalah(Kalah),
}

/// Dakon with options `nembak_lander`, `no_mikul`, `skip_origin`.
const fn dakon(nembak_lander: bool, no_mikul: bool, skip_origin: bool) -> RefRules {
    RefRules::Dakon(Options { nembak_lander, no_mikul, skip_origin, no_capture: false })
}

impl RefRules {
    /// The default Dakon rules.
    pub const DAKON: RefRules = dakon(false, false, false);

    pub const ALL: [RefRules; 3] = [RefRules::DAKON, RefRules::Kalah(Kalah::STANDARD), RefRules::Kalah(Kalah::EMPTY_CAPTURE)];

    /// Dakon's variants: each option alone, each pair, and all three (`traditional`).
    pub const VARIANTS: [RefRules; 7] = [
        dakon(true, false, false),
        dakon(false, true, false),
        dakon(false, false, true),
        dakon(true, true, false),
        dakon(true, false, true),
        dakon(false, true, true),
        dakon(true, true, true),
    ];

    /// The name in data files, tables and certificates: the options in alphabetical order,
    /// all three called `traditional`.
    pub fn name(self) -> &'static str {
        match self {
            RefRules::Dakon(o) => match (o.nembak_lander, o.no_mikul, o.skip_origin) {
                // `no_capture` is a state of a first turn, not a rule set (see `opening`).
                (false, false, false) => "dakon",
                (true, false, false) => "dakon:nembak-lander",
                (false, true, false) => "dakon:no-mikul",
                (false, false, true) => "dakon:skip-origin",
                (true, true, false) => "dakon:nembak-lander,no-mikul",
                (true, false, true) => "dakon:nembak-lander,skip-origin",
                (false, true, true) => "dakon:no-mikul,skip-origin",
                (true, true, true) => "dakon:traditional",
            },
            RefRules::Kalah(kalah) => kalah.name(),
        }
    }

    /// Whether these are Dakon's rules (with or without options).
    pub fn is_dakon(self) -> bool {
        matches!(self, RefRules::Dakon(_))
    }

    /// The rules called `name` in a data file.
    ///
    /// # Panics
    /// If no reference has that name.
    pub fn named(name: &str) -> RefRules {
        RefRules::ALL
            .into_iter()
            .chain(RefRules::VARIANTS)
            .find(|rules| rules.name() == name)
            .unwrap_or_else(|| panic!("no rules named {name:?}"))
    }

    /// The engine's rules of the same name for `n` holes per row.
    pub fn engine(self, n: usize) -> RuleSet {
        let name: RulesName = self.name().parse().expect("the engine knows every reference's name");
        RuleSet::new(name, n).expect("1 to 9 holes per row")
    }

    /// The legal moves, ascending.
    pub fn moves(self, board: &Board) -> Vec<usize> {
        match self {
            RefRules::Dakon(_) => board.moves(),
            RefRules::Kalah(kalah) => kalah.moves(board),
        }
    }

    /// The position after `hole`, a legal move.
    pub fn play(self, board: &Board, hole: usize) -> Board {
        match self {
            RefRules::Dakon(options) => board.play_with(hole, options).0,
            RefRules::Kalah(kalah) => kalah.play(board, hole).0,
        }
    }

    /// The final store difference, player to move minus opponent, of a finished game.
    pub fn final_difference(self, board: &Board) -> i32 {
        match self {
            // The seeds left (all on the other side) go to the other player.
            RefRules::Dakon(_) => {
                board.stores[board.to_move] as i32 - board.stores[1 - board.to_move] as i32 - board.seeds_on_board() as i32
            }
            RefRules::Kalah(kalah) => kalah.final_difference(board),
        }
    }

    /// Leaves of the move tree at `depth` plies (an extra move is a ply of its own).
    pub fn perft(self, board: &Board, depth: u32) -> u64 {
        super::perft_with(board, depth, &|b| self.moves(b), &|b, h| self.play(b, h))
    }
}
