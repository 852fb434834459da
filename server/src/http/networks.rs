//! Networks (SEMANTICS §11, Fuel's routes and shapes): an environment's
//! network configuration with its `ETag`, its save (`If-Match`, every
//! problem at once, nothing stored on a problem) and its verification, its
//! node groups, and a node's interfaces with the networks on them and its
//! addresses. Core decides everything; changes of the whole environment's
//! addresses are stored over the nodes they were worked out for. What core
//! works out over every node (checks, addresses) runs on the blocking
//! pool, from what was read before the change's transaction begins; the
//! transaction then holds the nodes and the version to those read. A new
//! group's addresses alone are worked out inside it: they need its id.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use mosaic_core::api::{
    ConfigurationChange, ConfigurationView, ErrorBody, ErrorCode, GroupView, InterfacesView,
    NewGroup, Verification,
};
use mosaic_core::environment::{AddressRow, Addressing, Environment, Spec};
use mosaic_core::name::NetworkName;
use mosaic_core::network::{NetworkConfiguration, NodeGroup};
use mosaic_core::tag::NodeTags;
use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{blocking, versions};
use crate::AppState;
use crate::db::{Checked, InUse, Seen};
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson, retried};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show, save))
        .routes(routes!(verify))
        .routes(routes!(groups, create_group))
        .routes(routes!(delete_group))
        .routes(routes!(interfaces, set_interfaces))
}

/// Environment `id` with its nodes and their addresses, or 404.
async fn whole(state: &AppState, id: i64) -> Result<Stored, ApiError> {
    Stored::load_with_addresses(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))
}

/// The environment's network configuration as core works it out; 409
/// `invalid_release`, naming the release, when its networking data does
/// not read (the release's to fix, not the server's nor the request's).
pub(super) fn configuration(env: &Environment<'_>) -> Result<NetworkConfiguration, ApiError> {
    env.network_configuration()
        .map(|(config, _)| config)
        .map_err(|e| {
            ApiError::Coded(
                StatusCode::CONFLICT,
                ErrorCode::InvalidRelease,
                e.to_string(),
            )
        })
}

/// What a single node's change decides its addresses with.
pub(super) fn addressing(env: &Environment<'_>) -> Result<Addressing, ApiError> {
    Ok(env.addressing(&configuration(env)?))
}

/// Every address of `spec`'s environment under `config` (VIPs placed
/// in `config.vips`), as rows.
pub(super) fn rows_for(
    stored: &Stored,
    spec: &Spec,
    config: &NetworkConfiguration,
) -> Result<(NetworkConfiguration, Vec<AddressRow>), ApiError> {
    let env = stored.with_spec(spec)?;
    let (rows, vips) = env.address_rows(config);
    Ok((
        NetworkConfiguration {
            vips,
            ..config.clone()
        },
        rows,
    ))
}

/// `env`'s networks rebuilt for what it is now (its components, its
/// release) with every address: what a components change or an upgrade
/// stores with the selection.
pub(super) fn rebuilt(
    env: &Environment<'_>,
) -> Result<(NetworkConfiguration, Vec<AddressRow>), ApiError> {
    let config = configuration(env)?;
    let (rows, vips) = env.address_rows(&config);
    Ok((NetworkConfiguration { vips, ..config }, rows))
}

/// What a change of the whole environment's networks was worked out from.
fn checked(stored: &Stored, version: Option<&Seen>) -> Checked {
    Checked {
        version: version.cloned(),
        nodes: stored.node_versions(),
    }
}

/// The answer of `GET …/network_configuration/neutron` for `stored`.
async fn view(state: &AppState, stored: Stored) -> Result<ConfigurationView, ApiError> {
    let counts = state.db.address_counts(stored.id()).await?;
    blocking(move || {
        let env = stored.environment()?;
        let config = configuration(&env)?;
        let used = config
            .networks
            .iter()
            .filter_map(|n| Some((n.id, *counts.get(&(n.group_id?, n.name.clone()))?)))
            .collect();
        Ok(env.configuration_view(&config, &used))
    })
    .await
}

