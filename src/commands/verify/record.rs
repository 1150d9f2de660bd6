//! A board's row as one line of JSON: what `--json` prints and what the records file beside
//! `--out` holds, read back by `--resume`.

use dakon_solver::ruleset::RulesName;
use serde::{Deserialize, Serialize};

use super::board::{Board, PlayedTurn, Proof, Row, TurnProof};
use crate::certificate_writer::Written;

/// One row as JSON. Every field of [`Row`] is here, so that a row read back is the row
/// written.
#[derive(Serialize, Deserialize)]
struct Record {
    /// The rules the board was played under; `dakon` in records written before Kalah.
    #[serde(default = "dakon_rules")]
    rules: String,
    holes: usize,
    seeds: u32,
    total: u32,
    status: String,
    exact: bool,
    value: Option<i32>,
    lower: i32,
    upper: i32,
    first_player: String,
    proof: String,
    opening: Option<Vec<usize>>,
    opening_stored: Option<u32>,
    opening_kind: String,
    turn_proof: TurnRecord,
    nodes: u64,
    seconds: f64,
    /// The search budget of the board in seconds (`None`: opening turn only).
    budget: Option<f64>,
    tables: bool,
    interrupted: bool,
    /// Whether the upper bound rests on the enumeration of every first turn; absent from
    /// records written before it.
    #[serde(default)]
    upper_by_walk: bool,
    /// The certificate written with `--certificates` (`{"error": ...}` if it could not be);
    /// absent from records written before certificates.
    #[serde(default)]
    certificate: Option<serde_json::Value>,
}

/// The rules of a record that names none: it was written before there were others.
fn dakon_rules() -> String {
    RulesName::DAKON.as_str().to_string()
}

/// The opening-turn proof as JSON, whatever opening the row shows.
#[derive(Serialize, Deserialize)]
struct TurnRecord {
    opening: Option<Vec<usize>>,
    stored: Option<u32>,
    lower: i32,
    nodes: u64,
    complete: bool,
}

/// Whether the row's value is exact, as the tables say it.
pub fn status(row: &Row) -> &'static str {
    if row.exact() {
        "exact"
    } else {
        "bounds"
    }
}

/// How the row's opening was chosen.
pub fn opening_kind(row: &Row) -> &'static str {
    if row.opening_optimal {
        "optimal"
    } else {
        "most stored"
    }
}

/// One row as a line of JSON.
pub fn json(row: &Row) -> String {
    let turn = |t: &Option<PlayedTurn>| (t.as_ref().map(|t| t.holes.clone()), t.as_ref().map(|t| t.stored));
    let (opening, opening_stored) = turn(&row.opening);
    let (proof_opening, proof_stored) = turn(&row.turn_proof.turn);
    let record = Record {
        rules: row.rules.as_str().to_string(),
        holes: row.board.holes,
        seeds: row.board.seeds,
        total: row.board.total(),
        status: status(row).to_string(),
        exact: row.exact(),
        value: row.exact().then_some(row.lower),
        lower: row.lower,
        upper: row.upper,
        first_player: row.verdict().to_string(),
        proof: row.proof.name().to_string(),
        opening,
        opening_stored,
        opening_kind: opening_kind(row).to_string(),
        turn_proof: TurnRecord {
            opening: proof_opening,
            stored: proof_stored,
            lower: row.turn_proof.lower,
            nodes: row.turn_proof.nodes,
            complete: row.turn_proof.complete,
        },
        nodes: row.nodes,
        seconds: (row.seconds * 1000.0).round() / 1000.0,
        budget: row.budget,
        tables: row.tables,
        interrupted: row.interrupted,
        upper_by_walk: row.upper_by_walk,
        certificate: row.certificate.as_ref().map(|c| match c {
            Ok(written) => written.json(),
            Err(error) => serde_json::json!({ "error": error }),
        }),
    };
    serde_json::to_string(&record).expect("rows are plain data")
}

