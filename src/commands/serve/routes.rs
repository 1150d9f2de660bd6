//! The paths the server answers: the page, the API, and JSON errors for anything else.

use std::sync::Arc;

use axum::extract::{RawQuery, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
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
        .route("/api/record", get(record))
        .route("/api/status", get(status))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(refuse_large_headers))
        .with_state(service)
}

/// The most header bytes a request may carry (names and values); a browser sends a few KiB.
pub const MAX_HEADERS_BYTES: usize = 64 * 1024;

/// Refuses a request whose headers are over [`MAX_HEADERS_BYTES`] with a JSON 431, and closes
/// the connection.
async fn refuse_large_headers(request: Request, next: Next) -> Response {
    let bytes: usize = request.headers().iter().map(|(name, value)| name.as_str().len() + value.len() + 4).sum();
    if bytes <= MAX_HEADERS_BYTES {
        return next.run(request).await;
    }
    let message = format!("the request's headers are {} KiB, over the {} KiB this server takes", bytes / 1024, MAX_HEADERS_BYTES / 1024);
    let mut response = (StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, Json(serde_json::json!({ "error": message }))).into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
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

async fn record(State(service): State<Arc<Service>>, RawQuery(query): RawQuery) -> JsonAnswer {
    service.read_record(query.as_deref()).map(Json)
}

async fn status(State(service): State<Arc<Service>>) -> Json<serde_json::Value> {
    Json(service.status())
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no such path: {}; the page is at /, the API at /api/analyse, /api/play, /api/show, /api/record and /api/status",
        uri.path()
    ))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!("{} expects GET, not {method}", uri.path()))
}