/// The environment's network configuration (Fuel's shape): its networks
/// with their addresses, Neutron's parameters, the VIPs, the node groups.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/network_configuration/neutron",
    operation_id = "show_cluster_network_configuration",
    tag = "networks",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "The configuration", body = ConfigurationView,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the configuration's version"))),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let stored = whole(&state, id).await?;
    let version = stored.row.networks_version;
    let body = view(&state, stored).await?;
    Ok(versions::with_etag(version, body))
}

/// Saves the network configuration: every address worked out again, or every problem and nothing stored.
///
/// A save: every problem of the change and of the configuration it makes
/// (400 `invalid_networks`, nothing stored), 412 when `If-Match` names an
/// older version; the configuration and every address otherwise.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/network_configuration/neutron",
    operation_id = "update_cluster_network_configuration",
    tag = "networks",
    params(("id" = i64, Path, description = "The environment's id"),
        ("If-Match" = Option<String>, Header, description = "The configuration's version the change was made on (its `ETag`, or the version alone): 412 when it moved on")),
    request_body = ConfigurationChange,
    responses(
        (status = 200, description = "Saved: the configuration", body = ConfigurationView,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the configuration's version"))),
        (status = 400, description = "`bad_request`: a body that is not a change; `invalid_networks`: every problem of the change and of the configuration it makes (`problems`: kind, message, networks, fields, nodes); nothing is stored", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`busy`: the environment's nodes kept changing; `invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no version it is at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn save(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ApiJson(change): ApiJson<ConfigurationChange>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "network configuration")?;
    let change = Arc::new(change);
    retried("the environment's nodes", || async {
        let stored = whole(&state, id).await?;
        let checked = checked(&stored, expected.as_ref());
        let change = change.clone();
        let (config, rows) = blocking(move || changed(&stored, &change)).await?;
        (state.db)
            .store_networks(id, &checked, &config, &rows)
            .await?;
        Ok(Some(()))
    })
    .await?;
    show(State(state), Path(id)).await
}

/// `change` made to `stored`'s networks, with every address; or every
/// problem of it.
fn changed(
    stored: &Stored,
    change: &ConfigurationChange,
) -> Result<(NetworkConfiguration, Vec<AddressRow>), ApiError> {
    let env = stored.environment()?;
    let config = env
        .changed_networks(change)
        .map_err(|problems| ApiError::InvalidNetworks(ErrorCode::InvalidNetworks, problems))?;
    let spec = Spec {
        network: Some(config.clone()),
        ..stored.spec.clone()
    };
    rows_for(stored, &spec, &config)
}

/// Every problem a save of the body would have; nothing is stored.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/network_configuration/neutron/verify",
    operation_id = "verify_cluster_network_configuration",
    tag = "networks",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = ConfigurationChange,
    responses(
        (status = 200, description = "The problems (none: a save would pass)", body = Verification),
        (status = 400, description = "`bad_request`: a body that is not a change", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
    )
)]
async fn verify(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(change): ApiJson<ConfigurationChange>,
) -> Result<Json<Verification>, ApiError> {
    let stored = whole(&state, id).await?;
    let problems = blocking(move || {
        let env = stored.environment()?;
        Ok(env.changed_networks(&change).err().unwrap_or_default())
    })
    .await?;
    Ok(Json(Verification { problems }))
}

fn group_views(stored: &Stored) -> Vec<GroupView> {
    let env_groups = stored.spec.node_groups.clone();
    env_groups
        .into_iter()
        .map(|g| GroupView {
            nodes: stored
                .spec
                .nodes
                .iter()
                .filter(|n| n.node_group.as_deref() == Some(g.name.as_str()))
                .count(),
            id: g.id,
            name: g.name,
            cluster_id: stored.id(),
        })
        .collect()
}

/// The environment's node groups, each with how many nodes are in it.
#[utoipa::path(
    get,
    path = "/api/v1/clusters/{id}/node_groups",
    operation_id = "list_cluster_node_groups",
    tag = "networks",
    params(("id" = i64, Path, description = "The environment's id")),
    responses(
        (status = 200, description = "Its node groups", body = Vec<GroupView>),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
    )
)]
async fn groups(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<GroupView>>, ApiError> {
    let stored = Stored::load(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))?;
    Ok(Json(group_views(&stored)))
}

