//! Tag CRUD on releases and environments (SEMANTICS §5): the merged list,
//! create (201), update `has_primary` (200), delete user-defined tags
//! (204); 400 for a bad name, 404 for an unknown tag, 409 for a duplicate,
//! for a tag a role names, and for tags the release plugin defines.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mosaic_core::api::{CreateTag, ErrorBody, TagView, UpdateTag};
use mosaic_core::environment::{
    NamedTags, TagRefusal, carriers, check_tag_deletion, count_carriers, not_own, release_tag_views,
};
use mosaic_core::tag::{TagMeta, valid_tag_name};

use super::lookup::stored_environment;
use crate::AppState;
use crate::db::TagOwner;
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_release, create_release))
        .routes(routes!(update_release, delete_release))
        .routes(routes!(list_cluster, create_cluster))
        .routes(routes!(update_cluster, delete_cluster))
}

/// The merged view of `owner`'s tags.
async fn views(state: &AppState, owner: TagOwner) -> Result<Vec<TagView>, ApiError> {
    Ok(reach(state, owner).await?.0)
}

/// `owner`'s merged tag view (with node counts) and the nodes in its reach
/// with their effective tags, read once: the environment's nodes, or every
/// environment's on the release (then named with their environment).
async fn reach(
    state: &AppState,
    owner: TagOwner,
) -> Result<(Vec<TagView>, Vec<NamedTags>), ApiError> {
    match owner {
        TagOwner::Release(id) => {
            let snapshot = state.db.snapshot().await?;
            let release = snapshot
                .plugins
                .iter()
                .find_map(|p| p.releases().find(|(rid, _)| *rid == id))
                .map(|(_, r)| r)
                .ok_or_else(|| ApiError::NotFound(format!("release {id} does not exist")))?;
            let mut nodes = Vec::new();
            for stored in Stored::all_on_release(&snapshot, id)? {
                let env_name = &stored.spec.name;
                let named = stored.environment()?.named_tags();
                nodes.extend(
                    named
                        .into_iter()
                        .map(|(n, tags)| (format!("{n} ({env_name})"), tags)),
                );
            }
            let mut views =
                release_tag_views(release, &snapshot.tags_of(owner), &snapshot.roles_of(owner));
            count_carriers(&mut views, &nodes);
            Ok((views, nodes))
        }
        TagOwner::Cluster(id) => {
            let stored = stored_environment(state, id).await?;
            let env = stored.environment()?;
            let nodes = env.named_tags();
            Ok((env.tag_views_over(&nodes), nodes))
        }
    }
}

async fn create(
    state: &AppState,
    owner: TagOwner,
    request: CreateTag,
) -> Result<(StatusCode, Json<TagView>), ApiError> {
    let name = request.name.trim();
    if !valid_tag_name(name) {
        return Err(ApiError::BadRequest(format!(
            "name: '{name}' is not a tag name (letters, digits, '_' and '-')"
        )));
    }
    if views(state, owner).await?.iter().any(|v| v.name == name) {
        return Err(ApiError::Conflict(format!("tag '{name}' already exists")));
    }
    state
        .db
        .insert_tag(owner, name, meta(request.has_primary, request.instances)?)
        .await?;
    let view = views(state, owner)
        .await?
        .into_iter()
        .find(|v| v.name == name)
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("tag '{name}' vanished")))?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn update(
    state: &AppState,
    owner: TagOwner,
    name: &str,
    request: UpdateTag,
) -> Result<Json<TagView>, ApiError> {
    let existing = views(state, owner).await?;
    let instances = request.instances.unwrap_or_else(|| {
        existing
            .iter()
            .find(|v| v.name == name)
            .and_then(|v| v.instances)
    });
    if !state
        .db
        .update_tag(owner, name, meta(request.has_primary, instances)?)
        .await?
    {
        return Err(refused(not_own(&existing, name, "changed")));
    }
    let view = views(state, owner)
        .await?
        .into_iter()
        .find(|v| v.name == name)
        .ok_or_else(|| ApiError::NotFound(format!("tag '{name}' does not exist")))?;
    Ok(Json(view))
}

async fn delete(state: &AppState, owner: TagOwner, name: &str) -> Result<StatusCode, ApiError> {
    let (existing, nodes) = reach(state, owner).await?;
    check_tag_deletion(&existing, name, carriers(&nodes, name)).map_err(refused)?;
    state.db.delete_tag(owner, name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A tag's metadata as asked: `instances`, when given, is at least 1.
fn meta(has_primary: bool, instances: Option<u32>) -> Result<TagMeta, ApiError> {
    if instances == Some(0) {
        return Err(ApiError::BadRequest(
            "instances: a tag has at least 1 instance (leave it out for none)".to_owned(),
        ));
    }
    Ok(TagMeta {
        has_primary,
        instances,
    })
}

fn refused(refusal: TagRefusal) -> ApiError {
    match refusal {
        TagRefusal::NotFound(_) => ApiError::NotFound(refusal.to_string()),
        _ => ApiError::Conflict(refusal.to_string()),
    }
}

/// The release's tags, merged, each with where it is declared and how many nodes carry it.
#[utoipa::path(
    get,
    path = "/api/v1/releases/{id}/tags",
    operation_id = "list_release_tags",
    tag = "tags",
    params(("id" = i64, Path, description = "The release's id")),
    responses(
        (status = 200, description = "The merged list", body = Vec<TagView>),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
    )
)]
async fn list_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<TagView>>, ApiError> {
    Ok(Json(views(&state, TagOwner::Release(id)).await?))
}

