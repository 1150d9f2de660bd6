//! The paths the server answers: the page, the API, and JSON errors for anything else.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{Method, Uri};
use axum::routing::get;
use axum::{Json, Router};

use super::api_error::ApiError;
use super::page;
use super::service::Service;

/// The router of the whole server.
pub fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/analyse", get(analyse))
        .route("/api/play", get(play))
        .route("/api/show", get(show))
        .route("/api/status", get(status))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(service)
}

type JsonAnswer = Result<Json<serde_json::Value>, ApiError>;

async fn analyse(State(service): State<Arc<Service>>, RawQuery(query): RawQuery) -> JsonAnswer {
    service.analyse(query.as_deref()).await.map(Json)
}

async fn play(State(service): State<Arc<Service>>, RawQuery(query): RawQuery) -> JsonAnswer {
    service.play(query.as_deref()).map(Json)
}

async fn show(State(service): State<Arc<Service>>, RawQuery(query): RawQuery) -> JsonAnswer {
    service.show(query.as_deref()).map(Json)
}

async fn status(State(service): State<Arc<Service>>) -> Json<serde_json::Value> {
    Json(service.status())
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no such path: {}; the page is at /, the API at /api/analyse, /api/play, /api/show and /api/status",
        uri.path()
    ))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!("{} expects GET, not {method}", uri.path()))
}
