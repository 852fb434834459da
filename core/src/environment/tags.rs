//! An environment's tags (SEMANTICS §5): the merged view with where each
//! tag comes from, which tags a node may be given, adding and removing
//! tags on a node, and every node with its effective tags.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::Environment;
use crate::name::{ErrorType, NodeStatus, RoleName, TagName};
use crate::release::Release;
use crate::role::{Role, Roles};
use crate::tag::{self, InstanceNodes, NodeTags, RoleTags, TagMeta, TagView, TagsMetadata};

/// A node of an environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeView {
    pub id: i64,
    pub cluster_id: i64,
    pub name: String,
    pub status: NodeStatus,
    /// Why it is in `error` (`deploy`: a run failed on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_type: Option<ErrorType>,
    pub roles: Vec<RoleName>,
    pub pending_roles: Vec<RoleName>,
    /// The node's effective tags (`primary-*` included).
    pub tags: Vec<TagName>,
    /// The tags its roles bring (to mark them in the UI).
    pub role_tags: Vec<TagName>,
    pub tags_added: Vec<TagName>,
    pub tags_removed: Vec<TagName>,
    pub primary_tags: Vec<TagName>,
    pub pending_deletion: bool,
    /// Incremented by every change of the node; `PUT /api/v1/nodes/{id}`
    /// with `If-Match: "VERSION"` is refused (412) when it moved on.
    #[serde(default)]
    pub version: i64,
    /// Its node group (rack) by name.
    #[serde(default)]
    pub node_group: String,
    /// Whether it declares interfaces (its layout: `GET …/interfaces`).
    #[serde(default)]
    pub interfaces: usize,
    /// Where and when its hardware was found, and the switches LLDP
    /// names; none before an import or a declaration (the hardware:
    /// `GET /api/v1/nodes/{id}/hardware`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hardware: Option<crate::hardware::HardwareStamp>,
    /// In a change's answer only: its disk layout was made again from its
    /// roles' defaults by this change (SEMANTICS §14), its edits gone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disks_reset: bool,
}

impl NodeView {
    /// Whether it has a disk layout, which a change of its roles resets:
    /// one is made once its hardware is known (found or declared).
    pub fn has_disk_layout(&self) -> bool {
        self.hardware.is_some()
    }

    /// Whether giving it `roles` (its pending roles kept) resets its disk
    /// layout, Fuel's warning: it has one, and the roles differ as sets —
    /// the rule the server lays the disks out again by (`relays`).
    pub fn roles_reset_disks(&self, roles: &[RoleName]) -> bool {
        let pending = self.pending_roles.iter();
        let before: Vec<&str> = self
            .roles
            .iter()
            .chain(pending.clone())
            .map(RoleName::as_str)
            .collect();
        let now: Vec<&str> = roles.iter().chain(pending).map(RoleName::as_str).collect();
        self.has_disk_layout() && crate::disks::roles_differ(&before, &now)
    }
}

#[cfg(test)]
impl NodeView {
    /// A node for tests: ready, with `roles` and carrying `tags`, of which
    /// `role_tags` come from its roles; nothing pending.
    pub(crate) fn sample(
        id: i64,
        name: &str,
        roles: &[&str],
        tags: &[&str],
        role_tags: &[&str],
    ) -> NodeView {
        let tags_of = |list: &[&str]| list.iter().map(|t| TagName::new(*t).unwrap()).collect();
        NodeView {
            id,
            cluster_id: 1,
            name: name.to_owned(),
            status: NodeStatus::Ready,
            error_type: None,
            roles: roles.iter().map(|r| RoleName::new(*r).unwrap()).collect(),
            pending_roles: Vec::new(),
            tags: tags_of(tags),
            role_tags: tags_of(role_tags),
            tags_added: Vec::new(),
            tags_removed: Vec::new(),
            primary_tags: Vec::new(),
            pending_deletion: false,
            version: 1,
            node_group: "default".to_owned(),
            interfaces: 0,
            hardware: None,
            disks_reset: false,
        }
    }
}

