//! One change to many nodes at once (an admin's "these 40 nodes of rack 3
//! get `rabbitmq`"): roles added and removed, then tags removed and added,
//! all or nothing, with every problem named by node.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::Environment;
use super::maximums::{MaximumExceeded, joined};
use super::tags::{with_tags_added, with_tags_removed};
use crate::name::{RoleName, TagName};
use crate::network::interfaces::valid_port_name;
use crate::network::{GroupRef, NodeGroup};
use crate::tag::{self, NodeTags, RoleTags};
use crate::text::quoted;

/// `POST /api/v1/clusters/{id}/nodes/bulk`: one change to many nodes, all
/// or nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"nodes": [1, 2], "add_tags": ["rack"], "remove_tags": [], "add_roles": [], "remove_roles": []})))]
pub struct BulkNodes {
    pub nodes: Vec<i64>,
    #[serde(default)]
    pub add_tags: Vec<TagName>,
    #[serde(default)]
    pub remove_tags: Vec<TagName>,
    #[serde(default)]
    pub add_roles: Vec<RoleName>,
    #[serde(default)]
    pub remove_roles: Vec<RoleName>,
    /// Moves the nodes to this node group.
    #[serde(default)]
    pub node_group: Option<GroupRef>,
    /// Puts these networks on these interfaces or bonds of every node
    /// (port → networks; SEMANTICS §11.1).
    #[serde(default)]
    pub interfaces: Option<std::collections::BTreeMap<String, Vec<String>>>,
}

/// A problem of one node in a bulk change (or of a node id that is not in
/// the environment, then without `name`).
// Closed, as its schema is: an export's node problem (which names the tab
// it is fixed on besides) reads as the export's in `ErrorProblem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeProblem {
    pub node: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub message: String,
}

// Written by hand: closed (no other property), so that a `RoleInUse`
// (which has a `role` besides) is not a `NodeProblem` too in
// `ErrorProblem`'s `oneOf`.
#[cfg(feature = "openapi")]
crate::schema::schema!(NodeProblem, crate::schema::node_problem());

/// The most nodes one bulk change may name.
pub const MAX_BULK_NODES: usize = 10_000;

/// How many of a refused bulk change's node problems the app lists.
pub const LISTED_PROBLEMS: usize = 20;

/// Why a bulk change is refused as a whole, before any node is looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BulkRefusal {
    #[error("{0}")]
    Request(String),
    #[error("unknown tag{} {}: create {} on the release or the environment first",
        crate::text::plural(.0.len()),
        quoted(.0),
        crate::text::agree(.0.len(), "it", "them"))]
    UnknownTags(Vec<TagName>),
    #[error("unknown role{} {}: neither the release nor an enabled plugin defines {}",
        crate::text::plural(.0.len()),
        quoted(.0),
        crate::text::agree(.0.len(), "it", "them"))]
    UnknownRoles(Vec<RoleName>),
    /// Problems of single nodes: nothing is changed.
    #[error("{} problem{} on the chosen nodes; nothing was changed",
        .0.len(), crate::text::plural(.0.len()))]
    Nodes(Vec<NodeProblem>),
    /// Roles the change would take past their maximum: nothing is changed.
    #[error("{}; nothing was changed", joined(.0))]
    Maximums(Vec<MaximumExceeded>),
}

impl BulkNodes {
    /// What is wrong with the request itself: no node, nothing to change,
    /// too many nodes, a name both added and removed.
    pub fn check(&self) -> Result<(), BulkRefusal> {
        let refuse = |m: String| Err(BulkRefusal::Request(m));
        if self.nodes.is_empty() {
            return refuse("nodes: name at least one node".to_owned());
        }
        if self.nodes.len() > MAX_BULK_NODES {
            return refuse(format!(
                "nodes: at most {MAX_BULK_NODES} nodes in one change (got {})",
                self.nodes.len()
            ));
        }
        if self.add_tags.is_empty()
            && self.remove_tags.is_empty()
            && self.add_roles.is_empty()
            && self.remove_roles.is_empty()
            && self.node_group.is_none()
            && self.interfaces.is_none()
        {
            return refuse(
                "nothing to change: give add_tags, remove_tags, add_roles, remove_roles, node_group or interfaces"
                    .to_owned(),
            );
        }
        let both_tags: Vec<&TagName> = self
            .add_tags
            .iter()
            .filter(|t| self.remove_tags.contains(t))
            .collect();
        let both_roles: Vec<&RoleName> = self
            .add_roles
            .iter()
            .filter(|r| self.remove_roles.contains(r))
            .collect();
        if !both_tags.is_empty() || !both_roles.is_empty() {
            let names: Vec<String> = both_tags
                .iter()
                .map(|t| t.to_string())
                .chain(both_roles.iter().map(|r| r.to_string()))
                .collect();
            return refuse(format!("{} both added and removed", quoted(&names)));
        }
        Ok(())
    }
}

