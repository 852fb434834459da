//! An environment's nodes as an admin works with them at scale: filtered
//! by name, role, tag, status and node group, sorted, and paged; what the node table
//! and its forms show beyond the nodes themselves (the count line, the
//! sort marks, where a tag comes from, a role's box); and the deployment
//! preview's groups of nodes whose plans are the same, as their entries
//! name them.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::environment::NodeView;
use crate::name::{NodeStatus, RoleName, TagName, TaskId};
use crate::role_layer::RoleView;
use crate::task::{NodePlan, Plan};
use crate::text::{natural, plural};

/// Which nodes to show. Empty fields match every node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeFilter {
    /// A part of the name, any case.
    pub name: String,
    pub role: Option<RoleName>,
    /// A tag the node carries (or an instance `name:N` of it).
    pub tag: Option<TagName>,
    pub status: Option<NodeStatus>,
    /// Its node group (rack), by name.
    pub node_group: Option<String>,
    /// A switch one of its NICs is cabled to (LLDP), by name.
    pub switch: Option<String>,
    /// Only these nodes (the ones a check names); empty: any.
    pub only: Vec<i64>,
}

impl NodeFilter {
    pub fn matches(&self, node: &NodeView) -> bool {
        name_matches(&self.name, &node.name)
            && self
                .role
                .as_ref()
                .is_none_or(|r| node.roles.contains(r) || node.pending_roles.contains(r))
            && self.tag.as_ref().is_none_or(|t| {
                node.tags
                    .iter()
                    .any(|n| n == t || n.instance_of() == Some(t.as_str()))
            })
            && self.status.is_none_or(|s| node.status == s)
            && self
                .node_group
                .as_ref()
                .is_none_or(|g| node.node_group == *g)
            && self
                .switch
                .as_ref()
                .is_none_or(|s| switches(node).contains(s))
            && (self.only.is_empty() || self.only.contains(&node.id))
    }
}

/// The switches LLDP names for `node`'s NICs (none before its hardware is
/// found).
pub fn switches(node: &NodeView) -> &[String] {
    node.hardware
        .as_ref()
        .map_or(&[], |h| h.switches.as_slice())
}

/// Every switch `nodes` are cabled to, sorted, each once: the switch
/// filter's choices.
pub fn all_switches(nodes: &[NodeView]) -> Vec<String> {
    let mut names: Vec<String> = nodes.iter().flat_map(|n| switches(n).to_vec()).collect();
    names.sort();
    names.dedup();
    names
}

/// The column nodes are sorted by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NodeSort {
    #[default]
    Id,
    Name,
    Status,
    Group,
    Roles,
}

impl NodeSort {
    /// The columns a table sorts by, with their headers.
    pub const COLUMNS: [(NodeSort, &'static str); 4] = [
        (NodeSort::Name, "Name"),
        (NodeSort::Status, "Status"),
        (NodeSort::Group, "Node group"),
        (NodeSort::Roles, "Roles"),
    ];

    /// The column headed `label`.
    pub fn of_column(label: &str) -> Option<NodeSort> {
        NodeSort::COLUMNS
            .iter()
            .find(|(_, l)| *l == label)
            .map(|(sort, _)| *sort)
    }

    /// The sort after a click on `column`'s header: by it ascending, or
    /// descending when it was already ascending.
    pub fn clicked(self, descending: bool, column: NodeSort) -> (NodeSort, bool) {
        (column, self == column && !descending)
    }
}

/// Rows on one page of the node table.
pub const PAGE: usize = 50;

/// How many pages `shown` nodes take (at least one).
pub fn page_count(shown: usize) -> usize {
    shown.div_ceil(PAGE).max(1)
}

/// The items of page `page` (from 0) of `items`.
pub fn page_of<T>(items: &[T], page: usize) -> &[T] {
    let start = page.saturating_mul(PAGE).min(items.len());
    let end = start.saturating_add(PAGE).min(items.len());
    &items[start..end]
}

/// The table's count line: "Nodes 51–100 of 200 (filtered from 1000); 20
/// selected", for page `page` of the `shown` nodes the filters let
/// through, of `total`, with `selected` selected.
pub fn count_line(page: usize, shown: usize, total: usize, selected: usize) -> String {
    let mut out = if shown == 0 {
        "No node matches".to_owned()
    } else {
        let first = page * PAGE + 1;
        let last = (page * PAGE + PAGE).min(shown);
        format!("Nodes {first}–{last} of {shown}")
    };
    if shown != total {
        out.push_str(&format!(" (filtered from {total})"));
    }
    if selected > 0 {
        out.push_str(&format!("; {selected} selected"));
    }
    out
}

/// What a role's box says when pointed at: why it is not available, or
/// what it is and the tags it brings.
pub fn role_title(role: &RoleView) -> String {
    match &role.unavailable {
        Some(why) => format!("Not available: {why}"),
        None => {
            let tags: Vec<&str> = role.tags.iter().map(TagName::as_str).collect();
            format!("{} — tags: {}", role.description, tags.join(", "))
        }
    }
}

/// "N role(s) not available here": the summary of the roles the
/// environment's settings rule out.
pub fn unavailable_summary(count: usize) -> String {
    format!("{count} role{} not available here", plural(count))
}

/// Where a node's tag comes from, as its chip says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TagOrigin {
    /// `primary-*`: chosen by Mosaic; it cannot be removed by hand.
    Primary,
    /// Brought by one of the node's roles.
    Role,
    /// Added by hand.
    Hand,
}

