//! Versions of resources on the wire: `ETag: "N"` on answers, and the
//! `If-Match: "N"` that makes a change conditional (412 when it moved on).

use axum::Json;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::ApiError;

/// `body` as JSON with `version` as its `ETag`.
pub fn with_etag<T: Serialize>(version: i64, body: T) -> Response {
    ([(header::ETAG, format!("\"{version}\""))], Json(body)).into_response()
}

/// The version an `If-Match` header asks for (`"3"`, `W/"3"` or `3`);
/// `*` or none: any. `what` names the resource in the error.
pub fn if_match(headers: &HeaderMap, what: &str) -> Result<Option<i64>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    text.trim_start_matches("W/")
        .trim_matches('"')
        .parse()
        .map(Some)
        .map_err(|_| {
            ApiError::BadRequest(format!(
                "If-Match: expected the {what} version, such as \"3\" (got '{text}')"
            ))
        })
}
