//! Malformed position lines: each is refused with a message that says what is wrong and the
//! column where it is; and no line, however odd, makes the parser panic or accept a line it
//! would not write itself.

use dakon_solver::dakon::Position;
use proptest::prelude::*;

/// A bad line, the 1-based column (in characters) the error must point at, and words the
/// message must contain.
const BAD_LINES: &[(&str, usize, &str)] = &[
    ("", 1, "empty position"),
    ("   ", 1, "empty position"),
    ("7,7/7,7 0/0", 12, "expected 3 space-separated parts"),
    ("7,7/7,7 0/0", 12, "found 2"),
    ("7,7/7,7", 8, "found 1"),
    ("7,7/7,7 0/0 0 0", 15, "found 4"),
    ("7,7/7,7  0/0 0", 9, "single spaces"),
    ("7,7/7,7 0/0  0", 13, "single spaces"),
    ("7,7/7,7\t0/0 0", 8, "single spaces, found '\\t'"),
    ("7,a/7,7 0/0 0", 3, "hole 1 (top row) must be a whole number, found 'a'"),
    ("7,7/7,x 0/0 0", 7, "hole 3 (bottom row) must be a whole number, found 'x'"),
    ("7,7/7,-1 0/0 0", 7, "hole 3 (bottom row) must be a whole number, found '-1'"),
    ("7,7/7,+1 0/0 0", 7, "hole 3 (bottom row) must be a whole number, found '+1'"),
    ("7,7/7,1.5 0/0 0", 7, "found '1.5'"),
    ("7,7/7,07 0/0 0", 7, "hole 3 (bottom row) must be written without leading zeros, found '07'"),
    ("7,7/7,7 -1/0 0", 9, "store S1 must be a whole number, found '-1'"),
    ("7,7/7,7 0/-3 0", 11, "store S0 must be a whole number, found '-3'"),
    ("7,7/7 0/0 0", 1, "both rows must have the same length: the top row has 2 holes, the bottom row 1"),
    ("7/7,7 0/0 0", 1, "the top row has 1"),
    ("/ 0/0 0", 1, "hole 0 (top row) is missing"),
    ("7,7/ 0/0 0", 5, "hole 2 (bottom row) is missing"),
    ("7,,7/7,7,7 0/0 0", 3, "hole 1 (top row) is missing"),
    ("7,7,/7,7,7 0/0 0", 5, "hole 2 (top row) is missing"),
    ("1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1 0/0 0", 1, "a row must have 1 to 9 holes, found 10"),
    ("7,7,7,7 0/0 0", 1, "two rows separated by one '/', found 1 row"),
    ("7,7/7,7/7,7 0/0 0", 1, "found 3 rows"),
    ("200,50/5,1 0/0 0", 1, "at most 255 seeds are supported, found 256"),
    ("100,100/50,2 3/1 1", 1, "(holes and stores together)"),
    ("7,7/7,7 256/0 0", 9, "store S1 is too large: 256"),
    ("7,7/7,7 0/99999999999999999999 0", 11, "store S0 is too large"),
    ("300,7/7,7 0/0 0", 1, "hole 0 (top row) is too large: 300"),
    ("7,7/7,7 0 0", 9, "the stores must be two numbers written '<S1>/<S0>', found 1 number"),
    ("7,7/7,7 0/0/0 0", 9, "found 3 numbers"),
    ("7,7/7,7 /0 0", 9, "store S1 is missing"),
    ("7,7/7,7 0/ 0", 11, "store S0 is missing"),
    ("7,7/7,7 0/0 2", 13, "the player to move must be 0 or 1, found '2'"),
    ("7,7/7,7 0/0 x", 13, "the player to move must be 0 or 1, found 'x'"),
    ("7,7/7,7 0/0 01", 13, "the player to move must be 0 or 1, found '01'"),
    ("7,7/7,7 0/0 -1", 13, "found '-1'"),
    ("７,7/7,7 0/0 0", 1, "hole 0 (top row) must be a whole number, found '７'"),
    ("\u{3000}7,7/7 0/0 0", 2, "both rows must have the same length"),
    ("ä 7,7/7,7 0/0 0", 15, "found 4"),
];

#[test]
fn bad_lines_are_refused_with_what_and_where() {
    for &(line, column, words) in BAD_LINES {
        let error = line.parse::<Position>().expect_err(line);
        assert!(error.message.contains(words), "{line:?}: message '{}' lacks '{words}'", error.message);
        assert_eq!(error.column, column, "{line:?}: column of '{error}'");
        assert_eq!(error.to_string(), format!("column {column}: {}", error.message));
    }
}

#[test]
fn surrounding_white_space_is_ignored() {
    let p: Position = "  7,7/7,7 0/0 1 \n".parse().unwrap();
    assert_eq!(p.to_string(), "7,7/7,7 0/0 1");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// Lines made of the notation's own characters: the parser never panics, points inside
    /// the line (or just after it), and accepts only lines it writes back unchanged.
    #[test]
    fn near_miss_lines(line in "[0-9,/ ]{0,30}|[0-2](,[0-9]{1,2}){0,3}/[0-2](,[0-9]{1,2}){0,3} [0-9]{1,3}/[0-9]{1,3} [0-2]") {
        match line.parse::<Position>() {
            Ok(p) => prop_assert_eq!(p.to_string(), line.trim()),
            Err(e) => prop_assert!((1..=line.chars().count() + 1).contains(&e.column), "{:?}: {}", line, e),
        }
    }

    /// Any text at all: no panic, and the column stays within the line.
    #[test]
    fn any_text(line in any::<String>()) {
        if let Err(e) = line.parse::<Position>() {
            prop_assert!((1..=line.chars().count() + 1).contains(&e.column), "{:?}: {}", line, e);
        }
    }
}
