//! Roles over time (SEMANTICS §5.1) on releases and environments: a role's
//! tags replaced (`PUT`, 200), the change undone or a role of one's own
//! deleted (`DELETE`, 204), roles created (`POST`, 201); the release's
//! roles listed (`GET`; an environment's are listed with its nodes). 400
//! for a bad name and `unknown_tag`, 404 for an unknown role, 409 for a
//! name taken, a role nodes hold and one a release or plugin declares.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use mosaic_core::api::{CreateRole, ErrorBody, ErrorCode, RoleTags, RoleView};
use mosaic_core::environment::{Environment, ReleaseRoles};
use mosaic_core::role_layer::{LevelView, RoleLayer, RoleRefusal};
use mosaic_core::tag::NodeTags;

use super::error::{ApiError, ApiJson};
use super::tags::stored_environment;
use super::versions;
use crate::AppState;
use crate::db::{TagOwner, version_of};
use crate::environment::{ReleaseBase, Stored};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_release, create_release))
        .routes(routes!(put_release, delete_release))
        .routes(routes!(create_cluster))
        .routes(routes!(put_cluster, delete_cluster))
}

fn refused(refusal: RoleRefusal) -> ApiError {
    let message = refusal.to_string();
    match refusal {
        RoleRefusal::NotFound(_) => ApiError::NotFound(message),
        RoleRefusal::BadName(_) | RoleRefusal::Invalid(_) => ApiError::BadRequest(message),
        RoleRefusal::UnknownTags(_) => {
            ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::UnknownTag, message)
        }
        RoleRefusal::Exists(_) | RoleRefusal::Declared { .. } | RoleRefusal::Held { .. } => {
            ApiError::Conflict(message)
        }
    }
}

/// What a change of an environment's roles makes of its layer.
type EnvChange<'c> =
    dyn Fn(&Environment<'_>, LevelView<'_>) -> Result<RoleLayer, RoleRefusal> + Send + Sync + 'c;

/// Changes environment `id`'s roles with `change` in one transaction with
/// its nodes: the nodes holding role `name` get the instance tags the new
/// set calls for.
async fn change_cluster(
    state: &AppState,
    id: i64,
    (name, expected): (&str, Option<i64>),
    change: &EnvChange<'_>,
) -> Result<i64, ApiError> {
    let stored = stored_environment(state, id).await?;
    let versions = state
        .db
        .change_roles(
            TagOwner::Cluster(id),
            expected.map(|v| (name, v)),
            |before, nodes| {
                let mut spec = stored.spec.clone();
                spec.nodes = nodes;
                spec.roles = before.clone();
                let env = stored.with_spec(&spec)?;
                let layer = change(&env, env.role_level()).map_err(refused)?;
                let holders = env.holder_ids(name);
                let mut after = spec.clone();
                after.roles = layer.clone();
                let mut nodes = after.nodes.clone();
                stored
                    .with_spec(&after)?
                    .assign_instances(&mut nodes, &holders);
                let changed: Vec<NodeTags> = nodes
                    .into_iter()
                    .zip(&spec.nodes)
                    .filter(|(next, was)| next != *was)
                    .map(|(next, _)| next)
                    .collect();
                Ok::<_, ApiError>((layer, changed))
            },
        )
        .await?;
    Ok(version_of(&versions, name))
}

/// Role `name` as `GET /clusters/{id}/roles` shows it.
async fn cluster_view(state: &AppState, id: i64, name: &str) -> Result<RoleView, ApiError> {
    let stored = stored_environment(state, id).await?;
    stored
        .environment()?
        .role_views()
        .into_iter()
        .find(|r| r.id == name)
        .ok_or_else(|| ApiError::NotFound(format!("role '{name}' is not offered here")))
}

/// Replaces a role's tag set on the environment; every node holding it follows.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/roles/{name}",
    operation_id = "set_cluster_role_tags",
    tag = "roles",
    params(("id" = i64, Path, description = "The environment's id"), ("name" = String, Path, description = "The role's name"),
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    request_body = RoleTags,
    responses(
        (status = 200, description = "The role as the environment's list shows it", body = RoleView, headers(("ETag" = String, description = "The role's version on this owner"))),
        (status = 400, description = "`bad_request`; `unknown_tag`: tags nothing declares", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment or role", body = ErrorBody),
        (status = 409, description = "`conflict`; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile", body = ErrorBody),
    )
)]
async fn put_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RoleTags>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let tags = request.tags;
    let version = change_cluster(&state, id, (&name, expected), &|env, level| {
        level.set_tags(&name, tags.clone(), |t| env.knows_tag(t))
    })
    .await?;
    Ok(versions::with_etag(
        version,
        cluster_view(&state, id, &name).await?,
    ))
}

