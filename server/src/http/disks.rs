//! Disks and volumes (SEMANTICS §14), Fuel's routes and shapes, sizes in
//! MB: a node's layout read, saved (checked with Fuel's validator) and
//! its defaults; the volumes its roles bring; one layout for many nodes
//! alike. Core lays out, checks and converts; here they are read, stored
//! and answered.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use mosaic_core::api::{
    ClusterDisks, DiskEntry, ErrorBody, ErrorProblem, Hardware, NodeDisks, VolumeInfo,
};
use mosaic_core::disks::layout::simple;
use mosaic_core::disks::{DiskLayout, LayoutProblem, Machine, VolumesMetadata};
use mosaic_core::environment::Environment;
use mosaic_core::environment::disks::{
    DisksRefusal, layout_problem, lays_out_again, machine_of, no_known_disks, relaid, relays,
    roles_of,
};
use mosaic_core::settings::Problem;
use mosaic_core::tag::NodeTags;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::versions;
use crate::AppState;
use crate::db::NodesChanged;
use crate::environment::Stored;
use crate::error::{ApiError, ApiJson, retried};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show, save))
        .routes(routes!(defaults))
        .routes(routes!(volumes))
        .routes(routes!(save_many))
}

/// The environment's volumes metadata: its release's, then each enabled
/// plugin's. Only installed plugins can make it unreadable (two
/// declaring one volume, a mapping naming none): 409 `conflict` naming
/// every problem and where it is, for the operator to switch one off.
pub(super) fn volumes_metadata(env: &Environment<'_>) -> Result<VolumesMetadata, ApiError> {
    env.volumes_metadata().map_err(|errors| {
        let problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
        ApiError::Conflict(format!(
            "the volumes of this environment's release and plugins cannot be worked out: {}; \
             switch off or upgrade the plugin concerned",
            problems.join("; ")
        ))
    })
}

/// `node`'s layout once its hardware is `hardware` (SEMANTICS §14): kept
/// when made for this machine, else its roles' defaults on it; none
/// without a disk. The metadata is read only when defaults are made.
pub(super) fn layout_on(
    env: &Environment<'_>,
    node: &NodeTags,
    hardware: &Hardware,
) -> Result<Option<DiskLayout>, ApiError> {
    let machine = Machine::of(hardware);
    if !lays_out_again(node, &machine) {
        return Ok(node.disks.clone());
    }
    if machine.disks.is_empty() {
        return Ok(None);
    }
    Ok(env.layout_on(&volumes_metadata(env)?, node, &machine))
}

/// `after`'s layout after a change of roles from `before` (SEMANTICS
/// §14): its roles' defaults again when its roles changed (`true`: reset,
/// its edits gone); as it was otherwise.
pub(super) fn after_roles(
    env: &Environment<'_>,
    meta: &mut Option<VolumesMetadata>,
    before: &NodeTags,
    after: &mut NodeTags,
) -> Result<bool, ApiError> {
    let roles = roles_of(before);
    if !relays(&roles, after) {
        return Ok(false);
    }
    let meta = match meta {
        Some(meta) => meta,
        None => meta.insert(volumes_metadata(env)?),
    };
    after.disks = relaid(env, meta, &roles, after);
    Ok(true)
}

/// 400 `invalid_disks` with every problem of a layout sent, by its place.
fn invalid_layout(problems: Vec<LayoutProblem>) -> ApiError {
    let lines: Vec<String> = problems.iter().map(layout_problem).collect();
    let message = format!(
        "the layout is refused, nothing was stored: {}",
        lines.join("; ")
    );
    let problems = problems
        .into_iter()
        .map(|p| ErrorProblem::Setting(Problem::new(p.path, p.message)))
        .collect();
    ApiError::InvalidDisks(message, problems)
}

fn refused(refusal: DisksRefusal) -> ApiError {
    let message = refusal.to_string();
    match refusal {
        DisksRefusal::Request(_) => ApiError::BadRequest(message),
        DisksRefusal::Capacities(_) => ApiError::InvalidDisks(message, Vec::new()),
        DisksRefusal::Nodes(problems) => {
            let problems = problems.into_iter().map(ErrorProblem::Node).collect();
            ApiError::InvalidDisks(message, problems)
        }
    }
}

