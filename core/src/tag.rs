//! Tags (SEMANTICS §5, role decomposition): the tags metadata of releases,
//! plugins and environments, the tags a node carries (from its roles, plus
//! and minus the operator's changes, plus `primary-<tag>` in HA), and the
//! resolver that decides whether a task's selector picks a node.

use std::collections::{BTreeMap, BTreeSet};

use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Compiled regular expressions may use this much memory at most: enough
/// for any sensible tag pattern, small enough that a hostile one fails
/// fast with a clear error.
pub const REGEX_SIZE_LIMIT: usize = 64 * 1024;

/// `{has_primary}` of one tag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagMeta {
    #[serde(default)]
    pub has_primary: bool,
}

/// Tag → metadata, as releases, plugins and environments declare it.
pub type TagsMetadata = BTreeMap<String, TagMeta>;

/// Whether `name` may name a tag: `[A-Za-z0-9_-]+`.
pub fn valid_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Reads a `tags_metadata` value (`null` is empty).
pub fn tags_metadata(value: &Value) -> Result<TagsMetadata, String> {
    if value.is_null() {
        return Ok(TagsMetadata::new());
    }
    let map = value
        .as_object()
        .ok_or("tags metadata must map tag names to {has_primary}")?;
    map.iter()
        .map(|(tag, meta)| {
            let meta = if meta.is_null() {
                TagMeta::default()
            } else {
                serde_json::from_value(meta.clone()).map_err(|e| format!("tag '{tag}': {e}"))?
            };
            Ok((tag.clone(), meta))
        })
        .collect()
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

/// `name:N` (`mysql:1`): the name, when `tag` is an instance tag.
pub fn instance_name(tag: &str) -> Option<&str> {
    let (name, number) = tag.split_once(':')?;
    (!name.is_empty() && !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
        .then_some(name)
}

/// Which nodes form each instance: name → instance number → node ids, from
/// the instance tags `name:N` the nodes carry (`mysql:2` on nodes 1 and 3:
/// those two form MySQL instance 2).
pub fn instances<'a>(
    nodes: impl IntoIterator<Item = (i64, &'a [String])>,
) -> BTreeMap<String, BTreeMap<u64, Vec<i64>>> {
    let mut out: BTreeMap<String, BTreeMap<u64, Vec<i64>>> = BTreeMap::new();
    for (id, tags) in nodes {
        for tag in tags {
            if let Some(name) = instance_name(tag)
                && let Ok(n) = tag[name.len() + 1..].parse()
            {
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

/// A tag that may be added to a node: known, or an instance of a known one.
pub fn known_tag(tag: &str, known: &TagsMetadata, role_tags: &BTreeSet<String>) -> bool {
    let is_known = |t: &str| known.contains_key(t) || role_tags.contains(t);
    is_known(tag) || instance_name(tag).is_some_and(is_known)
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
    pub fn matches(&self, tags: &[String]) -> bool {
        match self {
            Matcher::Any => true,
            Matcher::Master => false,
            Matcher::Exact(tag) => tags.iter().any(|t| t == tag),
            Matcher::Regex(re) => tags.iter().any(|t| re.is_match(t)),
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

    /// The selector of a task definition; empty when it names none.
    pub fn of_task(task: &Value) -> Result<Selector, SelectorError> {
        for key in ["tags", "roles", "role", "groups"] {
            match task.get(key) {
                None => continue,
                Some(Value::String(one)) => return Selector::parse(&[one]),
                Some(Value::Array(items)) => {
                    let entries: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                    return Selector::parse(&entries);
                }
                Some(_) => return Ok(Selector::default()),
            }
        }
        Ok(Selector::default())
    }

    pub fn matches(&self, tags: &[String]) -> bool {
        self.entries.iter().any(|m| m.matches(tags))
    }

    pub fn selects_master(&self) -> bool {
        self.entries.iter().any(|m| matches!(m, Matcher::Master))
    }
}

/// A node as tag derivation sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeTags {
    pub id: i64,
    #[serde(default = "discover")]
    pub status: String,
    #[serde(default)]
    pub roles: Vec<String>,
    #[serde(default)]
    pub pending_roles: Vec<String>,
    #[serde(default)]
    pub tags_added: Vec<String>,
    #[serde(default)]
    pub tags_removed: Vec<String>,
    /// Tags this node is already primary for.
    #[serde(default)]
    pub primary_tags: Vec<String>,
    #[serde(default)]
    pub pending_deletion: bool,
}

fn discover() -> String {
    "discover".to_owned()
}

/// The tags a node's roles bring: each role's `tags` (default: the role
/// name) and the role name itself. `role_tags` maps role → its tags.
pub fn derived_tags(node: &NodeTags, role_tags: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    let mut push = |t: &str| {
        if !tags.iter().any(|x| x == t) {
            tags.push(t.to_owned());
        }
    };
    for role in node.roles.iter().chain(&node.pending_roles) {
        match role_tags.get(role) {
            Some(list) => list.iter().for_each(|t| push(t)),
            None => push(role),
        }
        push(role);
    }
    tags
}

/// A node's tags: derived from its roles, plus those the operator added,
/// minus those removed. Removing a role drops the tags it brought but not
/// those added by hand.
pub fn node_tags(node: &NodeTags, role_tags: &BTreeMap<String, Vec<String>>) -> Vec<String> {
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
    tags: &[Vec<String>],
    meta: &TagsMetadata,
) -> BTreeMap<usize, Vec<String>> {
    let mut out: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (tag, _) in meta.iter().filter(|(_, m)| m.has_primary) {
        let holders: Vec<usize> = (0..nodes.len())
            .filter(|&i| !nodes[i].pending_deletion && tags[i].contains(tag))
            .collect();
        let lowest =
            |candidates: &mut dyn Iterator<Item = usize>| candidates.min_by_key(|&i| nodes[i].id);
        let chosen = lowest(
            &mut holders
                .iter()
                .copied()
                .filter(|&i| nodes[i].primary_tags.contains(tag)),
        )
        .or_else(|| {
            lowest(
                &mut holders
                    .iter()
                    .copied()
                    .filter(|&i| nodes[i].status == "ready"),
            )
        })
        .or_else(|| lowest(&mut holders.iter().copied()));
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
    role_tags: &BTreeMap<String, Vec<String>>,
    meta: &TagsMetadata,
    ha: bool,
) -> Vec<Vec<String>> {
    let mut tags: Vec<Vec<String>> = nodes.iter().map(|n| node_tags(n, role_tags)).collect();
    if ha {
        for (i, primary) in primaries(nodes, &tags, meta) {
            for tag in primary {
                tags[i].push(format!("primary-{tag}"));
            }
        }
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
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
    fn selectors_prefer_tags_then_roles_then_groups() {
        let task = serde_json::json!({"tags": [], "role": ["controller"]});
        assert!(Selector::of_task(&task).unwrap().entries.is_empty());
        let task = serde_json::json!({"role": "controller", "groups": ["compute"]});
        assert_eq!(
            Selector::of_task(&task).unwrap().entries,
            [Matcher::Exact("controller".into())]
        );
        let task = serde_json::json!({"groups": ["/comp.*/"]});
        assert!(
            Selector::of_task(&task)
                .unwrap()
                .matches(&tags(&["compute"]))
        );
    }

    #[test]
    fn regexes_are_bounded() {
        let err = Matcher::parse("/(a|b)[/").unwrap_err();
        assert_eq!(err.entry, "/(a|b)[/");
        let huge = format!("/{}/", "(a{1,100}){1,100}".repeat(3));
        let err = Matcher::parse(&huge).unwrap_err();
        assert!(err.message.contains("too large"), "{err}");
    }

    fn role_tags() -> BTreeMap<String, Vec<String>> {
        [(
            "controller".to_owned(),
            tags(&["controller", "rabbitmq", "database", "keystone", "neutron"]),
        )]
        .into_iter()
        .collect()
    }

    #[test]
    fn roles_bring_their_tags_and_hand_changes_are_kept() {
        let mut node = NodeTags {
            id: 1,
            roles: tags(&["controller"]),
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
        node.roles = tags(&["custom"]);
        assert_eq!(node_tags(&node, &role_tags()), ["custom", "mysql:1"]);
    }

    #[test]
    fn primaries_stay_then_prefer_ready_then_the_lowest_id() {
        let meta: TagsMetadata = [("controller".to_owned(), TagMeta { has_primary: true })]
            .into_iter()
            .collect();
        let node = |id, status: &str| NodeTags {
            id,
            status: status.into(),
            roles: tags(&["controller"]),
            ..NodeTags::default()
        };
        let mut nodes = vec![node(3, "discover"), node(2, "ready"), node(1, "discover")];
        let roles: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let effective = effective_tags(&nodes, &roles, &meta, true);
        assert!(
            effective[1].contains(&"primary-controller".to_owned()),
            "{effective:?}"
        );
        nodes[1].pending_deletion = true;
        let effective = effective_tags(&nodes, &roles, &meta, true);
        assert!(
            effective[2].contains(&"primary-controller".to_owned()),
            "{effective:?}"
        );
        nodes[0].primary_tags = tags(&["controller"]);
        let effective = effective_tags(&nodes, &roles, &meta, true);
        assert!(
            effective[0].contains(&"primary-controller".to_owned()),
            "{effective:?}"
        );
        // Not in a non-HA environment.
        let effective = effective_tags(&nodes, &roles, &meta, false);
        assert!(
            effective
                .iter()
                .flatten()
                .all(|t| !t.starts_with("primary-"))
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
        let meta: TagsMetadata = [("mysql".to_owned(), TagMeta::default())]
            .into_iter()
            .collect();
        let roles = BTreeSet::new();
        assert!(known_tag("mysql:2", &meta, &roles));
        assert!(!known_tag("redis:1", &meta, &roles));
        assert!(!known_tag("mysql:x", &meta, &roles));
        assert_eq!(instance_name("mysql:12"), Some("mysql"));
    }
}
