//! Game records: a plain text notation of a game, its rules, its first position and the holes
//! of each turn (`docs/game-records.md`), read with every move checked by the rules, and
//! written back.

use std::fmt;

use dakon_solver::dakon::{Player, Position};
use dakon_solver::ruleset::{RuleSet, RulesName};

/// A game: its rules, where it starts, and its turns (each the holes one player played, an
/// extra move staying in its turn), every move legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub rules: RulesName,
    pub start: Position,
    pub turns: Vec<Vec<usize>>,
}

/// One move of a game, and the positions around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The turn it belongs to, from 1.
    pub turn: usize,
    pub before: Position,
    pub hole: usize,
    pub after: Position,
}

/// Why a record was refused: its line (from 1), and the turn and move within it when a move is
/// at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub line: usize,
    /// The turn (from 1) and the move within it (from 1).
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((turn, mv)) => write!(f, "line {}, turn {turn}, move {mv}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// The headers a record may give before its turns.
#[derive(Default)]
struct Headers {
    rules: Option<RulesName>,
    holes: Option<usize>,
    seeds: Option<u32>,
    position: Option<Position>,
}

impl GameRecord {
    /// Reads a record, playing every move by its rules.
    ///
    /// # Errors
    /// [`RecordError`] naming the line (and the turn and move) at fault: an unknown or repeated
    /// header, a malformed number, turns out of order, an illegal move, a turn that passes
    /// before its line ends or ends while its player moves again.
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let mut headers = Headers::default();
        let mut game: Option<(GameRecord, Position)> = None;
        let mut last_line = 0;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            last_line = line;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let refuse = |message: String| RecordError { line, at: None, message };
            let (first, rest) = content.split_once(char::is_whitespace).unwrap_or((content, ""));
            if let Some(number) = first.strip_suffix('.') {
                let (record, position) = match &mut game {
                    Some(game) => game,
                    None => game.insert(headers.start().map_err(refuse)?),
                };
                let turn = record.turns.len() + 1;
                if number.parse::<usize>().ok() != Some(turn) {
                    return Err(refuse(format!("expected turn {turn}, found '{first}'")));
                }
                let holes = record.play_turn(position, rest, line, turn)?;
                record.turns.push(holes);
            } else if game.is_some() {
                return Err(refuse(format!("'{first}' after the turns: a turn line starts with its number and a dot, e.g. '3. 9'")));
            } else {
                headers.read(first, rest.trim()).map_err(refuse)?;
            }
        }
        match game {
            Some((record, _)) => Ok(record),
            None => headers.start().map(|(record, _)| record).map_err(|message| RecordError { line: last_line.max(1), at: None, message }),
        }
    }

    /// The rules the game is played by.
    pub fn rule_set(&self) -> RuleSet {
        RuleSet::of(self.rules, &self.start)
    }

    /// Plays the holes of one turn line from `position` (which it moves on), checking that the
    /// turn stays with its player to its last hole and passes (or ends the game) there.
    fn play_turn(&self, position: &mut Position, holes: &str, line: usize, turn: usize) -> Result<Vec<usize>, RecordError> {
        let rules = self.rule_set();
        let mut played = Vec::new();
        let words: Vec<&str> = holes.split_whitespace().collect();
        if words.is_empty() {
            return Err(RecordError { line, at: Some((turn, 1)), message: "a turn with no hole".to_string() });
        }
        let player = position.mover();
        for (i, word) in words.iter().enumerate() {
            let refuse = |message: String| RecordError { line, at: Some((turn, i + 1)), message };
            let hole: usize = word.parse().map_err(|_| refuse(format!("expected a hole number, found '{word}'")))?;
            if i > 0 && position.mover() != player {
                return Err(refuse(format!(
                    "the turn passed to player {} after hole {}; start turn {} on a new line",
                    number(position.mover()),
                    played[i - 1],
                    turn + 1
                )));
            }
            let (next, _) = rules.play_hole(position, hole).map_err(|e| refuse(format!("hole {hole} in '{position}': {e}")))?;
            *position = next;
            played.push(hole);
        }
        if position.mover() == player && !rules.is_over(position) {
            return Err(RecordError {
                line,
                at: Some((turn, words.len())),
                message: format!(
                    "player {} moves again after hole {} (an extra move): add that move to this turn",
                    number(player),
                    played[played.len() - 1]
                ),
            });
        }
        Ok(played)
    }

    /// Every move of the game in order, with the positions around it.
    pub fn plies(&self) -> Vec<Ply> {
        let rules = self.rule_set();
        let mut position = self.start;
        let mut plies = Vec::new();
        for (turn, holes) in self.turns.iter().enumerate() {
            for &hole in holes {
                let (after, _) = rules.play_hole(&position, hole).expect("a record's moves were checked when it was read");
                plies.push(Ply { turn: turn + 1, before: position, hole, after });
                position = after;
            }
        }
        plies
    }
}