/// Why tags cannot be added to or removed from a node.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagProblem {
    #[error("unknown tag{} {}: create {} on the release or the environment first",
        crate::text::plural(.0.len()),
        crate::text::quoted(.0),
        crate::text::agree(.0.len(), "it", "them"))]
    Unknown(Vec<TagName>),
    #[error("the node does not have tag '{0}'")]
    NotCarried(TagName),
}

/// Builds a merged tag view layer by layer; a later layer updates
/// `has_primary` of a name already listed.
struct Views {
    views: Vec<TagView>,
    role_named: BTreeSet<TagName>,
}

impl Views {
    fn put(&mut self, name: &TagName, meta: TagMeta, source: &str) {
        match self.views.iter_mut().find(|v| v.name == name.as_str()) {
            Some(view) => {
                view.has_primary = meta.has_primary;
                view.instances = meta.instances;
                if source == "user" || source == "environment" {
                    view.source = source.to_owned();
                }
            }
            None => self.views.push(TagView {
                name: name.to_string(),
                has_primary: meta.has_primary,
                instances: meta.instances,
                source: source.to_owned(),
                deletable: false,
                nodes: 0,
                instance_nodes: Vec::new(),
            }),
        }
    }

    /// A source's tags metadata, then the tags its roles name (a role with
    /// `has_primary` makes its own name a tag with a primary).
    fn layer(&mut self, tags: &TagsMetadata, roles: &Roles, source: &str) {
        for (name, meta) in tags {
            self.put(name, *meta, source);
        }
        self.roles(&roles.0, if source == "release" { "role" } else { source });
    }

    /// The tags `roles` name that are not listed yet, from `source`.
    fn roles<'r>(&mut self, roles: impl IntoIterator<Item = &'r Role>, source: &str) {
        for role in roles {
            let own = TagName::of_role(&role.id);
            for t in role.brought_tags() {
                self.role_named.insert(t.clone());
                if !self.views.iter().any(|v| v.name == t.as_str()) {
                    let meta = TagMeta {
                        has_primary: role.has_primary && t == own,
                        instances: None,
                    };
                    self.put(&t, meta, source);
                }
            }
        }
    }

    fn user(&mut self, tags: &TagsMetadata, source: &str) {
        for (name, meta) in tags {
            self.put(name, *meta, source);
        }
    }

    /// User-defined tags of `own_source` that no role names can be deleted.
    fn finish(mut self, own_source: &str) -> Vec<TagView> {
        for view in &mut self.views {
            view.deletable = view.source == own_source
                && !TagName::new(view.name.as_str()).is_ok_and(|t| self.role_named.contains(&t));
        }
        self.views
    }
}

/// The merged tag view of a release: its tags metadata, tags named only by
/// its roles, then tags created on it through the API; a tag its changes
/// of roles (`roles`) name cannot be deleted.
pub fn release_tag_views(
    release: &Release,
    user: &TagsMetadata,
    roles: &crate::role_layer::RoleLayer,
) -> Vec<TagView> {
    let mut views = Views {
        views: Vec::new(),
        role_named: BTreeSet::new(),
    };
    views.layer(&release.tags_metadata, &release.roles_metadata, "release");
    views.user(user, "user");
    views.role_named.extend(roles.tags());
    views.finish("user")
}

/// Why a tag cannot be changed or deleted where it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagRefusal {
    #[error("tag '{0}' does not exist")]
    NotFound(String),
    #[error("tag '{name}' is defined by the {by} and cannot be {what} here")]
    NotOwn {
        name: String,
        by: &'static str,
        what: &'static str,
    },
    #[error("tag '{0}' is named by a role's tags and cannot be deleted")]
    RoleNamed(String),
    #[error("tag '{name}' is assigned to node{} {}: unassign it first",
        crate::text::plural(.nodes.len()),
        crate::text::quoted(.nodes))]
    Carried { name: String, nodes: Vec<String> },
}

