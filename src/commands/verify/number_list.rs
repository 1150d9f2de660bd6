//! A command-line list of small numbers: `7`, `5..9` (both ends included) or `5,7,9`.

use std::fmt;
use std::str::FromStr;

/// Numbers given as one value, an inclusive range `a..b` (or `a..=b`), or a comma-separated
/// list of those, in the order given.
///
/// `"1..3,7"` is `[1, 2, 3, 7]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberList(pub Vec<u32>);

impl FromStr for NumberList {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut numbers = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            if let Some((from, to)) = item.split_once("..") {
                let to = to.strip_prefix('=').unwrap_or(to);
                let (from, to) = (number(from, text)?, number(to, text)?);
                if from > to {
                    return Err(format!("range '{item}' in '{text}' is empty: its start is above its end"));
                }
                numbers.extend(from..=to);
            } else {
                numbers.push(number(item, text)?);
            }
        }
        Ok(NumberList(numbers))
    }
}

fn number(item: &str, whole: &str) -> Result<u32, String> {
    item.trim().parse().map_err(|_| format!("expected a number, a range like 5..9 or a list like 5,7; found '{item}' in '{whole}'"))
}

impl fmt::Display for NumberList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.0.iter().map(u32::to_string).collect();
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::NumberList;

    #[test]
    fn parses_values_ranges_and_lists() {
        assert_eq!("7".parse(), Ok(NumberList(vec![7])));
        assert_eq!("5..9".parse(), Ok(NumberList(vec![5, 6, 7, 8, 9])));
        assert_eq!("1..=2, 7".parse(), Ok(NumberList(vec![1, 2, 7])));
    }

    #[test]
    fn refuses_garbage_with_the_culprit() {
        assert!("9..5".parse::<NumberList>().unwrap_err().contains("'9..5'"));
        assert!("5,x".parse::<NumberList>().unwrap_err().contains("found 'x'"));
        assert!("".parse::<NumberList>().is_err());
    }
}
