//! The rules, written plainly from `docs/formats/certificates.md`, one seed at a time.
//!
//! This is the checker's own implementation, sharing nothing with the solver's engine: the
//! writer's tests compare the two on random positions through this API, so it is kept stable.
//!
//! Holes are numbered as in the notation: player 1's row `0..n-1` on top (left to right),
//! player 0's row `n..2n-1` below (left to right), hole `i` facing hole `i + n`. Stores are
//! indexed by player: `stores[0]` is S0 (player 0's, at the right), `stores[1]` is S1. Seeds
//! travel counter-clockwise: `n, ..., 2n-1`, S0, `n-1, ..., 0`, S1, `n, ...`, each player
//! skipping the other's store.
//!
//! ```
//! use dakon_check::rules::{Position, Rules};
//!
//! let start = Position::new(Rules::DAKON, &[7; 14], [0, 0], 0).unwrap();
//! let after = start.play(7).unwrap(); // seven seeds from hole 7 end in S0: an extra move
//! assert_eq!(after.to_string(), "7,7,7,7,7,7,7/0,8,8,8,8,8,8 0/1 0");
//! assert_eq!(after.legal_moves(), vec![8, 9, 10, 11, 12, 13]);
//! assert_eq!(start.play(0), None); // hole 0 is player 1's
//! ```

use std::fmt;

/// The most holes per row a position may have.
pub const MAX_HOLES_PER_ROW: usize = 9;
/// The most seeds a position may hold, holes and stores together.
pub const MAX_SEEDS: u32 = 255;

/// Dakon's rule options, each a switch away from the default `dakon` rules; a certificate names
/// them after `dakon:` (see [`Rules::name`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DakonOptions {
    /// `nembak-lander`: a nembak that takes the facing hole's seeds takes the landing seed too.
    pub nembak_lander: bool,
    /// `no-mikul`: a last seed in an empty hole of the opponent's side captures nothing.
    pub no_mikul: bool,
    /// `skip-origin`: every lap skips the hole it was lifted from.
    pub skip_origin: bool,
}

impl DakonOptions {
    /// The options' names, in the order a certificate lists them.
    pub const NAMES: [&'static str; 3] = ["nembak-lander", "no-mikul", "skip-origin"];

    /// Every combination, the default first.
    pub const ALL: [DakonOptions; 8] = {
        let mut all = [DakonOptions { nembak_lander: false, no_mikul: false, skip_origin: false }; 8];
        let mut bits = 0;
        while bits < 8 {
            all[bits] = DakonOptions { nembak_lander: bits & 1 != 0, no_mikul: bits & 2 != 0, skip_origin: bits & 4 != 0 };
            bits += 1;
        }
        all
    };
}

/// Which kind of turn a move belongs to: under `no-first-turn-capture` a player's first turn
/// (their first move and the extra moves it earns) captures nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Any turn of a rule set without that option, and every turn after a player's first.
    Ordinary,
    /// A first turn under `no-first-turn-capture`: a lap ending in an empty hole takes nothing.
    FirstWithoutCapture,
}

/// The option of Dakon that lives only in the opening, and is therefore not a [`Rules`] of its
/// own: a certificate names it among Dakon's options, and its opening is checked with
/// [`Turn::FirstWithoutCapture`].
pub const FIRST_TURN_OPTION: &str = "no-first-turn-capture";

/// A rules name split into the rules after the opening and whether it has
/// [`FIRST_TURN_OPTION`]; `None` if it is not a name of the format document. The option is
/// written in its alphabetical place among the others (`dakon:no-first-turn-capture,traditional`
/// for all four).
pub fn split_first_turn_option(name: &str) -> Option<(Rules, bool)> {
    if let Some(rules) = Rules::from_name(name) {
        return Some((rules, false));
    }
    let options = name.strip_prefix("dakon:")?;
    let rest: Vec<&str> = options.split(',').filter(|option| *option != FIRST_TURN_OPTION).collect();
    let rules = if rest.is_empty() { Rules::DAKON } else { Rules::from_name(&format!("dakon:{}", rest.join(",")))? };
    (first_turn_name(rules).as_deref() == Some(name)).then_some((rules, true))
}

/// The name of `rules` with [`FIRST_TURN_OPTION`] added (Dakon only).
pub fn first_turn_name(rules: Rules) -> Option<String> {
    let Rules::Dakon(_) = rules else { return None };
    let name = rules.name();
    let mut options: Vec<&str> = name.strip_prefix("dakon:").map_or(Vec::new(), |options| options.split(',').collect());
    options.push(FIRST_TURN_OPTION);
    options.sort_unstable();
    Some(format!("dakon:{}", options.join(",")))
}

