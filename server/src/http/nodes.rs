//! Nodes of an environment: create with roles, change roles (conflicts,
//! restrictions and plugins that are off checked by core against the
//! environment's settings), assign and unassign tags, the roles offered,
//! the graph types and the plan of each.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use mosaic_core::api::{
    BulkNodes, CreateNode, ErrorBody, ErrorCode, GraphSummary, GroupRef, NodeTagList,
    NodeTagsChange, NodeView, RoleView, UpdateNode,
};
use mosaic_core::environment::{
    AddressRow, BulkRefusal, Check, Environment, RoleCounts, Spec, TagProblem,
};
use mosaic_core::name::{GraphType, RoleName, TagName};
use mosaic_core::network::{DEFAULT_GROUP, NetworkConfiguration};
use mosaic_core::tag::NodeTags;
use mosaic_core::task::Plan;
use serde::Deserialize;
use std::collections::HashSet;

use super::lookup::{environment_head, node_context, stored_environment};
use super::versions;
use crate::AppState;
use crate::db::NodesChanged;
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson, retried};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(bulk))
        .routes(routes!(graphs))
        .routes(routes!(plan))
        .routes(routes!(checks))
        .routes(routes!(roles))
        .routes(routes!(show, update, remove))
        .routes(routes!(tags, assign, unassign))
}

/// `node` in the node group `group` names (`default` when none), its
/// interfaces checked: 400 for a group the environment does not have,
/// 400 `invalid_interfaces` with every problem of its interfaces.
fn placed(
    env: &Environment<'_>,
    mut node: NodeTags,
    group: Option<&GroupRef>,
) -> Result<NodeTags, ApiError> {
    let groups = env.node_groups();
    node.node_group = Some(match group {
        Some(group) => group
            .resolve(groups)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?
            .name
            .clone(),
        None => node.node_group.unwrap_or_else(|| DEFAULT_GROUP.to_owned()),
    });
    check_interfaces(env, &node)?;
    Ok(node)
}

/// 400 `invalid_interfaces` with every problem of `node`'s interfaces.
fn check_interfaces(env: &Environment<'_>, node: &NodeTags) -> Result<(), ApiError> {
    let config = super::networks::configuration(env)?;
    let problems = env.interface_problems(&config, node);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ApiError::InvalidNetworks(
            ErrorCode::InvalidInterfaces,
            problems,
        ))
    }
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
            ErrorCode::InvalidRoles,
            problems.join(" "),
        ))
    }
}

/// 400 `invalid_roles` when the node's change from `before` (`None`: a new
/// node) to `after` takes a role past its maximum, `counts` being the
/// environment's as stored now (SEMANTICS §4). The counts are read only
/// when the change may give the node a role with a maximum
/// (`Environment::any_maximum`); without them nothing is refused.
fn check_maximums(
    env: &Environment<'_>,
    counts: &RoleCounts,
    before: Option<&NodeTags>,
    after: &NodeTags,
) -> Result<(), ApiError> {
    match env.maximums_message(counts, &counts.with_change(before, after)) {
        None => Ok(()),
        Some(message) => Err(ApiError::Coded(
            StatusCode::BAD_REQUEST,
            ErrorCode::InvalidRoles,
            message,
        )),
    }
}

fn tag_problem(e: TagProblem) -> ApiError {
    match e {
        TagProblem::Unknown(_) => ApiError::Coded(
            StatusCode::BAD_REQUEST,
            ErrorCode::UnknownTag,
            e.to_string(),
        ),
        TagProblem::NotCarried(_) => ApiError::NotFound(e.to_string()),
    }
}

/// `node` as the API shows it: its primaries decided among the few nodes
/// that contend for them, read by themselves, so that one node's answer
/// costs the same in an environment of ten nodes or of ten thousand.
async fn view_of(
    state: &AppState,
    env: &Environment<'_>,
    cluster_id: i64,
    node: &NodeTags,
) -> Result<NodeView, ApiError> {
    let (roles, tags) = env.primary_contenders(node);
    let others = holding(state, cluster_id, (&roles, &tags), false).await?;
    Ok(env.node_view_among(cluster_id, node, &others))
}

/// [`crate::db::Db::nodes_holding`], as the nodes' specs.
async fn holding(
    state: &AppState,
    cluster_id: i64,
    (roles, tags): (&[RoleName], &[TagName]),
    instances: bool,
) -> Result<Vec<NodeTags>, ApiError> {
    let nodes = state
        .db
        .nodes_holding(cluster_id, (roles, tags), instances)
        .await?;
    Ok(nodes.into_iter().map(|n| n.spec).collect())
}

