//! The parameters of an API request, read from the query string with messages that name the
//! parameter at fault and say what was expected.

use std::time::Duration;

use dakon_solver::dakon::{OpeningState, Position};

use super::api_error::ApiError;
use super::rule_set::RuleSet;
use crate::position_arg::parse_notation;
use crate::search_args::parse_seconds;

/// Characters of a bad value or name quoted back in an error message; the rest is cut.
const ECHO_CHARS: usize = 40;

/// `text` as an error message quotes it: at most [`ECHO_CHARS`] characters, and how long it
/// was if cut.
fn echo(text: &str) -> String {
    let count = text.chars().count();
    if count <= ECHO_CHARS {
        text.to_string()
    } else {
        format!("{}… ({count} characters in all)", text.chars().take(ECHO_CHARS).collect::<String>())
    }
}

/// The decoded `name=value` pairs of a query string, each name known and given once.
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Decodes `query` (percent escapes, `+` for a space), accepting only the names in
    /// `allowed`, each at most once.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] naming an unknown or repeated parameter.
    pub fn parse(query: Option<&str>, allowed: &[&str]) -> Result<Params, ApiError> {
        let pairs: Vec<(String, String)> =
            form_urlencoded::parse(query.unwrap_or("").as_bytes()).map(|(name, value)| (name.into_owned(), value.into_owned())).collect();
        for (i, (name, value)) in pairs.iter().enumerate() {
            if !allowed.contains(&name.as_str()) {
                return Err(ApiError::BadRequest(format!("unknown parameter '{}': expected {}", echo(name), allowed.join(", "))));
            }
            if value.trim() != value {
                return Err(ApiError::BadRequest(format!(
                    "parameter '{name}': stray whitespace around '{}' (write the value alone)",
                    echo(value.trim())
                )));
            }
            if pairs[..i].iter().any(|(earlier, _)| earlier == name) {
                return Err(ApiError::BadRequest(format!("parameter '{name}' is given more than once")));
            }
        }
        Ok(Params { pairs })
    }

    /// The value of parameter `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(given, _)| given == name).map(|(_, value)| value.as_str())
    }

    /// The value of parameter `name`.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] if it is missing.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name).ok_or_else(|| ApiError::BadRequest(format!("parameter '{name}' is missing")))
    }

    /// `rules`: the rules the server plays (`served`, its `--rules`, when not named), or
    /// another of its family (a Dakon server plays every Dakon variant).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for an unknown rule set or one this server does not play.
    pub fn rules(&self, served: RuleSet) -> Result<RuleSet, ApiError> {
        let Some(name) = self.get("rules") else { return Ok(served) };
        let rules = RuleSet::named(name).map_err(ApiError::BadRequest)?;
        if !served.family().contains(&rules) {
            return Err(ApiError::BadRequest(format!(
                "rules '{name}': this server plays {} (start one with `dakon serve --rules {name}`)",
                served.name()
            )));
        }
        Ok(rules)
    }

    /// `position` under `rules`: the notation, or `start` with `holes` (default 7) and `seeds`
    /// (default as many as holes). Under `no-first-turn-capture` the notation may end in the
    /// field `first:...` (without it every first turn is over), and `start` has both first
    /// turns pending; other rules refuse that field.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] with the notation parser's message (what is wrong and at which
    /// column), or saying why `holes` and `seeds` are wrong.
    pub fn state(&self, rules: RuleSet) -> Result<OpeningState, ApiError> {
        let text = self.required("position")?;
        let holes = self.number("holes", "a whole number of holes per row")?;
        let seeds = self.number("seeds", "a whole number of seeds per hole")?;
        let opening = rules.opening_options().is_some();
        if text != "start" {
            if let Some(name) = [("holes", holes), ("seeds", seeds)].into_iter().find_map(|(name, given)| given.map(|_| name)) {
                return Err(ApiError::BadRequest(format!("parameter '{name}' applies only to position=start")));
            }
            let parsed = if opening {
                text.parse().map_err(|e| format!("invalid position '{text}': {e}"))
            } else {
                parse_notation(text).map(OpeningState::after_opening)
            };
            return parsed.map_err(|message| ApiError::BadRequest(cut_echo(&message, text)));
        }
        let holes = holes.unwrap_or(7);
        let seeds = seeds.unwrap_or(holes);
        let start = |(holes, seeds)| {
            if opening {
                OpeningState::start(holes, seeds)
            } else {
                Position::start(holes, seeds).map(OpeningState::after_opening)
            }
        };
        start((holes as usize, seeds))
            .map_err(|e| ApiError::BadRequest(format!("cannot set up the start of holes={holes}, seeds={seeds}: {e}")))
    }

    /// `hole`: the number of the hole to play.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] if it is missing or not a whole number.
    pub fn hole(&self) -> Result<usize, ApiError> {
        let text = self.required("hole")?;
        text.parse().map_err(|_| ApiError::BadRequest(format!("parameter 'hole': expected a hole number, found '{}'", echo(text))))
    }

    /// `time_limit`, clamped to `cap` (and `cap` when not given).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] if it is not a number of seconds.
    pub fn time_limit(&self, cap: Duration) -> Result<TimeLimit, ApiError> {
        let Some(text) = self.get("time_limit") else { return Ok(TimeLimit { used: cap, requested: None }) };
        let seconds = parse_seconds(text).map_err(|e| ApiError::BadRequest(format!("parameter 'time_limit': {}", cut_echo(&e, text))))?;
        let requested = Duration::from_secs_f64(seconds);
        Ok(TimeLimit { used: requested.min(cap), requested: Some(requested) })
    }

    /// An optional whole-number parameter.
    fn number(&self, name: &str, expected: &str) -> Result<Option<u32>, ApiError> {
        self.get(name)
            .map(|text| {
                text.parse().map_err(|_| ApiError::BadRequest(format!("parameter '{name}': expected {expected}, found '{}'", echo(text))))
            })
            .transpose()
    }
}