/// The row a line of [`json`] stands for.
///
/// # Errors
/// What is wrong with the line: not JSON of a row, or a row that contradicts itself (a
/// board that cannot be set up, bounds out of order, an unknown proof).
pub fn parse(line: &str) -> Result<Row, String> {
    let r: Record = serde_json::from_str(line).map_err(|e| format!("not a verify record ({e})"))?;
    let rules: RulesName = r.rules.parse().map_err(|_| format!("unknown rules '{}'", r.rules))?;
    let board = Board { holes: r.holes, seeds: r.seeds };
    if !(1..=9).contains(&r.holes) || r.seeds == 0 || board.total() > 255 {
        return Err(format!("board {}x{} cannot be set up", r.holes, r.seeds));
    }
    if r.total != board.total() || r.lower > r.upper || r.lower < -(r.total as i32) || r.upper > r.total as i32 {
        return Err(format!("bounds [{}, {}] do not fit board {}x{} of {} seeds", r.lower, r.upper, r.holes, r.seeds, board.total()));
    }
    let proof = Proof::from_name(&r.proof).ok_or_else(|| format!("unknown proof '{}'", r.proof))?;
    let turn = |holes: Option<Vec<usize>>, stored: Option<u32>| holes.zip(stored).map(|(holes, stored)| PlayedTurn { holes, stored });
    let certificate = r.certificate.map(certificate).transpose()?;
    Ok(Row {
        rules,
        board,
        lower: r.lower,
        upper: r.upper,
        proof,
        opening: turn(r.opening, r.opening_stored),
        opening_optimal: r.opening_kind == "optimal",
        turn_proof: TurnProof {
            turn: turn(r.turn_proof.opening, r.turn_proof.stored),
            lower: r.turn_proof.lower,
            nodes: r.turn_proof.nodes,
            complete: r.turn_proof.complete,
        },
        nodes: r.nodes,
        seconds: r.seconds,
        budget: r.budget,
        tables: r.tables,
        interrupted: r.interrupted,
        upper_by_walk: r.upper_by_walk,
        certificate,
    })
}

/// The certificate of a record: written, or the message of why it could not be.
///
/// # Errors
/// What is wrong with the certificate's part of the record.
fn certificate(value: serde_json::Value) -> Result<Result<Written, String>, String> {
    match value.get("error") {
        Some(serde_json::Value::String(error)) => Ok(Err(error.clone())),
        Some(_) => Err("certificate: 'error' is not text".to_string()),
        None => Written::from_json(value).map(Ok),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> Row {
        let turn = PlayedTurn { holes: vec![9, 5, 6], stored: 30 };
        Row {
            rules: RulesName::Kalah,
            board: Board { holes: 5, seeds: 5 },
            lower: 10,
            upper: 48,
            proof: Proof::OpeningTurn,
            opening: Some(turn.clone()),
            opening_optimal: false,
            turn_proof: TurnProof { turn: Some(turn), lower: 10, nodes: 1234, complete: true },
            nodes: 99,
            seconds: 1.5,
            budget: Some(60.0),
            tables: false,
            interrupted: true,
            upper_by_walk: true,
            certificate: None,
        }
    }

    #[test]
    fn a_row_survives_the_round_trip() {
        let line = json(&row());
        let back = parse(&line).unwrap();
        assert_eq!(json(&back), line);
        assert_eq!(format!("{back:?}"), format!("{:?}", row()));
    }

    #[test]
    fn a_row_with_its_certificate_survives_the_round_trip() {
        use crate::certificate_writer::Checked;
        use dakon_solver::certificate::Claim;
        let check = Checked { holds: true, visited: 4321, seconds: 0.25, problem: None };
        let written = Written {
            path: "certs/dakon-5x5.dkc".into(),
            bytes: 2048,
            claim: Claim { lower: 10, upper: 48 },
            small_seeds: 12,
            lower_entries: 30,
            upper_entries: 0,
            seconds: 0.5,
            check: Some(check),
            work: None,
        };
        for certificate in [Ok(written), Err("cannot write the certificate: disk full".to_string())] {
            let with = Row { certificate: Some(certificate), ..row() };
            let line = json(&with);
            let back = parse(&line).unwrap();
            assert_eq!(json(&back), line);
            assert_eq!(format!("{back:?}"), format!("{with:?}"));
        }
    }

    #[test]
    fn records_from_before_certificates_still_load() {
        let line = json(&row());
        let old = line.replace(",\"certificate\":null", "");
        assert!(!old.contains("certificate"), "{old}");
        assert_eq!(json(&parse(&old).unwrap()), line);
    }

    #[test]
    fn records_from_before_kalah_are_dakon_records() {
        let line = json(&Row { rules: RulesName::DAKON, ..row() });
        let old = line.replace("\"rules\":\"dakon\",", "");
        assert!(!old.contains("rules"), "{old}");
        assert_eq!(parse(&old).unwrap().rules, RulesName::DAKON);
        assert_eq!(parse(&line.replace("\"dakon\"", "\"go\"")).unwrap_err(), "unknown rules 'go'");
    }

    #[test]
    fn damaged_records_are_refused_with_the_reason() {
        assert!(parse("{\"holes\": 3").unwrap_err().contains("not a verify record"));
        let swapped = json(&row()).replace("\"lower\":10,\"upper\":48", "\"lower\":48,\"upper\":10");
        assert!(parse(&swapped).unwrap_err().contains("do not fit"));
        let foreign = json(&row()).replace("\"proof\":\"opening turn\"", "\"proof\":\"guess\"");
        assert!(parse(&foreign).unwrap_err().contains("unknown proof 'guess'"));
    }
}