/// `node` with the instance tags its roles call for (SEMANTICS §5.1),
/// decided among the nodes that hold those tags' roles or instances.
async fn with_instances(
    state: &AppState,
    env: &Environment<'_>,
    cluster_id: i64,
    node: NodeTags,
) -> Result<NodeTags, ApiError> {
    let others = instance_holders(state, env, cluster_id, &node).await?;
    Ok(env.node_with_instances(node, &others))
}

/// The nodes that count for `node`'s instance tags
/// ([`Environment::instance_contenders`]): given one of the roles that
/// bring them, or an instance of them by hand.
async fn instance_holders(
    state: &AppState,
    env: &Environment<'_>,
    cluster_id: i64,
    node: &NodeTags,
) -> Result<Vec<NodeTags>, ApiError> {
    let (roles, tags) = env.instance_contenders(node);
    let mut others = holding(state, cluster_id, (&roles, &[]), false).await?;
    others.extend(holding(state, cluster_id, (&[], &tags), true).await?);
    others.sort_by_key(|n| n.id);
    others.dedup_by_key(|n| n.id);
    Ok(others)
}

/// [`view_of`], with its version as the `ETag`.
async fn answer(
    state: &AppState,
    env: &Environment<'_>,
    cluster_id: i64,
    node: &NodeTags,
) -> Result<Response, ApiError> {
    let view = view_of(state, env, cluster_id, node).await?;
    Ok(versions::with_etag(view.version, view))
}

/// The environment's nodes.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/nodes",
    operation_id = "list_cluster_nodes",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "Its nodes", body = Vec<NodeView>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<NodeView>>, ApiError> {
    let stored = listed_environment(&state, id).await?;
    Ok(Json(stored.environment()?.node_views(id)))
}

/// Adds a node with roles (checked against the environment's settings and role maximums), in a node group, with its interfaces.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/nodes",
    operation_id = "create_node",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = CreateNode,
    responses(
        (status = 201, description = "Created (with an address on every network of its node group its roles need: docs/networks.md)", body = NodeView),
        (status = 400, description = "`bad_request`: a status, role or tag name that is not one, a node group the environment does not have, a bond without its mode or slaves; `invalid_roles`: every problem of the roles (unknown, in conflict, restricted, of a plugin that is off), or a role past its maximum; `invalid_interfaces`: every problem of its interfaces (`problems`)", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`busy`: the environment's settings kept changing", body = ErrorBody),
    )
)]
async fn create(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CreateNode>,
) -> Result<(StatusCode, Json<NodeView>), ApiError> {
    let name = request
        .name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    let interfaces = match &request.interfaces {
        Some(view) => view
            .declared()
            .map_err(|e| ApiError::BadRequest(e.to_string()))?,
        None => None,
    };
    let spec = NodeTags {
        name,
        status: request
            .status
            .unwrap_or_default()
            .by_hand()
            .map_err(ApiError::BadRequest)?,
        roles: request.roles,
        interfaces,
        ..NodeTags::default()
    };
    retried("the environment's settings", || async {
        let stored = environment_head(&state, id).await?;
        let env = stored.environment()?;
        check_roles(&env, &spec.roles)?;
        let spec = placed(&env, spec.clone(), request.node_group.as_ref())?;
        let spec = with_instances(&state, &env, id, spec).await?;
        let counted = env.any_maximum(spec.all_roles());
        let addressing = super::networks::addressing(&env)?;
        let checked = (stored.row.settings_version, &addressing);
        let inserted = state
            .db
            .insert_node(id, &spec, checked, counted, |counts| {
                check_maximums(&env, counts, None, &spec)
            })
            .await?;
        let view = view_of(&state, &env, id, &inserted.spec).await?;
        Ok(Some((StatusCode::CREATED, Json(view))))
    })
    .await
}

/// One node.
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}",
    operation_id = "show_node",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "The node", body = NodeView, headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let (head, node) = node_context(&state, id).await?;
    answer(&state, &head.environment()?, head.id(), &node).await
}

