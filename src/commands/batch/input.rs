//! The batch input: positions one per line, with `#` comments and blank lines.

use dakon_solver::dakon::Position;

/// One input line that holds something: a position, or a line that is not one.
#[derive(Clone, Debug)]
pub struct Item {
    /// The line number in the input, from 1.
    pub line: u64,
    /// The line as written, comment and surrounding blanks removed.
    pub text: String,
    /// The position, or why the line is not one.
    pub position: Result<Position, String>,
}

/// Splits the input into items, skipping blank lines and comments (from `#` to the end of
/// the line) but keeping the real line numbers.
pub fn items(input: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    for (index, raw) in input.split(|&b| b == b'\n').enumerate() {
        let line = index as u64 + 1;
        let (text, position) = match std::str::from_utf8(raw) {
            Ok(text) => {
                let text = text.split_once('#').map_or(text, |(before, _)| before).trim();
                if text.is_empty() {
                    continue;
                }
                (text.to_string(), text.parse::<Position>().map_err(|e| format!("invalid position: {e}")))
            }
            Err(e) => (String::from_utf8_lossy(raw).trim().to_string(), Err(format!("the line is not valid UTF-8: {e}"))),
        };
        items.push(Item { line, text, position });
    }
    items
}

#[cfg(test)]
mod tests {
    use super::items;

    #[test]
    fn skips_comments_and_blanks_and_keeps_line_numbers() {
        let input = b"# a batch\n\n1,0/0,2 0/0 0  # a corner\r\n1,0/0,2 0/0\n\xff\n";
        let found = items(input);
        assert_eq!(found.iter().map(|i| i.line).collect::<Vec<_>>(), [3, 4, 5]);
        assert_eq!(found[0].text, "1,0/0,2 0/0 0");
        assert!(found[0].position.is_ok());
        assert!(found[1].position.as_ref().unwrap_err().starts_with("invalid position"));
        assert!(found[2].position.as_ref().unwrap_err().contains("UTF-8"));
    }
}
