//! What a request's path names, read as stored, or 404: an environment
//! whole or without its nodes, a node, and a node with its environment
//! (what a change of one node is checked against); shared by the handlers
//! of nodes, their disks, interfaces and hardware, tags, settings and
//! upgrades.

use mosaic_core::tag::NodeTags;

use crate::AppState;
use crate::db::StoredNode;
use crate::environment::Stored;
use crate::error::ApiError;

/// Environment `id` as stored, or 404.
pub(super) async fn stored_environment(state: &AppState, id: i64) -> Result<Stored, ApiError> {
    Stored::load(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))
}

/// A node's environment without its nodes ([`Stored::head`]), and the
/// node: what a change of one node is checked against.
pub(super) async fn node_context(
    state: &AppState,
    id: i64,
) -> Result<(Stored, NodeTags), ApiError> {
    let node = stored_node(state, id).await?;
    let stored = environment_head(state, node.cluster_id).await?;
    Ok((stored, node.spec))
}

/// Node `id` as stored, or 404.
pub(super) async fn stored_node(state: &AppState, id: i64) -> Result<StoredNode, ApiError> {
    state
        .db
        .node(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node {id} does not exist")))
}

/// Environment `id` without its nodes, or 404.
pub(super) async fn environment_head(state: &AppState, id: i64) -> Result<Stored, ApiError> {
    Stored::head(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("environment {id} does not exist")))
}
