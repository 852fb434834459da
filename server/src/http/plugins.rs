//! `/api/v1/plugins`: install (an uploaded archive, or a path on the
//! server), list, show, uninstall.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use mosaic_core::api::{
    ErrorBody, ErrorCode, InstallFromPath, PluginKind, PluginRelease, PluginSummary,
};
use mosaic_core::plugin::Files;

use super::openapi::Archive;
use crate::AppState;
use crate::db::Snapshot;
use crate::db::StoredPlugin;
use crate::environment::plugin_users;
use crate::error::ApiError;
use crate::install::{InstallError, install};
use crate::package;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router(uploads: &super::Uploads) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(uploads.apply(routes!(create)))
        .routes(routes!(reinstall_bundled))
        .routes(routes!(show, remove))
}

/// `plugin` as the API shows it, judged on `snapshot` (one consistent read).
fn summary(plugin: &StoredPlugin, snapshot: &Snapshot) -> Result<PluginSummary, ApiError> {
    let all = &snapshot.plugins;
    let package = &plugin.package;
    let (kind, releases) = if package.is_release_plugin() {
        (PluginKind::Release, plugin.releases().collect::<Vec<_>>())
    } else {
        let compatible = all
            .iter()
            .flat_map(StoredPlugin::releases)
            .filter(|(_, r)| package.extends(r))
            .collect();
        (PluginKind::Extension, compatible)
    };
    Ok(PluginSummary {
        id: plugin.id,
        name: package.name.to_string(),
        title: package.title.clone(),
        version: package.version.to_string(),
        package_version: package.package_version.clone(),
        description: package.description.clone(),
        kind,
        releases: releases
            .into_iter()
            .map(|(id, r)| PluginRelease {
                id,
                name: r.name.clone(),
                version: r.version.clone(),
                operating_system: r.operating_system.clone(),
            })
            .collect(),
        used_by: plugin_users(snapshot, plugin)?
            .into_iter()
            .map(|u| u.name)
            .collect(),
        warnings: plugin.warnings.clone(),
    })
}

/// The installed plugins, in installation order.
#[utoipa::path(
    get,
    path = "/api/v1/plugins",
    operation_id = "list_plugins",
    tag = "plugins",
    responses((status = 200, description = "Every installed plugin", body = Vec<PluginSummary>))
)]
async fn list(State(state): State<AppState>) -> Result<Json<Vec<PluginSummary>>, ApiError> {
    let snapshot = state.db.snapshot().await?;
    let out: Result<Vec<_>, _> = snapshot
        .plugins
        .iter()
        .map(|p| summary(p, &snapshot))
        .collect();
    Ok(Json(out?))
}

/// One installed plugin.
#[utoipa::path(
    get,
    path = "/api/v1/plugins/{id}",
    operation_id = "show_plugin",
    tag = "plugins",
    params(("id" = i64, Path, description = "The plugin's id")),
    responses(
        (status = 200, description = "The plugin", body = PluginSummary),
        (status = 404, description = "`not_found`: no such plugin", body = ErrorBody),
    )
)]
async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<PluginSummary>, ApiError> {
    let snapshot = state.db.snapshot().await?;
    let plugin = snapshot
        .plugins
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| not_found(id))?;
    Ok(Json(summary(plugin, &snapshot)?))
}

/// Installs a plugin package: the body is the archive itself, or
/// `{"path": ...}` with `Content-Type: application/json` for a package in
/// the server's `--plugin-dir`. Nothing is stored unless the answer is 201.
#[utoipa::path(
    post,
    path = "/api/v1/plugins",
    operation_id = "install_plugin",
    tag = "plugins",
    request_body(description = "The package archive (.tar.gz or .zip), or a path on the server", content(
        (InstallFromPath = "application/json"),
        (Archive = "application/gzip"), (Archive = "application/x-gzip"), (Archive = "application/x-tar"),
        (Archive = "application/x-compressed-tar"), (Archive = "application/zip"),
        (Archive = "application/x-zip-compressed"), (Archive = "application/octet-stream"),
    )),
    responses(
        (status = 201, description = "Installed: the plugin, its releases and components stored together", body = PluginSummary),
        (status = 400, description = "`bad_request`; `unreadable_package`: not an archive, a broken one, an entry escaping the root; `invalid_plugin`: validation errors (`report`)", body = ErrorBody),
        (status = 403, description = "`path_install_disabled`: no `--plugin-dir`; `outside_plugin_dir`", body = ErrorBody),
        (status = 409, description = "`plugin_conflict`: it collides with installed plugins (`report`)", body = ErrorBody),
        (status = 429, description = "`too_many_uploads`: two uploads are being checked already", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<PluginSummary>), ApiError> {
    let mut accepted = vec!["application/json"];
    accepted.extend_from_slice(super::ARCHIVE_TYPES);
    let kind = super::content_type(&headers, &accepted, "a plugin upload")?;
    let unreadable = |e: package::OpenError| {
        ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::UnreadablePackage, e.0)
    };
    let files: Box<dyn Files + Send + Sync> = if kind == "application/json" {
        let request: InstallFromPath = serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("invalid request body: {e}")))?;
        let path = confined(&state, &request.path)?;
        tokio::task::spawn_blocking(move || package::open(&path))
            .await
            .map_err(|e| ApiError::Internal(e.into()))?
            .map_err(unreadable)?
    } else {
        if body.is_empty() {
            return Err(ApiError::BadRequest(
                "send the plugin archive (.tar.gz or .zip) as the request body".to_owned(),
            ));
        }
        Box::new(
            tokio::task::spawn_blocking(move || package::unpack(&body))
                .await
                .map_err(|e| ApiError::Internal(e.into()))?
                .map_err(unreadable)?,
        )
    };
    installed(&state, files).await
}

