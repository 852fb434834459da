//! The HTTP API under `/api/v1`, and the built app for every other path.

mod assets;
mod clusters;
mod components;
mod deployers;
mod disks;
mod environment_files;
mod hardware;
mod heat;
mod limits;
mod lookup;
mod networks;
mod nodes;
pub mod openapi;
mod plugins;
mod releases;
mod roles;
mod runs;
mod session;
mod settings;
mod tags;
mod upgrades;
mod versions;

use mosaic_core::api::ErrorCode;
use std::path::Path;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, Uri};
use axum::middleware::{from_fn, from_fn_with_state, map_response};
use axum::response::{Html, IntoResponse};
use axum::{Extension, Router};
use tower_http::compression::CompressionLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use limits::{ARCHIVE_TYPES, JSON_LIMIT, Uploads, content_type};

use crate::AppState;
use crate::access;
use crate::error::{self, ApiError};

/// Every route: the API (guarded, JSON errors, bodies up to
/// [`JSON_LIMIT`] unless a route allows more, answers compressed when the
/// client accepts it) and the app (precompressed at build time).
pub fn router(state: &AppState, dist: Option<&Path>) -> Router<AppState> {
    let (api, document) = operations(&limits::Uploads::new(state)).split_for_parts();
    let document: openapi::Document = Arc::new(
        versions::Prepared::json(&openapi::finish(document)).expect("the document is JSON"),
    );
    let api = api
        .layer(Extension(document))
        .route("/api/{*rest}", axum::routing::any(unknown_api))
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(from_fn(versions::conditional))
        .route_layer(from_fn_with_state(state.clone(), access::authorize))
        .layer(DefaultBodyLimit::max(JSON_LIMIT))
        .layer(map_response(error::json_errors))
        .layer(CompressionLayer::new());
    match dist {
        // The API's page (`/api/docs`, Swagger UI) is built with the app.
        Some(dist) => api
            .nest_service("/api/docs", assets::service(&dist.join("api-docs")))
            .fallback_service(assets::service(dist)),
        None => api
            .route("/api/docs", axum::routing::get(app_not_built))
            .fallback(app_not_built),
    }
}

/// Every operation of the API: the routes with their handlers and, from the
/// same registration, their part of the OpenAPI document.
fn operations(uploads: &Uploads) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(session::router())
        .merge(releases::router())
        .merge(clusters::router())
        .merge(plugins::router(uploads))
        .merge(tags::router())
        .merge(roles::router())
        .merge(nodes::router())
        .merge(hardware::router(uploads))
        .merge(disks::router())
        .merge(networks::router())
        .merge(deployers::router())
        .merge(runs::router())
        .merge(settings::router())
        .merge(components::router())
        .merge(upgrades::router())
        .merge(environment_files::router())
        .merge(heat::router(uploads))
        .routes(routes!(openapi::serve))
}

/// The API's OpenAPI document, as `GET /api/v1/openapi.json` serves it.
pub fn document() -> utoipa::openapi::OpenApi {
    openapi::finish(operations(&Uploads::unused()).into_openapi())
}

/// Runs CPU work (validation, plans, resolution, imports) on the blocking
/// pool, so that one heavy request does not stall the async workers; a
/// panic in it is answered 500.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("a worker failed: {e}")))?
}

async fn unknown_api(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no API endpoint at {}", uri.path()))
}

async fn method_not_allowed(method: axum::http::Method, uri: Uri) -> ApiError {
    ApiError::Coded(
        StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::MethodNotAllowed,
        format!("{} does not accept {method}", uri.path()),
    )
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
