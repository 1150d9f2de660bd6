//! The errors of the API, each a status and a JSON body `{"error": "..."}` saying what is
//! wrong.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The request is wrong (a malformed position, an illegal move, a bad parameter): 400.
    BadRequest(String),
    /// No such page or endpoint: 404.
    NotFound(String),
    /// The path exists but not with this method: 405.
    MethodNotAllowed(String),
    /// Every search slot is taken and the wait queue is full: 503, try again shortly.
    Busy { running: usize, waiting: usize },
    /// The server is shutting down: 503.
    ShuttingDown,
    /// Something failed on the server's side (a damaged table file): 500.
    Failure(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Busy { .. } | ApiError::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Failure(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message of the JSON body.
    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(message)
            | ApiError::NotFound(message)
            | ApiError::MethodNotAllowed(message)
            | ApiError::Failure(message) => message.clone(),
            ApiError::Busy { running, waiting } => {
                format!("server busy: {running} searches running and {waiting} waiting, the most it takes; try again in a moment")
            }
            ApiError::ShuttingDown => "the server is shutting down".to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(serde_json::json!({"error": self.message()}))).into_response();
        if self.status() == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}
