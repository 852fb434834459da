//! `/api/v1/releases`: the installed releases and their component registries.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use mosaic_core::api::{ComponentView, ReleaseSummary};

use super::error::ApiError;
use crate::AppState;

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

/// The release's registry in display order, without `bind`.
async fn components(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<ComponentView>>, ApiError> {
    let (_, registry) = release_registry(&state, id).await?;
    Ok(Json(
        registry
            .display_order()
            .into_iter()
            .map(|i| ComponentView::from(registry.get(i)))
            .collect(),
    ))
}

pub(super) fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("release {id} does not exist"))
}

/// The release `id` and its registry (release and compatible plugins).
pub(super) async fn release_registry(
    state: &AppState,
    id: i64,
) -> Result<
    (
        mosaic_core::release::Release,
        mosaic_core::component::Registry,
    ),
    ApiError,
> {
    let plugins = state.db.plugins().await?;
    crate::install::release_registry(&plugins, id)
        .ok_or_else(|| not_found(id))?
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("release {id}: {e}")))
}
