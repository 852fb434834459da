//! `/api/v1/clusters`: environments, validated with the same core function
//! the wizard uses before they are stored.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use mosaic_core::api::{Cluster, CreateCluster};
use mosaic_core::component::validate_selection;

use super::error::{ApiError, ApiJson};
use crate::AppState;
use crate::db::InsertCluster;

/// The guidance of the onboarding screen (SEMANTICS §7.5).
const NO_RELEASE: &str = "No release is installed, so no environment can be created. \
Install a release plugin first: run `mosaic plugin install PATH` on the server \
(PATH a release plugin directory or .tar.gz), or upload it on the Plugins page.";

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/clusters", get(list).post(create))
}

async fn list(State(state): State<AppState>) -> Result<Json<Vec<Cluster>>, ApiError> {
    Ok(Json(state.db.clusters().await?))
}

async fn create(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<CreateCluster>,
) -> Result<(StatusCode, Json<Cluster>), ApiError> {
    let name = request.name.trim();
    let mode = request.mode.as_deref().unwrap_or("ha_compact");
    if !matches!(mode, "ha_compact" | "multinode") {
        return Err(ApiError::BadRequest(format!(
            "mode: '{mode}' is not one of ha_compact, multinode"
        )));
    }
    if name.is_empty() {
        return Err(ApiError::BadRequest("name: must not be empty".to_owned()));
    }
    if state.db.releases().await?.is_empty() {
        return Err(ApiError::Coded(
            StatusCode::CONFLICT,
            "no_release",
            NO_RELEASE.to_owned(),
        ));
    }
    let (release, registry) = super::releases::release_registry(&state, request.release_id).await?;
    let violations = validate_selection(
        &registry,
        &release.required_component_types,
        &request.components,
    );
    if !violations.is_empty() {
        return Err(ApiError::InvalidSelection(violations));
    }
    let cluster = state
        .db
        .insert_cluster(InsertCluster {
            name,
            release_id: request.release_id,
            components: &request.components,
            mode,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(cluster)))
}
