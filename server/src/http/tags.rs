//! Tag CRUD on releases and environments (SEMANTICS §5): the merged list,
//! create (201), update `has_primary` (200), delete user-defined tags
//! (204); 400 for a bad name, 404 for an unknown tag, 409 for a duplicate,
//! for a tag a role names, and for tags the release plugin defines.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, put};
use axum::{Json, Router};
use mosaic_core::api::{CreateTag, TagView, UpdateTag};
use mosaic_core::environment::release_tag_views;
use mosaic_core::tag::valid_tag_name;

use super::error::{ApiError, ApiJson};
use crate::AppState;
use crate::db::TagOwner;
use crate::environment::{Stored, find_release};

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/releases/{id}/tags",
            get(list_release).post(create_release),
        )
        .route(
            "/api/v1/releases/{id}/tags/{name}",
            put(update_release).delete(delete_release),
        )
        .route(
            "/api/v1/clusters/{id}/tags",
            get(list_cluster).post(create_cluster),
        )
        .route(
            "/api/v1/clusters/{id}/tags/{name}",
            put(update_cluster).delete(delete_cluster),
        )
}

/// The merged view of `owner`'s tags.
async fn views(state: &AppState, owner: TagOwner) -> Result<Vec<TagView>, ApiError> {
    match owner {
        TagOwner::Release(id) => {
            let installed = state.db.plugins().await?;
            let release = find_release(&installed, id)
                .ok_or_else(|| ApiError::NotFound(format!("release {id} does not exist")))?;
            let user = state.db.user_tags(owner).await?;
            Ok(release_tag_views(release, &user))
        }
        TagOwner::Cluster(id) => Ok(stored_environment(state, id)
            .await?
            .environment()?
            .tag_views()),
    }
}

/// Environment `id` as stored, or 404.
pub(super) async fn stored_environment(state: &AppState, id: i64) -> Result<Stored, ApiError> {
    Stored::load(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))
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
        .insert_tag(owner, name, request.has_primary)
        .await?;
    let view = views(state, owner)
        .await?
        .into_iter()
        .find(|v| v.name == name)
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("tag '{name}' vanished")))?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A tag the owner did not create: 409 when it exists (the release plugin
/// or a role defines it), else 404.
fn not_own(existing: &[TagView], name: &str, what: &str) -> ApiError {
    match existing.iter().find(|v| v.name == name) {
        Some(v) => ApiError::Conflict(format!(
            "tag '{name}' is defined by the {} and cannot be {what} here",
            match v.source.as_str() {
                "role" => "release's roles",
                "plugin" => "plugin",
                "user" => "release",
                _ => "release plugin",
            }
        )),
        None => ApiError::NotFound(format!("tag '{name}' does not exist")),
    }
}

async fn update(
    state: &AppState,
    owner: TagOwner,
    name: &str,
    request: UpdateTag,
) -> Result<Json<TagView>, ApiError> {
    let existing = views(state, owner).await?;
    if !state
        .db
        .update_tag(owner, name, request.has_primary)
        .await?
    {
        return Err(not_own(&existing, name, "changed"));
    }
    let view = views(state, owner)
        .await?
        .into_iter()
        .find(|v| v.name == name)
        .ok_or_else(|| ApiError::NotFound(format!("tag '{name}' does not exist")))?;
    Ok(Json(view))
}

async fn delete(state: &AppState, owner: TagOwner, name: &str) -> Result<StatusCode, ApiError> {
    let existing = views(state, owner).await?;
    match existing.iter().find(|v| v.name == name) {
        Some(v) if v.deletable => {
            state.db.delete_tag(owner, name).await?;
            Ok(StatusCode::NO_CONTENT)
        }
        Some(v) if v.source == "user" || v.source == "environment" => Err(ApiError::Conflict(
            format!("tag '{name}' is named by a role's tags and cannot be deleted"),
        )),
        _ => Err(not_own(&existing, name, "deleted")),
    }
}

async fn list_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<TagView>>, ApiError> {
    Ok(Json(views(&state, TagOwner::Release(id)).await?))
}

async fn create_release(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateTag>,
) -> Result<(StatusCode, Json<TagView>), ApiError> {
    create(&state, TagOwner::Release(id), request).await
}

async fn update_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    ApiJson(request): ApiJson<UpdateTag>,
) -> Result<Json<TagView>, ApiError> {
    update(&state, TagOwner::Release(id), &name, request).await
}

async fn delete_release(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<StatusCode, ApiError> {
    delete(&state, TagOwner::Release(id), &name).await
}

async fn list_cluster(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<TagView>>, ApiError> {
    Ok(Json(views(&state, TagOwner::Cluster(id)).await?))
}

async fn create_cluster(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateTag>,
) -> Result<(StatusCode, Json<TagView>), ApiError> {
    stored_environment(&state, id).await?;
    create(&state, TagOwner::Cluster(id), request).await
}

async fn update_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
    ApiJson(request): ApiJson<UpdateTag>,
) -> Result<Json<TagView>, ApiError> {
    update(&state, TagOwner::Cluster(id), &name, request).await
}

async fn delete_cluster(
    State(state): State<AppState>,
    Path((id, name)): Path<(i64, String)>,
) -> Result<StatusCode, ApiError> {
    delete(&state, TagOwner::Cluster(id), &name).await
}