/// A rule set, by its name in certificates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// `dakon` and `dakon:<options>`: relay sowing, *nembak* and *mikul* captures.
    Dakon(DakonOptions),
    /// `kalah`: one lap, capture from an empty own hole when the facing hole holds seeds.
    Kalah,
    /// `kalah-empty-capture`: `kalah`, but landing in an empty own hole always captures.
    KalahEmptyCapture,
}

/// The names of Dakon's eight rule sets, indexed by `nembak_lander + 2 no_mikul + 4
/// skip_origin`: the options in [`DakonOptions::NAMES`]'s order, all three called `traditional`.
const DAKON_NAMES: [&str; 8] = [
    "dakon",
    "dakon:nembak-lander",
    "dakon:no-mikul",
    "dakon:nembak-lander,no-mikul",
    "dakon:skip-origin",
    "dakon:nembak-lander,skip-origin",
    "dakon:no-mikul,skip-origin",
    "dakon:traditional",
];

impl Rules {
    /// The default rules.
    pub const DAKON: Rules = Rules::Dakon(DakonOptions { nembak_lander: false, no_mikul: false, skip_origin: false });

    /// Every rule set the checker knows: Dakon with each combination of options, then Kalah's.
    pub const ALL: [Rules; 10] = {
        let mut all = [Rules::Kalah; 10];
        let mut i = 0;
        while i < 8 {
            all[i] = Rules::Dakon(DakonOptions::ALL[i]);
            i += 1;
        }
        all[9] = Rules::KalahEmptyCapture;
        all
    };

    /// The rule set called `name` in certificates, if the checker knows it (Dakon's options
    /// only as [`Rules::name`] writes them).
    pub fn from_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|rules| rules.name() == name)
    }

    /// The name used in certificates: `dakon`, `dakon:<options>`, `kalah` or
    /// `kalah-empty-capture`.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Dakon(o) => DAKON_NAMES[usize::from(o.nembak_lander) + 2 * usize::from(o.no_mikul) + 4 * usize::from(o.skip_origin)],
            Rules::Kalah => "kalah",
            Rules::KalahEmptyCapture => "kalah-empty-capture",
        }
    }
}

/// Why [`Position::new`] refused its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidPosition(pub String);

impl fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidPosition {}

/// The holes of a board, padded with zeros to the largest board.
pub(crate) type Board = [u8; 2 * MAX_HOLES_PER_ROW];

/// `player`'s store minus the other player's, for `stores` = `[S0, S1]`.
pub(crate) fn difference(stores: [u8; 2], player: usize) -> i64 {
    i64::from(stores[player]) - i64::from(stores[1 - player])
}

/// Where a seed can be: a hole (by its number) or a player's store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pit {
    Hole(usize),
    Store(usize),
}

/// A position: the seeds in every hole and store, and the player to move.
///
/// Once the game is over (see [`Position::is_over`]) the player field keeps whoever would have
/// moved next, as in the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    holes_per_row: usize,
    board: Board,
    stores: [u8; 2],
    player: usize,
}

impl Position {
    /// The position with these `holes` (`0..2n-1`, so `2n` values), `stores` (`[S0, S1]`) and
    /// `player` (0 or 1) to move.
    ///
    /// # Errors
    ///
    /// [`InvalidPosition`] when the holes are not two rows of 1 to 9, the player is not 0 or
    /// 1, or the position holds more than 255 seeds.
    pub fn new(rules: Rules, holes: &[u8], stores: [u8; 2], player: usize) -> Result<Position, InvalidPosition> {
        let holes_per_row = holes.len() / 2;
        if holes.len() % 2 != 0 || !(1..=MAX_HOLES_PER_ROW).contains(&holes_per_row) {
            return Err(InvalidPosition(format!("{} holes, expected two rows of 1 to {MAX_HOLES_PER_ROW}", holes.len())));
        }
        if player > 1 {
            return Err(InvalidPosition(format!("player {player} to move, expected 0 or 1")));
        }
        let seeds: u32 = holes.iter().chain(&stores).map(|&seeds| u32::from(seeds)).sum();
        if seeds > MAX_SEEDS {
            return Err(InvalidPosition(format!("{seeds} seeds, expected at most {MAX_SEEDS}")));
        }
        let mut board = [0; 2 * MAX_HOLES_PER_ROW];
        board[..holes.len()].copy_from_slice(holes);
        Ok(Position { rules, holes_per_row, board, stores, player })
    }