impl TagOrigin {
    /// Where `node`'s tag `tag` comes from.
    pub fn of(node: &NodeView, tag: &TagName) -> TagOrigin {
        if tag.as_str().starts_with("primary-") {
            TagOrigin::Primary
        } else if node.role_tags.contains(tag) {
            TagOrigin::Role
        } else {
            TagOrigin::Hand
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            TagOrigin::Primary => "primary: chosen by Mosaic in HA environments",
            TagOrigin::Role => "brought by a role",
            TagOrigin::Hand => "added by hand",
        }
    }

    /// Whether an operator may remove the tag from the node.
    pub fn removable(self) -> bool {
        self != TagOrigin::Primary
    }
}

/// The nodes that pass `filter`, sorted by `sort` (then by id), reversed
/// when `descending`. Names sort naturally: `node-9` before `node-10`.
pub fn select<'a>(
    nodes: &'a [NodeView],
    filter: &NodeFilter,
    sort: NodeSort,
    descending: bool,
) -> Vec<&'a NodeView> {
    let mut out: Vec<&NodeView> = nodes.iter().filter(|n| filter.matches(n)).collect();
    let roles = |n: &NodeView| {
        n.roles
            .iter()
            .map(RoleName::as_str)
            .collect::<Vec<_>>()
            .join(",")
    };
    out.sort_by(|a, b| {
        let order = match sort {
            NodeSort::Id => a.id.cmp(&b.id),
            NodeSort::Name => natural(&a.name).cmp(&natural(&b.name)),
            NodeSort::Status => a.status.as_str().cmp(b.status.as_str()),
            NodeSort::Group => natural(&a.node_group).cmp(&natural(&b.node_group)),
            NodeSort::Roles => roles(a).cmp(&roles(b)),
        };
        order.then(a.id.cmp(&b.id))
    });
    if descending {
        out.reverse();
    }
    out
}

/// `text` in lower case, a character at a time: unlike `str::to_lowercase`,
/// which lowers a final Greek sigma to `ς`, a substring's lower case is then
/// always a substring of the whole's, which the name filter relies on.
/// Whether `name` holds the text typed in a name filter (`filter`, trimmed),
/// any case: every name for empty text. The node table's and the Deploy
/// tab's.
pub fn name_matches(filter: &str, name: &str) -> bool {
    let filter = lower(filter.trim());
    filter.is_empty() || lower(name).contains(&filter)
}

fn lower(text: &str) -> String {
    text.chars().flat_map(char::to_lowercase).collect()
}

/// Nodes whose plans are the same: their ids, the tags all of them carry,
/// and the tasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanGroup {
    pub nodes: Vec<Value>,
    pub tags: Vec<TagName>,
    pub tasks: Vec<TaskId>,
}

impl Plan {
    /// The plan's nodes grouped by identical task lists, in the order of
    /// each group's first node.
    pub fn groups(&self) -> Vec<PlanGroup> {
        let mut groups: Vec<PlanGroup> = Vec::new();
        let mut index: HashMap<&[TaskId], usize> = HashMap::new();
        for NodePlan { id, tags, tasks } in &self.nodes {
            match index.get(tasks.as_slice()) {
                Some(&at) => {
                    let group = &mut groups[at];
                    group.nodes.push(id.clone());
                    group.tags.retain(|t| tags.contains(t));
                }
                None => {
                    index.insert(tasks, groups.len());
                    groups.push(PlanGroup {
                        nodes: vec![id.clone()],
                        tags: tags.clone(),
                        tasks: tasks.clone(),
                    });
                }
            }
        }
        groups
    }
}

