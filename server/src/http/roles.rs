//! Roles over time (SEMANTICS §5.1) on releases and environments: a role's
//! tags replaced (`PUT`, 200), the change undone (`DELETE`, 200) or a role
//! of one's own deleted (204), roles created (`POST`, 201); the release's
//! roles listed (`GET`; an environment's are listed with its nodes). 400
//! for a bad name and `unknown_tag`, 404 for an unknown role, 409 for a
//! name taken, a role nodes hold and one a release or plugin declares.
//!
//! A change reaches every node holding the role in its transaction: the
//! instance tags the new set calls for are assigned, those it no longer
//! brings removed — on the environment, or on every environment of the
//! release — and the answer counts them (`instance_tags`). `?dry_run=true`
//! answers the same and stores nothing.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use mosaic_core::api::{
    CreateRole, ErrorBody, ErrorCode, InstanceTagChanges, RoleChanged, RoleTags, RoleView,
};
use mosaic_core::environment::{Environment, ReleaseRoles, Spec};
use mosaic_core::name::TagName;
use mosaic_core::role_layer::{LevelView, RoleLayer, RoleRefusal};

use super::components::Options;
use super::versions;
use crate::AppState;
use crate::db::{RolesSeen, Seen, TagOwner, version_of};
use crate::environment::{ReleaseBase, Stored};
use crate::error::{ApiError, ApiJson};
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

/// What a change of one role came to: the role as its owner now shows it
/// (none: it was deleted), the instance tags it gave and took, and the
/// version of its row (none for a dry run: nothing was stored).
struct Outcome {
    view: Option<RoleView>,
    instances: InstanceTagChanges,
    version: Option<i64>,
}

impl Outcome {
    /// `status` and the role with the instance tags' counts, its version
    /// as the `ETag`; 204 when the role is gone.
    fn answer(self, status: StatusCode) -> Response {
        let Some(role) = self.view else {
            return StatusCode::NO_CONTENT.into_response();
        };
        let body = RoleChanged {
            role,
            instance_tags: self.instances,
        };
        let answer = match self.version {
            Some(version) => versions::with_etag(version, body),
            None => Json(body).into_response(),
        };
        (status, answer).into_response()
    }
}

/// What a change of an environment's roles makes of its layer.
type EnvChange<'c> =
    dyn Fn(&Environment<'_>, LevelView<'_>) -> Result<RoleLayer, RoleRefusal> + Send + Sync + 'c;

/// Changes environment `id`'s roles with `change` in one transaction with
/// its nodes: the nodes holding role `name` get the instance tags the new
/// set calls for and lose those it no longer brings.
async fn change_cluster(
    state: &AppState,
    id: i64,
    (name, expected, dry_run): (&str, Option<&Seen>, bool),
    change: &EnvChange<'_>,
) -> Result<Outcome, ApiError> {
    let installed = state.db.plugins().await?;
    let mut outcome = None;
    let versions = state
        .db
        .change_roles(
            TagOwner::Cluster(id),
            (expected.map(|seen| (name, seen)), dry_run),
            |seen: RolesSeen| {
                let rows = seen.environments.into_iter().next();
                let rows = rows.ok_or_else(|| ApiError::NotFound(format!("environment {id}")))?;
                let stored =
                    Stored::from_rows(&installed, rows, seen.release_tags, seen.release_roles)?;
                let env = stored.environment()?;
                let layer = change(&env, env.role_level()).map_err(refused)?;
                let spec = Spec {
                    roles: layer.clone(),
                    ..stored.spec.clone()
                };
                let after = stored.with_spec(&spec)?;
                let (nodes, instances) = after.reassign_instances(name);
                outcome = Some((after.role_view(name), instances));
                Ok::<_, ApiError>((layer, nodes))
            },
        )
        .await?;
    let (view, instances) = outcome.expect("the change ran");
    Ok(Outcome {
        view,
        instances,
        version: (!dry_run).then(|| version_of(&versions, name)),
    })
}

/// Replaces a role's tag set on the environment; every node holding it follows.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/roles/{name}",
    operation_id = "set_cluster_role_tags",
    tag = "roles",
    params(("id" = i64, Path, description = "The environment's id"), ("name" = String, Path, description = "The role's name"), Options,
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    request_body = RoleTags,
    responses(
        (status = 200, description = "The role as the environment's list shows it, and what the change did to the instance tags of the nodes holding it (`instance_tags`); with `dry_run`, what it would do, nothing stored", body = RoleChanged, headers(("ETag" = String, description = "The role's version on this owner (none on a dry run)"))),
        (status = 400, description = "`bad_request`; `unknown_tag`: tags nothing declares", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment or role", body = ErrorBody),
        (status = 409, description = "`conflict`; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile, or `If-Match` names a tag never issued", body = ErrorBody),
    )
)]
async fn put_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    Query(options): Query<Options>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RoleTags>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let tags = request.tags;
    let how = (name.as_str(), expected.as_ref(), options.dry_run);
    let outcome = change_cluster(&state, id, how, &|env, level| {
        level.set_tags(&name, tags.clone(), |t| env.knows_tag(t))
    })
    .await?;
    Ok(outcome.answer(StatusCode::OK))
}

