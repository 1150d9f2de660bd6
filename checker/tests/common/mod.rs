//! Test helpers: the notation parser.
#![allow(dead_code)] // each test file uses some of these

use dakon_check::rules::{Position, Rules};

/// Parses the notation `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player>`.
pub fn parse(rules: Rules, text: &str) -> Position {
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields.len(), 3, "three fields in {text:?}");
    let holes: Vec<u8> = fields[0].split(['/', ',']).map(|seeds| seeds.parse().expect("a hole count")).collect();
    let (store1, store0) = fields[1].split_once('/').expect("stores S1/S0");
    let stores = [store0.parse().expect("S0"), store1.parse().expect("S1")];
    Position::new(rules, &holes, stores, fields[2].parse().expect("a player")).expect("a valid position")
}

/// The start: `seeds` in each of `2 * holes_per_row` holes, player 0 to move.
pub fn start(rules: Rules, holes_per_row: usize, seeds: u8) -> Position {
    Position::new(rules, &vec![seeds; 2 * holes_per_row], [0, 0], 0).expect("a valid start")
}