/// Node `id` and its environment without its nodes: 404 for no such
/// node, and Fuel's words for a node that is in no environment (in
/// Mosaic a node always is; its environment can be deleted meanwhile).
async fn node_in_environment(state: &AppState, id: i64) -> Result<(Stored, NodeTags), ApiError> {
    let node = super::lookup::stored_node(state, id).await?;
    let head = Stored::head(&state.db, node.cluster_id)
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(
                "Cannot calculate volumes info. Please, add node to an environment.".to_owned(),
            )
        })?;
    Ok((head, node.spec))
}

/// A node's disk layout.
///
/// Each disk with the room its volumes share and each volume's size
/// (Fuel's simple format, MB); `[]` while none of its disks is known.
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}/disks",
    operation_id = "show_node_disks",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "Its layout", body = Vec<DiskEntry>, headers(("ETag" = String, description = "`\"N-DIGEST\"`, N the node's version"))),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
    )
)]
async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let node = super::lookup::stored_node(&state, id).await?;
    Ok(versions::with_etag(
        node.spec.version,
        simple_layout(&node.spec),
    ))
}

/// `node`'s layout as the API shows it: `[]` while none is known.
fn simple_layout(node: &NodeTags) -> Vec<DiskEntry> {
    node.disks.as_ref().map(simple).unwrap_or_default()
}

/// Saves a node's disk layout.
///
/// The volumes' sizes, `keep_data` flags and the boot disk sent (Fuel's
/// simple format, MB; disks not sent stay as they are), checked with
/// Fuel's validator first: every problem at once, nothing stored.
#[utoipa::path(
    put,
    path = "/api/v1/nodes/{id}/disks",
    operation_id = "save_node_disks",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id"),
        ("If-Match" = Option<String>, Header, description = "The node's version the change was made on: 412 when it moved on")),
    request_body = Vec<DiskEntry>,
    responses(
        (status = 200, description = "Saved: the layout as stored", body = Vec<DiskEntry>, headers(("ETag" = String, description = "`\"N\"`, N the node's version"))),
        (status = 400, description = "`bad_request`: a body that is not a layout; `invalid_disks`: every problem (`problems`, each with its `path`: Fuel's validator's messages, an unknown disk or volume, a negative size), nothing stored", body = ErrorBody),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
        (status = 409, description = "`conflict`: none of the node's disks is known (import its hardware or declare its disks), or the volumes of the environment's plugins cannot be worked out", body = ErrorBody),
        (status = 412, description = "`precondition_failed`: `If-Match` names no version it is at (a stale tag, or one never issued)", body = ErrorBody),
    )
)]
async fn save(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ApiJson(sent): ApiJson<Vec<DiskEntry>>,
) -> Result<Response, ApiError> {
    let expected = versions::if_match(&headers, "node")?;
    let (head, _) = super::lookup::node_context(&state, id).await?;
    let env = head.environment()?;
    let meta = volumes_metadata(&env)?;
    let stored = state
        .db
        .change_node(id, expected.as_ref(), |node| {
            let layout = (node.spec.disks.as_ref())
                .filter(|l| !l.disks.is_empty())
                .ok_or_else(|| ApiError::Conflict(no_known_disks(&node.spec)))?;
            let roles = roles_of(&node.spec);
            let laid = env
                .node_volumes(&meta, &roles)
                .apply(layout, &sent)
                .map_err(invalid_layout)?;
            Ok::<_, ApiError>(NodeTags {
                disks: Some(laid),
                ..node.spec.clone()
            })
        })
        .await?;
    Ok(versions::with_etag(
        stored.spec.version,
        simple_layout(&stored.spec),
    ))
}

