//! Nodes of an environment: create with roles, change roles (conflicts,
//! restrictions and plugins that are off checked by core against the
//! environment's settings), assign and unassign tags, the roles offered,
//! and the deployment plan.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use mosaic_core::api::{CreateNode, NodeTagsChange, NodeView, RoleView, UpdateNode};
use mosaic_core::environment::{Environment, TagProblem};
use mosaic_core::name::RoleName;
use mosaic_core::tag::NodeTags;
use mosaic_core::task::Plan;
use serde::Deserialize;

use super::error::{ApiError, ApiJson};
use super::tags::stored_environment;
use crate::AppState;
use crate::environment::Stored;

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

/// A node's environment and the node.
async fn node_context(state: &AppState, id: i64) -> Result<(Stored, NodeTags), ApiError> {
    let node = state
        .db
        .node(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))?;
    let stored = stored_environment(state, node.cluster_id).await?;
    Ok((stored, node.spec))
}

/// 400 `invalid_roles` with every problem of giving a node `roles`.
fn check_roles(env: &Environment<'_>, roles: &[RoleName]) -> Result<(), ApiError> {
    let problems: Vec<String> = env
        .role_errors(roles)
        .into_iter()
        .map(|e| e.message)
        .collect();
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

fn tag_problem(e: TagProblem) -> ApiError {
    match e {
        TagProblem::Unknown(_) => {
            ApiError::Coded(StatusCode::BAD_REQUEST, "unknown_tag", e.to_string())
        }
        TagProblem::NotCarried(_) => ApiError::NotFound(e.to_string()),
    }
}

/// The node `id` as the API shows it, after a change.
async fn view_of(state: &AppState, cluster_id: i64, id: i64) -> Result<NodeView, ApiError> {
    let stored = stored_environment(state, cluster_id).await?;
    stored
        .environment()?
        .node_views(cluster_id)
        .into_iter()
        .find(|n| n.id == id)
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))
}

async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<NodeView>>, ApiError> {
    let stored = stored_environment(&state, id).await?;
    Ok(Json(stored.environment()?.node_views(id)))
}

async fn create(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateNode>,
) -> Result<(StatusCode, Json<NodeView>), ApiError> {
    let stored = stored_environment(&state, id).await?;
    check_roles(&stored.environment()?, &request.roles)?;
    let name = request
        .name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    let spec = NodeTags {
        name,
        status: request.status.unwrap_or_default(),
        roles: request.roles,
        ..NodeTags::default()
    };
    let stored = state.db.insert_node(id, &spec).await?;
    Ok((
        StatusCode::CREATED,
        Json(view_of(&state, id, stored.spec.id).await?),
    ))
}

async fn show(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<NodeView>, ApiError> {
    let (stored, _) = node_context(&state, id).await?;
    Ok(Json(view_of(&state, stored.id(), id).await?))
}

async fn update(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<UpdateNode>,
) -> Result<Json<NodeView>, ApiError> {
    let (stored, mut spec) = node_context(&state, id).await?;
    if let Some(status) = request.status {
        spec.status = status;
    }
    if let Some(roles) = request.roles {
        check_roles(&stored.environment()?, &roles)?;
        spec.roles = roles;
    }
    if let Some(pending) = request.pending_deletion {
        spec.pending_deletion = pending;
    }
    state.db.update_node(&spec).await?;
    Ok(Json(view_of(&state, stored.id(), id).await?))
}

async fn tags(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (stored, _) = node_context(&state, id).await?;
    let view = view_of(&state, stored.id(), id).await?;
    Ok(Json(serde_json::json!({ "tags": view.tags })))
}

/// Adds known tags (or instances `name:N` of known ones) to the node.
async fn assign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Json<NodeView>, ApiError> {
    let (stored, spec) = node_context(&state, id).await?;
    let changed = stored
        .environment()?
        .add_tags(&spec, &change.tags)
        .map_err(tag_problem)?;
    state.db.update_node(&changed).await?;
    Ok(Json(view_of(&state, stored.id(), id).await?))
}

/// Removes tags from the node: hand-added ones are forgotten, role-derived
/// ones are recorded as removed.
async fn unassign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Json<NodeView>, ApiError> {
    let (stored, spec) = node_context(&state, id).await?;
    let changed = stored
        .environment()?
        .remove_tags(&spec, &change.tags)
        .map_err(tag_problem)?;
    state.db.update_node(&changed).await?;
    Ok(Json(view_of(&state, stored.id(), id).await?))
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
    let stored = stored_environment(&state, id).await?;
    Ok(Json(
        stored
            .environment()?
            .plan(query.graph.as_deref().unwrap_or("default")),
    ))
}

/// The roles the environment's nodes may take, each with why it cannot be
/// given now when it cannot: the release's and those of the enabled plugins,
/// hidden ones left out.
async fn roles(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<RoleView>>, ApiError> {
    let stored = stored_environment(&state, id).await?;
    Ok(Json(stored.environment()?.role_views()))
}