/// Creates a role of one's own on the environment.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/roles",
    operation_id = "create_cluster_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = CreateRole,
    responses(
        (status = 201, description = "Created", body = RoleView, headers(("ETag" = String, description = "The role's version on this owner"))),
        (status = 400, description = "`bad_request`: a name outside `[a-z0-9_-]+`, unreadable limits; `unknown_tag`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`conflict`: the name exists (declared or created); `busy`", body = ErrorBody),
    )
)]
async fn create_cluster(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateRole>,
) -> Result<(StatusCode, Response), ApiError> {
    let name = request.name.clone();
    let def = request.def();
    let version = change_cluster(&state, id, (&name, None), &|env, level| {
        level
            .create(&name, def.clone(), |t| env.knows_tag(t))
            .map(|(_, layer)| layer)
    })
    .await?;
    let view = cluster_view(&state, id, &name).await?;
    Ok((StatusCode::CREATED, versions::with_etag(version, view)))
}

/// Undoes the environment's change of a role (the level below shows again), or deletes a role created on it.
#[utoipa::path(
    delete,
    path = "/api/v1/clusters/{id}/roles/{name}",
    operation_id = "reset_cluster_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The environment's id"), ("name" = String, Path, description = "The role's name"),
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    responses(
        (status = 204, description = "Undone or deleted"),
        (status = 404, description = "`not_found`: no such environment or role", body = ErrorBody),
        (status = 409, description = "`conflict`: nodes hold a created role (named), or the owner has no change of that role; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile", body = ErrorBody),
    )
)]
async fn delete_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    change_cluster(&state, id, (&name, expected), &|env, level| {
        level.reset(&name, env.holders(&name))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Release `id`'s base, or 404.
async fn release_base(state: &AppState, id: i64) -> Result<Arc<ReleaseBase>, ApiError> {
    let installed = state.db.plugins().await?;
    // A release's own view: the newest compatible version of each plugin.
    ReleaseBase::shared(&installed, id, &mosaic_core::plugin::Pins::new())?
        .ok_or_else(|| ApiError::NotFound(format!("release {id} does not exist")))
}

/// What a change of a release's roles makes of its layer, given a tag's
/// being known.
type ReleaseChange<'c> = dyn Fn(
        LevelView<'_>,
        &dyn Fn(&mosaic_core::name::TagName) -> bool,
    ) -> Result<RoleLayer, RoleRefusal>
    + Send
    + Sync
    + 'c;

async fn change_release(
    state: &AppState,
    id: i64,
    (name, expected): (&str, Option<i64>),
    change: &ReleaseChange<'_>,
) -> Result<i64, ApiError> {
    let base = release_base(state, id).await?;
    let user = state.db.user_tags(TagOwner::Release(id)).await?;
    let versions = state
        .db
        .change_roles(
            TagOwner::Release(id),
            expected.map(|v| (name, v)),
            |before, _| {
                let roles = ReleaseRoles::new(&base.foundation, before);
                let known = |t: &mosaic_core::name::TagName| {
                    roles.knows_tag(&base.release, &base.plugins, &user, t)
                };
                let layer = change(roles.level(), &known).map_err(refused)?;
                Ok::<_, ApiError>((layer, Vec::new()))
            },
        )
        .await?;
    Ok(version_of(&versions, name))
}

/// The release's roles, each with how many nodes of its environments hold it.
async fn release_views(state: &AppState, id: i64) -> Result<Vec<RoleView>, ApiError> {
    let base = release_base(state, id).await?;
    let layer = state.db.role_layer(TagOwner::Release(id)).await?;
    let mut views = ReleaseRoles::new(&base.foundation, &layer).views();
    let snapshot = state.db.snapshot().await?;
    for stored in Stored::all_on_release(&snapshot, id)? {
        let env = stored.environment()?;
        for view in &mut views {
            view.nodes += env.holder_ids(view.id.as_str()).len();
        }
    }
    Ok(views)
}

async fn release_view(state: &AppState, id: i64, name: &str) -> Result<RoleView, ApiError> {
    release_views(state, id)
        .await?
        .into_iter()
        .find(|r| r.id == name)
        .ok_or_else(|| ApiError::NotFound(format!("role '{name}' does not exist")))
}

/// The release's roles with its changes (SEMANTICS §5.1), each with how many nodes of its environments hold it.
#[utoipa::path(
    get,
    path = "/api/v1/releases/{id}/roles",
    operation_id = "list_release_roles",
    tag = "roles",
    params(("id" = i64, Path, description = "The release's id")),
    responses(
        (status = 200, description = "The roles", body = Vec<RoleView>),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
    )
)]
async fn list_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<RoleView>>, ApiError> {
    Ok(Json(release_views(&state, id).await?))
}