/// `message` with its quotations of `text` cut to a short prefix.
fn cut_echo(message: &str, text: &str) -> String {
    message.replace(&format!("'{text}'"), &format!("'{}'", echo(text)))
}

/// The time a search may take: what was asked for, clamped to the server's cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimit {
    /// The limit the search runs with.
    pub used: Duration,
    /// What the request asked for, if anything.
    pub requested: Option<Duration>,
}

impl TimeLimit {
    /// Whether the request asked for more than the server allows.
    pub fn is_clamped(&self) -> bool {
        self.requested.is_some_and(|requested| requested > self.used)
    }

    /// The fields an answer carries about its time limit.
    pub fn json(&self) -> serde_json::Value {
        let mut json = serde_json::json!({"time_limit": self.used.as_secs_f64(), "time_limit_clamped": self.is_clamped()});
        if self.is_clamped() {
            let requested = self.requested.unwrap_or_default().as_secs_f64();
            json["notice"] =
                format!("time_limit {requested} s is above this server's cap; searched for at most {} s", self.used.as_secs_f64()).into();
        }
        json
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::Params;
    use crate::commands::serve::rule_set::RuleSet;
    use dakon_solver::ruleset::RulesName;

    const ANALYSE: &[&str] = &["position", "time_limit", "rules", "holes", "seeds"];

    fn params(query: &str) -> Params {
        Params::parse(Some(query), ANALYSE).unwrap()
    }

    #[test]
    fn positions_are_decoded_from_the_query() {
        let dakon = RuleSet(RulesName::DAKON);
        let p = params("position=1%2C0%2F0%2C1+0%2F0+0").state(dakon).unwrap();
        assert_eq!(p.to_string(), "1,0/0,1 0/0 0");
        assert_eq!(params("position=start&holes=5&seeds=3").state(dakon).unwrap().to_string(), "3,3,3,3,3/3,3,3,3,3 0/0 0");
        assert_eq!(params("position=start").state(dakon).unwrap().position.holes(), 7);
        // Under the first-turn option a start has both first turns pending, and the notation
        // may name them.
        let first_turn = RuleSet::named("dakon:no-first-turn-capture").unwrap();
        assert_eq!(params("position=start&holes=2&seeds=1").state(first_turn).unwrap().to_string(), "1,1/1,1 0/0 0 first:0,1");
        let named = params("position=1,0/0,1+0/0+1+first:1").state(first_turn).unwrap();
        assert_eq!(named.to_string(), "1,0/0,1 0/0 1 first:1");
        assert!(!params("position=1,0/0,1+0/0+1").state(first_turn).unwrap().is_opening());
        let refused = params("position=1,0/0,1+0/0+1+first:1").state(dakon).err().unwrap().message();
        assert!(refused.contains("needs --rules dakon:no-first-turn-capture"), "{refused}");
    }

    #[test]
    fn time_limits_are_clamped_to_the_cap_and_default_to_it() {
        let cap = Duration::from_secs(10);
        let limit = params("time_limit=30").time_limit(cap).unwrap();
        assert_eq!((limit.used, limit.is_clamped()), (cap, true));
        let limit = params("time_limit=0.5").time_limit(cap).unwrap();
        assert_eq!((limit.used, limit.is_clamped()), (Duration::from_millis(500), false));
        let limit = params("").time_limit(cap).unwrap();
        assert_eq!((limit.used, limit.is_clamped()), (cap, false));
    }

    #[test]
    fn bad_parameters_are_named_in_the_message() {
        let message = |query: &str| {
            let params = match Params::parse(Some(query), ANALYSE) {
                Ok(params) => params,
                Err(e) => return e.message(),
            };
            match params.state(RuleSet(RulesName::DAKON)).and_then(|_| params.time_limit(Duration::from_secs(1))) {
                Ok(_) => String::new(),
                Err(e) => e.message(),
            }
        };
        assert_eq!(message("position=start&colour=red"), "unknown parameter 'colour': expected position, time_limit, rules, holes, seeds");
        assert_eq!(message("position=start&position=start"), "parameter 'position' is given more than once");
        assert_eq!(message("time_limit=1"), "parameter 'position' is missing");
        assert_eq!(message("position=start&holes=x"), "parameter 'holes': expected a whole number of holes per row, found 'x'");
        assert_eq!(message("position=1,0/0,1+0/0+0&holes=2"), "parameter 'holes' applies only to position=start");
        assert_eq!(
            message("position=start&time_limit=-1"),
            "parameter 'time_limit': expected zero or more seconds (at most 1e19), found '-1'"
        );
        assert!(
            message("position=1,0/0+0/0+0").starts_with("invalid position '1,0/0 0/0 0': column 1: both rows must have the same length")
        );
        assert_eq!(message("position=start&holes=%E2%80%835"), "parameter 'holes': stray whitespace around '5' (write the value alone)");
        assert_eq!(message("position=start&holes=++5"), "parameter 'holes': stray whitespace around '5' (write the value alone)");
        assert_eq!(message("position=%E2%80%83start"), "parameter 'position': stray whitespace around 'start' (write the value alone)");
        let long = "1,".repeat(30_000);
        let cut = message(&format!("position={long}"));
        assert!(cut.len() < 300 && cut.contains("(60000 characters in all)"), "{cut}");
        assert_eq!(
            message("position=start&holes=12"),
            "cannot set up the start of holes=12, seeds=12: a row must have 1 to 9 holes, found 12"
        );
    }
}
