//! Nodes of an environment: create with roles, change roles (conflicts and
//! restrictions checked), assign and unassign tags, and the deployment
//! plan of the environment.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use mosaic_core::api::{CreateNode, NodeTagsChange, NodeView, RoleView, UpdateNode};
use mosaic_core::tag::NodeTags;
use mosaic_core::task::Plan;
use serde::Deserialize;

use super::error::{ApiError, ApiJson};
use super::tags::environment;
use crate::AppState;
use crate::environment::Environment;

const STATUSES: &[&str] = &["discover", "provisioned", "ready", "error"];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/clusters/{id}/nodes", get(list).post(create))
        .route("/api/v1/clusters/{id}/plan", get(plan))
        .route("/api/v1/clusters/{id}/roles", get(roles))
        .route("/api/v1/nodes/{id}", get(show).put(update))
        .route(
            "/api/v1/nodes/{id}/tags",
            get(tags).post(assign).delete(unassign),
        )
}

/// The environment and the roles its nodes may take (release and
/// compatible plugins).
async fn context(
    state: &AppState,
    cluster_id: i64,
) -> Result<(Environment, serde_json::Value), ApiError> {
    let env = environment(state, cluster_id).await?;
    let plugins = state.db.plugins().await?;
    let roles = env.assignable_roles(&plugins);
    Ok((env, roles))
}

async fn node_context(
    state: &AppState,
    id: i64,
) -> Result<(Environment, serde_json::Value, NodeTags), ApiError> {
    let node = state
        .db
        .node(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))?;
    let (env, roles) = context(state, node.cluster_id).await?;
    Ok((env, roles, node.spec))
}

fn check_status(status: &str) -> Result<(), ApiError> {
    if STATUSES.contains(&status) {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "status: '{status}' is not one of {}",
            STATUSES.join(", ")
        )))
    }
}

fn check_roles(
    env: &Environment,
    roles_metadata: &serde_json::Value,
    roles: &[String],
) -> Result<(), ApiError> {
    let problems = env.role_problems(roles_metadata, roles).map_err(|e| {
        ApiError::Internal(anyhow::anyhow!(
            "roles of release '{}': {e}",
            env.release.name
        ))
    })?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Coded(
            StatusCode::BAD_REQUEST,
            "invalid_roles",
            problems.join(" "),
        ))
    }
}

/// The node `id` as the API shows it, after a change.
async fn view_of(state: &AppState, cluster_id: i64, id: i64) -> Result<NodeView, ApiError> {
    let (env, roles) = context(state, cluster_id).await?;
    env.node_views(&roles)
        .into_iter()
        .find(|n| n.id == id)
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))
}

async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<NodeView>>, ApiError> {
    let (env, roles) = context(&state, id).await?;
    Ok(Json(env.node_views(&roles)))
}

async fn create(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateNode>,
) -> Result<(StatusCode, Json<NodeView>), ApiError> {
    let (env, roles) = context(&state, id).await?;
    let status = request.status.unwrap_or_else(|| "discover".to_owned());
    check_status(&status)?;
    check_roles(&env, &roles, &request.roles)?;
    let spec = NodeTags {
        status,
        roles: request.roles,
        ..NodeTags::default()
    };
    let stored = state
        .db
        .insert_node(id, request.name.as_deref(), &spec)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(view_of(&state, id, stored.spec.id).await?),
    ))
}

async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<NodeView>, ApiError> {
    let (env, _, _) = node_context(&state, id).await?;
    Ok(Json(view_of(&state, env.cluster.id, id).await?))
}

async fn update(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<UpdateNode>,
) -> Result<Json<NodeView>, ApiError> {
    let (env, roles, mut spec) = node_context(&state, id).await?;
    if let Some(status) = request.status {
        check_status(&status)?;
        spec.status = status;
    }
    if let Some(new_roles) = request.roles {
        check_roles(&env, &roles, &new_roles)?;
        spec.roles = new_roles;
    }
    if let Some(pending) = request.pending_deletion {
        spec.pending_deletion = pending;
    }
    state.db.update_node(&spec).await?;
    Ok(Json(view_of(&state, env.cluster.id, id).await?))
}

async fn tags(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (env, _, _) = node_context(&state, id).await?;
    let view = view_of(&state, env.cluster.id, id).await?;
    Ok(Json(serde_json::json!({ "tags": view.tags })))
}

/// Adds known tags (or instances `name:N` of known ones) to the node.
async fn assign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Json<NodeView>, ApiError> {
    let (env, roles, mut spec) = node_context(&state, id).await?;
    let unknown: Vec<&String> = change
        .tags
        .iter()
        .filter(|t| !env.knows_tag(t, &roles))
        .collect();
    if !unknown.is_empty() {
        return Err(ApiError::Coded(
            StatusCode::BAD_REQUEST,
            "unknown_tag",
            format!(
                "unknown tag{} {}: create {} on the release or the environment first",
                if unknown.len() == 1 { "" } else { "s" },
                unknown
                    .iter()
                    .map(|t| format!("'{t}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if unknown.len() == 1 { "it" } else { "them" }
            ),
        ));
    }
    let derived =
        mosaic_core::tag::derived_tags(&spec, &mosaic_core::environment::role_tags(&roles));
    for tag in change.tags {
        spec.tags_removed.retain(|t| t != &tag);
        if !derived.contains(&tag) && !spec.tags_added.contains(&tag) {
            spec.tags_added.push(tag);
        }
    }
    state.db.update_node(&spec).await?;
    Ok(Json(view_of(&state, env.cluster.id, id).await?))
}

/// Removes tags from the node: hand-added ones are forgotten, role-derived
/// ones are recorded as removed.
async fn unassign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Json<NodeView>, ApiError> {
    let (env, roles, mut spec) = node_context(&state, id).await?;
    let derived =
        mosaic_core::tag::derived_tags(&spec, &mosaic_core::environment::role_tags(&roles));
    for tag in &change.tags {
        let added = spec.tags_added.contains(tag);
        if !added && !derived.contains(tag) {
            return Err(ApiError::NotFound(format!(
                "node {id} does not have tag '{tag}'"
            )));
        }
        spec.tags_added.retain(|t| t != tag);
        if derived.contains(tag) && !spec.tags_removed.contains(tag) {
            spec.tags_removed.push(tag.clone());
        }
    }
    state.db.update_node(&spec).await?;
    Ok(Json(view_of(&state, env.cluster.id, id).await?))
}

#[derive(Debug, Deserialize)]
struct PlanQuery {
    graph: Option<String>,
}

async fn plan(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<PlanQuery>,
) -> Result<Json<Plan>, ApiError> {
    let env = environment(&state, id).await?;
    Ok(Json(env.plan(query.graph.as_deref().unwrap_or("default"))))
}

/// The roles the environment's nodes may take: the release's and those of
/// compatible extension plugins.
async fn roles(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<RoleView>>, ApiError> {
    let (_, roles) = context(&state, id).await?;
    let tags = mosaic_core::environment::role_tags(&roles);
    let views = roles
        .as_object()
        .into_iter()
        .flatten()
        .map(|(role, meta)| RoleView {
            id: role.clone(),
            name: meta["name"].as_str().unwrap_or(role).to_owned(),
            description: meta["description"].as_str().unwrap_or_default().to_owned(),
            tags: tags.get(role).cloned().unwrap_or_default(),
        })
        .collect();
    Ok(Json(views))
}
