//! A game's review: the value before and after every move for the player who made it, what the
//! move cost against the best move, a mark for each mistake, and the best line where one was
//! made. Values are final store differences with perfect play, in seeds.

use dakon_solver::dakon::{Player, Position};

use crate::game_record::{number, GameRecord};

/// A value or the bounds proven for it, in one player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub lower: i32,
    pub upper: i32,
}

impl Span {
    /// The exact value, if proven.
    pub fn exact(self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// The same value in the other player's view.
    pub fn flipped(self) -> Span {
        Span { lower: -self.upper, upper: -self.lower }
    }

    /// The JSON of it: `{"lower", "upper", "value"}`, `value` null unless exact.
    pub fn json(self) -> serde_json::Value {
        serde_json::json!({ "lower": self.lower, "upper": self.upper, "value": self.exact() })
    }
}

/// What is known of one position of the game: its value for the player to move and, when it
/// was solved, a best line (holes as numbered in the notation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Valued {
    pub value: Span,
    pub best_line: Vec<usize>,
    pub source: Source,
}

/// Where a position's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is over: the rules give it.
    Rules,
    /// The results database, without a search.
    Database,
    Search,
}

/// How bad a move was, by what it proven costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`: costs 1 or 2 seeds.
    Inaccuracy,
    /// `?`: costs 3 to 7 seeds.
    Mistake,
    /// `??`: costs 8 seeds or more, or throws away a win or a draw.
    Blunder,
}

impl Mark {
    /// The mark of a move costing at least `cost` seeds that leads from `before` to `after`
    /// (the mover's view); `None` for a move proven best or not proven to cost anything.
    pub fn of(cost: i32, before: Span, after: Span) -> Option<Mark> {
        let lost_win = before.lower > 0 && after.upper <= 0;
        let lost_draw = before.lower >= 0 && after.upper < 0;
        match cost {
            _ if cost >= 8 || (cost > 0 && (lost_win || lost_draw)) => Some(Mark::Blunder),
            3.. => Some(Mark::Mistake),
            1.. => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    /// The sign written after the move, as in chess annotation.
    pub fn sign(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// One move of the review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewedMove {
    pub turn: usize,
    /// The move's number in the game, from 1.
    pub ply: usize,
    pub player: Player,
    pub hole: usize,
    /// The position's value before the move, for the player who made it.
    pub before: Span,
    /// Its value after the move, for the same player.
    pub after: Span,
    /// What the move cost against the best move: `before - after`, within the bounds both allow.
    pub cost: Span,
    pub mark: Option<Mark>,
    /// The best line from the position before the move, where the move is marked.
    pub best_line: Vec<usize>,
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    pub moves: Vec<ReviewedMove>,
    /// The value of every position of the game, from the start to the end, for player 0.
    pub for_player_0: Vec<Span>,
    /// Positions answered by the results database, and those searched.
    pub from_database: usize,
    pub searched: usize,
}

/// Reviews `record`, valuing each of its positions (each once, in order, the first before the
/// last move) with `value_of`, which sees the position and its index from 0.
pub fn review(record: &GameRecord, mut value_of: impl FnMut(usize, &Position) -> Valued) -> Review {
    let plies = record.plies();
    let positions: Vec<Position> = std::iter::once(record.start).chain(plies.iter().map(|ply| ply.after)).collect();
    let valued: Vec<Valued> = positions.iter().enumerate().map(|(i, position)| value_of(i, position)).collect();
    let for_player_0 =
        positions.iter().zip(&valued).map(|(p, v)| if p.mover() == Player::Zero { v.value } else { v.value.flipped() }).collect();
    let moves = plies
        .iter()
        .enumerate()
        .map(|(i, ply)| {
            let player = ply.before.mover();
            let before = valued[i].value;
            let after = if ply.after.mover() == player { valued[i + 1].value } else { valued[i + 1].value.flipped() };
            let cost = Span { lower: (before.lower - after.upper).max(0), upper: (before.upper - after.lower).max(0) };
            let mark = Mark::of(cost.lower, before, after);
            let best_line = if mark.is_some() { valued[i].best_line.clone() } else { Vec::new() };
            ReviewedMove { turn: ply.turn, ply: i + 1, player, hole: ply.hole, before, after, cost, mark, best_line }
        })
        .collect();
    let count = |source: Source| valued.iter().filter(|v| v.source == source).count();
    Review { moves, for_player_0, from_database: count(Source::Database), searched: count(Source::Search) }
}

impl ReviewedMove {
    /// The JSON of one move.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "turn": self.turn,
            "ply": self.ply,
            "player": number(self.player),
            "hole": self.hole,
            "before": self.before.json(),
            "after": self.after.json(),
            "cost": self.cost.json(),
            "mark": self.mark.map(Mark::sign),
            "best_line": self.best_line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Mark, Span};

    #[test]
    fn marks_grow_with_the_cost_and_a_thrown_away_result_is_a_blunder() {
        let at = |v: i32| Span { lower: v, upper: v };
        assert_eq!(Mark::of(0, at(4), at(4)), None);
        assert_eq!(Mark::of(1, at(4), at(3)), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(3, at(10), at(7)), Some(Mark::Mistake));
        assert_eq!(Mark::of(8, at(20), at(12)), Some(Mark::Blunder));
        assert_eq!(Mark::of(2, at(1), at(-1)), Some(Mark::Blunder), "a win turned into a loss");
        assert_eq!(Mark::of(1, at(0), at(-1)), Some(Mark::Blunder), "a draw lost");
        assert_eq!(Mark::of(1, at(1), at(0)), Some(Mark::Blunder), "a win drawn");
    }
}
