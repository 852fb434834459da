//! Tags (SEMANTICS §5, role decomposition): the tags metadata of releases,
//! plugins and environments, the tags a node carries (from its roles, plus
//! and minus the operator's changes, plus `primary-<tag>` in HA), and the
//! resolver that decides whether a task's selector picks a node.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};

use crate::name::{ErrorType, NodeStatus, RoleName, TagName};
use crate::role::Role;

/// A tag in `GET /api/v1/releases/{id}/tags` and `/clusters/{id}/tags`:
/// the merged view, each with where it is declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagView {
    pub name: String,
    pub has_primary: bool,
    /// How many instances a role bringing it spreads nodes over (§5.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
    /// `release` (the release's tags metadata), `role` (named by a role's
    /// tags only), `plugin` (an extension plugin's), `user` (created through
    /// the API on the release), `environment` (created on the environment).
    pub source: String,
    /// User-defined tags not named by any role can be deleted.
    pub deletable: bool,
    /// How many nodes carry it (or an instance `name:N` of it): of the
    /// environment, or of every environment on the release.
    #[serde(default)]
    pub nodes: usize,
    /// Its instances the nodes carry, each with their names, by number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instance_nodes: Vec<InstanceNodes>,
}

/// The nodes that form one instance of a tag (`mysql:2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InstanceNodes {
    pub number: u64,
    pub nodes: Vec<String>,
}

/// Compiled regular expressions may use this much memory at most: enough
/// for any sensible tag pattern, small enough that a hostile one fails
/// fast with a clear error.
pub const REGEX_SIZE_LIMIT: usize = 64 * 1024;

/// `{has_primary, instances}` of one tag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagMeta {
    #[serde(default)]
    pub has_primary: bool,
    /// How many instances (`tag:1` … `tag:N`) a role bringing the tag
    /// spreads its nodes over (SEMANTICS §5.1); none: no instance is
    /// assigned by rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
}

/// Tag → metadata, as releases, plugins and environments declare it
/// (`node_tags.yaml`, `tags_metadata`; a tag with `null` metadata has the
/// defaults).
pub type TagsMetadata = BTreeMap<TagName, TagMeta>;

/// Reads `tags_metadata` where `null` entries mean the defaults.
pub fn deserialize_tags_metadata<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<TagsMetadata, D::Error> {
    let raw = Option::<BTreeMap<TagName, Option<TagMeta>>>::deserialize(d)?;
    Ok(raw
        .unwrap_or_default()
        .into_iter()
        .map(|(tag, meta)| (tag, meta.unwrap_or_default()))
        .collect())
}

/// Whether `name` may name a tag that is created: `[A-Za-z0-9_-]+` (an
/// instance tag `name:N` is assigned, never created).
pub fn valid_tag_name(name: &str) -> bool {
    TagName::new(name).is_ok_and(|t| t.instance_of().is_none())
}

/// The tags an environment sees: the release's, then each enabled
/// plugin's, then its own, later ones winning.
pub fn merge_metadata<'a>(layers: impl IntoIterator<Item = &'a TagsMetadata>) -> TagsMetadata {
    let mut merged = TagsMetadata::new();
    for layer in layers {
        merged.extend(layer.iter().map(|(k, v)| (k.clone(), *v)));
    }
    merged
}

/// Which nodes form each instance: name → instance number → node ids, from
/// the instance tags `name:N` the nodes carry (`mysql:2` on nodes 1 and 3:
/// those two form MySQL instance 2).
pub fn instances<'a>(
    nodes: impl IntoIterator<Item = (i64, &'a [TagName])>,
) -> BTreeMap<String, BTreeMap<u64, Vec<i64>>> {
    let mut out: BTreeMap<String, BTreeMap<u64, Vec<i64>>> = BTreeMap::new();
    for (id, tags) in nodes {
        for tag in tags {
            if let (Some(name), Some(n)) = (tag.instance_of(), tag.instance_number()) {
                out.entry(name.to_owned())
                    .or_default()
                    .entry(n)
                    .or_default()
                    .push(id);
            }
        }
    }
    out
}

/// The tags a node may be given, offered as its inputs are typed into:
/// every tag the environment knows (`tags`), then the next instance
/// (`mysql:3`) of each tag created by a user: one past the highest
/// instance its nodes carry (the tag's `instance_nodes`).
pub fn offered(tags: &[TagView]) -> Vec<String> {
    let created = tags
        .iter()
        .filter(|t| t.source == "user" || t.source == "environment")
        .map(|t| {
            let highest = t.instance_nodes.iter().map(|i| i.number).max();
            format!("{}:{}", t.name, highest.map_or(1, |n| n.saturating_add(1)))
        });
    tags.iter().map(|t| t.name.clone()).chain(created).collect()
}

