//! How `dakon verify` writes its rows for people: an aligned table and a Markdown report.

use std::time::{SystemTime, UNIX_EPOCH};

use dakon_solver::ruleset::RulesName;

use super::board::Row;
use super::record::{opening_kind, status};

/// The header of the aligned table.
pub fn table_header() -> String {
    format!(
        "{:>5} {:>5} {:>5}  {:<6}  {:<10}  {:<7}  {:<12}  {:>6}  {:>14}  {:>8}  {:<22}  opening",
        "holes", "seeds", "total", "status", "value", "first", "proof", "stored", "nodes", "seconds", "certificate"
    )
}

/// One row of the aligned table.
pub fn table_line(row: &Row) -> String {
    let [holes, seeds, total, status, value, verdict, proof, stored, nodes, seconds, certificate, opening] = cells(row);
    format!(
        "{holes:>5} {seeds:>5} {total:>5}  {status:<6}  {value:<10}  {verdict:<7}  {proof:<12}  {stored:>6}  {nodes:>14}  {seconds:>8}  {certificate:<22}  {opening}"
    )
}

/// The columns of a row, as text, in the order of both tables.
fn cells(row: &Row) -> [String; 12] {
    [
        row.board.holes.to_string(),
        row.board.seeds.to_string(),
        row.board.total().to_string(),
        status(row).to_string(),
        value(row),
        row.verdict().to_string(),
        row.proof.name().to_string(),
        row.opening.as_ref().map_or("-".to_string(), |t| t.stored.to_string()),
        row.nodes.to_string(),
        format!("{:.2}", row.seconds),
        super::certificate::cell(row),
        opening(row),
    ]
}

/// The value, or the proven bounds as `lower..upper`.
fn value(row: &Row) -> String {
    if row.exact() {
        format!("{:+}", row.lower)
    } else {
        format!("{:+}..{:+}", row.lower, row.upper)
    }
}

/// Holes separated by spaces, as `dakon play` takes them.
fn holes_text(holes: &[usize]) -> String {
    holes.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
}

fn opening(row: &Row) -> String {
    let Some(turn) = &row.opening else { return "-".to_string() };
    format!("{} ({})", holes_text(&turn.holes), opening_kind(row))
}

/// The values at a glance: holes per row down, seeds per hole across; bounds only in italics
/// as `lower..upper`, boards not in the run empty.
fn grid(rows: &[Row]) -> String {
    let mut holes: Vec<usize> = rows.iter().map(|r| r.board.holes).collect();
    let mut seeds: Vec<u32> = rows.iter().map(|r| r.board.seeds).collect();
    holes.sort_unstable();
    holes.dedup();
    seeds.sort_unstable();
    seeds.dedup();
    let mut out =
        String::from("## At a glance\n\nValue of each board (first player − second); *lower..upper* where only bounds are proven.\n\n");
    out.push_str(&format!("| holes \\ seeds per hole | {} |\n", seeds.iter().map(u32::to_string).collect::<Vec<_>>().join(" | ")));
    out.push_str(&format!("|---:|{}\n", "---:|".repeat(seeds.len())));
    for h in holes {
        let cells: Vec<String> = seeds
            .iter()
            .map(|&s| match rows.iter().find(|r| r.board.holes == h && r.board.seeds == s) {
                Some(row) if row.exact() => format!("{:+}", row.lower),
                Some(row) => format!("*{:+}..{:+}*", row.lower, row.upper),
                None => String::new(),
            })
            .collect();
        out.push_str(&format!("| **{h}** | {} |\n", cells.join(" | ")));
    }
    out
}

/// The settings of a run, for the Markdown report.
pub struct Settings {
    pub rules: RulesName,
    pub command: String,
    pub budget: String,
    pub threads: usize,
    pub tt_mb: usize,
    pub tables: String,
}

