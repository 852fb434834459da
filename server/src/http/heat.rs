//! `/api/v1/heat`: upload a Heat template set (an archive), see its
//! capabilities, and resolve an environment against it, with the user's
//! picks for the choices that remain.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use mosaic_core::api::{ErrorBody, ErrorCode, ResolveTemplates, TemplateResolution, TemplateSet};
use mosaic_core::heat::{self, Capabilities, is_template, summarize, template_capabilities};
use mosaic_core::plugin::MemoryFiles;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::Archive;
use crate::AppState;
use crate::error::{ApiError, ApiJson};
use crate::package;

pub fn router(uploads: &super::Uploads) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(uploads.apply(routes!(upload)))
        .routes(routes!(show))
        .routes(routes!(resolve))
}

fn invalid(message: String) -> ApiError {
    ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::InvalidTemplate, message)
}

/// Every template's capabilities; the first invalid template is an error.
fn capabilities(
    files: &BTreeMap<String, String>,
) -> Result<Vec<(String, Option<Capabilities>)>, ApiError> {
    files
        .iter()
        .map(|(path, text)| {
            template_capabilities(path, text)
                .map(|caps| (path.clone(), caps))
                .map_err(|e| invalid(e.to_string()))
        })
        .collect()
}

fn view(id: i64, name: String, files: &BTreeMap<String, String>) -> Result<TemplateSet, ApiError> {
    let caps = capabilities(files)?;
    Ok(TemplateSet {
        id,
        name,
        templates: files.keys().cloned().collect(),
        summary: summarize(caps.iter().map(|(f, c)| (f.as_str(), c.as_ref()))),
    })
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct UploadQuery {
    /// The set's name (default `template set`).
    name: Option<String>,
}

/// Uploads a Heat template set: an archive whose `.yaml`, `.yml` and
/// `.template` files are its templates.
#[utoipa::path(
    post,
    path = "/api/v1/heat/template-sets",
    operation_id = "upload_template_set",
    tag = "heat",
    params(UploadQuery),
    request_body(description = "The archive (.tar.gz or .zip)", content(
        (Archive = "application/gzip"), (Archive = "application/x-gzip"), (Archive = "application/x-tar"),
        (Archive = "application/x-compressed-tar"), (Archive = "application/zip"),
        (Archive = "application/x-zip-compressed"), (Archive = "application/octet-stream"),
    )),
    responses(
        (status = 201, description = "Stored: its templates and their capabilities", body = TemplateSet),
        (status = 400, description = "`bad_request`; `unreadable_archive`; `invalid_template` (`file:line:col: message`), or an archive without templates", body = ErrorBody),
        (status = 429, description = "`too_many_uploads`: two uploads are being checked already", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn upload(
    State(state): State<AppState>,
    Query(query): Query<UploadQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<TemplateSet>), ApiError> {
    super::content_type(&headers, super::ARCHIVE_TYPES, "a template set upload")?;
    let unpacked = tokio::task::spawn_blocking(move || package::unpack(&body))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::UnreadableArchive, e.0))?;
    let files: BTreeMap<String, String> = unpacked
        .texts()
        .filter(|(path, _)| is_template(path))
        .map(|(p, t)| (p.to_owned(), t.to_owned()))
        .collect();
    if files.is_empty() {
        return Err(invalid(
            "the archive holds no template (.yaml, .yml or .template file)".to_owned(),
        ));
    }
    let set = view(0, String::new(), &files)?;
    let name = query.name.unwrap_or_else(|| "template set".to_owned());
    let id = state.db.insert_template_set(&name, &files).await?;
    Ok((StatusCode::CREATED, Json(TemplateSet { id, name, ..set })))
}

async fn load(state: &AppState, id: i64) -> Result<(String, BTreeMap<String, String>), ApiError> {
    state
        .db
        .template_set(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("template set {id} does not exist")))
}

/// One template set: its templates and their capabilities.
#[utoipa::path(
    get,
    path = "/api/v1/heat/template-sets/{id}",
    operation_id = "show_template_set",
    tag = "heat",
    params(("id" = i64, Path, description = "The template set's id")),
    responses(
        (status = 200, description = "The set", body = TemplateSet),
        (status = 404, description = "`not_found`: no such template set", body = ErrorBody),
    )
)]
async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<TemplateSet>, ApiError> {
    let (name, files) = load(&state, id).await?;
    Ok(Json(view(id, name, &files)?))
}

/// Resolves a Heat environment against the set with the picks applied. A
/// pick must be one of the valid candidates of an open choice.
#[utoipa::path(
    post,
    path = "/api/v1/heat/template-sets/{id}/resolve",
    operation_id = "resolve_template_set",
    tag = "heat",
    params(("id" = i64, Path, description = "The template set's id")),
    request_body = ResolveTemplates,
    responses(
        (status = 200, description = "The resolution, the choices still open, and the environment when nothing is", body = TemplateResolution),
        (status = 400, description = "`bad_request`: a pick that is not a valid candidate of an open choice; `invalid_environment`; `invalid_template`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such template set", body = ErrorBody),
    )
)]
async fn resolve(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<ResolveTemplates>,
) -> Result<Json<TemplateResolution>, ApiError> {
    let (_, files) = load(&state, id).await?;
    // Resolving reads and checks every template: CPU work, off the workers.
    super::blocking(move || {
        let memory: MemoryFiles = files.iter().collect();
        heat::answer(&request, &memory).map_err(|e| match e {
            heat::RequestError::Environment(m) => {
                ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::InvalidEnvironment, m)
            }
            heat::RequestError::Templates(m) => invalid(m),
            heat::RequestError::Pick(m) => ApiError::BadRequest(m),
        })
    })
    .await
    .map(Json)
}
