//! Versions of resources on the wire. Every successful read answers with
//! an `ETag` that changes whenever its body does, and honours
//! `If-None-Match` (304); a resource with a version has it as the `ETag`'s
//! first part (`"N-…"`), and `If-Match: "N"` (or the whole `ETag`) makes
//! a change conditional (412 when it moved on).

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use mosaic_core::api::ErrorCode;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::db::Seen;
use crate::error::ApiError;

/// `body` as JSON with `version` as the start of its `ETag` (the
/// [`conditional`] layer appends the body's digest).
pub fn with_etag<T: Serialize>(version: i64, body: T) -> Response {
    ([(header::ETAG, format!("\"{version}\""))], Json(body)).into_response()
}

/// An answer made once (per generation of what it derives from) and sent
/// as it is, with its `ETag` worked out when it was made.
#[derive(Debug, Clone)]
pub struct Prepared {
    body: Bytes,
    etag: HeaderValue,
}

/// Marks an answer whose `ETag` is already complete.
#[derive(Debug, Clone, Copy)]
struct Complete;

/// Marks an answer sent as it is made (a run's stream, its output, its
/// history as CSV): no `ETag`, never read whole first.
#[derive(Debug, Clone, Copy)]
struct Streamed;

/// `response`, sent as it is made.
pub fn streamed(response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    response.extensions_mut().insert(Streamed);
    response
}

impl Prepared {
    /// `value` as JSON.
    pub fn json<T: Serialize>(value: &T) -> Result<Prepared, serde_json::Error> {
        let body = Bytes::from(serde_json::to_vec(value)?);
        let etag = etag_of(None, &body);
        Ok(Prepared { body, etag })
    }
}

impl IntoResponse for Prepared {
    fn into_response(self) -> Response {
        let mut response = (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                ),
                (header::ETAG, self.etag),
            ],
            self.body,
        )
            .into_response();
        response.extensions_mut().insert(Complete);
        response
    }
}

/// `"VERSION-DIGEST"`, or `"DIGEST"` without a version: the first 16 hex
/// digits of the body's SHA-256.
fn etag_of(version: Option<&str>, body: &[u8]) -> HeaderValue {
    let digest = hex::encode(&Sha256::digest(body)[..8]);
    let tag = match version {
        Some(v) => format!("\"{v}-{digest}\""),
        None => format!("\"{digest}\""),
    };
    HeaderValue::from_str(&tag).expect("quoted digits")
}

/// Whether `If-None-Match` names `etag` (or is `*`); weak tags compare
/// equal to strong ones, as RFC 9110 says for this header.
fn none_match(wanted: &HeaderValue, etag: &HeaderValue) -> bool {
    let (Ok(wanted), Ok(etag)) = (wanted.to_str(), etag.to_str()) else {
        return false;
    };
    wanted
        .split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == etag.trim_start_matches("W/"))
}

/// The layer behind every API read: completes the `ETag` (the version the
/// handler set, if any, and the body's digest) and answers 304 without a
/// body when `If-None-Match` names it. Answers are `private, no-cache`:
/// a browser keeps them but asks again each time, sending the `ETag`.
pub async fn conditional(request: Request, next: Next) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    let wanted = request.headers().get(header::IF_NONE_MATCH).cloned();
    let mut response = next.run(request).await;
    if response.status() != StatusCode::OK {
        return response;
    }
    if response.extensions().get::<Streamed>().is_some() {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let body = if parts.extensions.get::<Complete>().is_some() {
        body
    } else {
        let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        let version = parts
            .headers
            .get(header::ETAG)
            .and_then(|v| v.to_str().ok());
        let etag = etag_of(version.map(|v| v.trim_matches('"')), &bytes);
        parts.headers.insert(header::ETAG, etag);
        Body::from(bytes)
    };
    parts.headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    let etag = &parts.headers[header::ETAG];
    if wanted.is_some_and(|w| none_match(&w, etag)) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_TYPE);
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, body)
}

/// The versions an `If-Match` header names (RFC 9110 §13.1.1): a list of
/// entity-tags, each `"N"` or the whole `ETag` `"N-DIGEST"` (`W/` or no
/// quotes taken too); `*` or none: any. A header none of whose tags the
/// server could have issued (`"stale-0"`) can never match: 412, as a
/// stale one. `what` names the resource in the error.
pub fn if_match(headers: &HeaderMap, what: &str) -> Result<Option<Seen>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    let versions: Vec<i64> = text.split(',').filter_map(issued_version).collect();
    if versions.is_empty() {
        return Err(ApiError::Coded(
            StatusCode::PRECONDITION_FAILED,
            ErrorCode::PreconditionFailed,
            format!("If-Match: {text} names no version the {what} ever had: reload it"),
        ));
    }
    Ok(Some(Seen(versions)))
}

/// The version an entity-tag names when it is one the server issues.
fn issued_version(tag: &str) -> Option<i64> {
    let tag = tag.trim().trim_start_matches("W/").trim_matches('"');
    let digits = tag.split('-').next().unwrap_or_default();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Refuses a change made on `expected` (from `If-Match`) when the
/// resource is at `version` now: 412 `precondition_failed`.
pub fn still_at(expected: Option<&Seen>, version: i64, what: &str) -> Result<(), ApiError> {
    match expected {
        Some(seen) if !seen.allows(version) => Err(ApiError::Coded(
            StatusCode::PRECONDITION_FAILED,
            ErrorCode::PreconditionFailed,
            format!(
                "the {what} changed since version {seen}: they are at version {version}; reload them"
            ),
        )),
        _ => Ok(()),
    }
}