/// Replaces a role's tag set on the release; every node holding it follows.
#[utoipa::path(
    put,
    path = "/api/v1/releases/{id}/roles/{name}",
    operation_id = "set_release_role_tags",
    tag = "roles",
    params(("id" = i64, Path, description = "The release's id"), ("name" = String, Path, description = "The role's name"),
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    request_body = RoleTags,
    responses(
        (status = 200, description = "The role as the release's list shows it", body = RoleView, headers(("ETag" = String, description = "The role's version on this owner"))),
        (status = 400, description = "`bad_request`; `unknown_tag`: tags nothing declares", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release or role", body = ErrorBody),
        (status = 409, description = "`conflict`; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile", body = ErrorBody),
    )
)]
async fn put_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RoleTags>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let tags = request.tags;
    let version = change_release(&state, id, (&name, expected), &|level, known| {
        level.set_tags(&name, tags.clone(), known)
    })
    .await?;
    let view = release_view(&state, id, &name).await?;
    Ok(versions::with_etag(version, view))
}

/// Creates a role of one's own on the release.
#[utoipa::path(
    post,
    path = "/api/v1/releases/{id}/roles",
    operation_id = "create_release_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The release's id")),
    request_body = CreateRole,
    responses(
        (status = 201, description = "Created", body = RoleView, headers(("ETag" = String, description = "The role's version on this owner"))),
        (status = 400, description = "`bad_request`: a name outside `[a-z0-9_-]+`, unreadable limits; `unknown_tag`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
        (status = 409, description = "`conflict`: the name exists (declared or created); `busy`", body = ErrorBody),
    )
)]
async fn create_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateRole>,
) -> Result<(StatusCode, Response), ApiError> {
    let name = request.name.clone();
    let def = request.def();
    let version = change_release(&state, id, (&name, None), &|level, known| {
        level
            .create(&name, def.clone(), known)
            .map(|(_, layer)| layer)
    })
    .await?;
    let view = release_view(&state, id, &name).await?;
    Ok((StatusCode::CREATED, versions::with_etag(version, view)))
}

/// The nodes of every environment on release `id` that hold role `name`,
/// named with their environment.
async fn release_holders(state: &AppState, id: i64, name: &str) -> Result<Vec<String>, ApiError> {
    let snapshot = state.db.snapshot().await?;
    let mut holders = Vec::new();
    for stored in Stored::all_on_release(&snapshot, id)? {
        let env_name = stored.spec.name.clone();
        let env = stored.environment()?;
        holders.extend(
            env.holders(name)
                .into_iter()
                .map(|n| format!("{n} ({env_name})")),
        );
    }
    Ok(holders)
}

/// Undoes the release's change of a role (the level below shows again), or deletes a role created on it.
#[utoipa::path(
    delete,
    path = "/api/v1/releases/{id}/roles/{name}",
    operation_id = "reset_release_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The release's id"), ("name" = String, Path, description = "The role's name"),
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    responses(
        (status = 204, description = "Undone or deleted"),
        (status = 404, description = "`not_found`: no such release or role", body = ErrorBody),
        (status = 409, description = "`conflict`: nodes hold a created role (named), or the owner has no change of that role; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile", body = ErrorBody),
    )
)]
async fn delete_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let holders = release_holders(&state, id, &name).await?;
    change_release(&state, id, (&name, expected), &|level, _| {
        level.reset(&name, holders.clone())
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
