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

fn named_page(rules: RulesName) -> String {
    let game = match rules {
        RulesName::Dakon => "Dakon",
        RulesName::Kalah => "Kalah",
        RulesName::KalahEmptyCapture => "Kalah (empty capture)",
    };
    INDEX.replace("Dakon", game)
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
        assert!(named_page(RulesName::Dakon).contains("<title>Dakon analysis board</title>"));
        let kalah = named_page(RulesName::Kalah);
        assert!(kalah.contains("<title>Kalah analysis board</title>") && !kalah.contains("Dakon"));
        assert!(named_page(RulesName::KalahEmptyCapture).contains("<h1>Kalah (empty capture) <span>"));
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
