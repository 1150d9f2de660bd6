//! The position notation: `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player to move>`.
//!
//! ```
//! use dakon_solver::dakon::Position;
//! let p: Position = "0,3,0,2,2/1,0,0,0,2 0/0 0".parse().unwrap();
//! assert_eq!(p.holes(), 5);
//! assert_eq!(p.to_string(), "0,3,0,2,2/1,0,0,0,2 0/0 0");
//! let err = "1,2/3 0/0 0".parse::<Position>().unwrap_err();
//! assert_eq!(err.to_string(), "column 1: both rows must have the same length: the top row has 2 holes, the bottom row 1");
//! ```

use std::fmt;
use std::str::FromStr;

use super::position::{Position, PositionError};
use super::Player;

/// A line that is not a valid position, with the column (1-based, in characters) where the
/// problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// 1-based column of the offending field or number.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for NotationError {}

fn error(column: usize, message: impl Into<String>) -> NotationError {
    NotationError { column, message: message.into() }
}

/// `count` and the noun, singular or plural.
fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// A number of seeds (or a player) at byte offset `start` of the line. Only the canonical
/// form is accepted (no sign, no leading zero), so that a line that parses is written back
/// unchanged.
fn number(text: &str, start: usize, what: &str) -> Result<u32, NotationError> {
    if text.is_empty() {
        return Err(error(start + 1, format!("{what} is missing")));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error(start + 1, format!("{what} must be a whole number, found '{text}'")));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(error(start + 1, format!("{what} must be written without leading zeros, found '{text}'")));
    }
    text.parse::<u32>()
        .ok()
        .filter(|&v| v <= 255)
        .ok_or_else(|| error(start + 1, format!("{what} is too large: {text} (at most 255 seeds in all)")))
}

/// Splits `text` (at byte offset `start` of the line) on `sep`, with each piece's offset.
fn split_at<'a>(text: &'a str, start: usize, sep: char) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    let mut offset = start;
    text.split(sep).map(move |piece| {
        let here = offset;
        offset += piece.len() + sep.len_utf8();
        (here, piece)
    })
}

fn row(text: &str, start: usize, name: &str, first_hole: usize) -> Result<Vec<u8>, NotationError> {
    split_at(text, start, ',')
        .enumerate()
        .map(|(i, (at, piece))| number(piece, at, &format!("hole {} ({name} row)", first_hole + i)).map(|v| v as u8))
        .collect()
}

impl FromStr for Position {
    type Err = NotationError;

    /// Parses the notation. Surrounding white space is ignored; inside, the three parts
    /// (holes, stores, player) must be separated by single spaces.
    ///
    /// # Errors
    /// A [`NotationError`] naming the column and the problem: a missing or extra part, a
    /// character that is not a digit, a leading zero, rows of different lengths, a row of
    /// more than 9 holes, more than 255 seeds, a player other than 0 or 1.
    fn from_str(line: &str) -> Result<Position, NotationError> {
        // Columns are found as byte offsets and reported in characters.
        parse(line).map_err(|e| NotationError { column: line[..e.column - 1].chars().count() + 1, ..e })
    }
}

/// [`Position::from_str`] with the error's column as a 1-based byte offset.
fn parse(line: &str) -> Result<Position, NotationError> {
    let lead = line.len() - line.trim_start().len();
    let text = line.trim();
    if text.is_empty() {
        return Err(error(
            1,
            "empty position: expected '<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player>', e.g. '7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0'",
        ));
    }
    if let Some((at, c)) = text.char_indices().find(|&(_, c)| c.is_whitespace() && c != ' ') {
        return Err(error(lead + at + 1, format!("parts must be separated by single spaces, found {c:?}")));
    }
    let parts: Vec<(usize, &str)> = split_at(text, lead, ' ').collect();
    if let Some(&(at, _)) = parts.iter().find(|(_, p)| p.is_empty()) {
        return Err(error(at + 1, "parts must be separated by single spaces"));
    }
    if parts.len() != 3 {
        let at = parts.get(3).map_or(lead + text.len(), |p| p.0);
        return Err(error(
            at + 1,
            format!("expected 3 space-separated parts '<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player>', found {}", parts.len()),
        ));
    }
    let (holes_at, holes) = parts[0];
    let rows: Vec<(usize, &str)> = split_at(holes, holes_at, '/').collect();
    if rows.len() != 2 {
        return Err(error(holes_at + 1, format!("the holes must be two rows separated by one '/', found {}", counted(rows.len(), "row"))));
    }
    let top = row(rows[0].1, rows[0].0, "top", 0)?;
    let bottom = row(rows[1].1, rows[1].0, "bottom", top.len())?;
    let (stores_at, stores) = parts[1];
    let stores: Vec<(usize, &str)> = split_at(stores, stores_at, '/').collect();
    if stores.len() != 2 {
        return Err(error(
            stores_at + 1,
            format!("the stores must be two numbers written '<S1>/<S0>', found {}", counted(stores.len(), "number")),
        ));
    }
    let s1 = number(stores[0].1, stores[0].0, "store S1")? as u8;
    let s0 = number(stores[1].1, stores[1].0, "store S0")? as u8;
    let (player_at, player) = parts[2];
    let mover = number(player, player_at, "the player to move")
        .ok()
        .and_then(|p| Player::from_number(p as u8))
        .ok_or_else(|| error(player_at + 1, format!("the player to move must be 0 or 1, found '{player}'")))?;
    Position::from_rows(&top, &bottom, [s1, s0], mover).map_err(|e| {
        let column = match e {
            PositionError::TooManySeeds(_) => lead + 1,
            _ => holes_at + 1,
        };
        error(column, e.to_string())
    })
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.holes();
        let holes = self.holes_in_notation_order();
        let row = |r: &[u8]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
        write!(f, "{}/{} {}/{} {}", row(&holes[..n]), row(&holes[n..]), self.store(Player::One), self.store(Player::Zero), self.mover())
    }
}