/// Installs the release plugin built into the server (after it was
/// uninstalled): 201, or 409 `plugin_conflict` when it is installed.
#[utoipa::path(
    post,
    path = "/api/v1/plugins/bundled",
    operation_id = "install_bundled_plugin",
    tag = "plugins",
    responses(
        (status = 201, description = "Installed", body = PluginSummary),
        (status = 409, description = "`plugin_conflict`: it is installed (`report`)", body = ErrorBody),
    )
)]
async fn reinstall_bundled(
    State(state): State<AppState>,
) -> Result<(StatusCode, Json<PluginSummary>), ApiError> {
    installed(&state, Box::new(crate::bundled::files())).await
}

async fn installed(
    state: &AppState,
    files: Box<dyn Files + Send + Sync>,
) -> Result<(StatusCode, Json<PluginSummary>), ApiError> {
    let (stored, _report) = install(&state.db, files).await.map_err(|e| match e {
        InstallError::Invalid(report) => {
            ApiError::Plugin(StatusCode::BAD_REQUEST, ErrorCode::InvalidPlugin, report)
        }
        InstallError::Conflict(report) => {
            ApiError::Plugin(StatusCode::CONFLICT, ErrorCode::PluginConflict, report)
        }
        InstallError::Db(e) => e.into(),
    })?;
    tracing::info!("installed {}", stored.package.source());
    let snapshot = state.db.snapshot().await?;
    Ok((StatusCode::CREATED, Json(summary(&stored, &snapshot)?)))
}

/// Uninstalls a plugin (with its releases) that no environment uses.
#[utoipa::path(
    delete,
    path = "/api/v1/plugins/{id}",
    operation_id = "uninstall_plugin",
    tag = "plugins",
    params(("id" = i64, Path, description = "The plugin's id")),
    responses(
        (status = 204, description = "Uninstalled"),
        (status = 404, description = "`not_found`: no such plugin", body = ErrorBody),
        (status = 409, description = "`plugin_in_use`: environments use it (named)", body = ErrorBody),
    )
)]
async fn remove(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    crate::install::uninstall(&state.db, id).await?;
    tracing::info!("uninstalled plugin {id}");
    Ok(StatusCode::NO_CONTENT)
}

/// `path` (relative to the plugin directory, or absolute inside it) once
/// links are resolved, if it stays inside the server's `--plugin-dir`.
fn confined(state: &AppState, path: &str) -> Result<std::path::PathBuf, ApiError> {
    let Some(dir) = &state.security.plugin_dir else {
        return Err(ApiError::Coded(
            StatusCode::FORBIDDEN,
            ErrorCode::PathInstallDisabled,
            "installing from a path on the server is off: start the server with --plugin-dir DIR, \
             or upload the archive"
                .to_owned(),
        ));
    };
    let outside = || {
        ApiError::Coded(
            StatusCode::FORBIDDEN,
            ErrorCode::OutsidePluginDir,
            format!("'{path}' is not a package inside the plugin directory"),
        )
    };
    let root = dir.canonicalize().map_err(|e| {
        ApiError::Internal(anyhow::anyhow!("plugin directory {}: {e}", dir.display()))
    })?;
    let wanted = root.join(path).canonicalize().map_err(|e| {
        ApiError::Coded(
            StatusCode::BAD_REQUEST,
            ErrorCode::UnreadablePackage,
            format!("'{path}' in the plugin directory: {e}"),
        )
    })?;
    if wanted.starts_with(&root) {
        Ok(wanted)
    } else {
        Err(outside())
    }
}

fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("plugin {id} is not installed"))
}