/// What deleting an environment asks first: what goes with it — its
/// `nodes` and its own tags (of `tags`, those it declares).
pub fn deletion_question(nodes: usize, tags: &[TagView]) -> String {
    let own = tags.iter().filter(|t| t.source == "environment").count();
    let s = crate::text::plural;
    format!(
        "Delete this environment with its {nodes} node{} and its {own} own tag{}? This cannot be undone.",
        s(nodes),
        s(own),
    )
}

/// A tag that may be added to a node: known, or an instance of a known one.
pub fn known_tag(tag: &TagName, known: &TagsMetadata, role_tags: &BTreeSet<TagName>) -> bool {
    let is_known = |t: &str| known.contains_key(t) || role_tags.contains(t);
    is_known(tag.as_str()) || tag.instance_of().is_some_and(is_known)
}

/// One entry of a task's selector.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// `*`: every node.
    Any,
    /// `master`: the Fuel master node, a pseudo-node in plans.
    Master,
    Exact(String),
    /// `/re/`, anchored at the start of the tag.
    Regex(Regex),
}

impl PartialEq for Matcher {
    fn eq(&self, other: &Matcher) -> bool {
        match (self, other) {
            (Matcher::Any, Matcher::Any) | (Matcher::Master, Matcher::Master) => true,
            (Matcher::Exact(a), Matcher::Exact(b)) => a == b,
            (Matcher::Regex(a), Matcher::Regex(b)) => a.as_str() == b.as_str(),
            _ => false,
        }
    }
}

/// A selector entry that does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("selector entry '{entry}': {message}")]
pub struct SelectorError {
    pub entry: String,
    pub message: String,
}

impl Matcher {
    pub fn parse(entry: &str) -> Result<Matcher, SelectorError> {
        if entry == "*" {
            return Ok(Matcher::Any);
        }
        if entry == "master" {
            return Ok(Matcher::Master);
        }
        if entry.len() >= 2 && entry.starts_with('/') && entry.ends_with('/') {
            let pattern = &entry[1..entry.len() - 1];
            return RegexBuilder::new(&format!("^(?:{pattern})"))
                .size_limit(REGEX_SIZE_LIMIT)
                .dfa_size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map(Matcher::Regex)
                .map_err(|e| SelectorError {
                    entry: entry.to_owned(),
                    message: match e {
                        regex::Error::CompiledTooBig(limit) => format!(
                            "the regular expression is too large (compiled size over {limit} bytes)"
                        ),
                        other => other.to_string(),
                    },
                });
        }
        Ok(Matcher::Exact(entry.to_owned()))
    }

    /// Whether this entry picks a node with `tags` (never the master).
    pub fn matches(&self, tags: &[TagName]) -> bool {
        match self {
            Matcher::Any => true,
            Matcher::Master => false,
            Matcher::Exact(tag) => tags.iter().any(|t| t.as_str() == tag),
            Matcher::Regex(re) => tags.iter().any(|t| re.is_match(t.as_str())),
        }
    }
}

/// Where a task runs: `tags`, else `roles`/`role`, else `groups` (the first
/// key present wins, even when empty).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selector {
    pub entries: Vec<Matcher>,
}

impl Selector {
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<Selector, SelectorError> {
        Ok(Selector {
            entries: entries
                .iter()
                .map(|e| Matcher::parse(e.as_ref()))
                .collect::<Result<_, _>>()?,
        })
    }

    pub fn matches(&self, tags: &[TagName]) -> bool {
        self.entries.iter().any(|m| m.matches(tags))
    }

    pub fn selects_master(&self) -> bool {
        self.entries.iter().any(|m| matches!(m, Matcher::Master))
    }
}

/// Where one distinct selector entry is kept in [`Matchers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatcherId(usize);

impl MatcherId {
    /// Its place in [`Matchers::all`].
    pub fn index(self) -> usize {
        self.0
    }
}

/// The selector entries of one plan, each distinct entry compiled once: a
/// pattern hundreds of tasks share is one regular expression, and whoever
/// places tasks can match it against the nodes once. A selector is then
/// the ids of its entries.
#[derive(Debug, Default)]
pub struct Matchers {
    all: Vec<Matcher>,
    ids: HashMap<String, Result<MatcherId, SelectorError>>,
}