/// How many node names a group's summary lists before "and N more".
pub const NAMED: usize = 6;

impl PlanGroup {
    /// The group's node ids as `data-nodes` lists them: numbers, or
    /// `master`.
    pub fn node_ids(&self) -> Vec<String> {
        self.nodes.iter().map(node_id).collect()
    }

    /// "compute, ceph-osd": the tags every node of the group carries, or
    /// "no common tag".
    pub fn title(&self) -> String {
        if self.tags.is_empty() {
            return "no common tag".to_owned();
        }
        let tags: Vec<&str> = self.tags.iter().map(TagName::as_str).collect();
        tags.join(", ")
    }

    /// "12 nodes: compute — 40 tasks": what the group's summary says in bold,
    /// then after.
    pub fn headline(&self) -> (String, String) {
        let count = self.nodes.len();
        (
            format!("{count} node{}: {}", plural(count), self.title()),
            format!(" — {} tasks", self.tasks.len()),
        )
    }

    /// " (rack1-1, rack1-2, node 3 and 5 more)": the first [`NAMED`] nodes
    /// by name (`names`: the environment's nodes, id and name), and how
    /// many more there are.
    pub fn names(&self, names: &[(i64, String)]) -> String {
        let ids = self.node_ids();
        let shown: Vec<String> = ids
            .iter()
            .take(NAMED)
            .map(|id| name_of(id, names))
            .collect();
        let mut out = format!(" ({}", shown.join(", "));
        if ids.len() > NAMED {
            out.push_str(&format!(" and {} more", ids.len() - NAMED));
        }
        out.push(')');
        out
    }

    /// A small group starts unfolded.
    pub fn open(&self) -> bool {
        self.nodes.len() <= 3
    }
}