    /// The rule set this position is played by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// `n`, the number of holes per row.
    pub fn holes_per_row(&self) -> usize {
        self.holes_per_row
    }

    /// The seeds in holes `0..2n-1`.
    pub fn holes(&self) -> &[u8] {
        &self.board[..2 * self.holes_per_row]
    }

    /// The stores, `[S0, S1]`.
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// The player to move (or who would move, once the game is over).
    pub fn player(&self) -> usize {
        self.player
    }

    /// The seeds in the holes.
    pub fn seeds_on_board(&self) -> u32 {
        self.holes().iter().map(|&seeds| u32::from(seeds)).sum()
    }

    /// Whether the game is over: in `dakon` when the player to move has no seed on their side,
    /// in the `kalah` rule sets when either side has none.
    pub fn is_over(&self) -> bool {
        let empty = |player| self.side(player).all(|hole| self.board[hole] == 0);
        match self.rules {
            Rules::Dakon(_) => empty(self.player),
            Rules::Kalah | Rules::KalahEmptyCapture => empty(0) || empty(1),
        }
    }

    /// The final stores `[S0, S1]` once the game is over (`None` before): the seeds left on
    /// the board given out as the rules say.
    pub fn final_stores(&self) -> Option<[u8; 2]> {
        self.is_over().then(|| self.settled().stores)
    }

