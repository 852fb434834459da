//! An environment's upgrades (SEMANTICS §7.6): `GET
//! /api/v1/clusters/{id}/upgrades` lists the newer installed versions of
//! the plugins it pins (its release plugin included); `POST
//! /api/v1/clusters/{id}/upgrade` moves one of them to one of those
//! versions. Core decides which versions are upgrades, what the
//! environment keeps, every consequence and what refuses it; this finds
//! the new versions, builds the environment on them and stores it — with
//! `?dry_run=true` it answers the consequences and stores nothing.
//!
//! An upgrade moves the settings version on (it changes the settings), so
//! `If-Match` names the settings version, as a components change's does.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use mosaic_core::api::{ErrorBody, UpgradeAnswer, UpgradeOffer, UpgradeRequest};
use mosaic_core::environment::{Base, Environment};
use mosaic_core::plugin::{Pins, same_release, upgrades};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::components::Options;
use super::error::{ATTEMPTS, ApiError, ApiJson};
use super::tags::stored_environment;
use super::versions::{if_match, still_at, with_etag};
use crate::AppState;
use crate::db::{Installed, Selection, StoredPlugin};
use crate::environment::{ReleaseBase, Stored};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(upgrade))
}

/// The plugin that ships `stored`'s release.
fn release_plugin<'a>(
    installed: &'a Installed,
    stored: &Stored,
) -> Result<&'a StoredPlugin, ApiError> {
    let id = stored.row.cluster.release_id;
    installed
        .iter()
        .find(|p| p.release_ids.contains(&id))
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("release {id} is not installed")))
}

fn offers(installed: &Installed, stored: &Stored) -> Result<Vec<UpgradeOffer>, ApiError> {
    let own = release_plugin(installed, stored)?;
    Ok(upgrades(
        &own.package,
        &stored.base.release,
        &stored.row.pinned(),
        installed.iter().map(|p| &p.package),
    ))
}

/// The newer installed versions of what the environment pins: its
/// release plugin first, then by name, each oldest first.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/upgrades",
    operation_id = "list_cluster_upgrades",
    tag = "environments",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The plugins with newer versions", body = Vec<UpgradeOffer>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<UpgradeOffer>>, ApiError> {
    let stored = stored_environment(&state, id).await?;
    let installed = state.db.plugins().await?;
    Ok(Json(offers(&installed, &stored)?))
}

/// The release record and the pins `stored` has after `request`, or 404
/// when the version asked for is not one it can move to.
fn moved(
    installed: &Installed,
    stored: &Stored,
    request: &UpgradeRequest,
) -> Result<(i64, Pins), ApiError> {
    let offered = offers(installed, stored)?
        .into_iter()
        .any(|o| o.plugin == request.plugin && o.to.contains(&request.version));
    if !offered {
        return Err(ApiError::NotFound(format!(
            "plugin '{}' {} is not installed, or is not a newer version this environment can move to",
            request.plugin, request.version
        )));
    }
    let target = installed
        .iter()
        .find(|p| p.package.name == request.plugin && p.package.version.as_str() == request.version)
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("an offered version is installed")))?;
    let mut pins = stored.row.pinned();
    let release_id = if target.package.is_release_plugin() {
        let record = same_release(&target.package, &stored.base.release);
        target
            .releases()
            .find(|(_, r)| record.is_some_and(|record| std::ptr::eq(record, *r)))
            .map(|(id, _)| id)
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("an offered release is installed")))?
    } else {
        pins.insert(target.package.name.clone(), target.package.version.clone());
        stored.row.cluster.release_id
    };
    Ok((release_id, pins))
}

/// Moves one plugin the environment pins (its release plugin included)
/// to a newer installed version (SEMANTICS §7.6); with `dry_run`, what
/// it would do.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/upgrade",
    operation_id = "upgrade_cluster",
    tag = "environments",
    params(
        ("id" = i64, Path, description = "The environment's id"),
        Options,
        ("If-Match" = Option<String>, Header, description = "The settings version the upgrade was decided on: 412 when they moved on"),
    ),
    request_body = UpgradeRequest,
    responses(
        (status = 200, description = "Stored: the environment, its `ETag` the new settings version; or, with `dry_run`, the consequences",
            body = UpgradeAnswer,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the settings version"))),
        (status = 400, description = "`bad_request`; `invalid_settings`: the settings on the new version have problems (`problems`)", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment, or a plugin or version it cannot move to", body = ErrorBody),
        (status = 409, description = "`upgrade_refused`: something the environment uses would disappear (`refusals`, `upgrade`); `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names another settings version", body = ErrorBody),
    )
)]
async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(options): Query<Options>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<UpgradeRequest>,
) -> Result<Response, ApiError> {
    let expected = if_match(&headers, "settings")?;
    for _ in 0..ATTEMPTS {
        let stored = crate::environment::Stored::load_with_addresses(&state.db, id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
        let version = stored.row.settings_version;
        still_at(expected, version, "settings")?;
        let installed = state.db.plugins().await?;
        let (release_id, pins) = moved(&installed, &stored, &request)?;
        let base = ReleaseBase::shared(&installed, release_id, &pins)?
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("release {release_id} is gone")))?;
        let before = stored.environment()?;
        let spec = before.upgraded_spec(&base.foundation);
        let after = Environment::on(
            Base {
                release: &base.release,
                plugins: &base.plugins,
                release_tags: &stored.release_tags,
                release_roles: &stored.release_roles,
            },
            &base.foundation,
            &spec,
        );
        let upgrade = before.upgrade(&after);
        if !upgrade.refusals.is_empty() {
            return Err(ApiError::UpgradeRefused(Box::new(upgrade)));
        }
        if options.dry_run {
            return Ok(Json(UpgradeAnswer::DryRun(upgrade.consequences)).into_response());
        }
        let problems = after.evaluation().problems;
        if !problems.is_empty() {
            return Err(ApiError::InvalidSettings(problems));
        }
        let (config, rows) = super::networks::rebuilt(&after)?;
        let upgraded = Selection {
            release_id,
            components: &after.selected_names(),
            settings: &after.edits(),
            pins: &after.pins(),
            networks: (&config, &rows),
        };
        if let Some(version) = state
            .db
            .store_selection(id, upgraded, version, &stored.node_versions())
            .await?
        {
            let row = state.db.cluster(id).await?;
            let cluster =
                row.ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
            return Ok(with_etag(version, UpgradeAnswer::Stored(cluster.cluster)));
        }
    }
    Err(ApiError::busy("the settings"))
}