impl fmt::Display for GameRecord {
    /// The record as [`GameRecord::parse`] reads it: the rules, the first position (as holes
    /// and seeds when it is a start), then one line per turn.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "rules {}", self.rules)?;
        let holes = self.start.holes();
        let seeds = u32::from(self.start.hole(0));
        match Position::start(holes, seeds) {
            Ok(start) if start == self.start => writeln!(f, "holes {holes}\nseeds {seeds}")?,
            _ => writeln!(f, "position {}", self.start)?,
        }
        for (turn, holes) in self.turns.iter().enumerate() {
            let holes: Vec<String> = holes.iter().map(ToString::to_string).collect();
            writeln!(f, "{}. {}", turn + 1, holes.join(" "))?;
        }
        Ok(())
    }
}

impl Headers {
    /// Reads the header `key value`.
    fn read(&mut self, key: &str, value: &str) -> Result<(), String> {
        let repeated = || format!("'{key}' is given twice");
        match key {
            "rules" => {
                let rules = value.parse().map_err(|e| format!("{e}"))?;
                self.rules.replace(rules).map_or(Ok(()), |_| Err(repeated()))
            }
            "holes" => {
                let holes = value.parse().map_err(|_| format!("expected holes per row (1 to 9), found '{value}'"))?;
                self.holes.replace(holes).map_or(Ok(()), |_| Err(repeated()))
            }
            "seeds" => {
                let seeds = value.parse().map_err(|_| format!("expected seeds per hole, found '{value}'"))?;
                self.seeds.replace(seeds).map_or(Ok(()), |_| Err(repeated()))
            }
            "position" => {
                let position = value.parse().map_err(|e| format!("invalid position '{value}': {e}"))?;
                self.position.replace(position).map_or(Ok(()), |_| Err(repeated()))
            }
            _ => Err(format!("unknown header '{key}': expected rules, holes, seeds or position, or a turn such as '1. 9'")),
        }
    }

    /// The record these headers begin (no turn yet) and its first position: `position`, else
    /// the start of `holes` and `seeds` (default: 7, and as many seeds as holes).
    fn start(&self) -> Result<(GameRecord, Position), String> {
        let rules = self.rules.unwrap_or(RulesName::DAKON);
        if rules.needs_opening_state() {
            // Its moves depend on whose first turn it is, which a record's positions do not say.
            return Err(format!("rules {rules}: game records do not carry the first turns that no-first-turn-capture needs yet"));
        }
        let start = match (self.position, self.holes, self.seeds) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err("give either 'position' or 'holes' and 'seeds', not both".to_string())
            }
            (Some(position), None, None) => position,
            (None, holes, seeds) => {
                let holes = holes.unwrap_or(7);
                let seeds = seeds.unwrap_or(holes as u32);
                Position::start(holes, seeds).map_err(|e| format!("cannot set up the start of {holes} holes and {seeds} seeds: {e}"))?
            }
        };
        RuleSet::new(rules, start.holes()).map_err(|e| format!("{rules} on {} holes: {e}", start.holes()))?;
        Ok((GameRecord { rules, start, turns: Vec::new() }, start))
    }
}

/// A player's number, as the notation writes it.
pub fn number(player: Player) -> u8 {
    match player {
        Player::Zero => 0,
        Player::One => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::GameRecord;

    #[test]
    fn a_record_round_trips_and_its_plies_follow_the_turns() {
        // Hole 7 ends in the store (an extra move), hole 10 passes the turn.
        let text = "# a short game\nrules dakon\nholes 7\nseeds 7\n1. 7 10   # extra move first\n2. 0\n";
        let record = GameRecord::parse(text).unwrap();
        assert_eq!(record.turns, vec![vec![7, 10], vec![0]]);
        assert_eq!(GameRecord::parse(&record.to_string()).unwrap(), record);
        let plies = record.plies();
        assert_eq!(plies.iter().map(|p| (p.turn, p.hole)).collect::<Vec<_>>(), vec![(1, 7), (1, 10), (2, 0)]);
        assert_eq!(plies[1].before, plies[0].after);
    }

    #[test]
    fn a_malformed_record_is_refused_with_the_line_and_the_move_at_fault() {
        let refused = |text: &str| GameRecord::parse(text).unwrap_err().to_string();
        assert_eq!(
            refused("holes 7\n1. 7 10\n2. 0 8\n"),
            "line 3, turn 2, move 2: the turn passed to player 0 after hole 0; start turn 3 on a new line"
        );
        assert_eq!(
            refused("holes 7\n1. 7\n"),
            "line 2, turn 1, move 1: player 0 moves again after hole 7 (an extra move): add that move to this turn"
        );
        assert!(refused("1. 7 10\n2. 20\n").starts_with("line 2, turn 2, move 1: hole 20 in"), "{}", refused("1. 7 10\n2. 20\n"));
        assert_eq!(refused("1. 7 x\n"), "line 1, turn 1, move 2: expected a hole number, found 'x'");
        assert_eq!(refused("1. 7 10\n3. 2\n"), "line 2: expected turn 2, found '3.'");
        assert!(refused("colour red\n").starts_with("line 1: unknown header 'colour'"));
        assert!(refused("holes 7\nposition 1,0/0,1 0/0 0\n").contains("either 'position' or 'holes'"));
        assert!(refused("rules oware\n").starts_with("line 1: unknown rules 'oware'"));
        assert!(refused("rules dakon:no-first-turn-capture\nholes 3\n1. 3").contains("do not carry the first turns"));
    }
}