/// Creates a node group (201): its networks copy the `default` group's,
/// and with two groups every addressed network has a gateway.
#[utoipa::path(
    post,
    path = "/api/v1/clusters/{id}/node_groups",
    operation_id = "create_cluster_node_group",
    tag = "networks",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = NewGroup,
    responses(
        (status = 201, description = "Created (its networks copy the `default` group's; with two groups every addressed network gets a gateway)", body = NodeGroup),
        (status = 400, description = "`bad_request`: a name that is not 1 to 50 letters, digits, `-`, `_` or `.`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`node_group_exists`: the environment has a node group of that name; `busy`: the environment's nodes kept changing; `invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
    )
)]
async fn create_group(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(new): ApiJson<NewGroup>,
) -> Result<(StatusCode, Json<NodeGroup>), ApiError> {
    let name = new.name.trim().to_owned();
    NodeGroup::check_name(&name).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let made = retried("the environment's nodes", || async {
        let stored = whole(&state, id).await?;
        add_group(&state, stored, &name).await.map(Some)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Group `name` added to `stored`, with its networks and every address.
/// Those are worked out inside the transaction, on the blocking pool: they
/// need the group's id, which only the insert of its row gives.
async fn add_group(state: &AppState, stored: Stored, name: &str) -> Result<NodeGroup, ApiError> {
    let checked = checked(&stored, None);
    let stored = Arc::new(stored);
    let made = state
        .db
        .create_group(stored.id(), name, &checked, async |new_id| {
            let (stored, name) = (stored.clone(), name.to_owned());
            blocking(move || with_group(&stored, NodeGroup { id: new_id, name })).await
        })
        .await;
    made.map_err(|e| match e {
        ApiError::Conflict(m) => {
            ApiError::Coded(StatusCode::CONFLICT, ErrorCode::NodeGroupExists, m)
        }
        other => other,
    })
}

/// `stored`'s networks with `group` added (its networks copy the first
/// group's), and every address.
fn with_group(
    stored: &Stored,
    group: NodeGroup,
) -> Result<(NetworkConfiguration, Vec<AddressRow>), ApiError> {
    let env = stored.environment()?;
    let mut next = configuration(&env)?;
    let mut groups = env.node_groups().to_vec();
    let template = groups.first().map(|g| g.id).unwrap_or(1);
    let new_id = group.id;
    groups.push(group);
    next.add_group(env.network_metas(), new_id, template, groups.len());
    let spec = Spec {
        node_groups: groups,
        network: Some(next.clone()),
        ..stored.spec.clone()
    };
    rows_for(stored, &spec, &next)
}

/// Deletes a node group with its networks (not while nodes are in it, never `default`).
///
/// Deletes a node group (204); 409 `node_group_in_use` while nodes are in
/// it, and for `default`.
#[utoipa::path(
    delete,
    path = "/api/v1/node_groups/{id}",
    operation_id = "delete_node_group",
    tag = "networks",
    params(("id" = i64, Path, description = "The node group's id")),
    responses(
        (status = 204, description = "Deleted, with its networks and VIPs"),
        (status = 404, description = "`not_found`: no such node group", body = ErrorBody),
        (status = 409, description = "`node_group_in_use`: nodes are in it (up to ten named), or it is `default`; `busy`: the environment's nodes kept changing; `invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
    )
)]
async fn delete_group(
    State(state): State<AppState>,
    Path(group): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let (id, name) = state
        .db
        .group_cluster(group)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node group {group} does not exist")))?;
    if name == mosaic_core::network::DEFAULT_GROUP {
        let message = "the default node group cannot be deleted".to_owned();
        return Err(ApiError::in_use(InUse::NodeGroup, message));
    }
    retried("the environment's nodes", || async {
        let stored = whole(&state, id).await?;
        let checked = checked(&stored, None);
        // Worked out before the transaction, even for a group that still
        // has nodes: the transaction, which holds the nodes to those read,
        // refuses that one.
        let (config, rows) = blocking(move || without_group(&stored, group)).await?;
        (state.db)
            .delete_group(id, group, &checked, (&config, &rows))
            .await?;
        Ok(Some(StatusCode::NO_CONTENT))
    })
    .await
}

/// `stored`'s networks without group `group`, and every address.
fn without_group(
    stored: &Stored,
    group: i64,
) -> Result<(NetworkConfiguration, Vec<AddressRow>), ApiError> {
    let env = stored.environment()?;
    let mut next = configuration(&env)?;
    next.remove_group(group);
    let spec = Spec {
        node_groups: env
            .node_groups()
            .iter()
            .filter(|g| g.id != group)
            .cloned()
            .collect(),
        network: Some(next.clone()),
        ..stored.spec.clone()
    };
    rows_for(stored, &spec, &next)
}

/// A node's interfaces, the networks on them under `config` and its
/// `addresses`.
fn interfaces_of(
    env: &Environment<'_>,
    config: &NetworkConfiguration,
    node: &NodeTags,
    addresses: &BTreeMap<NetworkName, Ipv4Addr>,
) -> Response {
    let layout = env
        .node_layout(config, node)
        .map(|l| l.layout)
        .unwrap_or_default();
    let group = node.node_group.clone().unwrap_or_default();
    let view = InterfacesView::of(node.interfaces.as_ref(), &layout, addresses, &group);
    versions::with_etag(node.version, view)
}

/// A node's interfaces and bonds, the networks on each, and its addresses.
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}/interfaces",
    operation_id = "show_node_interfaces",
    tag = "networks",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "Its interfaces", body = InterfacesView,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
        (status = 409, description = "`invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
    )
)]
async fn interfaces(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let (head, node) = super::lookup::node_context(&state, id).await?;
    let addresses = state.db.addresses_of(id).await?;
    blocking(move || {
        let env = head.environment()?;
        let config = configuration(&env)?;
        Ok(interfaces_of(&env, &config, &node, &addresses))
    })
    .await
}