/// The Markdown report of a run.
pub fn markdown(rows: &[Row], settings: &Settings, finished: bool) -> String {
    let mut out = String::new();
    let (game, replay_rules) = match settings.rules {
        RulesName::DAKON => ("Dakon".to_string(), String::new()),
        rules @ RulesName::Dakon(_) => (format!("Dakon (rules {rules})"), format!(" --rules {rules}")),
        rules => (format!("Kalah (rules {rules})"), format!(" --rules {rules}")),
    };
    out.push_str(&format!("# {game}: the first player's result on each board\n\n"));
    out.push_str(&format!("- Date: {} UTC\n", utc_now()));
    out.push_str(&format!("- Machine: {}\n", machine()));
    out.push_str(&format!("- Program: dakon {}\n", env!("CARGO_PKG_VERSION")));
    out.push_str(&format!("- Command: `{}`\n", settings.command));
    out.push_str(&format!(
        "- Settings: budget {} per board, {} threads, {} MiB transposition table, endgame tables {}\n",
        settings.budget, settings.threads, settings.tt_mb, settings.tables
    ));
    out.push_str(&format!("- Total time: {:.1} s\n", rows.iter().map(|r| r.seconds).sum::<f64>()));
    if !finished {
        out.push_str("- **Interrupted**: the rows below are the boards done before Ctrl-C.\n");
    }
    out.push_str(&format!(
        "\nValues are final store differences, first player minus second, with perfect play. \
         `opening` is the first player's first turn (a move and the extra moves it earns), in hole numbers; \
         `stored` is the first player's store after it. Replay a row with \
         `dakon play start --holes N --seeds S{replay_rules} H1 H2 ...`.\n\n",
    ));
    out.push_str(&grid(rows));
    out.push_str("\n## Every board\n\n");
    out.push_str("| holes | seeds | total | status | value | first player | proof | stored | nodes | seconds | certificate | opening |\n");
    out.push_str("|---:|---:|---:|---|---|---|---|---:|---:|---:|---|---|\n");
    for row in rows {
        out.push_str(&format!("| {} |\n", cells(row).join(" | ")));
    }
    out.push_str("\n## Opening-turn proofs\n\nThe first turn storing the most seeds that the turn search found on each board, whatever proof the row above uses. Stores never shrink, so it proves a final difference of at least 2 x stored - total.\n\n");
    out.push_str("| holes | seeds | stored | proves at least | turns searched | opening turn |\n|---:|---:|---:|---:|---|---|\n");
    for row in rows {
        let proof = &row.turn_proof;
        let turn = proof.turn.as_ref().map_or("-".to_string(), |t| holes_text(&t.holes));
        let stored = proof.turn.as_ref().map_or("-".to_string(), |t| t.stored.to_string());
        let searched = if proof.complete { format!("all ({} moves)", proof.nodes) } else { format!("{} moves (budget)", proof.nodes) };
        out.push_str(&format!("| {} | {} | {stored} | {:+} | {searched} | {turn} |\n", row.board.holes, row.board.seeds, proof.lower));
    }
    out.push_str(
        "\nProofs: *exact search*: the search finished; *opening turn*: the first turn stores more than half of \
         all seeds, and stores never shrink, so the lower bound is 2 x stored - total; *search bound*: \
         bounds proven by a search stopped by the budget.\n\n\
         Certificates (with `--certificates DIR`): *checked*: the board's proof certificate, DIR/dakon-NxS.dkc, \
         was written and then read back and confirmed by the independent checker (`dakon check`, which shares no \
         code with the solver); *checked (lower)*: the same for the lower bound alone, the upper bound resting on \
         the enumeration of every first turn (no turn takes every seed), which no certificate holds; *written*: \
         not checked (`--no-check`); *REFUSED*: the checker refused it.\n",
    );
    out
}

/// The CPU model and core count.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cpu}, {cores} cores, {} {}", std::env::consts::OS, std::env::consts::ARCH)
}

/// The current time in UTC as `YYYY-MM-DD HH:MM:SS`.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_000), (2024, 10, 4));
    }
}