/// Changes a node's status, roles, deletion mark, node group or interfaces; what the request does not name stays.
///
/// Changes status, roles, the deletion mark, the node group or the
/// interfaces, leaving what the request
/// does not name as it is (also if it changed meanwhile); with `If-Match`,
/// only if the node is still at that version (412 otherwise).
#[utoipa::path(
    put,
    path = "/api/v1/nodes/{id}",
    operation_id = "update_node",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id"),
        ("If-Match" = Option<String>, Header, description = "The node's version the change was made on: 412 when it moved on")),
    request_body = UpdateNode,
    responses(
        (status = 200, description = "Changed (its addresses follow its roles and node group; when its roles changed, its disk layout is its new roles' defaults, and `disks_reset` says so)", body = NodeView, headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 400, description = "`bad_request`: a status, role or tag name that is not one, a node group the environment does not have, a bond without its mode or slaves; `invalid_roles`: every problem of the roles (unknown, in conflict, restricted, of a plugin that is off), or a role past its maximum; `invalid_interfaces`: every problem of its interfaces (`problems`)", body = ErrorBody),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
        (status = 409, description = "`busy`: the environment's settings kept changing; `conflict`: its roles changed, it has disks, and the volumes of the environment's plugins cannot be worked out to lay them out again", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no version it is at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn update(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<UpdateNode>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "node")?;
    retried("the environment's settings", || async {
        let (stored, read) = node_context(&state, id).await?;
        let env = stored.environment()?;
        if let Some(roles) = &request.roles {
            check_roles(&env, roles)?;
        }
        let groups = env.node_groups();
        let applied = |node: &NodeTags| {
            request
                .applied_to(node, groups)
                .map_err(ApiError::BadRequest)
        };
        let others = instance_holders(&state, &env, stored.id(), &applied(&read)?).await?;
        // Roles given, or a node brought back from its deletion mark (with
        // roles not known yet): counted.
        let counted = request.pending_deletion == Some(false)
            || request.roles.as_ref().is_some_and(|r| env.any_maximum(r));
        let addressing = super::networks::addressing(&env)?;
        let checked = (stored.row.settings_version, &addressing);
        let mut reset = false;
        let changed = state
            .db
            .change_node_roles(id, expected.as_ref(), checked, counted, |node, counts| {
                let mut spec = env.node_with_instances(applied(&node.spec)?, &others);
                check_interfaces(&env, &spec)?;
                check_maximums(&env, counts, Some(&node.spec), &spec)?;
                reset = super::disks::after_roles(&env, &mut None, &node.spec, &mut spec)?;
                Ok::<_, ApiError>(spec)
            })
            .await?;
        let mut view = view_of(&state, &env, stored.id(), &changed.spec).await?;
        view.disks_reset = reset;
        Ok(Some(versions::with_etag(view.version, view)))
    })
    .await
}

/// Deletes a node, whatever it carries.
#[utoipa::path(
    delete,
    path = "/api/v1/nodes/{id}",
    operation_id = "delete_node",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
    )
)]
async fn remove(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let (head, _) = node_context(&state, id).await?;
    let addressing = super::networks::addressing(&head.environment()?)?;
    if state.db.delete_node(head.id(), id, &addressing).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(format!("node {id} does not exist")))
    }
}

fn bulk_refusal(refusal: BulkRefusal) -> ApiError {
    let message = refusal.to_string();
    match refusal {
        BulkRefusal::Request(_) => ApiError::BadRequest(message),
        BulkRefusal::UnknownTags(_) => {
            ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::UnknownTag, message)
        }
        BulkRefusal::UnknownRoles(_) => {
            ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::InvalidRoles, message)
        }
        BulkRefusal::Nodes(problems) => ApiError::InvalidNodes(message, problems),
        BulkRefusal::Maximums(_) => ApiError::InvalidNodes(message, Vec::new()),
    }
}

/// Every address of the environment after `changed` replaced its nodes
/// in `spec` (whose nodes carry their addresses): none when no node's
/// role, group or deletion mark changed (nothing else moves addresses).
fn addresses_after(
    stored: &Stored,
    spec: &Spec,
    changed: &[NodeTags],
) -> Result<Option<(NetworkConfiguration, Vec<AddressRow>)>, ApiError> {
    let moves = changed.iter().any(|next| {
        spec.nodes.iter().find(|n| n.id == next.id).is_none_or(|n| {
            n.roles != next.roles
                || n.pending_roles != next.pending_roles
                || n.node_group != next.node_group
                || n.pending_deletion != next.pending_deletion
        })
    });
    if !moves {
        return Ok(None);
    }
    let mut after = spec.clone();
    for node in &mut after.nodes {
        if let Some(next) = changed.iter().find(|c| c.id == node.id) {
            *node = NodeTags {
                addresses: node.addresses.clone(),
                ..next.clone()
            };
        }
    }
    let config = super::networks::configuration(&stored.with_spec(&after)?)?;
    super::networks::rows_for(stored, &after, &config).map(Some)
}