/// Whether tag `name` may be deleted from its owner, whose merged view is
/// `views`, while the nodes named `carriers` carry it (SEMANTICS §5: only
/// tags created on this owner, not named by a role, carried by no node).
pub fn check_tag_deletion(
    views: &[TagView],
    name: &str,
    carriers: Vec<String>,
) -> Result<(), TagRefusal> {
    match views.iter().find(|v| v.name == name) {
        Some(v) if v.deletable && carriers.is_empty() => Ok(()),
        Some(v) if v.deletable => Err(TagRefusal::Carried {
            name: name.to_owned(),
            nodes: carriers,
        }),
        Some(v) if v.source == "user" || v.source == "environment" => {
            Err(TagRefusal::RoleNamed(name.to_owned()))
        }
        _ => Err(not_own(views, name, "deleted")),
    }
}

/// A tag the owner did not create: defined elsewhere when it exists (the
/// release plugin, a role or a plugin defines it), else not found.
pub fn not_own(views: &[TagView], name: &str, what: &'static str) -> TagRefusal {
    match views.iter().find(|v| v.name == name) {
        Some(v) => TagRefusal::NotOwn {
            name: name.to_owned(),
            by: match v.source.as_str() {
                "role" => "release's roles",
                "plugin" => "plugin",
                "user" => "release",
                _ => "release plugin",
            },
            what,
        },
        None => TagRefusal::NotFound(name.to_owned()),
    }
}

/// Whether `carried` is tag `name` or an instance `name:N` of it.
fn is_or_instance(carried: &TagName, name: &str) -> bool {
    carried.as_str() == name || carried.instance_of() == Some(name)
}

/// A node's name with its effective tags: what tag counts and carriers
/// are worked out from.
pub type NamedTags = (String, Vec<TagName>);

/// Sets each view's `nodes`: how many of `nodes` carry the tag or an
/// instance of it; and which of them form each instance.
pub fn count_carriers(views: &mut [TagView], nodes: &[NamedTags]) {
    for view in views {
        view.nodes = carrying(nodes, &view.name).count();
        let mut by_number: std::collections::BTreeMap<u64, Vec<String>> = Default::default();
        for (node, tags) in carrying(nodes, &view.name) {
            for n in tags
                .iter()
                .filter(|t| t.instance_of() == Some(view.name.as_str()))
                .filter_map(TagName::instance_number)
            {
                by_number.entry(n).or_default().push(node.clone());
            }
        }
        view.instance_nodes = by_number
            .into_iter()
            .map(|(number, nodes)| InstanceNodes { number, nodes })
            .collect();
    }
}

/// The names of the nodes that carry tag `name` or an instance of it.
pub fn carriers(nodes: &[NamedTags], name: &str) -> Vec<String> {
    carrying(nodes, name).map(|(n, _)| n.clone()).collect()
}

fn carrying<'a>(nodes: &'a [NamedTags], name: &'a str) -> impl Iterator<Item = &'a NamedTags> {
    nodes
        .iter()
        .filter(move |(_, tags)| tags.iter().any(|t| is_or_instance(t, name)))
}

