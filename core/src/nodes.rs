//! An environment's nodes as an admin works with them at scale: filtered
//! by name, role, tag and status, sorted, and paged; and the deployment
//! preview's groups of nodes whose plans are the same.

use std::collections::HashMap;

use serde_json::Value;

use crate::api::NodeView;
use crate::name::{NodeStatus, RoleName, TagName, TaskId};
use crate::task::{NodePlan, Plan};

/// Which nodes to show. Empty fields match every node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeFilter {
    /// A part of the name, any case.
    pub name: String,
    pub role: Option<RoleName>,
    /// A tag the node carries (or an instance `name:N` of it).
    pub tag: Option<TagName>,
    pub status: Option<NodeStatus>,
    /// Only these nodes (the ones a check names); empty: any.
    pub only: Vec<i64>,
}

impl NodeFilter {
    pub fn matches(&self, node: &NodeView) -> bool {
        let name = lower(self.name.trim());
        (name.is_empty() || lower(&node.name).contains(&name))
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
            && (self.only.is_empty() || self.only.contains(&node.id))
    }
}

/// The column nodes are sorted by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NodeSort {
    #[default]
    Id,
    Name,
    Status,
    Roles,
}

impl NodeSort {
    /// The columns a table sorts by, with their headers.
    pub const COLUMNS: [(NodeSort, &'static str); 3] = [
        (NodeSort::Name, "Name"),
        (NodeSort::Status, "Status"),
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
fn lower(text: &str) -> String {
    text.chars().flat_map(char::to_lowercase).collect()
}

/// A sort key that orders runs of digits by their value.
fn natural(text: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut letters = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut number = u64::from(c.to_digit(10).unwrap_or(0));
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                number = number.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            key.push((std::mem::take(&mut letters), number));
        } else {
            letters.extend(c.to_lowercase());
        }
    }
    key.push((letters, 0));
    key
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

#[cfg(test)]
mod tests {
    use super::*;

    fn view(id: i64, name: &str, roles: &[&str], tags: &[&str]) -> NodeView {
        NodeView {
            status: NodeStatus::Discover,
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
}
