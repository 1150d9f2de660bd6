//! The reference's own notation: `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player>`.

use super::rules::RefRules;
use super::Board;

/// The notation of a board.
pub fn format(board: &Board) -> String {
    let row = |holes: &[u32]| holes.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let n = board.n;
    format!("{}/{} {}/{} {}", row(&board.holes[..n]), row(&board.holes[n..]), board.stores[1], board.stores[0], board.to_move)
}

/// Reads a well-formed line (test data only: it checks just enough to avoid misreading).
///
/// # Errors
/// A short description of the first problem found.
pub fn parse(line: &str) -> Result<Board, String> {
    let fields: Vec<&str> = line.split(' ').collect();
    let [holes, stores, player] = fields[..] else { return Err(format!("expected 3 fields in '{line}'")) };
    let numbers = |text: &str, sep: char| -> Result<Vec<u32>, String> {
        text.split(sep).map(|t| t.parse::<u32>().map_err(|e| format!("'{t}' in '{line}': {e}"))).collect()
    };
    let rows: Vec<&str> = holes.split('/').collect();
    let [top, bottom] = rows[..] else { return Err(format!("expected two rows in '{line}'")) };
    let (top, bottom) = (numbers(top, ',')?, numbers(bottom, ',')?);
    let stores = numbers(stores, '/')?;
    if top.len() != bottom.len() || stores.len() != 2 {
        return Err(format!("rows or stores malformed in '{line}'"));
    }
    let to_move = match player {
        "0" => 0,
        "1" => 1,
        _ => return Err(format!("bad player in '{line}'")),
    };
    Ok(Board { n: top.len(), holes: top.into_iter().chain(bottom).collect(), stores: [stores[1], stores[0]], to_move })
}

/// The lines of a `;`-separated data file, without comments and blank lines, split into
/// trimmed fields.
pub fn data_lines(text: &str) -> Vec<Vec<&str>> {
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(|l| l.split(';').map(str::trim).collect()).collect()
}

/// The worked examples of every rule set: rules, position, hole, position after.
pub fn worked_examples() -> Vec<(RefRules, &'static str, usize, &'static str)> {
    data_lines(include_str!("../data/worked_examples.txt"))
        .into_iter()
        .map(|f| {
            assert_eq!(f.len(), 4, "worked_examples.txt: malformed line {f:?}");
            (RefRules::named(f[0]), f[1], f[2].parse().unwrap(), f[3])
        })
        .collect()
}
