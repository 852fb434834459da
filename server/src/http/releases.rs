//! `/api/v1/releases`: the installed releases and their component registries.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use mosaic_core::api::{ComponentView, ReleaseSummary, component_views};
use mosaic_core::environment::registry;

use super::error::ApiError;
use crate::AppState;
use crate::environment::{find_release, plugins_for};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/releases", get(list))
        .route("/api/v1/releases/{id}", get(show))
        .route("/api/v1/releases/{id}/components", get(components))
}

async fn list(State(state): State<AppState>) -> Result<Json<Vec<ReleaseSummary>>, ApiError> {
    Ok(Json(state.db.releases().await?))
}

async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<ReleaseSummary>, ApiError> {
    let releases = state.db.releases().await?;
    releases
        .into_iter()
        .find(|r| r.id == id)
        .map(Json)
        .ok_or_else(|| not_found(id))
}

/// The release's registry in registry order (the release's components,
/// then each compatible plugin's), each with its source, without `bind`.
async fn components(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<ComponentView>>, ApiError> {
    let installed = state.db.plugins().await?;
    let release = find_release(&installed, id).ok_or_else(|| not_found(id))?;
    let plugins = plugins_for(&installed, release);
    let registry = registry(release, &plugins)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("release {id}: {e}")))?;
    Ok(Json(component_views(&registry, &plugins)))
}

pub(super) fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("release {id} does not exist"))
}