impl Environment<'_> {
    /// The merged tag view: the release's, each enabled plugin's, tags
    /// created on the release, then on the environment; with how many of
    /// the environment's nodes carry each.
    pub fn tag_views(&self) -> Vec<TagView> {
        self.tag_views_over(&self.named_tags())
    }

    /// [`Self::tag_views`], counting the carriers among `nodes` (the
    /// environment's [`Self::named_tags`], read once by a caller that needs
    /// them too).
    pub fn tag_views_over(&self, nodes: &[NamedTags]) -> Vec<TagView> {
        let mut views = self.merged_tag_views();
        count_carriers(&mut views, nodes);
        views
    }

    /// Every node's name with its effective tags, in node order.
    pub fn named_tags(&self) -> Vec<NamedTags> {
        self.spec
            .nodes
            .iter()
            .map(|n| n.display_name())
            .zip(self.effective_tags())
            .collect()
    }

    fn merged_tag_views(&self) -> Vec<TagView> {
        let mut views = Views {
            views: Vec::new(),
            role_named: BTreeSet::new(),
        };
        views.layer(
            &self.release.tags_metadata,
            &self.release.roles_metadata,
            "release",
        );
        for plugin in self.enabled_plugins() {
            views.layer(&plugin.tags_metadata, &plugin.roles_metadata, "plugin");
        }
        views.user(self.release_tags, "user");
        views.user(&self.spec.tags_metadata, "environment");
        // Roles created on the release or here name their own tags, and
        // no tag a role's changed set names can be deleted.
        views.roles(self.active_roles(), "role");
        views.finish("environment")
    }

    /// The tags metadata the environment sees.
    pub fn tags_metadata(&self) -> TagsMetadata {
        self.merged_tag_views()
            .into_iter()
            .filter_map(|v| {
                let name = TagName::new(v.name).ok()?;
                Some((
                    name,
                    TagMeta {
                        has_primary: v.has_primary,
                        instances: v.instances,
                    },
                ))
            })
            .collect()
    }

    /// The roles whose tags count here: the release's, the enabled
    /// plugins', those created on the release and here, as changed.
    fn active_roles(&self) -> impl Iterator<Item = &Role> {
        self.roles().iter().filter(|r| self.role_plugin_enabled(r))
    }

    /// Role → tags, for the roles whose tags count here.
    pub fn role_tags(&self) -> RoleTags {
        tag::role_tags(self.active_roles())
    }

    pub(super) fn role_named_tags(&self) -> BTreeSet<TagName> {
        self.active_roles().flat_map(|r| r.brought_tags()).collect()
    }

    /// Whether `tag` may be added to a node here: known, or an instance
    /// `name:N` of a known tag.
    pub fn knows_tag(&self, tag: &TagName) -> bool {
        tag::known_tag(tag, &self.tags_metadata(), &self.role_named_tags())
    }

    /// Those of `tags` nothing here declares (an instance `name:N` of a
    /// known tag is known).
    pub(super) fn unknown_tags(&self, tags: &[TagName]) -> Vec<TagName> {
        let known = self.tags_metadata();
        let role_named = self.role_named_tags();
        tags.iter()
            .filter(|t| !tag::known_tag(t, &known, &role_named))
            .cloned()
            .collect()
    }

    /// `node` with `tags` added: a tag its roles bring is no longer
    /// removed; others are added by hand.
    pub fn add_tags(&self, node: &NodeTags, tags: &[TagName]) -> Result<NodeTags, TagProblem> {
        let unknown = self.unknown_tags(tags);
        if !unknown.is_empty() {
            return Err(TagProblem::Unknown(unknown));
        }
        Ok(with_tags_added(node, tags, &self.role_tags()))
    }

    /// `node` with `tags` removed: hand-added ones are forgotten, ones its
    /// roles bring are recorded as removed.
    pub fn remove_tags(&self, node: &NodeTags, tags: &[TagName]) -> Result<NodeTags, TagProblem> {
        with_tags_removed(node, tags, &self.role_tags())
    }

    /// Every node's effective tags (`primary-*` in HA), in node order.
    pub fn effective_tags(&self) -> Vec<Vec<TagName>> {
        tag::effective_tags(
            &self.spec.nodes,
            &self.role_tags(),
            &self.tags_metadata(),
            self.spec.mode.is_ha(),
        )
    }

    /// Every node as the API shows it.
    pub fn node_views(&self, cluster_id: i64) -> Vec<NodeView> {
        let roles = self.role_tags();
        self.spec
            .nodes
            .iter()
            .zip(self.effective_tags())
            .map(|(n, tags)| node_view(cluster_id, n, tags, &roles))
            .collect()
    }

    /// What decides whether `node` is primary for a tag (HA only): the
    /// tags with a primary it holds, and the roles that bring them. Only
    /// the nodes holding one of those tags can take a primary from it, so
    /// [`Self::node_view_among`] needs no others.
    pub fn primary_contenders(&self, node: &NodeTags) -> (Vec<RoleName>, Vec<TagName>) {
        if !self.spec.mode.is_ha() {
            return (Vec::new(), Vec::new());
        }
        let roles = self.role_tags();
        let meta = self.tags_metadata();
        let tags: Vec<TagName> = tag::node_tags(node, &roles)
            .into_iter()
            .filter(|t| meta.get(t).is_some_and(|m| m.has_primary))
            .collect();
        (tag::roles_bringing(&roles, &tags), tags)
    }

    /// `node` as the API shows it, its primaries decided among `others`:
    /// at least every other node of the environment that holds one of the
    /// tags [`Self::primary_contenders`] names (more do no harm). What one
    /// node's answer costs then depends on its tags, not on how many nodes
    /// the environment has (issue 34).
    pub fn node_view_among(
        &self,
        cluster_id: i64,
        node: &NodeTags,
        others: &[NodeTags],
    ) -> NodeView {
        let roles = self.role_tags();
        let mut tags = tag::node_tags(node, &roles);
        if self.spec.mode.is_ha() {
            let nodes: Vec<NodeTags> = others
                .iter()
                .filter(|n| n.id != node.id)
                .chain([node])
                .cloned()
                .collect();
            let all: Vec<Vec<TagName>> = nodes.iter().map(|n| tag::node_tags(n, &roles)).collect();
            let mine = nodes.len() - 1;
            let primary = tag::primaries(&nodes, &all, &self.tags_metadata());
            for t in primary.get(&mine).into_iter().flatten() {
                tags.push(t.primary());
            }
        }
        node_view(cluster_id, node, tags, &roles)
    }
}

