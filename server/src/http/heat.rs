//! `/api/v1/heat`: upload a Heat template set (an archive), see its
//! capabilities, and resolve an environment against it, with the user's
//! picks for the choices that remain.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use mosaic_core::api::{ResolveTemplates, TemplateResolution, TemplateSet};
use mosaic_core::heat::{self, Capabilities, is_template, summarize, template_capabilities};
use mosaic_core::plugin::MemoryFiles;
use serde::Deserialize;

use super::error::{ApiError, ApiJson};
use crate::AppState;
use crate::package;

pub fn router(uploads: &super::Uploads) -> Router<AppState> {
    Router::new()
        .route("/api/v1/heat/template-sets", uploads.apply(post(upload)))
        .route("/api/v1/heat/template-sets/{id}", get(show))
        .route("/api/v1/heat/template-sets/{id}/resolve", post(resolve))
}

fn invalid(message: String) -> ApiError {
    ApiError::Coded(StatusCode::BAD_REQUEST, "invalid_template", message)
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

#[derive(Debug, Deserialize)]
struct UploadQuery {
    name: Option<String>,
}

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
        .map_err(|e| ApiError::Coded(StatusCode::BAD_REQUEST, "unreadable_archive", e.0))?;
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

async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<TemplateSet>, ApiError> {
    let (name, files) = load(&state, id).await?;
    Ok(Json(view(id, name, &files)?))
}

/// Resolves the environment with the picks applied. A pick must be one of
/// the valid candidates of an open choice.
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
                ApiError::Coded(StatusCode::BAD_REQUEST, "invalid_environment", m)
            }
            heat::RequestError::Templates(m) => invalid(m),
            heat::RequestError::Pick(m) => ApiError::BadRequest(m),
        })
    })
    .await
    .map(Json)
}