/// Creates a role of one's own on the environment.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/roles",
    operation_id = "create_cluster_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The environment's id"), Options),
    request_body = CreateRole,
    responses(
        (status = 201, description = "Created: the role, and the instance tags it gave (`instance_tags`); with `dry_run`, what it would do, nothing stored", body = RoleChanged, headers(("ETag" = String, description = "The role's version on this owner (none on a dry run)"))),
        (status = 400, description = "`bad_request`: a name outside `[a-z0-9_-]+`, unreadable limits; `unknown_tag`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`conflict`: the name exists (declared or created); `busy`", body = ErrorBody),
    )
)]
async fn create_cluster(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(options): Query<Options>,
    ApiJson(request): ApiJson<CreateRole>,
) -> Result<Response, ApiError> {
    let name = request.name.clone();
    let def = request.def();
    let how = (name.as_str(), None, options.dry_run);
    let outcome = change_cluster(&state, id, how, &|env, level| {
        level
            .create(&name, def.clone(), |t| env.knows_tag(t))
            .map(|(_, layer)| layer)
    })
    .await?;
    Ok(outcome.answer(StatusCode::CREATED))
}

/// Undoes the environment's change of a role (the level below shows again), or deletes a role created on it.
#[utoipa::path(
    delete,
    path = "/api/v1/clusters/{id}/roles/{name}",
    operation_id = "reset_cluster_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The environment's id"), ("name" = String, Path, description = "The role's name"), Options,
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    responses(
        (status = 200, description = "Undone: the role as the level below has it, and what that did to the instance tags of the nodes holding it (`instance_tags`); with `dry_run`, nothing stored", body = RoleChanged, headers(("ETag" = String, description = "The role's version on this owner (none on a dry run)"))),
        (status = 204, description = "A role created here, deleted"),
        (status = 404, description = "`not_found`: no such environment or role", body = ErrorBody),
        (status = 409, description = "`conflict`: nodes hold a created role (named), or the owner has no change of that role; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile, or `If-Match` names a tag never issued", body = ErrorBody),
    )
)]
async fn delete_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    Query(options): Query<Options>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let how = (name.as_str(), expected.as_ref(), options.dry_run);
    let outcome = change_cluster(&state, id, how, &|env, level| {
        level.reset(&name, env.holders(&name))
    })
    .await?;
    Ok(outcome.answer(StatusCode::OK))
}

/// Release `id`'s base, or 404.
async fn release_base(state: &AppState, id: i64) -> Result<Arc<ReleaseBase>, ApiError> {
    let installed = state.db.plugins().await?;
    // A release's own view: the newest compatible version of each plugin.
    ReleaseBase::shared(&installed, id, &mosaic_core::plugin::Pins::new())?
        .ok_or_else(|| ApiError::NotFound(format!("release {id} does not exist")))
}

/// What a change of a release's roles makes of its layer, given a tag's
/// being known and the nodes (of every environment on the release) that
/// hold the role changed, named with their environment.
type ReleaseChange<'c> = dyn Fn(LevelView<'_>, &dyn Fn(&TagName) -> bool, Vec<String>) -> Result<RoleLayer, RoleRefusal>
    + Send
    + Sync
    + 'c;

/// Changes release `id`'s roles with `change` in one transaction with the
/// nodes of every environment on it: those holding role `name` get the
/// instance tags the new set calls for and lose those it no longer brings.
async fn change_release(
    state: &AppState,
    id: i64,
    (name, expected, dry_run): (&str, Option<&Seen>, bool),
    change: &ReleaseChange<'_>,
) -> Result<Outcome, ApiError> {
    let base = release_base(state, id).await?;
    let installed = state.db.plugins().await?;
    let mut outcome = None;
    let versions = state
        .db
        .change_roles(
            TagOwner::Release(id),
            (expected.map(|seen| (name, seen)), dry_run),
            |seen: RolesSeen| {
                let roles = ReleaseRoles::new(&base.foundation, &seen.layer);
                let tags = &seen.release_tags;
                let known = |t: &TagName| roles.knows_tag(&base.release, &base.plugins, tags, t);
                let mut all = Vec::new();
                for rows in seen.environments {
                    let (tags, layer) = (tags.clone(), seen.layer.clone());
                    all.push(Stored::from_rows(&installed, rows, tags, layer)?);
                }
                let holders = release_holders(&all, name)?;
                let layer = change(roles.level(), &known, holders).map_err(refused)?;
                let (mut nodes, mut instances, mut held) =
                    (Vec::new(), InstanceTagChanges::default(), 0);
                for stored in &mut all {
                    stored.release_roles = layer.clone();
                    let after = stored.environment()?;
                    let (changed, counts) = after.reassign_instances(name);
                    held += after.holder_ids(name).len();
                    nodes.extend(changed);
                    instances.add(counts);
                }
                let view = ReleaseRoles::new(&base.foundation, &layer)
                    .views()
                    .into_iter()
                    .find(|r| r.id == name)
                    .map(|view| RoleView {
                        nodes: held,
                        ..view
                    });
                outcome = Some((view, instances));
                Ok::<_, ApiError>((layer, nodes))
            },
        )
        .await?;
    let (view, instances) = outcome.expect("the change ran");
    Ok(Outcome {
        view,
        instances,
        version: (!dry_run).then(|| version_of(&versions, name)),
    })
}

