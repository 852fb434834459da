//! What one request may take: JSON bodies up to [`JSON_LIMIT`], uploads
//! up to the configured size, and only a few uploads at a time (429 beyond).

use mosaic_core::api::ErrorCode;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;
use utoipa_axum::router::UtoipaMethodRouter;

use crate::AppState;
use crate::error::ApiError;

/// The largest JSON (or YAML) request body.
pub const JSON_LIMIT: usize = 1 << 20;

/// How many uploads are read and checked at once; more answer 429.
const CONCURRENT_UPLOADS: usize = 2;

/// The upload routes' limits.
#[derive(Debug, Clone)]
pub struct Uploads {
    max_bytes: usize,
    permits: Arc<Semaphore>,
}

impl Uploads {
    pub fn new(state: &AppState) -> Uploads {
        Uploads {
            max_bytes: state.security.max_upload,
            permits: Arc::new(Semaphore::new(CONCURRENT_UPLOADS)),
        }
    }

    /// An [`Uploads`] for the document alone: its limits are never used.
    pub fn unused() -> Uploads {
        Uploads {
            max_bytes: 0,
            permits: Arc::new(Semaphore::new(0)),
        }
    }

    /// `route` taking uploads: the configured size, a bounded number at once.
    pub fn apply(
        &self,
        (schemas, paths, route): UtoipaMethodRouter<AppState>,
    ) -> UtoipaMethodRouter<AppState> {
        let route = route
            .layer(DefaultBodyLimit::max(self.max_bytes))
            .layer(from_fn_with_state(self.permits.clone(), one_at_a_time));
        (schemas, paths, route)
    }
}

async fn one_at_a_time(
    State(permits): State<Arc<Semaphore>>,
    request: Request,
    next: Next,
) -> Response {
    let Ok(_permit) = permits.try_acquire() else {
        let mut response = ApiError::Coded(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyUploads,
            format!(
                "{CONCURRENT_UPLOADS} uploads are being checked already; try again in a moment"
            ),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
        return response;
    };
    next.run(request).await
}

/// The media type of the body (`Content-Type` without parameters,
/// lower-cased), if it is one of `accepted`; else 415 naming them.
pub fn content_type(
    headers: &axum::http::HeaderMap,
    accepted: &[&'static str],
    what: &str,
) -> Result<&'static str, ApiError> {
    let given = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        });
    accepted
        .iter()
        .find(|a| given.as_deref() == Some(**a))
        .copied()
        .ok_or_else(|| {
            ApiError::Coded(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                format!(
                    "{what} takes Content-Type {} (got {})",
                    accepted.join(", "),
                    given.as_deref().unwrap_or("none")
                ),
            )
        })
}

/// Archives: what browsers and tools call `.tar.gz` and `.zip` files.
pub const ARCHIVE_TYPES: &[&str] = &[
    "application/gzip",
    "application/x-gzip",
    "application/x-tar",
    "application/x-compressed-tar",
    "application/zip",
    "application/x-zip-compressed",
    "application/octet-stream",
];
