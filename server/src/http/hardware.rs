//! Nodes as they are found (SEMANTICS §13): an import of Ansible facts or
//! Ironic inspection data into an environment — each host matched to its
//! node or made a new one, all or nothing — and one node's hardware, read
//! or declared by hand.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use mosaic_core::api::{ErrorBody, ErrorCode, ImportReport, NodeHardware};
use mosaic_core::hardware::declare::may_declare;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::Archive;
use super::{blocking, versions};
use crate::AppState;
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson, retried};
use crate::facts::{self, Gathered};
use crate::timestamp;

pub fn router(uploads: &super::Uploads) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(uploads.apply(routes!(import)))
        .routes(routes!(show, declare))
}

/// What an import takes: a `.tar.gz` (or tar) of facts files, or a JSON
/// object of files.
const IMPORT_TYPES: &[&str] = &[
    "application/json",
    "application/gzip",
    "application/x-gzip",
    "application/x-tar",
    "application/x-compressed-tar",
    "application/octet-stream",
];

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ImportQuery {
    /// Say what the import would do, storing nothing.
    #[serde(default)]
    dry_run: bool,
}

/// The files of an import, read: 400 `bad_request` when they cannot be
/// (not an archive, not an object of files, none at all).
async fn gathered(headers: &HeaderMap, body: Bytes) -> Result<Gathered, ApiError> {
    let kind = super::content_type(headers, IMPORT_TYPES, "an import")?;
    let gzip = headers
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("gzip"));
    blocking(move || {
        let read = if kind == "application/json" {
            facts::from_json(&body, gzip)
        } else {
            facts::from_archive(&body)
        };
        read.map_err(ApiError::BadRequest)
    })
    .await
}

/// Imports nodes' hardware: Ansible facts (`ansible -m setup --tree DIR`
/// files, or the jsonfile fact cache) or Ironic inspection data. Each host
/// is matched to its node (by permanent MAC, then serial, then name) or
/// becomes a new node (`discover`, no roles, in the node group whose
/// management or admin network holds its address); a re-import changes
/// hardware and interfaces only. All or nothing: with any problem nothing
/// is stored.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/nodes/import",
    operation_id = "import_nodes",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id"), ImportQuery),
    request_body(description = "A .tar.gz of a facts directory, or a JSON object `{file name: content}` (content: the file's text or its JSON; the body may be `Content-Encoding: gzip`)", content(
        (HashMap<String, String> = "application/json"),
        (Archive = "application/gzip"), (Archive = "application/x-gzip"), (Archive = "application/x-tar"),
        (Archive = "application/x-compressed-tar"), (Archive = "application/octet-stream"),
    )),
    responses(
        (status = 200, description = "Imported (or, with `dry_run`, what would be: `problems` then lists every problem)", body = ImportReport),
        (status = 400, description = "`bad_request`: not an archive or an object of files, or no file; `invalid_import`: every problem (`problems`, each with its file and host); nothing stored", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`busy`: the environment's settings kept changing", body = ErrorBody),
        (status = 429, description = "`too_many_uploads`: two uploads are being checked already", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn import(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<ImportQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<ImportReport>, ApiError> {
    head(&state, id).await?;
    let gathered = gathered(&headers, body).await?;
    retried("the environment's settings", || async {
        let stored = head(&state, id).await?;
        let env = stored.environment()?;
        let config = super::networks::configuration(&env)?;
        let addressing = super::networks::addressing(&env)?;
        let now = timestamp::rfc3339(timestamp::now());
        let found = gathered.found.clone();
        let checked = (stored.row.settings_version, &addressing);
        let planned = state
            .db
            .import_hardware(id, checked, !query.dry_run, |existing| {
                let mut plan = env.import_plan(&config, found, existing, &now);
                plan.problems
                    .splice(0..0, gathered.problems.iter().cloned());
                env.lay_out_import(&mut plan);
                plan
            })
            .await?;
        if !query.dry_run && !planned.problems.is_empty() {
            return Err(ApiError::InvalidImport(planned.problems));
        }
        Ok(Some(Json(ImportReport::of(&planned))))
    })
    .await
}

/// Environment `id` without its nodes, or 404.
async fn head(state: &AppState, id: i64) -> Result<Stored, ApiError> {
    Stored::head(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))
}

/// A node's hardware: its NICs, bonds, disks, memory, CPUs and machine,
/// and where and when it was found.
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}/hardware",
    operation_id = "show_node_hardware",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "Its hardware", body = NodeHardware, headers(("ETag" = String, description = "`\"N\"`, N the node's version"))),
        (status = 404, description = "`not_found`: no such node, or none of its hardware is known yet (import its facts, or declare it)", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let node = super::lookup::stored_node(&state, id).await?;
    let hardware = state.db.node_hardware(id).await?.ok_or_else(|| {
        ApiError::NotFound(format!(
            "node {id} has no hardware yet: import its facts, or declare it (PUT)"
        ))
    })?;
    let answer = NodeHardware::of(node.spec.found.as_ref(), hardware);
    Ok(versions::with_etag(node.spec.version, answer))
}

/// Declares a node's hardware by hand, for a node no import found; its
/// interfaces follow the NICs declared as an import's would.
#[utoipa::path(
    put,
    path = "/api/v1/nodes/{id}/hardware",
    operation_id = "declare_node_hardware",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id"),
        ("If-Match" = Option<String>, Header, description = "The node's version the change was made on: 412 when it moved on")),
    request_body = NodeHardware,
    responses(
        (status = 200, description = "Declared (`source`: `declared`)", body = NodeHardware, headers(("ETag" = String, description = "`\"N\"`, N the node's version"))),
        (status = 400, description = "`bad_request`: a body that is not the hardware's shape; `invalid_hardware`: every problem, each with its field (`interfaces[1].mac: …`), or of the interfaces it leaves", body = ErrorBody),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
        (status = 409, description = "`conflict`: an import found the node's hardware (import again to change it); `busy`: the environment kept changing", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no version it is at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn declare(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<NodeHardware>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "node")?;
    let (head, _) = super::lookup::node_context(&state, id).await?;
    let env = head.environment()?;
    let config = super::networks::configuration(&env)?;
    let now = timestamp::rfc3339(timestamp::now());
    let hardware = request.hardware();
    let (stored, hardware) = state
        .db
        .declare_hardware(id, expected.as_ref(), |node, before| {
            may_declare(node.spec.found.as_ref()).map_err(ApiError::Conflict)?;
            let (mut next, hardware) = env
                .with_declared_hardware(&config, (&node.spec, before.as_ref()), hardware, &now)
                .map_err(|problems| {
                    ApiError::Coded(
                        StatusCode::BAD_REQUEST,
                        ErrorCode::InvalidHardware,
                        problems.join("; "),
                    )
                })?;
            next.disks = super::disks::layout_on(&env, &next, &hardware)?;
            Ok::<_, ApiError>((next, hardware))
        })
        .await?;
    let answer = NodeHardware::of(stored.spec.found.as_ref(), hardware);
    Ok(versions::with_etag(stored.spec.version, answer))
}
