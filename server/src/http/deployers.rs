//! Handing an environment to a deployer (SEMANTICS §12): the deployers
//! its release declares, and the export for one — the files as JSON with
//! the hosts and the warnings, or as a `.tar.gz`. Core works out the
//! export from the plan; a refusal names every problem (409
//! `not_exportable`) and nothing is written.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use mosaic_core::api::{DeployerSummary, ErrorBody, ErrorCode, Export};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::Archive;
use crate::AppState;
use crate::environment::Stored;
use crate::error::ApiError;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(show))
        .routes(routes!(archive))
}

/// The deployers the environment's release (and its plugins) declare.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/deployers",
    operation_id = "list_cluster_deployers",
    tag = "deployers",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "Its deployers", body = Vec<DeployerSummary>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
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
                        ErrorCode::UnknownDeployer,
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

/// The environment exported for a deployer: its files, each host with its groups and variables, and the warnings.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/deployers/{name}",
    operation_id = "export_cluster_to_deployer",
    tag = "deployers",
    params(("id" = i64, Path, description = "The environment's id"),
        ("name" = String, Path, description = "The deployer's name (`kolla-ansible`)")),
    responses(
        (status = 200, description = "The export (docs/deployers.md)", body = Export),
        (status = 404, description = "`not_found`: no such environment; `unknown_deployer`: a deployer its release does not declare (the message lists those it does)", body = ErrorBody),
        (status = 409, description = "`not_exportable`: something the deployer has no equivalent for, every problem at once (`problems`: `{message, component|role|setting|node}`); nothing is exported", body = ErrorBody),
    )
)]
async fn show(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<Json<Export>, ApiError> {
    Ok(Json(exported(&state, id, name).await?.1))
}

/// The export's files as a `.tar.gz` under `ENV-DEPLOYER/`.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/deployers/{name}/archive",
    operation_id = "download_cluster_deployer_archive",
    tag = "deployers",
    params(("id" = i64, Path, description = "The environment's id"),
        ("name" = String, Path, description = "The deployer's name (`kolla-ansible`)")),
    responses(
        (status = 200, description = "The export's files under `ENV-DEPLOYER/` (ENV the environment's name, every character but letters, digits, `-`, `_` and `.` written `_`)",
            content((Archive = "application/gzip")),
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"ENV-DEPLOYER.tar.gz\"`"))),
        (status = 404, description = "`not_found`: no such environment; `unknown_deployer`: a deployer its release does not declare", body = ErrorBody),
        (status = 409, description = "`not_exportable`: something the deployer has no equivalent for, every problem at once (`problems`); nothing is exported", body = ErrorBody),
    )
)]
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