/// `n` as the API shows it, with its effective `tags`.
fn node_view(cluster_id: i64, n: &NodeTags, tags: Vec<TagName>, roles: &RoleTags) -> NodeView {
    NodeView {
        id: n.id,
        cluster_id,
        name: n.display_name(),
        status: n.status,
        error_type: n.error_type,
        roles: n.roles.clone(),
        pending_roles: n.pending_roles.clone(),
        tags,
        role_tags: tag::derived_tags(n, roles),
        tags_added: n.tags_added.clone(),
        tags_removed: n.tags_removed.clone(),
        primary_tags: n.primary_tags.clone(),
        pending_deletion: n.pending_deletion,
        version: n.version,
        node_group: n
            .node_group
            .clone()
            .unwrap_or_else(|| crate::network::DEFAULT_GROUP.to_owned()),
        interfaces: n.interfaces.as_ref().map_or(0, |i| i.interfaces.len()),
        hardware: n.found.clone(),
        disks_reset: false,
    }
}

/// `node` with known `tags` added, its roles bringing what `role_tags` says.
pub(super) fn with_tags_added(node: &NodeTags, tags: &[TagName], role_tags: &RoleTags) -> NodeTags {
    let derived = tag::derived_tags(node, role_tags);
    let mut node = node.clone();
    for t in tags {
        node.tags_removed.retain(|x| x != t);
        if !derived.contains(t) && !node.tags_added.contains(t) {
            node.tags_added.push(t.clone());
        }
    }
    node
}

/// `node` with `tags` removed, its roles bringing what `role_tags` says.
pub(super) fn with_tags_removed(
    node: &NodeTags,
    tags: &[TagName],
    role_tags: &RoleTags,
) -> Result<NodeTags, TagProblem> {
    let derived = tag::derived_tags(node, role_tags);
    let mut node = node.clone();
    for t in tags {
        let added = node.tags_added.contains(t);
        if !added && !derived.contains(t) {
            return Err(TagProblem::NotCarried(t.clone()));
        }
        node.tags_added.retain(|x| x != t);
        if derived.contains(t) && !node.tags_removed.contains(t) {
            node.tags_removed.push(t.clone());
        }
    }
    Ok(node)
}
