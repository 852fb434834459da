//! `/api/v1/releases`: the installed releases and their component
//! registries. Each answer is made once per generation of the installed
//! plugins and then sent as it is.

use axum::extract::{Path, State};
use mosaic_core::api::{ComponentView, ErrorBody, ReleaseSummary, component_views};
use mosaic_core::environment::registry;

use super::versions::Prepared;
use crate::AppState;
use crate::db::{Installed, release_summaries};
use crate::environment::{find_release, plugins_for};
use crate::error::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(show))
        .routes(routes!(components))
}

/// The list of releases, as made for one generation.
struct ReleaseList(Result<Prepared, String>);

/// One release's summary (`None`: not installed), as made for one generation.
struct ReleaseAnswer(Result<Option<Prepared>, String>);

/// One release's registry (`None`: not installed), as made for one generation.
struct ComponentsAnswer(Result<Option<Prepared>, String>);

/// What the memo made, or the failure it remembered.
fn made<T: Clone>(answer: &Result<T, String>) -> Result<T, ApiError> {
    answer
        .clone()
        .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))
}

/// The installed releases, in installation order.
#[utoipa::path(
    get,
    path = "/api/v1/releases",
    operation_id = "list_releases",
    tag = "releases",
    responses((status = 200, description = "The installed releases", body = Vec<ReleaseSummary>))
)]
async fn list(State(state): State<AppState>) -> Result<Prepared, ApiError> {
    let installed = state.db.plugins().await?;
    let answer = installed.memo(&[0], || {
        ReleaseList(Prepared::json(&release_summaries(&installed)).map_err(|e| e.to_string()))
    });
    made(&answer.0)
}

/// One installed release.
#[utoipa::path(
    get,
    path = "/api/v1/releases/{id}",
    operation_id = "show_release",
    tag = "releases",
    params(("id" = i64, Path, description = "The release's id")),
    responses(
        (status = 200, description = "The release", body = ReleaseSummary),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Prepared, ApiError> {
    let installed = state.db.plugins().await?;
    let answer = installed.memo(&[id], || ReleaseAnswer(summary(&installed, id)));
    made(&answer.0)?.ok_or_else(|| not_found(id))
}

fn summary(installed: &Installed, id: i64) -> Result<Option<Prepared>, String> {
    release_summaries(installed)
        .iter()
        .find(|r| r.id == id)
        .map(|r| Prepared::json(r).map_err(|e| e.to_string()))
        .transpose()
}

/// The release's registry in registry order (the release's components,
/// then each compatible plugin's), each with its source, without `bind`.
#[utoipa::path(
    get,
    path = "/api/v1/releases/{id}/components",
    operation_id = "list_release_components",
    tag = "releases",
    params(("id" = i64, Path, description = "The release's id")),
    responses(
        (status = 200, description = "Every component in registry order", body = Vec<ComponentView>),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
    )
)]
async fn components(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Prepared, ApiError> {
    let installed = state.db.plugins().await?;
    let answer = installed.memo(&[id], || ComponentsAnswer(component_list(&installed, id)));
    made(&answer.0)?.ok_or_else(|| not_found(id))
}

fn component_list(installed: &Installed, id: i64) -> Result<Option<Prepared>, String> {
    let Some(release) = find_release(installed, id) else {
        return Ok(None);
    };
    let plugins = plugins_for(installed, release);
    let registry = registry(release, &plugins).map_err(|e| format!("release {id}: {e}"))?;
    Prepared::json(&component_views(&registry, &plugins))
        .map(Some)
        .map_err(|e| e.to_string())
}

pub(super) fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("release {id} does not exist"))
}
