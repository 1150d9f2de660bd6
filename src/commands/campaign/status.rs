//! `dakon campaign status`: the bounds of the root and of every position of the tree, derived
//! from the records, with where each came from.

use serde_json::{json, Value};

use super::derive::{Derived, Source};
use super::record::Record;
use super::tree::{line_name, Tree};

/// Where a bound came from, in words; `evidence` describes the caller's proofs.
pub fn source_words(source: Source, evidence: &dyn Fn(usize) -> String) -> String {
    match source {
        Source::Trivial => "no proof yet (every seed left)".to_string(),
        Source::GameOver => "the game is over".to_string(),
        Source::Evidence(n) => evidence(n),
        Source::Move(hole) => format!("move {hole}"),
        Source::EveryMove => "every move".to_string(),
    }
}

/// Where a bound came from, as JSON; `evidence` describes the caller's proofs.
pub fn source_json(source: Source, evidence: &dyn Fn(usize) -> Value) -> Value {
    match source {
        Source::Trivial => json!({"kind": "trivial"}),
        Source::GameOver => json!({"kind": "game_over"}),
        Source::Evidence(n) => evidence(n),
        Source::Move(hole) => json!({"kind": "move", "hole": hole}),
        Source::EveryMove => json!({"kind": "every_move"}),
    }
}

/// A table of every position: its line, mover, bounds and where they came from.
pub fn positions_text<P>(tree: &Tree<P>, derived: &[Derived], mover: impl Fn(&P) -> usize, evidence: &dyn Fn(usize) -> String) -> String {
    let mut out = String::from("line        to move  bounds          lower from / upper from\n");
    for (node, d) in tree.nodes.iter().zip(derived) {
        out.push_str(&format!(
            "{:<11} {:<8} {:<15} {} / {}\n",
            line_name(&node.line),
            mover(&node.position),
            d.bounds.describe(),
            source_words(d.lower_from, evidence),
            source_words(d.upper_from, evidence)
        ));
    }
    out
}

/// Every position as JSON objects.
pub fn positions_json<P>(tree: &Tree<P>, derived: &[Derived], mover: impl Fn(&P) -> usize, evidence: &dyn Fn(usize) -> Value) -> Value {
    tree.nodes
        .iter()
        .zip(derived)
        .map(|(node, d)| {
            json!({
                "line": node.line, "name": line_name(&node.line), "position": node.notation, "to_move": mover(&node.position),
                "lower": d.bounds.lower, "upper": d.bounds.upper, "exact": d.bounds.is_exact(),
                "lower_from": source_json(d.lower_from, evidence), "upper_from": source_json(d.upper_from, evidence),
            })
        })
        .collect()
}

/// A record of the campaign file as the evidence of a bound, in words.
pub fn record_words(number: usize, record: &Record) -> String {
    match record {
        Record::Bound(b) => {
            let proof = b.certificate.as_ref().map_or_else(|| "search, no certificate".to_string(), |c| format!("certificate {}", c.file));
            format!("record at line {number} ({proof}, {:.1} CPU s)", b.work.cpu_seconds)
        }
        _ => format!("record at line {number}"),
    }
}

/// A record of the campaign file as the evidence of a bound, as JSON.
pub fn record_json(number: usize, record: &Record) -> Value {
    match record {
        Record::Bound(b) => json!({
            "kind": "record", "file_line": number, "proof": b.proof,
            "certificate": b.certificate.as_ref().map(|c| &c.file), "cpu_seconds": b.work.cpu_seconds,
        }),
        _ => json!({"kind": "record", "file_line": number}),
    }
}