    /// The holes the player to move may lift: their own non-empty holes, none once the game
    /// is over.
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        self.side(self.player).filter(|&hole| self.board[hole] > 0).collect()
    }

    /// The position after the player to move lifts `hole`, with the seeds left on the board
    /// given out if that ends the game; `None` if the move is illegal (not a non-empty hole of
    /// the player to move, or the game is over).
    pub fn play(&self, hole: usize) -> Option<Position> {
        self.play_in_turn(hole, Turn::Ordinary)
    }

    /// [`Position::play`] in a turn of kind `turn`: a first turn under
    /// `no-first-turn-capture` takes nothing.
    pub fn play_in_turn(&self, hole: usize, turn: Turn) -> Option<Position> {
        self.legal_moves().contains(&hole).then(|| self.after(hole, turn))
    }

    /// Every legal move with the position after it, in the order of [`Position::legal_moves`].
    pub fn successors(&self) -> Vec<(usize, Position)> {
        self.successors_in_turn(Turn::Ordinary)
    }

    /// [`Position::successors`] in a turn of kind `turn`.
    pub fn successors_in_turn(&self, turn: Turn) -> Vec<(usize, Position)> {
        self.legal_moves().into_iter().map(|hole| (hole, self.after(hole, turn))).collect()
    }

    /// The position after lifting `hole`, which must be a legal move, in a turn of kind `turn`.
    fn after(&self, hole: usize, turn: Turn) -> Position {
        let mut next = *self;
        let mover = self.player;
        let extra_move = match self.rules {
            Rules::Dakon(options) => next.dakon_turn(hole, options, turn),
            Rules::Kalah => next.kalah_turn(hole, false),
            Rules::KalahEmptyCapture => next.kalah_turn(hole, true),
        };
        next.player = if extra_move { mover } else { 1 - mover };
        if next.is_over() {
            next.settled()
        } else {
            next
        }
    }

    /// `player`'s store minus the other player's.
    pub(crate) fn store_difference(&self, player: usize) -> i64 {
        difference(self.stores, player)
    }

    /// Plays a `dakon` turn from `hole` under `options`; returns whether the mover moves again.
    fn dakon_turn(&mut self, hole: usize, options: DakonOptions, turn: Turn) -> bool {
        let mover = self.player;
        let mut last = self.sow(hole, options.skip_origin);
        loop {
            match last {
                Pit::Store(_) => return true,
                // It held seeds before this one: relay. Each lap stores a seed or moves seeds
                // closer to the mover's store, so this ends.
                Pit::Hole(landed) if self.board[landed] > 1 => last = self.sow(landed, options.skip_origin),
                // `no-first-turn-capture`: an empty hole ends a first turn's lap, taking nothing.
                Pit::Hole(_) if turn == Turn::FirstWithoutCapture => return false,
                Pit::Hole(landed) if self.owner(landed) == mover => {
                    let facing = self.facing(landed);
                    let taken = std::mem::take(&mut self.board[facing]);
                    self.stores[mover] += taken;
                    if options.nembak_lander && taken > 0 {
                        self.stores[mover] += std::mem::take(&mut self.board[landed]);
                    }
                    return false;
                }
                Pit::Hole(_) if options.no_mikul => return false,
                Pit::Hole(landed) => {
                    let neighbours = self.row_neighbours(landed);
                    if let Some((left, right)) = neighbours {
                        if self.board[left] == self.board[right] && self.board[left] > 0 {
                            let taken = self.board[left] + self.board[right] + 1;
                            (self.board[left], self.board[right], self.board[landed]) = (0, 0, 0);
                            self.stores[mover] += taken;
                        }
                    }
                    return false;
                }
            }
        }
    }

    /// Plays a `kalah` turn from `hole`; returns whether the mover moves again.
    fn kalah_turn(&mut self, hole: usize, empty_capture: bool) -> bool {
        let mover = self.player;
        match self.sow(hole, false) {
            Pit::Store(_) => return true,
            // It now holds one: it was empty.
            Pit::Hole(landed) if self.owner(landed) == mover && self.board[landed] == 1 => {
                let facing = self.facing(landed);
                if self.board[facing] > 0 || empty_capture {
                    self.stores[mover] += std::mem::take(&mut self.board[facing]) + 1;
                    self.board[landed] = 0;
                }
            }
            Pit::Hole(_) => {}
        }
        false
    }

    /// Lifts every seed of `hole` and drops them one at a time into the following pits,
    /// skipping the other player's store, and `hole` itself if `skip_origin`; returns where
    /// the last one fell.
    fn sow(&mut self, hole: usize, skip_origin: bool) -> Pit {
        let mut seeds = std::mem::take(&mut self.board[hole]);
        let mut pit = Pit::Hole(hole);
        while seeds > 0 {
            pit = self.next_pit(pit);
            match pit {
                Pit::Store(owner) if owner != self.player => continue,
                Pit::Hole(into) if skip_origin && into == hole => continue,
                Pit::Store(owner) => self.stores[owner] += 1,
                Pit::Hole(into) => self.board[into] += 1,
            }
            seeds -= 1;
        }
        pit
    }

    /// The pit after `pit`, counter-clockwise.
    fn next_pit(&self, pit: Pit) -> Pit {
        let n = self.holes_per_row;
        match pit {
            Pit::Hole(hole) if hole == 2 * n - 1 => Pit::Store(0),
            Pit::Hole(hole) if hole >= n => Pit::Hole(hole + 1),
            Pit::Hole(0) => Pit::Store(1),
            Pit::Hole(hole) => Pit::Hole(hole - 1),
            Pit::Store(0) => Pit::Hole(n - 1),
            Pit::Store(_) => Pit::Hole(n),
        }
    }

    /// The position with every seed left on a side added to that side's owner's store: the end
    /// of the game in every rule set (in `dakon` the mover's side is empty by then, so this is
    /// "the other player takes every seed left").
    fn settled(&self) -> Position {
        let mut settled = *self;
        for player in 0..2 {
            for hole in self.side(player) {
                settled.stores[player] += std::mem::take(&mut settled.board[hole]);
            }
        }
        settled
    }

    /// `player`'s holes: player 1 owns `0..n`, player 0 owns `n..2n`.
    fn side(&self, player: usize) -> std::ops::Range<usize> {
        let n = self.holes_per_row;
        if player == 1 {
            0..n
        } else {
            n..2 * n
        }
    }

    fn owner(&self, hole: usize) -> usize {
        usize::from(hole < self.holes_per_row)
    }

    fn facing(&self, hole: usize) -> usize {
        let n = self.holes_per_row;
        if hole < n {
            hole + n
        } else {
            hole - n
        }
    }

    /// The holes left and right of `hole` in its own row, if both exist.
    fn row_neighbours(&self, hole: usize) -> Option<(usize, usize)> {
        let column = hole % self.holes_per_row;
        (column > 0 && column < self.holes_per_row - 1).then(|| (hole - 1, hole + 1))
    }
}

/// The notation: `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player to move>`.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |holes: &[u8]| holes.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let (top, bottom) = self.holes().split_at(self.holes_per_row);
        write!(f, "{}/{} {}/{} {}", row(top), row(bottom), self.stores[1], self.stores[0], self.player)
    }
}
