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
        .route("/api/v1/clusters/{id}/environment", get(export))
        .route("/api/v1/clusters/import", axum::routing::post(import))
        .route("/api/v1/nodes/{id}", get(show).put(update))
        .route(
            "/api/v1/nodes/{id}/tags",
            get(tags).post(assign).delete(unassign),
        )
}

/// A node's environment and the node.
async fn node_context(state: &AppState, id: i64) -> Result<(Environment, NodeTags), ApiError> {
    let node = state
        .db
        .node(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))?;
    let env = environment(state, node.cluster_id).await?;
    Ok((env, node.spec))
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

fn check_roles(env: &Environment, roles: &[String]) -> Result<(), ApiError> {
    let problems = env.role_problems(roles).map_err(|e| {
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
    let env = environment(state, cluster_id).await?;
    env.node_views()
        .into_iter()
        .find(|n| n.id == id)
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))
}

async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<NodeView>>, ApiError> {
    Ok(Json(environment(&state, id).await?.node_views()))
}

async fn create(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateNode>,
) -> Result<(StatusCode, Json<NodeView>), ApiError> {
    let env = environment(&state, id).await?;
    let status = request.status.unwrap_or_else(|| "discover".to_owned());
    check_status(&status)?;
    check_roles(&env, &request.roles)?;
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
    let (env, _) = node_context(&state, id).await?;
    Ok(Json(view_of(&state, env.cluster.id, id).await?))
}

async fn update(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<UpdateNode>,
) -> Result<Json<NodeView>, ApiError> {
    let (env, mut spec) = node_context(&state, id).await?;
    if let Some(status) = request.status {
        check_status(&status)?;
        spec.status = status;
    }
    if let Some(new_roles) = request.roles {
        check_roles(&env, &new_roles)?;
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
    let (env, _) = node_context(&state, id).await?;
    let view = view_of(&state, env.cluster.id, id).await?;
    Ok(Json(serde_json::json!({ "tags": view.tags })))
}

/// Adds known tags (or instances `name:N` of known ones) to the node.
async fn assign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Json<NodeView>, ApiError> {
    let (env, mut spec) = node_context(&state, id).await?;
    let unknown: Vec<&String> = change.tags.iter().filter(|t| !env.knows_tag(t)).collect();
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
    let derived = mosaic_core::tag::derived_tags(
        &spec,
        &mosaic_core::environment::role_tags(&env.roles_metadata),
    );
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
    let (env, mut spec) = node_context(&state, id).await?;
    let derived = mosaic_core::tag::derived_tags(
        &spec,
        &mosaic_core::environment::role_tags(&env.roles_metadata),
    );
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
    let roles = environment(&state, id).await?.roles_metadata;
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

/// The environment as an environment file (docs/environment-file.md): the
/// release by `release_name`, enabled plugins by name, its own tags and
/// its nodes.
async fn export(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl axum::response::IntoResponse, ApiError> {
    let env = environment(&state, id).await?;
    let mut file = env.file();
    file.release_name = Some(env.release.name.clone());
    file.plugins = env.plugins.iter().map(|p| p.name.clone()).collect();
    file.tags_metadata = serde_json::Value::Object(
        env.cluster_tags
            .iter()
            .map(|(name, primary)| (name.clone(), serde_json::json!({ "has_primary": primary })))
            .collect(),
    );
    let text = serde_yaml::to_string(&file).map_err(|e| ApiError::Internal(e.into()))?;
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                "application/yaml; charset=utf-8".to_owned(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}.yaml\"", env.cluster.name),
            ),
        ],
        text,
    ))
}

#[derive(Debug, Deserialize)]
struct ImportQuery {
    name: String,
}

fn invalid_environment(message: String) -> ApiError {
    ApiError::Coded(StatusCode::BAD_REQUEST, "invalid_environment", message)
}