/// What the bulk bar over the selected nodes does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkAction {
    AssignTags,
    UnassignTags,
    AddRole,
    RemoveRole,
    /// Moves the nodes to the node group chosen.
    MoveToGroup,
    /// Puts the networks typed on the port named, on every node
    /// (SEMANTICS §11.1: the port carries exactly them, and they leave the
    /// node's other ports).
    PutNetworks,
}

/// What the bulk bar holds as typed or chosen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BulkInput {
    /// Tags, split on commas and spaces.
    pub tags: String,
    /// A role, by id.
    pub role: String,
    /// A node group, by name.
    pub node_group: String,
    /// An interface or bond name.
    pub port: String,
    /// Network names, split on commas and spaces.
    pub networks: String,
}

/// The names in `text`, split on commas and spaces.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', ' ']).filter(|t| !t.is_empty())
}

impl BulkAction {
    /// The change to `nodes` this action asks for with what `input` holds;
    /// or what is wrong with it.
    pub fn change(self, nodes: Vec<i64>, input: &BulkInput) -> Result<BulkNodes, String> {
        let tags = || -> Result<Vec<TagName>, String> {
            words(&input.tags)
                .map(|t| TagName::new(t).map_err(|e| e.to_string()))
                .collect()
        };
        let role = || {
            RoleName::new(&input.role)
                .map(|r| vec![r])
                .map_err(|e| e.to_string())
        };
        let mut change = BulkNodes {
            nodes,
            ..BulkNodes::default()
        };
        match self {
            BulkAction::AssignTags => change.add_tags = tags()?,
            BulkAction::UnassignTags => change.remove_tags = tags()?,
            BulkAction::AddRole => change.add_roles = role()?,
            BulkAction::RemoveRole => change.remove_roles = role()?,
            BulkAction::MoveToGroup => change.node_group = Some(group(&input.node_group)?),
            BulkAction::PutNetworks => change.interfaces = Some(networks_on(input)?),
        }
        Ok(change)
    }
}

/// The node group chosen, by name.
fn group(name: &str) -> Result<GroupRef, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("node group: choose the node group to move the nodes to".to_owned());
    }
    NodeGroup::check_name(name).map_err(|e| e.to_string())?;
    Ok(GroupRef::Name(name.to_owned()))
}

/// The port named and the networks to put on it.
fn networks_on(input: &BulkInput) -> Result<BTreeMap<String, Vec<String>>, String> {
    let port = input.port.trim();
    if !valid_port_name(port) {
        return Err(format!(
            "port: '{port}' is not an interface or bond name: use 1 to 15 letters, digits, '-', '_' or '.'"
        ));
    }
    let networks: Vec<String> = words(&input.networks).map(str::to_owned).collect();
    if networks.is_empty() {
        return Err(format!("networks: name the networks to put on {port}"));
    }
    Ok(BTreeMap::from([(port.to_owned(), networks)]))
}