impl Matchers {
    /// The ids of a selector's entries, compiling those not seen before;
    /// the first entry that does not compile is the error.
    pub fn selector<S: AsRef<str>>(
        &mut self,
        entries: &[S],
    ) -> Result<Vec<MatcherId>, SelectorError> {
        entries.iter().map(|e| self.id(e.as_ref())).collect()
    }

    fn id(&mut self, entry: &str) -> Result<MatcherId, SelectorError> {
        if let Some(known) = self.ids.get(entry) {
            return known.clone();
        }
        let id = Matcher::parse(entry).map(|matcher| {
            self.all.push(matcher);
            MatcherId(self.all.len() - 1)
        });
        self.ids.insert(entry.to_owned(), id.clone());
        id
    }

    /// Every distinct entry compiled so far, in the order first seen.
    pub fn all(&self) -> &[Matcher] {
        &self.all
    }

    pub fn get(&self, id: MatcherId) -> Option<&Matcher> {
        self.all.get(id.0)
    }
}

/// A node as tag derivation sees it (and as the environment file and the
/// database hold it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeTags {
    pub id: i64,
    /// How people call the node (`node-<id>` when it has no name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default)]
    pub status: NodeStatus,
    /// Why it is in `error` (`deploy`: a run failed on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_type: Option<ErrorType>,
    #[serde(default)]
    pub roles: Vec<RoleName>,
    #[serde(default)]
    pub pending_roles: Vec<RoleName>,
    #[serde(default)]
    pub tags_added: Vec<TagName>,
    #[serde(default)]
    pub tags_removed: Vec<TagName>,
    /// Tags this node is already primary for.
    #[serde(default)]
    pub primary_tags: Vec<TagName>,
    /// Instance tags (`mysql:2`) its roles brought by rule (SEMANTICS
    /// §5.1), stored when assigned so that they stay; one counts while a
    /// role still brings its tag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags_assigned: Vec<TagName>,
    #[serde(default)]
    pub pending_deletion: bool,
    /// Its node group (rack) by name; none: `default` (SEMANTICS §11.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_group: Option<String>,
    /// Its interfaces and bonds, and the networks on them when not the
    /// default layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interfaces: Option<crate::network::NodeInterfaces>,
    /// Its addresses: network → address (given by the server; a file
    /// keeps them so that an import keeps them).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub addresses: std::collections::BTreeMap<crate::name::NetworkName, std::net::Ipv4Addr>,
    /// Its disk layout (SEMANTICS §14): its roles' volumes on its found
    /// or declared disks, as Configure Disks left it; none: no disks known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disks: Option<crate::disks::DiskLayout>,
    /// The stored node's version (storage keeps it; no rule reads it).
    #[serde(skip)]
    pub version: i64,
    /// Where and when its hardware was found (storage keeps it; a file
    /// does not carry it, as it carries no hardware).
    #[serde(skip)]
    pub found: Option<crate::hardware::HardwareStamp>,
}

impl NodeTags {
    /// Its name, or `node-<id>`.
    pub fn display_name(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("node-{}", self.id))
    }

    /// Its roles, deployed and pending.
    pub fn all_roles(&self) -> impl Iterator<Item = &RoleName> {
        self.roles.iter().chain(&self.pending_roles)
    }
}

/// Role → the tags it brings.
pub type RoleTags = BTreeMap<RoleName, Vec<TagName>>;

/// The role → tags map of some roles.
pub fn role_tags<'a>(roles: impl IntoIterator<Item = &'a Role>) -> RoleTags {
    roles
        .into_iter()
        .map(|r| (r.id.clone(), r.tags.clone()))
        .collect()
}

/// The roles that bring any of `tags` (through their `tags`, or as their
/// own name): who may hold them.
pub fn roles_bringing(role_tags: &RoleTags, tags: &[TagName]) -> Vec<RoleName> {
    role_tags
        .iter()
        .filter(|(role, brought)| {
            tags.iter()
                .any(|t| brought.contains(t) || *t == TagName::of_role(role))
        })
        .map(|(role, _)| role.clone())
        .collect()
}

/// The tags a node's roles bring: each role's `tags` (default: the role
/// name) and the role name itself, then the instances assigned to it by
/// rule of those tags.
pub fn derived_tags(node: &NodeTags, role_tags: &RoleTags) -> Vec<TagName> {
    let mut tags = role_brought(node, role_tags);
    let assigned: Vec<TagName> = node
        .tags_assigned
        .iter()
        .filter(|t| {
            t.instance_of()
                .is_some_and(|of| tags.iter().any(|b| b.as_str() == of))
        })
        .filter(|t| !tags.contains(t))
        .cloned()
        .collect();
    tags.extend(assigned);
    tags
}