/// One change to many nodes, all or nothing.
///
/// One change to many nodes of the environment, all or nothing: 200 + the
/// nodes that changed, or 400 naming every problem by node.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/nodes/bulk",
    operation_id = "change_nodes",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = BulkNodes,
    responses(
        (status = 200, description = "Done, in one transaction (every address of the environment worked out again when roles, node groups or deletion marks changed): the nodes that changed, and any other whose view changed with them (a primary tag moved); `disks_reset` on each whose disk layout its new roles reset", body = Vec<NodeView>),
        (status = 400, description = "`bad_request`: no node, nothing to change, more than 10,000 nodes, a name both added and removed, a node group the environment does not have; `unknown_tag`; `invalid_roles`; `invalid_nodes`: every node that cannot take the change (`problems`: its roles, its interfaces — none declared to put networks on, or a problem of the layout), or a role past its maximum", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`busy`: the environment's settings kept changing; `conflict`: roles changed on nodes with disks and the volumes of the environment's plugins cannot be worked out", body = ErrorBody),
    )
)]
async fn bulk(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<BulkNodes>,
) -> Result<Json<Vec<NodeView>>, ApiError> {
    change.check().map_err(bulk_refusal)?;
    let (before, changed, reset) = retried("the environment's settings", || async {
        let stored = listed_environment(&state, id).await?;
        let version = stored.row.settings_version;
        let mut reset = HashSet::new();
        let changed = state
            .db
            .change_nodes(id, version, |nodes| {
                let mut spec = stored.spec.clone();
                spec.nodes = nodes;
                let env = stored.with_spec(&spec)?;
                let mut changed = env.bulk_change(&change).map_err(bulk_refusal)?;
                reset = relaid_nodes(&env, &mut changed)?;
                let networks = addresses_after(&stored, &spec, &changed)?;
                Ok::<_, ApiError>(NodesChanged {
                    nodes: changed,
                    networks,
                })
            })
            .await?;
        Ok(Some((stored, changed, reset)))
    })
    .await?;
    let changed: HashSet<i64> = changed.iter().map(|n| n.id).collect();
    let after = listed_environment(&state, id)
        .await?
        .environment()?
        .node_views(id);
    let before = before.environment()?.node_views(id);
    let mut views = mosaic_core::nodes::views_changed(&before, after, &changed);
    super::disks::mark_reset(&mut views, &reset);
    Ok(Json(views))
}

/// The nodes of a bulk change laid out again where their roles changed
/// (their roles before: `env`'s nodes'): the ids of those reset.
fn relaid_nodes(env: &Environment<'_>, changed: &mut [NodeTags]) -> Result<HashSet<i64>, ApiError> {
    let before: std::collections::HashMap<i64, &NodeTags> =
        env.spec.nodes.iter().map(|n| (n.id, n)).collect();
    let mut meta = None;
    let mut reset = HashSet::new();
    for next in changed.iter_mut() {
        let Some(was) = before.get(&next.id) else {
            continue;
        };
        if super::disks::after_roles(env, &mut meta, was, next)? {
            reset.insert(next.id);
        }
    }
    Ok(reset)
}

/// Environment `id` with its nodes as the node list shows them (without
/// their layouts, [`crate::db::Db::listed_nodes`]): to answer with, never
/// to store.
async fn listed_environment(state: &AppState, id: i64) -> Result<Stored, ApiError> {
    let mut stored = environment_head(state, id).await?;
    stored.spec.nodes = (state.db.listed_nodes(id).await?)
        .into_iter()
        .map(|n| n.spec)
        .collect();
    Ok(stored)
}