/// A node's default disk layout, not stored.
///
/// What its roles (then pending roles) give on its disks now, as Load
/// Defaults shows it; `[]` while none of its disks is known.
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}/disks/defaults",
    operation_id = "show_node_disk_defaults",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "Its defaults", body = Vec<DiskEntry>),
        (status = 404, description = "`not_found`: no such node", body = ErrorBody),
        (status = 409, description = "`conflict`: the volumes of the environment's plugins cannot be worked out", body = ErrorBody),
    )
)]
async fn defaults(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<DiskEntry>>, ApiError> {
    let (head, node) = super::lookup::node_context(&state, id).await?;
    let Some(layout) = node.disks.as_ref() else {
        return Ok(Json(Vec::new()));
    };
    let env = head.environment()?;
    let meta = volumes_metadata(&env)?;
    let defaults = env.disk_defaults(&meta, &roles_of(&node), &machine_of(layout));
    Ok(Json(simple(&defaults)))
}

/// The volumes a node's roles bring, each with its minimum.
///
/// Each volume the node uses (its roles', then pending roles'), with its
/// label and its minimum size in MB on the node's disks (Fuel's
/// `get_volumes_info`).
#[utoipa::path(
    get,
    path = "/api/v1/nodes/{id}/volumes",
    operation_id = "list_node_volumes",
    tag = "nodes",
    params(("id" = i64, Path, description = "The node's id")),
    responses(
        (status = 200, description = "Its volumes", body = Vec<VolumeInfo>),
        (status = 404, description = "`not_found`: no such node, or (Fuel's words) \"Cannot calculate volumes info. Please, add node to an environment.\" for a node whose environment is gone", body = ErrorBody),
        (status = 409, description = "`conflict`: the volumes of the environment's plugins cannot be worked out", body = ErrorBody),
    )
)]
async fn volumes(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<VolumeInfo>>, ApiError> {
    let (head, node) = node_in_environment(&state, id).await?;
    let env = head.environment()?;
    let meta = volumes_metadata(&env)?;
    let none = DiskLayout {
        memory: None,
        disks: Vec::new(),
    };
    let layout = node.disks.as_ref().unwrap_or(&none);
    Ok(Json(env.node_volumes(&meta, &roles_of(&node)).info(layout)))
}

/// One disk layout for several nodes alike, by disk position.
///
/// The layout (Fuel's simple format, MB; the first node's disks'
/// places) given to every node named, disk by disk in name order: the
/// nodes must have the same roles and the same sorted disk sizes. All or
/// nothing, in one transaction.
#[utoipa::path(
    put,
    path = "/api/v1/clusters/{id}/disks",
    operation_id = "save_cluster_disks",
    tag = "nodes",
    params(("id" = i64, Path, description = "The environment's id")),
    request_body = ClusterDisks,
    responses(
        (status = 200, description = "Saved: each node's layout as stored, in the order named", body = Vec<NodeDisks>),
        (status = 400, description = "`bad_request`: no node, more than 10,000, a layout of another number of disks than the nodes'; `invalid_disks`: \"Selected nodes have different disk capacities.\" naming the nodes unlike the first, or every node that cannot take the layout (`problems` by node: not in the environment, no known disks, each problem of the layout on it); nothing stored", body = ErrorBody),
        (status = 404, description = "`not_found`: no such environment", body = ErrorBody),
        (status = 409, description = "`conflict`: the volumes of the environment's plugins cannot be worked out; `busy`: the environment's settings kept changing", body = ErrorBody),
    )
)]
async fn save_many(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<ClusterDisks>,
) -> Result<Json<Vec<NodeDisks>>, ApiError> {
    retried("the environment's settings", || async {
        let head = super::lookup::environment_head(&state, id).await?;
        let env = head.environment()?;
        let meta = volumes_metadata(&env)?;
        let changed = state
            .db
            .change_nodes(id, head.row.settings_version, |nodes| {
                let laid = env
                    .lay_out_many(&meta, (&request.nodes, &nodes), &request.layout)
                    .map_err(refused)?;
                Ok::<_, ApiError>(NodesChanged {
                    nodes: laid,
                    networks: None,
                })
            })
            .await?;
        let answer = changed
            .iter()
            .map(|n| NodeDisks {
                node: n.id,
                disks: simple_layout(n),
            })
            .collect();
        Ok(Some(Json(answer)))
    })
    .await
}

/// Marks the nodes of a change's answer whose layout it reset.
pub(super) fn mark_reset(
    views: &mut [mosaic_core::api::NodeView],
    reset: &std::collections::HashSet<i64>,
) {
    for view in views.iter_mut().filter(|v| reset.contains(&v.id)) {
        view.disks_reset = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_problem_without_a_place_is_its_message_alone() {
        let refused = invalid_layout(vec![
            LayoutProblem {
                path: String::new(),
                message: "Base system should be allocated on one disk only".into(),
            },
            LayoutProblem {
                path: "[0].volumes[1].size".into(),
                message: "negative".into(),
            },
        ]);
        let ApiError::InvalidDisks(message, problems) = refused else {
            panic!("invalid_disks");
        };
        assert!(message.ends_with(
            "Base system should be allocated on one disk only; [0].volumes[1].size: negative"
        ));
        assert_eq!(problems.len(), 2);
    }
}