/// The tags a node's roles bring themselves: each role's `tags` and the
/// role name.
pub fn role_brought(node: &NodeTags, role_tags: &RoleTags) -> Vec<TagName> {
    let mut tags: Vec<TagName> = Vec::new();
    let mut push = |t: TagName| {
        if !tags.contains(&t) {
            tags.push(t);
        }
    };
    for role in node.all_roles() {
        if let Some(list) = role_tags.get(role) {
            list.iter().for_each(|t| push(t.clone()));
        }
        push(TagName::of_role(role));
    }
    tags
}

/// A node's tags: derived from its roles, plus those the operator added,
/// minus those removed. Removing a role drops the tags it brought but not
/// those added by hand.
pub fn node_tags(node: &NodeTags, role_tags: &RoleTags) -> Vec<TagName> {
    let mut tags = derived_tags(node, role_tags);
    for added in &node.tags_added {
        if !tags.contains(added) {
            tags.push(added.clone());
        }
    }
    tags.retain(|t| !node.tags_removed.contains(t));
    tags
}

/// For each tag with `has_primary`, the node that is primary for it: a node
/// already primary stays; else the `ready` node with the lowest id; else
/// the lowest id. Nodes pending deletion never are. `tags[i]` are the tags
/// of `nodes[i]`. Returns node index → its primary tags.
pub fn primaries(
    nodes: &[NodeTags],
    tags: &[Vec<TagName>],
    meta: &TagsMetadata,
) -> BTreeMap<usize, Vec<TagName>> {
    let mut out: BTreeMap<usize, Vec<TagName>> = BTreeMap::new();
    for (tag, _) in meta.iter().filter(|(_, m)| m.has_primary) {
        let holders: Vec<usize> = (0..nodes.len())
            .filter(|&i| !nodes[i].pending_deletion && tags[i].contains(tag))
            .collect();
        let lowest = |keep: &dyn Fn(usize) -> bool| {
            holders
                .iter()
                .copied()
                .filter(|&i| keep(i))
                .min_by_key(|&i| nodes[i].id)
        };
        let chosen = lowest(&|i| nodes[i].primary_tags.contains(tag))
            .or_else(|| lowest(&|i| nodes[i].status == NodeStatus::Ready))
            .or_else(|| lowest(&|_| true));
        if let Some(i) = chosen {
            out.entry(i).or_default().push(tag.clone());
        }
    }
    out
}

/// The effective tags of every node: its tags, and in HA `primary-<tag>`
/// for the tags it is primary for.
pub fn effective_tags(
    nodes: &[NodeTags],
    role_tags: &RoleTags,
    meta: &TagsMetadata,
    ha: bool,
) -> Vec<Vec<TagName>> {
    let mut tags: Vec<Vec<TagName>> = nodes.iter().map(|n| node_tags(n, role_tags)).collect();
    if ha {
        for (i, primary) in primaries(nodes, &tags, meta) {
            for tag in primary {
                tags[i].push(tag.primary());
            }
        }
    }
    tags
}

/// Where a tag comes from, by its `source` ([`TagView`]), as
/// the tags page says it.
pub fn source_label(source: &str) -> &'static str {
    match source {
        "release" => "the release",
        "role" => "a role",
        "plugin" => "a plugin",
        "user" => "created on the release",
        "environment" => "created here",
        _ => "elsewhere",
    }
}

/// What the tags page says of each instance of a tag: `mysql:2: n1, n3`.
pub fn instance_lines(view: &TagView) -> Vec<String> {
    view.instance_nodes
        .iter()
        .map(|i| format!("{}:{}: {}", view.name, i.number, i.nodes.join(", ")))
        .collect()
}

/// The `source` of the tags created on a release (`user`) or on an
/// environment (`environment`).
pub fn own_source(on_release: bool) -> &'static str {
    if on_release { "user" } else { "environment" }
}

/// What may be done with a tag where it is shown: only the tags created
/// there can be changed — the others are the release's, a role's or a
/// plugin's —, and a tag a role names cannot be deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagAccess {
    /// Its primary can change and it can be deleted.
    Deletable,
    /// Its primary can change; a role names it, so it stays.
    NamedByRole,
    /// Not created here, or the user may not change tags.
    ReadOnly,
}