/// A node's effective tags.
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}/tags",
    operation_id = "list_node_tags",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "Its tags", body = NodeTagList),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
    )
)]
async fn tags(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<NodeTagList>, ApiError> {
    let (head, node) = node_context(&state, id).await?;
    let view = view_of(&state, &head.environment()?, head.id(), &node).await?;
    Ok(Json(NodeTagList { tags: view.tags }))
}

/// Assigns known tags (or instances `name:N` of known ones) to a node.
///
/// Adds known tags (or instances `name:N` of known ones) to the node; on
/// top of every other change, none lost.
#[utoipa::path(
    post,
    path = "/api/v1/nodes/{id}/tags",
    operation_id = "assign_node_tags",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    request_body = NodeTagsChange,
    responses(
        (status = 200, description = "The node", body = NodeView, headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 400, description = "`bad_request`; `unknown_tag`: tags nothing declares", body = ErrorBody),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
    )
)]
async fn assign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Response, ApiError> {
    let (stored, _) = node_context(&state, id).await?;
    let env = stored.environment()?;
    let changed = state
        .db
        .change_node(id, None, |node| {
            env.add_tags(&node.spec, &change.tags).map_err(tag_problem)
        })
        .await?;
    answer(&state, &env, stored.id(), &changed.spec).await
}

/// Removes tags from a node: a hand-added one is forgotten, a role's recorded as removed.
///
/// Removes tags from the node: hand-added ones are forgotten, role-derived
/// ones are recorded as removed.
#[utoipa::path(
    delete,
    path = "/api/v1/nodes/{id}/tags",
    operation_id = "unassign_node_tags",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    request_body = NodeTagsChange,
    responses(
        (status = 200, description = "The node", body = NodeView, headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such node, or a tag the node does not carry", body = ErrorBody),
    )
)]
async fn unassign(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<NodeTagsChange>,
) -> Result<Response, ApiError> {
    let (stored, _) = node_context(&state, id).await?;
    let env = stored.environment()?;
    let changed = state
        .db
        .change_node(id, None, |node| {
            env.remove_tags(&node.spec, &change.tags)
                .map_err(tag_problem)
        })
        .await?;
    answer(&state, &env, stored.id(), &changed.spec).await
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PlanQuery {
    /// The graph type (`default` when not given).
    graph: Option<String>,
    /// `?cross=true` lists the cross-node waits.
    #[serde(default)]
    cross: bool,
}

/// The plan of a graph type: each node's tasks in order, as `mosaic plan --format json` prints it.
///
/// The plan of graph type `graph` (`default` when not given); 404
/// `unknown_graph` for a type that no source defines.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/plan",
    operation_id = "show_cluster_plan",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id"),
        PlanQuery),
    responses(
        (status = 200, description = "The plan", body = Plan),
        (status = 404, description = "`not_found`: no such environment; `unknown_graph`: a type no source defines (the message lists those there are)", body = ErrorBody),
    )
)]
async fn plan(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<PlanQuery>,
) -> Result<Json<Plan>, ApiError> {
    let stored = stored_environment(&state, id).await?;
    let graph = query
        .graph
        .unwrap_or_else(|| GraphType::DEPLOYMENT.to_owned());
    // Placing every task on every node is CPU work: off the workers.
    super::blocking(move || {
        let env = stored.environment()?;
        match env.unknown_graph(&graph) {
            Some(unknown) => Err(ApiError::Coded(
                StatusCode::NOT_FOUND,
                ErrorCode::UnknownGraph,
                unknown.message,
            )),
            None => Ok(env.plan_with(&graph, query.cross)),
        }
    })
    .await
    .map(Json)
}

/// The environment's graph types, `default` first.
///
/// Every graph type the environment's release, its enabled plugins or its
/// own tasks define, `default` first.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/graphs",
    operation_id = "list_cluster_graphs",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "Its graph types", body = Vec<GraphSummary>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn graphs(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<GraphSummary>>, ApiError> {
    let stored = environment_head(&state, id).await?;
    Ok(Json(stored.environment()?.graphs()))
}

/// What to look at before deploying, errors first, each with the nodes concerned.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/checks",
    operation_id = "list_cluster_checks",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The checks", body = Vec<Check>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn checks(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<Check>>, ApiError> {
    let stored = stored_environment(&state, id).await?;
    super::blocking(move || {
        let env = stored.environment()?;
        Ok(env.checks(&env.plan(GraphType::DEPLOYMENT)))
    })
    .await
    .map(Json)
}

/// The roles the environment's nodes may take, each with why it cannot be given now when it cannot.
///
/// The roles the environment's nodes may take, each with why it cannot be
/// given now when it cannot: the release's and those of the enabled plugins,
/// hidden ones left out.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/roles",
    operation_id = "list_cluster_roles",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The roles offered", body = Vec<RoleView>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn roles(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<RoleView>>, ApiError> {
    let stored = stored_environment(&state, id).await?;
    Ok(Json(stored.environment()?.role_views()))
}
