//! A Dakon position and the move that changes it: relay sowing, captures, extra moves and the
//! end sweep.

use super::layout::{self, Lanes, LapEnd, LAYOUTS, MAX_HOLES, STORE_BYTE};
use super::{DakonOptions, Player};

/// Most seeds a position may hold, on the board and in the stores together.
pub const MAX_SEEDS: u32 = 255;

/// Which side of the board, as seen by the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player to move.
    Mover,
    /// The other player.
    Opponent,
}

/// A Dakon position: `n` holes per row, the seeds in every hole and store, and who moves.
///
/// It is stored as seen by the player to move (see [`layout`](super::layout) for the bytes), so
/// that the engine treats both players alike; [`Position::hole`] and [`Position::store`] read
/// it in the absolute numbering of the notation.
///
/// ```
/// use dakon_solver::dakon::{Position, Player};
/// let start = Position::start(7, 7).unwrap();
/// assert_eq!(start.to_string(), "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0");
/// let (after, outcome) = start.play_hole(7).unwrap();
/// assert!(outcome.extra_move);
/// assert_eq!(after.to_string(), "7,7,7,7,7,7,7/0,8,8,8,8,8,8 0/1 0");
/// assert_eq!(after.mover(), Player::Zero);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    lanes: Lanes,
    holes: u8,
    mover: Player,
}

/// The kind of capture that ended a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// Last seed in an empty hole of the mover's own side: the facing hole is taken.
    Nembak,
    /// Last seed in an empty hole of the opponent's side between two equal, non-empty
    /// neighbours: both neighbours and the landing seed are taken.
    Mikul,
}

/// Seeds taken into the mover's store by a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capture {
    /// Nembak or mikul.
    pub kind: CaptureKind,
    /// Seeds taken (at least 1).
    pub seeds: u8,
}

/// The end-of-game sweep: the seeds left on the board go to one player's store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sweep {
    /// Who receives the seeds (the player who still has seeds on their side).
    pub to: Player,
    /// How many seeds (possibly 0).
    pub seeds: u8,
}

/// Everything that happened during one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Laps sown: 1 plus the number of relays.
    pub laps: u32,
    /// Seeds dropped into the mover's store while sowing (captures not included).
    pub sown_into_store: u8,
    /// The hole (absolute number) where the last seed landed, or `None` for the store.
    pub last_hole: Option<u8>,
    /// The capture that ended the move, if any seeds were taken.
    pub capture: Option<Capture>,
    /// The last seed landed in the mover's store: the same player moves again (unless the
    /// game is over).
    pub extra_move: bool,
    /// The game ended after this move, with this sweep.
    pub sweep: Option<Sweep>,
}

impl Outcome {
    /// Whether the game is over after this move.
    pub fn game_over(&self) -> bool {
        self.sweep.is_some()
    }

    /// Seeds captured (0 when there was no capture).
    pub fn captured(&self) -> u8 {
        self.capture.map_or(0, |c| c.seeds)
    }

    /// The mover's store gain minus the opponent's during this move, sweep included.
    pub fn gain(&self, mover: Player) -> i32 {
        let own = self.sown_into_store as i32 + self.captured() as i32;
        match self.sweep {
            Some(s) if s.to == mover => own + s.seeds as i32,
            Some(s) => own - s.seeds as i32,
            None => own,
        }
    }
}