impl TagAccess {
    /// For `tag` shown where the tags created have `own` as their source
    /// ([`own_source`]), to a user who may change them (`editable`) or not.
    pub fn of(tag: &TagView, own: &str, editable: bool) -> TagAccess {
        match (editable && tag.source == own, tag.deletable) {
            (true, true) => TagAccess::Deletable,
            (true, false) => TagAccess::NamedByRole,
            (false, _) => TagAccess::ReadOnly,
        }
    }

    /// Whether its primary can be changed.
    pub fn changeable(self) -> bool {
        self != TagAccess::ReadOnly
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(name: &str, source: &str) -> TagView {
        TagView {
            name: name.to_owned(),
            has_primary: false,
            instances: None,
            source: source.to_owned(),
            deletable: true,
            nodes: 0,
            instance_nodes: Vec::new(),
        }
    }

    #[test]
    fn each_instance_is_shown_with_its_nodes() {
        let mut mysql = view("mysql", "environment");
        assert!(instance_lines(&mysql).is_empty());
        mysql.instance_nodes = vec![
            InstanceNodes {
                number: 1,
                nodes: vec!["n1".into(), "n3".into()],
            },
            InstanceNodes {
                number: 2,
                nodes: vec!["n2".into()],
            },
        ];
        assert_eq!(instance_lines(&mysql), ["mysql:1: n1, n3", "mysql:2: n2"]);
    }

    #[test]
    fn inputs_are_offered_every_tag_and_the_next_instance_of_those_created() {
        let mut mysql = view("mysql", "environment");
        mysql.instance_nodes = vec![InstanceNodes {
            number: 2,
            nodes: vec!["n1".into()],
        }];
        let tags = [view("controller", "release"), mysql, view("redis", "user")];
        assert_eq!(
            offered(&tags),
            ["controller", "mysql", "redis", "mysql:3", "redis:1"]
        );
    }

    #[test]
    fn deleting_an_environment_says_what_goes() {
        let tags = [view("controller", "release"), view("mysql", "environment")];
        assert_eq!(
            deletion_question(1, &tags),
            "Delete this environment with its 1 node and its 1 own tag? This cannot be undone."
        );
        assert!(deletion_question(2, &[]).contains("its 2 nodes and its 0 own tags?"));
    }

    fn tags(list: &[&str]) -> Vec<TagName> {
        list.iter().map(|s| TagName::new(*s).unwrap()).collect()
    }

    fn roles(list: &[&str]) -> Vec<RoleName> {
        list.iter().map(|s| RoleName::new(*s).unwrap()).collect()
    }

    #[test]
    fn the_resolver_vector_of_semantics_section_5() {
        let nodes = [
            tags(&["primary-controller"]),
            tags(&["cinder"]),
            tags(&["controller", "compute"]),
            tags(&["controller", "cinder"]),
            tags(&["compute"]),
        ];
        let check = |entry: &str, expected: &[usize]| {
            let selector = Selector::parse(&[entry]).unwrap();
            let got: Vec<usize> = (0..nodes.len())
                .filter(|&i| selector.matches(&nodes[i]))
                .collect();
            assert_eq!(got, expected, "{entry}");
        };
        check("/.*controller/", &[0, 2, 3]);
        check("controller", &[2, 3]);
        check("/c.+/", &[1, 2, 3, 4]);
        check("*", &[0, 1, 2, 3, 4]);
        check("master", &[]);
    }

    #[test]
    fn regexes_are_bounded() {
        let err = Matcher::parse("/(a|b)[/").unwrap_err();
        assert_eq!(err.entry, "/(a|b)[/");
        let huge = format!("/{}/", "(a{1,100}){1,100}".repeat(3));
        let err = Matcher::parse(&huge).unwrap_err();
        assert!(err.message.contains("too large"), "{err}");
    }

    fn role_tags() -> RoleTags {
        [(
            RoleName::new("controller").unwrap(),
            tags(&["controller", "rabbitmq", "database", "keystone", "neutron"]),
        )]
        .into_iter()
        .collect()
    }

    #[test]
    fn roles_bring_their_tags_and_hand_changes_are_kept() {
        let mut node = NodeTags {
            id: 1,
            roles: roles(&["controller"]),
            ..NodeTags::default()
        };
        assert_eq!(
            node_tags(&node, &role_tags()),
            ["controller", "rabbitmq", "database", "keystone", "neutron"]
        );
        node.tags_removed = tags(&["controller", "database", "keystone", "neutron"]);
        assert_eq!(node_tags(&node, &role_tags()), ["rabbitmq"]);
        // A hand-added tag outlives the role.
        node.tags_added = tags(&["mysql:1"]);
        node.roles.clear();
        assert_eq!(node_tags(&node, &role_tags()), ["mysql:1"]);
        // An unknown role is its own tag.
        node.roles = roles(&["custom"]);
        assert_eq!(node_tags(&node, &role_tags()), ["custom", "mysql:1"]);
    }

    #[test]
    fn primaries_stay_then_prefer_ready_then_the_lowest_id() {
        let meta: TagsMetadata = [(
            TagName::new("controller").unwrap(),
            TagMeta {
                has_primary: true,
                instances: None,
            },
        )]
        .into_iter()
        .collect();
        let node = |id, status: NodeStatus| NodeTags {
            id,
            status,
            roles: roles(&["controller"]),
            ..NodeTags::default()
        };
        let mut nodes = vec![
            node(3, NodeStatus::Discover),
            node(2, NodeStatus::Ready),
            node(1, NodeStatus::Discover),
        ];
        let roles = RoleTags::new();
        let effective = effective_tags(&nodes, &roles, &meta, true);
        assert!(
            effective[1].contains(&TagName::new("primary-controller").unwrap()),
            "{effective:?}"
        );
        nodes[1].pending_deletion = true;
        let effective = effective_tags(&nodes, &roles, &meta, true);
        assert!(
            effective[2].contains(&TagName::new("primary-controller").unwrap()),
            "{effective:?}"
        );
        nodes[0].primary_tags = tags(&["controller"]);
        let effective = effective_tags(&nodes, &roles, &meta, true);
        assert!(
            effective[0].contains(&TagName::new("primary-controller").unwrap()),
            "{effective:?}"
        );
        // Not in a non-HA environment.
        let effective = effective_tags(&nodes, &roles, &meta, false);
        assert!(
            effective
                .iter()
                .flatten()
                .all(|t| !t.as_str().starts_with("primary-"))
        );
    }

    #[test]
    fn instance_tags_group_nodes() {
        let nodes = [
            (1, tags(&["corosync:1", "mysql:2"])),
            (2, tags(&["corosync:2", "mysql:1"])),
            (3, tags(&["corosync:2", "mysql:2", "controller"])),
        ];
        let groups = instances(nodes.iter().map(|(id, t)| (*id, t.as_slice())));
        assert_eq!(groups["mysql"][&2], [1, 3]);
        assert_eq!(groups["corosync"][&2], [2, 3]);
        assert_eq!(groups.len(), 2);
    }

    #[test]
    fn instance_tags_are_known_through_their_name() {
        let meta: TagsMetadata = [(TagName::new("mysql").unwrap(), TagMeta::default())]
            .into_iter()
            .collect();
        let roles = BTreeSet::new();
        let tag = |t: &str| TagName::new(t).unwrap();
        assert!(known_tag(&tag("mysql:2"), &meta, &roles));
        assert!(!known_tag(&tag("redis:1"), &meta, &roles));
        assert!(known_tag(&tag("mysql"), &meta, &roles));
    }

    #[test]
    fn only_the_tags_created_here_can_be_changed_and_a_roles_not_deleted() {
        let tag = |name: &str, source: &str, deletable| TagView {
            name: name.to_owned(),
            has_primary: false,
            instances: None,
            source: source.to_owned(),
            deletable,
            nodes: 3,
            instance_nodes: Vec::new(),
        };
        let here = own_source(false);
        let controller = tag("controller", "release", false);
        let mysql = tag("mysql", "environment", true);
        let db = tag("db", "environment", false);
        assert_eq!(TagAccess::of(&controller, here, true), TagAccess::ReadOnly);
        assert_eq!(TagAccess::of(&mysql, here, true), TagAccess::Deletable);
        assert_eq!(TagAccess::of(&db, here, true), TagAccess::NamedByRole);
        assert!(TagAccess::NamedByRole.changeable() && !TagAccess::ReadOnly.changeable());
        // A user who may not change tags, or the release's page.
        assert_eq!(TagAccess::of(&mysql, here, false), TagAccess::ReadOnly);
        assert_eq!(
            TagAccess::of(&mysql, own_source(true), true),
            TagAccess::ReadOnly
        );
        assert_eq!(source_label(&controller.source), "the release");
        assert_eq!(source_label("environment"), "created here");
    }
}
