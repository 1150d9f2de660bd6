//! The analysis board: plain HTML, CSS and JavaScript files of the repository, embedded in the
//! binary. The page loads nothing from anywhere but this server, and its security policy says
//! so to the browser.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use dakon_solver::ruleset::RulesName;

use super::service::Service;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// Only this server's own files (and the empty icon, a data URL).
const POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn file(content_type: &'static str, body: impl Into<String>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache"), (header::CONTENT_SECURITY_POLICY, POLICY)], body.into())
}

/// The page, named after the rules this server plays (its file says "Dakon").
pub async fn index(State(service): State<Arc<Service>>) -> impl IntoResponse {
    file("text/html; charset=utf-8", named_page(service.registry.rules().0))
}

/// The tagline of the page's file, which promises exact values (true of Dakon's boards).
const EXACT_TAGLINE: &str = "Every move valued exactly: the final store difference it leads to with perfect play.";

/// The board the page opens under `rules`, as holes per row and seeds per hole: one the server
/// solves exactly within its default time.
pub fn default_board(rules: RulesName) -> (usize, u32) {
    match rules {
        RulesName::Dakon(_) => (7, 7),
        RulesName::Kalah | RulesName::KalahEmptyCapture => (6, 3),
    }
}

/// The page for `rules`: named after them, opening their default board, with a tagline that
/// promises no more than it gives.
fn named_page(rules: RulesName) -> String {
    let game = match rules {
        RulesName::DAKON => return INDEX.to_string(),
        RulesName::Dakon(_) => format!("Dakon ({rules})"),
        RulesName::Kalah => "Kalah".to_string(),
        RulesName::KalahEmptyCapture => "Kalah (empty capture)".to_string(),
    };
    let (holes, seeds) = default_board(rules);
    let tagline = "Every move valued by the final store difference it leads to with perfect play: exactly when the search \
                   ends within the time limit (as on the default board), else with proven bounds that keep narrowing.";
    INDEX
        .replace("Dakon", &game)
        .replace(EXACT_TAGLINE, tagline)
        .replace(r#"data-holes="7" data-seeds="7""#, &format!(r#"data-holes="{holes}" data-seeds="{seeds}""#))
}

pub async fn script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

pub async fn style() -> impl IntoResponse {
    file("text/css; charset=utf-8", STYLE)
}

#[cfg(test)]
mod tests {
    use super::{named_page, RulesName, INDEX, SCRIPT, STYLE};

    #[test]
    fn the_page_is_named_after_the_rules() {
        assert!(named_page(RulesName::DAKON).contains("<title>Dakon analysis board</title>"));
        let kalah = named_page(RulesName::Kalah);
        assert!(kalah.contains("<title>Kalah analysis board</title>") && !kalah.contains("Dakon"));
        assert!(named_page(RulesName::KalahEmptyCapture).contains("<h1>Kalah (empty capture) <span>"));
        assert!(INDEX.contains(super::EXACT_TAGLINE) && INDEX.contains(r#"<body data-holes="7" data-seeds="7">"#));
        assert!(!kalah.contains(super::EXACT_TAGLINE) && kalah.contains(r#"<body data-holes="6" data-seeds="3">"#));
    }

    #[test]
    fn the_page_weighs_under_100_kb_and_loads_nothing_from_elsewhere() {
        assert!(INDEX.len() + SCRIPT.len() + STYLE.len() < 100 * 1024);
        for file in [INDEX, SCRIPT, STYLE] {
            for address in ["http:", "https:", "\"//", "'//", "(//"] {
                assert!(!file.contains(address), "no external resources ({address})");
            }
        }
    }
}