impl Environment<'_> {
    /// The nodes `change` names, changed: each gets `add_roles` (after its
    /// own, in order) and loses `remove_roles`; then loses `remove_tags`
    /// (a tag it does not carry is left alone) and gets `add_tags`. Only
    /// the nodes that change are returned. Refused as a whole when the
    /// request is wrong, names unknown tags or roles, or any node would be
    /// left with roles it may not have (every such node named), or a
    /// role's count would grow past its maximum.
    pub fn bulk_change(&self, change: &BulkNodes) -> Result<Vec<NodeTags>, BulkRefusal> {
        change.check()?;
        self.known_names(change)?;
        let wanted: BTreeSet<i64> = change.nodes.iter().copied().collect();
        let present: BTreeSet<i64> = self.spec.nodes.iter().map(|n| n.id).collect();
        let mut problems: Vec<NodeProblem> = wanted
            .iter()
            .filter(|id| !present.contains(id))
            .map(|&id| NodeProblem {
                node: id,
                name: None,
                message: format!("node {id} is not in this environment"),
            })
            .collect();
        let group = match &change.node_group {
            Some(group) => Some(
                group
                    .resolve(self.node_groups())
                    .map_err(|e| BulkRefusal::Request(e.to_string()))?
                    .name
                    .clone(),
            ),
            None => None,
        };
        let config = match change.interfaces {
            Some(_) => Some(
                self.network_configuration()
                    .map_err(|e| BulkRefusal::Request(e.to_string()))?
                    .0,
            ),
            None => None,
        };
        // What roles bring, worked out once for every node.
        let role_tags = self.role_tags();
        let before = self.role_counts();
        let mut after = before.clone();
        let mut changed = Vec::new();
        for node in self.spec.nodes.iter().filter(|n| wanted.contains(&n.id)) {
            let placed = self.placed(node, group.as_deref(), config.as_ref(), change);
            match placed.and_then(|node| self.bulk_one(&node, change, &role_tags)) {
                Ok(next) if next != *node => {
                    after.remove(node);
                    after.add(&next);
                    changed.push(next);
                }
                Ok(_) => {}
                Err(messages) => problems.extend(messages.into_iter().map(|message| NodeProblem {
                    node: node.id,
                    name: Some(node.display_name()),
                    message,
                })),
            }
        }
        if !problems.is_empty() {
            return Err(BulkRefusal::Nodes(problems));
        }
        let exceeded = self.exceeded_maximums(&before, &after);
        if exceeded.is_empty() {
            Ok(self.with_instances(changed))
        } else {
            Err(BulkRefusal::Maximums(exceeded))
        }
    }

    /// The `changed` nodes with the instance tags their new roles call for
    /// (SEMANTICS §5.1), assigned in node order among all the nodes.
    fn with_instances(&self, changed: Vec<NodeTags>) -> Vec<NodeTags> {
        let ids: BTreeSet<i64> = changed.iter().map(|n| n.id).collect();
        let by_id: std::collections::HashMap<i64, &NodeTags> =
            changed.iter().map(|n| (n.id, n)).collect();
        let mut all: Vec<NodeTags> = self
            .spec
            .nodes
            .iter()
            .map(|n| (*by_id.get(&n.id).unwrap_or(&n)).clone())
            .collect();
        self.assign_instances(&mut all, &ids);
        all.into_iter().filter(|n| ids.contains(&n.id)).collect()
    }

    /// Tags and roles to add must be known here (checked once, not per node).
    fn known_names(&self, change: &BulkNodes) -> Result<(), BulkRefusal> {
        let unknown = self.unknown_tags(&change.add_tags);
        if !unknown.is_empty() {
            return Err(BulkRefusal::UnknownTags(unknown));
        }
        let offered: Vec<&RoleName> = self.offered_roles().into_iter().map(|r| &r.id).collect();
        let unknown: Vec<RoleName> = change
            .add_roles
            .iter()
            .filter(|r| !offered.contains(r))
            .cloned()
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(BulkRefusal::UnknownRoles(unknown))
        }
    }

    /// `node` in node group `group` with `change`'s networks on its ports
    /// (what is given), or why it cannot be.
    fn placed(
        &self,
        node: &NodeTags,
        group: Option<&str>,
        config: Option<&crate::network::NetworkConfiguration>,
        change: &BulkNodes,
    ) -> Result<NodeTags, Vec<String>> {
        let mut next = node.clone();
        if let Some(group) = group {
            next.node_group = Some(group.to_owned());
        }
        if let (Some(config), Some(ports)) = (config, &change.interfaces) {
            let Some(declared) = next.interfaces.as_ref().filter(|i| !i.is_empty()) else {
                return Err(vec![
                    "it declares no interfaces to put networks on".to_owned(),
                ]);
            };
            let networks = self.node_networks(config, &next);
            next.interfaces = Some(declared.with_networks(&networks, ports));
            let problems = self.interface_problems(config, &next);
            if !problems.is_empty() {
                return Err(problems.into_iter().map(|p| p.message).collect());
            }
        }
        Ok(next)
    }

    /// One node after the change, or its problems.
    fn bulk_one(
        &self,
        node: &NodeTags,
        change: &BulkNodes,
        role_tags: &RoleTags,
    ) -> Result<NodeTags, Vec<String>> {
        let mut next = node.clone();
        next.roles.retain(|r| !change.remove_roles.contains(r));
        for role in &change.add_roles {
            if !next.roles.contains(role) {
                next.roles.push(role.clone());
            }
        }
        if next.roles != node.roles {
            let errors = self.role_errors(&next.roles);
            if !errors.is_empty() {
                return Err(errors.into_iter().map(|e| e.message).collect());
            }
        }
        let derived = tag::derived_tags(&next, role_tags);
        let carried: Vec<TagName> = change
            .remove_tags
            .iter()
            .filter(|t| next.tags_added.contains(t) || derived.contains(t))
            .cloned()
            .collect();
        // Only carried tags are removed, and the added ones are known.
        let next =
            with_tags_removed(&next, &carried, role_tags).map_err(|e| vec![e.to_string()])?;
        Ok(with_tags_added(&next, &change.add_tags, role_tags))
    }
}
