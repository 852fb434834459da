//! The HTTP API under `/api/v1`, and the built app for every other path.

mod clusters;
mod environment_files;
mod error;
mod heat;
mod nodes;
mod plugins;
mod releases;
mod settings;
mod tags;

use std::path::Path;

use axum::Router;
use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse};
use tower_http::services::{ServeDir, ServeFile};

pub use error::{ApiError, ApiJson};

use crate::AppState;

pub fn router(dist: Option<&Path>) -> Router<AppState> {
    let api = Router::new()
        .merge(releases::router())
        .merge(clusters::router())
        .merge(plugins::router())
        .merge(tags::router())
        .merge(nodes::router())
        .merge(settings::router())
        .merge(environment_files::router())
        .merge(heat::router())
        .route("/api/{*rest}", axum::routing::any(unknown_api));
    match dist {
        // Unknown paths get index.html, so the app's own routes survive a reload.
        Some(dist) => api.fallback_service(
            ServeDir::new(dist).fallback(ServeFile::new(dist.join("index.html"))),
        ),
        None => api.fallback(app_not_built),
    }
}

async fn unknown_api(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no API endpoint at {}", uri.path()))
}

async fn app_not_built() -> impl IntoResponse {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Html(
            "<!doctype html><title>Mosaic</title><h1>Mosaic</h1>\
             <p>The API is running, but the browser app has not been built. \
             Run <code>make run</code> (or <code>make app</code>) from the repository, \
             or start the server with <code>--dist DIR</code> pointing at a Trunk build.</p>",
        ),
    )
}