/// A plan's node id as written in `data-nodes`: a number, or `master`.
fn node_id(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn name_of(id: &str, names: &[(i64, String)]) -> String {
    match names.iter().find(|(n, _)| n.to_string() == id) {
        Some((_, name)) => name.clone(),
        None if id == "master" => "Fuel master".to_owned(),
        None => format!("node {id}"),
    }
}

/// The views of `after` a change touched: the nodes it `changed`, and any
/// other whose view moved with them (a primary tag elected on another
/// node). What a bulk change answers, so that a client patching its list
/// with it ends up with the list the server has.
pub fn views_changed(
    before: &[NodeView],
    after: Vec<NodeView>,
    changed: &HashSet<i64>,
) -> Vec<NodeView> {
    let before: HashMap<i64, &NodeView> = before.iter().map(|v| (v.id, v)).collect();
    after
        .into_iter()
        .filter(|v| changed.contains(&v.id) || before.get(&v.id) != Some(&v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_answers_its_nodes_and_those_that_moved_with_them() {
        let before = vec![
            NodeView::sample(1, "a", &["controller"], &["controller"], &["controller"]),
            NodeView::sample(2, "b", &["controller"], &["controller"], &["controller"]),
            NodeView::sample(3, "c", &[], &[], &[]),
        ];
        let mut after = before.clone();
        after[0].roles.clear();
        after[1]
            .tags
            .push(TagName::new("primary-controller").unwrap());
        let changed = HashSet::from([1, 3]);
        let ids: Vec<i64> = views_changed(&before, after, &changed)
            .iter()
            .map(|v| v.id)
            .collect();
        // 3 was changed to what it was: still answered, as the server changed it.
        assert_eq!(ids, [1, 2, 3]);
    }

    fn view(id: i64, name: &str, roles: &[&str], tags: &[&str]) -> NodeView {
        NodeView {
            status: NodeStatus::Discover,
            error_type: None,
            ..NodeView::sample(id, name, roles, tags, &[])
        }
    }

    #[test]
    fn nodes_filter_by_name_role_and_tag_and_sort_naturally() {
        let nodes = vec![
            view(1, "rack1-10", &["compute"], &["compute", "mysql:1"]),
            view(2, "rack1-9", &["compute"], &["compute"]),
            view(3, "rack2-1", &["controller"], &["controller"]),
        ];
        let filter = NodeFilter {
            name: "RACK1".to_owned(),
            ..NodeFilter::default()
        };
        let names: Vec<&str> = select(&nodes, &filter, NodeSort::Name, false)
            .iter()
            .map(|n| n.name.as_str())
            .collect();
        assert_eq!(names, ["rack1-9", "rack1-10"]);
        let mysql = NodeFilter {
            tag: Some(TagName::new("mysql").unwrap()),
            ..NodeFilter::default()
        };
        assert_eq!(select(&nodes, &mysql, NodeSort::Id, false).len(), 1);
        let controllers = NodeFilter {
            role: Some(RoleName::new("controller").unwrap()),
            ..NodeFilter::default()
        };
        let ids: Vec<i64> = select(&nodes, &controllers, NodeSort::Id, true)
            .iter()
            .map(|n| n.id)
            .collect();
        assert_eq!(ids, [3]);
    }

    #[test]
    fn nodes_filter_and_sort_by_node_group() {
        let in_group = |id: i64, name: &str, group: &str| NodeView {
            node_group: group.to_owned(),
            ..view(id, name, &["compute"], &["compute"])
        };
        let nodes = vec![
            in_group(1, "a", "rack-10"),
            in_group(2, "b", "default"),
            in_group(3, "c", "rack-9"),
            in_group(4, "d", "rack-10"),
        ];
        let ids = |filter: &NodeFilter, sort: NodeSort| -> Vec<i64> {
            select(&nodes, filter, sort, false)
                .iter()
                .map(|n| n.id)
                .collect()
        };
        let rack = NodeFilter {
            node_group: Some("rack-10".to_owned()),
            ..NodeFilter::default()
        };
        assert_eq!(ids(&rack, NodeSort::Id), [1, 4]);
        let cabled = |id: i64, switch: &str| NodeView {
            hardware: Some(crate::hardware::HardwareStamp {
                source: crate::hardware::HardwareSource::Ansible,
                found_at: String::new(),
                switches: vec![switch.to_owned()],
            }),
            ..view(id, "n", &[], &[])
        };
        let found = [cabled(1, "sw-a"), cabled(2, "sw-b"), view(3, "m", &[], &[])];
        assert_eq!(all_switches(&found), ["sw-a", "sw-b"]);
        let on_b = NodeFilter {
            switch: Some("sw-b".to_owned()),
            ..NodeFilter::default()
        };
        let picked: Vec<i64> = select(&found, &on_b, NodeSort::Id, false)
            .iter()
            .map(|n| n.id)
            .collect();
        assert_eq!(picked, [2]);
        let none = NodeFilter {
            node_group: Some("rack".to_owned()),
            ..NodeFilter::default()
        };
        assert!(
            ids(&none, NodeSort::Id).is_empty(),
            "a group is named whole"
        );
        // Racks sort naturally, then by id.
        assert_eq!(ids(&NodeFilter::default(), NodeSort::Group), [2, 3, 1, 4]);
        assert_eq!(NodeSort::of_column("Node group"), Some(NodeSort::Group));
    }

    #[test]
    fn names_match_whatever_their_case_and_script() {
        let nodes = vec![
            view(1, "Éclair-Ω-1", &[], &[]),
            view(2, "rack1", &[], &[]),
            view(3, "ΟΔΟΣ-3", &[], &[]),
        ];
        for (text, ids) in [
            ("écLAIR", vec![1]),
            ("ω", vec![1]),
            ("RACK", vec![2]),
            // A final sigma is lowered as any other.
            ("οδοσ", vec![3]),
            ("", vec![1, 2, 3]),
        ] {
            let filter = NodeFilter {
                name: text.to_owned(),
                ..NodeFilter::default()
            };
            let found: Vec<i64> = select(&nodes, &filter, NodeSort::Id, false)
                .iter()
                .map(|n| n.id)
                .collect();
            assert_eq!(found, ids, "{text:?}");
        }
    }

    #[test]
    fn plans_group_nodes_with_the_same_tasks() {
        let task = |t: &str| TaskId::new(t).unwrap();
        let tag = |t: &str| TagName::new(t).unwrap();
        let plan = Plan {
            nodes: vec![
                NodePlan {
                    id: Value::from(1),
                    tags: vec![tag("compute"), tag("rack1")],
                    tasks: vec![task("a")],
                },
                NodePlan {
                    id: Value::from(2),
                    tags: vec![tag("controller")],
                    tasks: vec![task("b")],
                },
                NodePlan {
                    id: Value::from(3),
                    tags: vec![tag("compute")],
                    tasks: vec![task("a")],
                },
            ],
            ..Plan::default()
        };
        let groups = plan.groups();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].nodes, [Value::from(1), Value::from(3)]);
        assert_eq!(groups[0].tags, [tag("compute")]);
    }

    fn group(nodes: &[Value], tags: &[&str], tasks: &[&str]) -> PlanGroup {
        PlanGroup {
            nodes: nodes.to_vec(),
            tags: tags.iter().map(|t| TagName::new(*t).unwrap()).collect(),
            tasks: tasks.iter().map(|t| TaskId::new(*t).unwrap()).collect(),
        }
    }

    #[test]
    fn a_group_names_its_nodes_tags_and_tasks() {
        let ids: Vec<Value> = (1..=8).map(Value::from).collect();
        let g = group(&ids, &["compute", "ceph-osd"], &["netconfig", "nova"]);
        let names = [(1, "rack1-n1".to_owned()), (2, "rack1-n2".to_owned())];
        assert_eq!(g.node_ids().join(" "), "1 2 3 4 5 6 7 8");
        assert_eq!(
            g.headline(),
            (
                "8 nodes: compute, ceph-osd".to_owned(),
                " — 2 tasks".to_owned()
            )
        );
        assert_eq!(
            g.names(&names),
            " (rack1-n1, rack1-n2, node 3, node 4, node 5, node 6 and 2 more)"
        );
        assert!(!g.open());
    }

    #[test]
    fn small_groups_start_open_and_the_master_is_named() {
        let g = group(&[Value::from("master")], &[], &["upload"]);
        assert_eq!(g.node_ids(), ["master"]);
        assert!(g.open());
        assert_eq!(g.headline().0, "1 node: no common tag");
        assert_eq!(g.names(&[]), " (Fuel master)");
    }

    #[test]
    fn the_count_line_counts_the_page_the_filter_and_the_selection() {
        assert_eq!(
            count_line(1, 120, 1000, 20),
            "Nodes 51–100 of 120 (filtered from 1000); 20 selected"
        );
        assert_eq!(count_line(2, 120, 120, 0), "Nodes 101–120 of 120");
        assert_eq!(count_line(0, 0, 0, 0), "No node matches");
        assert_eq!(count_line(0, 0, 3, 0), "No node matches (filtered from 3)");
    }

    #[test]
    fn a_click_sorts_by_its_column_ascending_then_descending() {
        assert_eq!(
            NodeSort::Name.clicked(false, NodeSort::Name),
            (NodeSort::Name, true)
        );
        assert_eq!(
            NodeSort::Name.clicked(true, NodeSort::Roles),
            (NodeSort::Roles, false)
        );
    }

    #[test]
    fn pages_hold_fifty_nodes_and_the_last_one_the_rest() {
        assert_eq!(page_count(0), 1);
        assert_eq!(page_count(PAGE), 1);
        assert_eq!(page_count(120), 3);
        let items: Vec<usize> = (0..120).collect();
        assert_eq!(page_of(&items, 1).first(), Some(&50));
        assert_eq!(page_of(&items, 2).len(), 20);
        assert!(page_of(&items, 9).is_empty());
    }

    #[test]
    fn a_tag_says_where_it_comes_from_and_a_primary_stays() {
        let tags = ["controller", "mysql", "primary-controller"];
        let node = NodeView::sample(7, "rack1-7", &["controller"], &tags, &["controller"]);
        let origin = |t: &str| TagOrigin::of(&node, &TagName::new(t).unwrap());
        assert_eq!(origin("controller"), TagOrigin::Role);
        assert_eq!(origin("mysql").title(), "added by hand");
        assert_eq!(origin("primary-controller"), TagOrigin::Primary);
        assert!(!origin("primary-controller").removable());
        assert!(origin("controller").removable());
    }

    #[test]
    fn a_role_box_says_why_it_is_not_available_or_what_it_brings() {
        let role = |why: Option<&str>| RoleView {
            id: RoleName::new("ceph-osd").unwrap(),
            name: "Ceph OSD".to_owned(),
            description: "Stores".to_owned(),
            tags: vec![TagName::new("ceph-osd").unwrap()],
            unavailable: why.map(str::to_owned),
            plugin: None,
            tags_source: Default::default(),
            created: None,
            nodes: 0,
        };
        assert_eq!(role_title(&role(None)), "Stores — tags: ceph-osd");
        assert_eq!(
            role_title(&role(Some("needs Ceph"))),
            "Not available: needs Ceph"
        );
        assert_eq!(unavailable_summary(1), "1 role not available here");
        assert_eq!(unavailable_summary(2), "2 roles not available here");
    }
}