/// Creates a tag on the release.
#[utoipa::path(
    post,
    path = "/api/v1/releases/{id}/tags",
    operation_id = "create_release_tag",
    tag = "tags",
    params(("id" = i64, Path, description = "The release's id")),
    request_body = CreateTag,
    responses(
        (status = 201, description = "Created", body = TagView),
        (status = 400, description = "`bad_request`: a name outside `[A-Za-z0-9_-]+`, or 0 instances", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release", body = ErrorBody),
        (status = 409, description = "`conflict`: the name exists", body = ErrorBody),
    )
)]
async fn create_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateTag>,
) -> Result<(StatusCode, Json<TagView>), ApiError> {
    create(&state, TagOwner::Release(id), request).await
}

/// Changes a tag created on the release: `has_primary`, and `instances` (absent: unchanged; `null`: none).
#[utoipa::path(
    put,
    path = "/api/v1/releases/{id}/tags/{name}",
    operation_id = "update_release_tag",
    tag = "tags",
    params(("id" = i64, Path, description = "The release's id"), ("name" = String, Path, description = "The tag's name")),
    request_body = UpdateTag,
    responses(
        (status = 200, description = "Changed", body = TagView),
        (status = 400, description = "`bad_request`: 0 instances", body = ErrorBody),
        (status = 404, description = "`not_found`: no such release or tag", body = ErrorBody),
        (status = 409, description = "`conflict`: a tag the release, its plugin or a plugin defines", body = ErrorBody),
    )
)]
async fn update_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    ApiJson(request): ApiJson<UpdateTag>,
) -> Result<Json<TagView>, ApiError> {
    update(&state, TagOwner::Release(id), &name, request).await
}

/// Deletes a tag created on the release that no role names and no node carries.
#[utoipa::path(
    delete,
    path = "/api/v1/releases/{id}/tags/{name}",
    operation_id = "delete_release_tag",
    tag = "tags",
    params(("id" = i64, Path, description = "The release's id"), ("name" = String, Path, description = "The tag's name")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "`not_found`: no such release or tag", body = ErrorBody),
        (status = 409, description = "`conflict`: a tag a role names, that the release did not create, or that nodes carry (named)", body = ErrorBody),
    )
)]
async fn delete_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<StatusCode, ApiError> {
    delete(&state, TagOwner::Release(id), &name).await
}

/// The environment's tags, merged, each with where it is declared and how many nodes carry it.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/tags",
    operation_id = "list_cluster_tags",
    tag = "tags",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The merged list", body = Vec<TagView>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn list_cluster(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<TagView>>, ApiError> {
    Ok(Json(views(&state, TagOwner::Cluster(id)).await?))
}

/// Creates a tag on the environment.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/tags",
    operation_id = "create_cluster_tag",
    tag = "tags",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = CreateTag,
    responses(
        (status = 201, description = "Created", body = TagView),
        (status = 400, description = "`bad_request`: a name outside `[A-Za-z0-9_-]+`, or 0 instances", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`conflict`: the name exists", body = ErrorBody),
    )
)]
async fn create_cluster(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateTag>,
) -> Result<(StatusCode, Json<TagView>), ApiError> {
    stored_environment(&state, id).await?;
    create(&state, TagOwner::Cluster(id), request).await
}

/// Changes a tag created on the environment: `has_primary`, and `instances` (absent: unchanged; `null`: none).
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/tags/{name}",
    operation_id = "update_cluster_tag",
    tag = "tags",
    params(("id" = i64, Path, description = "The environment's id"), ("name" = String, Path, description = "The tag's name")),
    request_body = UpdateTag,
    responses(
        (status = 200, description = "Changed", body = TagView),
        (status = 400, description = "`bad_request`: 0 instances", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment or tag", body = ErrorBody),
        (status = 409, description = "`conflict`: a tag the release, its plugin or a plugin defines", body = ErrorBody),
    )
)]
async fn update_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    ApiJson(request): ApiJson<UpdateTag>,
) -> Result<Json<TagView>, ApiError> {
    update(&state, TagOwner::Cluster(id), &name, request).await
}

/// Deletes a tag created on the environment that no role names and no node carries.
#[utoipa::path(
    delete,
    path = "/api/v1/clusters/{id}/tags/{name}",
    operation_id = "delete_cluster_tag",
    tag = "tags",
    params(("id" = i64, Path, description = "The environment's id"), ("name" = String, Path, description = "The tag's name")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "`not_found`: no such environment or tag", body = ErrorBody),
        (status = 409, description = "`conflict`: a tag a role names, that the environment did not create, or that nodes carry (named)", body = ErrorBody),
    )
)]
async fn delete_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<StatusCode, ApiError> {
    delete(&state, TagOwner::Cluster(id), &name).await
}