/// Declares a node's interfaces and bonds, and the networks on them (none named: the default layout).
///
/// Declares the node's interfaces and bonds, and the networks on them
/// when the body names them (the default layout otherwise); 400
/// `invalid_interfaces` with every problem, 412 on a stale `If-Match`.
#[utoipa::path(
    put,
    path = "/api/v1/nodes/{id}/interfaces",
    operation_id = "update_node_interfaces",
    tag = "networks",
    params(("id" = i64, Path, description = "The node's id"),
        ("If-Match" = Option<String>, Header, description = "The node's version the change was made on: 412 when it moved on")),
    request_body = InterfacesView,
    responses(
        (status = 200, description = "Declared: its interfaces", body = InterfacesView,
            headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 400, description = "`bad_request`: a body that is not interfaces, a bond without its mode or slaves; `invalid_interfaces`: every problem of its interfaces and their layout (`problems`); nothing is stored", body = ErrorBody),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
        (status = 409, description = "`invalid_release`: the release's (or a plugin's) networking data does not read, named in the message", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no version it is at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn set_interfaces(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<InterfacesView>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "node")?;
    let declared = body
        .declared()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let (head, _) = super::lookup::node_context(&state, id).await?;
    let env = head.environment()?;
    let config = configuration(&env)?;
    // One node's check, against the node as the transaction holds it: made
    // there, on this worker. On the blocking pool it would cost a second
    // build of the environment for work of one node's size.
    let changed = state
        .db
        .change_node(id, expected.as_ref(), |node| {
            let next = NodeTags {
                interfaces: declared.clone(),
                ..node.spec.clone()
            };
            let problems = env.interface_problems(&config, &next);
            if problems.is_empty() {
                Ok(next)
            } else {
                Err(ApiError::InvalidNetworks(
                    ErrorCode::InvalidInterfaces,
                    problems,
                ))
            }
        })
        .await?;
    let addresses = state.db.addresses_of(id).await?;
    Ok(interfaces_of(&env, &config, &changed.spec, &addresses))
}
