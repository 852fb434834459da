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
//! A release upgrade carries the changes made on the old release record
//! onto the new one where they fit (core's `environment::carry`), in the
//! upgrade's transaction, with the instance tags the nodes reached then
//! call for; the answer says what was carried and what not.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use mosaic_core::api::{ErrorBody, UpgradeAnswer, UpgradeOffer, UpgradeRequest, Upgraded};
use mosaic_core::environment::{Base, Environment, ReleaseChanges, Target, carry};
use mosaic_core::plugin::{Pins, same_release, upgrades};
use mosaic_core::tag::NodeTags;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::components::Options;
use super::lookup::stored_environment;
use super::versions::{if_match, still_at, with_etag};
use crate::AppState;
use crate::db::{Carry, Installed, RolesSeen, Selection, StoredPlugin, TagOwner};
use crate::environment::{ReleaseBase, Stored};
use crate::error::{ApiError, ApiJson, Preview, retried};

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

/// The changes made on release record `release_id`: the environment's
/// own record's as it read them, another's from the database.
async fn release_changes(
    state: &AppState,
    stored: &Stored,
    release_id: i64,
) -> Result<ReleaseChanges, ApiError> {
    if release_id == stored.row.cluster.release_id {
        return Ok(ReleaseChanges {
            tags: stored.release_tags.clone(),
            roles: stored.release_roles.clone(),
        });
    }
    let owner = TagOwner::Release(release_id);
    Ok(ReleaseChanges {
        tags: state.db.user_tags(owner).await?,
        roles: state.db.role_layer(owner).await?,
    })
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
        (status = 200, description = "Stored: the environment with what the upgrade did (`upgrade`: its consequences, the release's changes carried and not), its `ETag` the new settings version; or, with `dry_run`, the consequences",
            body = UpgradeAnswer,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the settings version"))),
        (status = 400, description = "`bad_request`; `invalid_settings`: the settings on the new version have problems (`problems`, and the consequences as `upgrade`); a dry run is refused the same way", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment, or a plugin or version it cannot move to", body = ErrorBody),
        (status = 409, description = "`upgrade_refused`: something the environment uses would disappear (`refusals`, `upgrade`, and any problem of the settings as `problems`), a dry run refused the same way; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no settings version they are at (a stale tag, or one never issued)", body = ErrorBody),
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
    // Long: one attempt reads, checks and stores in one piece, so that a
    // store refused by a concurrent change is tried again on what is
    // stored then, never on an older read.
    retried("the settings", || async {
        let stored = crate::environment::Stored::load_with_addresses(&state.db, id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
        let version = stored.row.settings_version;
        still_at(expected.as_ref(), version, "settings")?;
        let installed = state.db.plugins().await?;
        let (release_id, pins) = moved(&installed, &stored, &request)?;
        let base = ReleaseBase::shared(&installed, release_id, &pins)?
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("release {release_id} is gone")))?;
        let old = release_changes(&state, &stored, stored.row.cluster.release_id).await?;
        let new = release_changes(&state, &stored, release_id).await?;
        let target = Target {
            release: &base.release,
            plugins: &base.plugins,
            foundation: &base.foundation,
        };
        let carried = carry(&old, &new, target);
        let before = stored.environment()?;
        let spec = before.upgraded_spec(&base.foundation);
        let after = Environment::on(
            Base {
                release: &base.release,
                plugins: &base.plugins,
                release_tags: &carried.changes.tags,
                release_roles: &carried.changes.roles,
            },
            &base.foundation,
            &spec,
        );
        // A dry run answers as the upgrade would: refused the same way,
        // with the consequences in the refusal (one rule for previews).
        let upgrade = before.upgrade(&after, carried.report.clone());
        let problems = after.evaluation().problems;
        if !upgrade.refusals.is_empty() {
            return Err(ApiError::UpgradeRefused(Box::new(upgrade), problems));
        }
        if !problems.is_empty() {
            let preview = Preview::Upgrade(upgrade.consequences);
            return Err(ApiError::InvalidSettings(problems).previewed(preview));
        }
        if options.dry_run {
            let answer = Json(UpgradeAnswer::DryRun(upgrade.consequences));
            return Ok(Some(answer.into_response()));
        }
        let (config, rows) = super::networks::rebuilt(&after)?;
        let upgraded = Selection {
            release_id,
            components: &after.selected_names(),
            settings: &after.edits(),
            pins: &after.pins(),
            networks: (&config, &rows),
        };
        let carry = (carried.changes != new).then_some(Carry {
            before: &new,
            after: &carried.changes,
        });
        let seen = stored.node_versions();
        let stored_now = state
            .db
            .store_upgrade((id, upgraded, version, &seen), carry, |seen| {
                reassign_instances(&installed, seen)
            })
            .await?;
        let Some(version) = stored_now else {
            return Ok(None);
        };
        let row = state.db.cluster(id).await?;
        let row =
            row.ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
        let answer = Upgraded {
            cluster: row.cluster,
            upgrade: upgrade.consequences,
        };
        Ok(Some(with_etag(version, UpgradeAnswer::Stored(answer))))
    })
    .await
}

/// The nodes of the environments an upgrade reaches (read inside its
/// transaction) whose instance tags change on the new versions.
fn reassign_instances(installed: &Installed, seen: RolesSeen) -> Result<Vec<NodeTags>, ApiError> {
    let mut nodes = Vec::new();
    for rows in seen.environments {
        let (tags, roles) = (seen.release_tags.clone(), seen.release_roles.clone());
        let stored = Stored::from_rows(installed, rows, tags, roles)?;
        nodes.extend(stored.environment()?.reassign_all_instances().0);
    }
    Ok(nodes)
}
