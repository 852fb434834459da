//! Handing an environment to a deployer (SEMANTICS §12): the deployers
//! its release declares, and the export for one — the files as JSON with
//! the hosts and the warnings, or as a `.tar.gz`. Core works out the
//! export from the plan; a refusal names every problem (409
//! `not_exportable`) and nothing is written.

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use mosaic_core::deployer::{DeployerSummary, Export};

use super::error::ApiError;
use crate::AppState;
use crate::environment::Stored;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/clusters/{id}/deployers", get(list))
        .route("/api/v1/clusters/{id}/deployers/{name}", get(show))
        .route(
            "/api/v1/clusters/{id}/deployers/{name}/archive",
            get(archive),
        )
}

async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<DeployerSummary>>, ApiError> {
    let stored = Stored::head(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    Ok(Json(stored.environment()?.deployers()))
}

/// Environment `id` exported for deployer `name` (CPU work: off the async
/// workers).
async fn exported(state: &AppState, id: i64, name: String) -> Result<(Stored, Export), ApiError> {
    let stored = Stored::load_with_addresses(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    super::blocking(move || {
        let export = {
            let env = stored.environment()?;
            match env.export_to(&name) {
                None => {
                    let known: Vec<String> = env.deployers().into_iter().map(|d| d.name).collect();
                    return Err(ApiError::Coded(
                        StatusCode::NOT_FOUND,
                        "unknown_deployer",
                        format!(
                            "the environment's release declares no deployer '{name}' (it declares: {})",
                            if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                        ),
                    ));
                }
                Some(result) => result.map_err(ApiError::NotExportable)?,
            }
        };
        Ok((stored, export))
    })
    .await
}

async fn show(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<Json<Export>, ApiError> {
    Ok(Json(exported(&state, id, name).await?.1))
}

/// The export's files as a `.tar.gz` under `ENV-DEPLOYER/`.
async fn archive(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<Response, ApiError> {
    let (stored, export) = exported(&state, id, name).await?;
    let prefix = format!("{}-{}", safe(&stored.row.cluster.name), export.deployer);
    let bytes =
        crate::package::files_archive(&prefix, &export.files).map_err(ApiError::Internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/gzip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{prefix}.tar.gz\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `name` with what a file name should not hold replaced by `_`.
fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}