/// The nodes of `all` (the environments on a release) that hold role
/// `name`, named with their environment: `node-3 (prod)`.
fn release_holders(all: &[Stored], name: &str) -> Result<Vec<String>, ApiError> {
    let mut holders = Vec::new();
    for stored in all {
        let env_name = &stored.spec.name;
        let env = stored.environment()?;
        holders.extend(
            env.holders(name)
                .into_iter()
                .map(|n| format!("{n} ({env_name})")),
        );
    }
    Ok(holders)
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
    params(("id" = i64, Path, description = "The release's id"), ("name" = String, Path, description = "The role's name"), Options,
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    request_body = RoleTags,
    responses(
        (status = 200, description = "The role as the release's list shows it, and what the change did to the instance tags of the nodes holding it (`instance_tags`); with `dry_run`, what it would do, nothing stored", body = RoleChanged, headers(("ETag" = String, description = "The role's version on this owner (none on a dry run)"))),
        (status = 400, description = "`bad_request`; `unknown_tag`: tags nothing declares", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release or role", body = ErrorBody),
        (status = 409, description = "`conflict`; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile, or `If-Match` names a tag never issued", body = ErrorBody),
    )
)]
async fn put_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    Query(options): Query<Options>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RoleTags>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let tags = request.tags;
    let how = (name.as_str(), expected.as_ref(), options.dry_run);
    let outcome = change_release(&state, id, how, &|level, known, _| {
        level.set_tags(&name, tags.clone(), known)
    })
    .await?;
    Ok(outcome.answer(StatusCode::OK))
}

/// Creates a role of one's own on the release.
#[utoipa::path(
    post,
    path = "/api/v1/releases/{id}/roles",
    operation_id = "create_release_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The release's id"), Options),
    request_body = CreateRole,
    responses(
        (status = 201, description = "Created: the role, and the instance tags it gave (`instance_tags`); with `dry_run`, what it would do, nothing stored", body = RoleChanged, headers(("ETag" = String, description = "The role's version on this owner (none on a dry run)"))),
        (status = 400, description = "`bad_request`: a name outside `[a-z0-9_-]+`, unreadable limits; `unknown_tag`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
        (status = 409, description = "`conflict`: the name exists (declared or created); `busy`", body = ErrorBody),
    )
)]
async fn create_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(options): Query<Options>,
    ApiJson(request): ApiJson<CreateRole>,
) -> Result<Response, ApiError> {
    let name = request.name.clone();
    let def = request.def();
    let how = (name.as_str(), None, options.dry_run);
    let outcome = change_release(&state, id, how, &|level, known, _| {
        level
            .create(&name, def.clone(), known)
            .map(|(_, layer)| layer)
    })
    .await?;
    Ok(outcome.answer(StatusCode::CREATED))
}

/// Undoes the release's change of a role (the level below shows again), or deletes a role created on it.
#[utoipa::path(
    delete,
    path = "/api/v1/releases/{id}/roles/{name}",
    operation_id = "reset_release_role",
    tag = "roles",
    params(("id" = i64, Path, description = "The release's id"), ("name" = String, Path, description = "The role's name"), Options,
        ("If-Match" = Option<String>, Header, description = "The role's version on this owner (its `ETag`): 412 when it changed meanwhile")),
    responses(
        (status = 200, description = "Undone: the role as the level below has it, and what that did to the instance tags of the nodes holding it (`instance_tags`); with `dry_run`, nothing stored", body = RoleChanged, headers(("ETag" = String, description = "The role's version on this owner (none on a dry run)"))),
        (status = 204, description = "A role created here, deleted"),
        (status = 404, description = "`not_found`: no such release or role", body = ErrorBody),
        (status = 409, description = "`conflict`: nodes hold a created role (named), or the owner has no change of that role; `busy`", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: the role changed on this owner meanwhile, or `If-Match` names a tag never issued", body = ErrorBody),
    )
)]
async fn delete_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    Query(options): Query<Options>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "role")?;
    let how = (name.as_str(), expected.as_ref(), options.dry_run);
    let outcome = change_release(&state, id, how, &|level, _, holders| {
        level.reset(&name, holders)
    })
    .await?;
    Ok(outcome.answer(StatusCode::OK))
}