/// Creates an environment from an environment file: release by
/// `release_name`, plugins by name, the release's default components, its
/// tags and nodes — all checked first, stored together.
async fn import(
    State(state): State<AppState>,
    Query(query): Query<ImportQuery>,
    body: String,
) -> Result<(StatusCode, Json<mosaic_core::api::Cluster>), ApiError> {
    use mosaic_core::environment::{EnvironmentFile, plan_environment};
    let name = query.name.trim();
    if name.is_empty() {
        return Err(ApiError::BadRequest("name: must not be empty".to_owned()));
    }
    let file: EnvironmentFile = mosaic_core::yaml::parse("environment", &body)
        .map_err(|e| invalid_environment(e.to_string()))?;
    if file.release.is_some() {
        return Err(invalid_environment(
            "release: an import names its release with release_name; release paths are for `mosaic plan`".to_owned(),
        ));
    }
    if !matches!(file.mode.as_str(), "ha_compact" | "multinode") {
        return Err(invalid_environment(format!(
            "mode: '{}' is not one of ha_compact, multinode",
            file.mode
        )));
    }
    let plugins = state.db.plugins().await?;
    let releases: Vec<(i64, &mosaic_core::release::Release)> =
        plugins.iter().flat_map(|p| p.releases()).collect();
    let (release_id, release) = match (&file.release_name, releases.as_slice()) {
        (Some(wanted), _) => releases
            .iter()
            .find(|(_, r)| &r.name == wanted)
            .copied()
            .ok_or_else(|| {
                invalid_environment(format!(
                    "release_name: no installed release is named '{wanted}'"
                ))
            })?,
        (None, [one]) => *one,
        (None, []) => {
            return Err(ApiError::Coded(
                StatusCode::CONFLICT,
                "no_release",
                "no release is installed".to_owned(),
            ));
        }
        (None, _) => {
            return Err(invalid_environment(
                "release_name: several releases are installed; say which".to_owned(),
            ));
        }
    };
    let mut enabled = Vec::new();
    for plugin_name in &file.plugins {
        let newest = plugins
            .iter()
            .map(|p| &p.package)
            .filter(|p| &p.name == plugin_name && !p.is_release_plugin())
            .max_by_key(|p| {
                p.version
                    .split('.')
                    .map(|n| n.parse::<u64>().unwrap_or(0))
                    .collect::<Vec<_>>()
            })
            .ok_or_else(|| {
                invalid_environment(format!(
                    "plugins: no extension plugin '{plugin_name}' is installed"
                ))
            })?;
        enabled.push(newest.clone());
    }
    let plan = plan_environment(&file, release, &enabled, "default");
    let problems: Vec<String> = plan
        .errors
        .iter()
        .filter(|e| {
            use mosaic_core::task::PlanErrorKind::*;
            matches!(
                e.kind,
                IncompatiblePlugin | UnknownRole | UnknownTag | BadTags
            )
        })
        .map(|e| e.message.clone())
        .collect();
    let mut problems = problems;
    problems.extend(role_problems(release, &enabled, &file)?);
    if !problems.is_empty() {
        return Err(invalid_environment(problems.join(" ")));
    }
    let (_, registry) = crate::install::release_registry(&plugins, release_id)
        .ok_or_else(|| ApiError::NotFound(format!("release {release_id} does not exist")))?
        .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    let layout = mosaic_core::wizard::Layout::new(&registry);
    let selection = mosaic_core::wizard::defaults(&registry, &layout);
    let components: Vec<String> = (0..registry.len())
        .filter(|&i| selection[i])
        .map(|i| registry.get(i).name.to_string())
        .collect();
    let tags: Vec<(String, bool)> = mosaic_core::tag::tags_metadata(&file.tags_metadata)
        .map_err(|e| invalid_environment(format!("tags_metadata: {e}")))?
        .into_iter()
        .map(|(name, meta)| (name, meta.has_primary))
        .collect();
    let cluster = state
        .db
        .insert_cluster_with(
            crate::db::InsertCluster {
                name,
                release_id,
                components: &components,
                mode: &file.mode,
            },
            &tags,
            &file.nodes,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(cluster)))
}

/// Conflicts and restrictions of the imported nodes' roles, against the
/// release's default settings (unknown roles are reported by the plan).
fn role_problems(
    release: &mosaic_core::release::Release,
    plugins: &[mosaic_core::plugin::Package],
    file: &mosaic_core::environment::EnvironmentFile,
) -> Result<Vec<String>, ApiError> {
    use mosaic_core::role::{NodeErrorKind, NodeRoles};
    let mut roles = release
        .roles_metadata
        .as_object()
        .cloned()
        .unwrap_or_default();
    for p in plugins {
        roles.extend(p.roles_metadata.as_object().cloned().unwrap_or_default());
    }
    let nodes: Vec<NodeRoles> = file
        .nodes
        .iter()
        .map(|n| NodeRoles {
            id: serde_json::json!(n.id),
            roles: n.roles.iter().chain(&n.pending_roles).cloned().collect(),
            pending_deletion: n.pending_deletion,
        })
        .collect();
    let problems = crate::environment::role_problems(
        &serde_json::Value::Object(roles),
        release,
        &file.mode,
        &nodes,
    )
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")))?;
    Ok(problems
        .into_iter()
        .filter(|(_, e)| e.kind != NodeErrorKind::UnknownRole)
        .map(|(id, e)| format!("node {id}: {}", e.message))
        .collect())
}