/// Why a position could not be built from its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Holes per row outside `1..=9`.
    Holes(usize),
    /// The two rows have different lengths.
    RowLengths { top: usize, bottom: usize },
    /// More than [`MAX_SEEDS`] seeds in all.
    TooManySeeds(u64),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Holes(n) => write!(f, "a row must have 1 to {MAX_HOLES} holes, found {n}"),
            PositionError::RowLengths { top, bottom } => {
                write!(
                    f,
                    "both rows must have the same length: the top row has {top} {}, the bottom row {bottom}",
                    if *top == 1 { "hole" } else { "holes" }
                )
            }
            PositionError::TooManySeeds(total) => {
                write!(f, "at most {MAX_SEEDS} seeds are supported, found {total} (holes and stores together)")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a hole cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No hole has that number on this board.
    NoSuchHole { hole: usize, holes: usize },
    /// The hole is on the other player's side.
    NotMoversHole { hole: usize, mover: Player },
    /// The hole holds no seed.
    EmptyHole { hole: usize },
    /// The player to move has no seed: the game is over.
    GameOver,
    /// A player has no seed on their side: the game is over (Kalah ends when either side is
    /// empty).
    SideEmpty { player: Player },
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::NoSuchHole { hole, holes } => {
                write!(f, "hole {hole} does not exist: holes are numbered 0 to {} on a board of {holes} holes per row", 2 * holes - 1)
            }
            MoveError::NotMoversHole { hole, mover } => {
                write!(f, "hole {hole} is not on the side of player {mover}, who is to move")
            }
            MoveError::EmptyHole { hole } => write!(f, "hole {hole} is empty"),
            MoveError::GameOver => write!(f, "the game is over: the player to move has no seeds"),
            MoveError::SideEmpty { player } => write!(f, "the game is over: player {player} has no seeds on their side"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// The opening position: `holes` holes per row with `seeds` seeds each, empty stores,
    /// player 0 to move.
    ///
    /// # Errors
    /// [`PositionError`] if `holes` is outside `1..=9` or the board would hold more than 255
    /// seeds.
    pub fn start(holes: usize, seeds: u32) -> Result<Position, PositionError> {
        if !(1..=MAX_HOLES).contains(&holes) {
            return Err(PositionError::Holes(holes));
        }
        let total = 2 * holes as u64 * seeds as u64;
        if total > MAX_SEEDS as u64 {
            return Err(PositionError::TooManySeeds(total));
        }
        let row = vec![seeds as u8; holes];
        Position::from_rows(&row, &row, [0, 0], Player::Zero)
    }

    /// A position from its rows in the notation's order: `top` is holes `0..n` (player 1's),
    /// `bottom` holes `n..2n` (player 0's), `stores` is `[S1, S0]`.
    ///
    /// # Errors
    /// [`PositionError`] if the rows differ in length, have no or more than 9 holes, or the
    /// position holds more than 255 seeds.
    pub fn from_rows(top: &[u8], bottom: &[u8], stores: [u8; 2], mover: Player) -> Result<Position, PositionError> {
        if top.len() != bottom.len() {
            return Err(PositionError::RowLengths { top: top.len(), bottom: bottom.len() });
        }
        let n = top.len();
        if !(1..=MAX_HOLES).contains(&n) {
            return Err(PositionError::Holes(n));
        }
        let total: u64 = top.iter().chain(bottom).chain(&stores).map(|&s| s as u64).sum();
        if total > MAX_SEEDS as u64 {
            return Err(PositionError::TooManySeeds(total));
        }
        // Player 0 sows its row left to right, player 1 its row right to left.
        let mut rows = [[0u8; MAX_HOLES]; 2];
        for r in 0..n {
            rows[0][r] = bottom[r];
            rows[1][r] = top[n - 1 - r];
        }
        let (own, opp) = match mover {
            Player::Zero => (0, 1),
            Player::One => (1, 0),
        };
        let store_of = |row: usize| if row == 0 { stores[1] } else { stores[0] };
        Ok(Position::from_sides(&rows[own][..n], &rows[opp][..n], [store_of(own), store_of(opp)], mover))
    }

    /// A position from the mover's view: `own[r]` and `opponent[r]` are each player's hole
    /// `r` counted in that player's sowing direction, `stores` is `[mover's, opponent's]`.
    /// The caller guarantees 1 to 9 holes per row, equal rows and at most 255 seeds.
    pub(crate) fn from_sides(own: &[u8], opponent: &[u8], stores: [u8; 2], mover: Player) -> Position {
        debug_assert!(own.len() == opponent.len() && (1..=MAX_HOLES).contains(&own.len()));
        let mut lanes = Lanes::default();
        for (lane, (row, store)) in [(own, stores[0]), (opponent, stores[1])].into_iter().enumerate() {
            for (r, &seeds) in row.iter().enumerate() {
                lanes.put(16 * lane + r, seeds);
            }
            lanes.put(16 * lane + STORE_BYTE, store);
        }
        Position { lanes, holes: own.len() as u8, mover }
    }

    /// Holes per row.
    #[inline]
    pub fn holes(&self) -> usize {
        self.holes as usize
    }

    /// The player to move.
    #[inline]
    pub fn mover(&self) -> Player {
        self.mover
    }

    /// Seeds in hole `r` of one side, counting `r` in that side's owner's sowing direction.
    ///
    /// # Panics
    /// Panics if `r >= holes()`.
    #[inline]
    pub fn seeds(&self, side: Side, r: usize) -> u8 {
        assert!(r < self.holes(), "hole {r} out of range");
        self.lanes.get(16 * side as usize + r)
    }

    /// Seeds in a store, seen from the player to move.
    #[inline]
    pub fn store_of_side(&self, side: Side) -> u8 {
        self.lanes.get(16 * side as usize + STORE_BYTE)
    }

    /// Seeds in a player's store.
    pub fn store(&self, player: Player) -> u8 {
        self.store_of_side(self.side_of(player))
    }

    /// The mover's store minus the opponent's: what a future gain adds to.
    pub fn store_difference(&self) -> i32 {
        self.store(self.mover()) as i32 - self.store(self.mover().other()) as i32
    }

    /// Seeds in hole `hole`, numbered as in the notation (`0..2n`).
    ///
    /// # Panics
    /// Panics if `hole >= 2 * holes()`.
    pub fn hole(&self, hole: usize) -> u8 {
        let (player, r) = self.owner(hole);
        self.seeds(self.side_of(player), r)
    }

    /// The seeds of player 1's row then player 0's (holes `0..2n` of the notation).
    pub fn holes_in_notation_order(&self) -> Vec<u8> {
        (0..2 * self.holes()).map(|h| self.hole(h)).collect()
    }

    /// The owner of a hole (absolute number) and its number in the owner's sowing direction.
    ///
    /// # Panics
    /// Panics if `hole >= 2 * holes()`.
    pub fn owner(&self, hole: usize) -> (Player, usize) {
        let n = self.holes();
        assert!(hole < 2 * n, "hole {hole} out of range");
        if hole >= n {
            (Player::Zero, hole - n)
        } else {
            (Player::One, n - 1 - hole)
        }
    }

    /// The absolute number of `player`'s hole `r` (counted in that player's sowing direction).
    pub fn absolute_hole(&self, player: Player, r: usize) -> usize {
        let n = self.holes();
        match player {
            Player::Zero => n + r,
            Player::One => n - 1 - r,
        }
    }

    fn side_of(&self, player: Player) -> Side {
        if player == self.mover {
            Side::Mover
        } else {
            Side::Opponent
        }
    }

    /// Seeds in all holes of one side.
    #[inline]
    pub fn side_seeds(&self, side: Side) -> u32 {
        layout::byte_sum(self.lanes.lane(side as usize), LAYOUTS[self.holes()].row_mask) as u32
    }

    /// Seeds on the board (not in the stores).
    #[inline]
    pub fn seeds_on_board(&self) -> u32 {
        self.side_seeds(Side::Mover) + self.side_seeds(Side::Opponent)
    }

    /// Whether the game is over: the player to move has no seed on their side.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.lanes.lane(0) & LAYOUTS[self.holes()].row_mask == 0
    }

    /// The final store difference (mover minus opponent) of a finished game: the seeds left
    /// on the board go to the opponent.
    pub fn final_difference(&self) -> i32 {
        self.store_of_side(Side::Mover) as i32 - self.store_of_side(Side::Opponent) as i32 - self.side_seeds(Side::Opponent) as i32
    }

    /// The playable holes, counted in the mover's sowing direction (`0..holes()`).
    #[inline]
    pub fn moves(&self) -> crate::rules::MoveList {
        let mut list = crate::rules::MoveList::new();
        let mut holes = self.lanes.nonzero_mask() & ((1 << self.holes) - 1);
        while holes != 0 {
            list.push(holes.trailing_zeros() as u8);
            holes &= holes - 1;
        }
        list
    }

    /// The playable holes in the absolute numbering of the notation, ascending.
    pub fn legal_holes(&self) -> Vec<usize> {
        let mut holes: Vec<usize> = self.moves().as_slice().iter().map(|&r| self.absolute_hole(self.mover, r as usize)).collect();
        holes.sort_unstable();
        holes
    }

    /// Plays the hole numbered `hole` in the notation.
    ///
    /// # Errors
    /// [`MoveError`] if the hole does not exist, is not the mover's, is empty, or the game is
    /// over.
    pub fn play_hole(&self, hole: usize) -> Result<(Position, Outcome), MoveError> {
        self.play_hole_with(hole, DakonOptions::NONE)
    }

    /// The mover's hole `r` (counted in the mover's sowing direction) that playing the hole
    /// numbered `hole` in the notation lifts, checked in the order every rule set reports:
    /// the hole exists, the game is not over (`game_over` says why it is), the hole is the
    /// mover's, it holds seeds.
    ///
    /// # Errors
    /// The first [`MoveError`] found.
    pub(crate) fn hole_to_lift(&self, hole: usize, game_over: Option<MoveError>) -> Result<usize, MoveError> {
        let n = self.holes();
        if hole >= 2 * n {
            return Err(MoveError::NoSuchHole { hole, holes: n });
        }
        if let Some(error) = game_over {
            return Err(error);
        }
        let (owner, r) = self.owner(hole);
        if owner != self.mover {
            return Err(MoveError::NotMoversHole { hole, mover: self.mover });
        }
        if self.seeds(Side::Mover, r) == 0 {
            return Err(MoveError::EmptyHole { hole });
        }
        Ok(r)
    }

    /// Plays the mover's hole `r` (counted in the mover's sowing direction): the lap and every
    /// relay it triggers, then the capture or extra move, then the end of the game if the
    /// next player has no seed.
    ///
    /// # Panics
    /// May panic, or return nonsense, if hole `r` is not a non-empty hole of the mover; use
    /// [`Position::play_hole`] for unchecked input.
    #[inline(always)]
    pub fn play(&self, r: usize) -> (Position, Outcome) {
        self.play_with(r, DakonOptions::NONE)
    }

    /// [`Position::play_hole`] under the rule `options`.
    ///
    /// # Errors
    /// As [`Position::play_hole`].
    pub fn play_hole_with(&self, hole: usize, options: DakonOptions) -> Result<(Position, Outcome), MoveError> {
        let r = self.hole_to_lift(hole, self.is_over().then_some(MoveError::GameOver))?;
        Ok(self.play_with(r, options))
    }

    /// [`Position::play`] under the rule `options` (with none, the same move: the options are
    /// constants there, so the default move pays nothing for them).
    ///
    /// # Panics
    /// As [`Position::play`].
    #[inline(always)]
    pub fn play_with(&self, r: usize, options: DakonOptions) -> (Position, Outcome) {
        let n = self.holes();
        let layout = &LAYOUTS[n];
        let mut lanes = self.lanes;
        let store_before = lanes.get(STORE_BYTE);
        // The lap's origin as a cycle slot and as a byte (the mover's hole `r` is both).
        let mut slot = r;
        let mut slot_byte = r;
        let mut hand = lanes.get(r) as usize;
        debug_assert!(hand > 0, "hole {r} is empty");
        let mut laps = 1;
        let mut capture = None;
        let mut extra_move = false;
        let last = loop {
            let LapEnd { slot: last, byte: last_byte, landed } = if options.contains(DakonOptions::SKIP_ORIGIN) {
                layout.sow_lap_skipping_origin(&mut lanes, slot, slot_byte, hand)
            } else {
                layout.sow_lap(&mut lanes, slot, slot_byte, hand)
            };
            if last_byte == STORE_BYTE {
                extra_move = true;
                break last;
            }
            if landed > 1 {
                // Relay: the hole, the last seed included, is lifted by the next lap.
                hand = landed as usize;
                slot = last;
                slot_byte = last_byte;
                laps += 1;
                continue;
            }
            if options.contains(DakonOptions::NO_FIRST_TURN_CAPTURE) {
                // The mover's first turn: an empty hole on either side takes nothing.
            } else if last < n {
                // Nembak: take the facing hole (the landed seed stays, unless the option takes
                // it too).
                let mut seeds = lanes.take(16 + n - 1 - last);
                if seeds > 0 {
                    if options.contains(DakonOptions::NEMBAK_LANDER) {
                        seeds += lanes.take(last);
                    }
                    lanes.put(STORE_BYTE, seeds);
                    capture = Some(Capture { kind: CaptureKind::Nembak, seeds });
                }
            } else if !options.contains(DakonOptions::NO_MIKUL) {
                // Mikul: an opponent's hole between two equal, non-empty neighbours.
                let j = last - n - 1;
                if j > 0 && j + 1 < n {
                    let left = lanes.get(16 + j - 1);
                    if left != 0 && left == lanes.get(16 + j + 1) {
                        let seeds = 2 * left + 1;
                        lanes.take(16 + j - 1);
                        lanes.take(16 + j);
                        lanes.take(16 + j + 1);
                        lanes.put(STORE_BYTE, seeds);
                        capture = Some(Capture { kind: CaptureKind::Mikul, seeds });
                    }
                }
            }
            break last;
        };
        let captured = capture.map_or(0, |c: Capture| c.seeds);
        let sown_into_store = lanes.get(STORE_BYTE) - store_before - captured;
        let last_hole = if last == n {
            None
        } else if last < n {
            Some(self.absolute_hole(self.mover, last) as u8)
        } else {
            Some(self.absolute_hole(self.mover.other(), last - n - 1) as u8)
        };
        let mut next = Position { lanes, holes: self.holes, mover: self.mover };
        if !extra_move {
            next.lanes = lanes.swapped();
            next.mover = self.mover.other();
        }
        let sweep = if next.is_over() { Some(next.sweep()) } else { None };
        (next, Outcome { laps, sown_into_store, last_hole, capture, extra_move, sweep })
    }

    /// Ends the game: the opponent of the player to move (who has no seeds) takes every seed
    /// left on the board.
    fn sweep(&mut self) -> Sweep {
        let mask = LAYOUTS[self.holes()].row_mask;
        let seeds = layout::byte_sum(self.lanes.lane(1), mask);
        self.lanes.clear(1, mask);
        self.lanes.put(16 + STORE_BYTE, seeds);
        Sweep { to: self.mover.other(), seeds }
    }

    /// The seeds as lanes, for other rule sets played on the same board.
    #[inline(always)]
    pub(crate) fn lanes(&self) -> Lanes {
        self.lanes
    }

    /// A position from its lanes (the mover's first), for other rule sets played on the same
    /// board. The caller guarantees `holes` in `1..=9`, empty bytes beyond the holes and the
    /// store, and at most 255 seeds.
    #[inline(always)]
    pub(crate) fn from_lanes(lanes: Lanes, holes: usize, mover: Player) -> Position {
        Position { lanes, holes: holes as u8, mover }
    }

    /// Lane `i` (0: the mover's, 1: the opponent's) as a number, for the key encoder.
    #[inline]
    pub(crate) fn lane(&self, i: usize) -> u128 {
        self.lanes.lane(i)
    }

    /// The board with empty stores, from the mover's view: what the future gain depends on.
    pub fn board_only(&self) -> Position {
        let mask = LAYOUTS[self.holes()].row_mask;
        Position { lanes: Lanes::from_u128(self.lanes.lane(0) & mask, self.lanes.lane(1) & mask), holes: self.holes, mover: self.mover }
    }

    /// The same position with `player` named as the player to move, every hole and store
    /// unchanged from the mover's view (the mirror image of the board).
    pub fn with_mover(&self, player: Player) -> Position {
        Position { mover: player, ..*self }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({self})")
    }
}
