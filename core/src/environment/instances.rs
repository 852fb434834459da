//! Instance tags by rule (SEMANTICS §5.1, the seed's extension callback
//! declared as a tag's `instances: N`): a node a role brings such a tag to
//! also gets `tag:k` of the instance with the fewest nodes (ties: the
//! smallest k), nodes taken in node order. The assignment is stored on the
//! node (`tags_assigned`) so that it stays when nodes come and go; a node
//! carrying an instance of the tag by hand keeps it and gets none.

use std::collections::{BTreeMap, BTreeSet};

use super::Environment;
use crate::name::{RoleName, TagName};
use crate::role_layer::InstanceTagChanges;
use crate::tag::{self, NodeTags, RoleTags, TagsMetadata};

impl Environment<'_> {
    /// `nodes` (the environment's, changed) with instance tags assigned to
    /// those of `changed` (ids) that lack one their roles call for.
    pub fn assign_instances(&self, nodes: &mut [NodeTags], changed: &BTreeSet<i64>) {
        assign_instances(nodes, changed, &self.role_tags(), &self.tags_metadata());
    }

    /// `node` (one of the environment's, changed, or a new one) with the
    /// instance tags its roles call for, among `others`: at least every
    /// node of the environment that [`Self::instance_contenders`] names
    /// (more do no harm), so that one node's change need not read them all.
    pub fn node_with_instances(&self, node: NodeTags, others: &[NodeTags]) -> NodeTags {
        let mut all: Vec<NodeTags> = others.iter().filter(|n| n.id != node.id).cloned().collect();
        all.sort_by_key(|n| n.id);
        let at = all.partition_point(|n| node.id == 0 || n.id < node.id);
        let id = node.id;
        all.insert(at, node);
        self.assign_instances(&mut all, &BTreeSet::from([id]));
        all.swap_remove(at)
    }

    /// The instance tags a change of roles gives and takes (SEMANTICS
    /// §5.1), this environment being the one after the change: every node
    /// holding role `role` forgets the assignments no role of it calls for
    /// any more and gets those it now lacks. The nodes that change (each
    /// at the version read), and the counts.
    pub fn reassign_instances(&self, role: &str) -> (Vec<NodeTags>, InstanceTagChanges) {
        self.reassign_instances_of(&self.holder_ids(role))
    }

    /// [`Self::reassign_instances`] for every node: what an upgrade, which
    /// may change any role's tags, does.
    pub fn reassign_all_instances(&self) -> (Vec<NodeTags>, InstanceTagChanges) {
        self.reassign_instances_of(&self.spec.nodes.iter().map(|n| n.id).collect())
    }

    fn reassign_instances_of(&self, ids: &BTreeSet<i64>) -> (Vec<NodeTags>, InstanceTagChanges) {
        let mut nodes = self.spec.nodes.clone();
        self.assign_instances(&mut nodes, ids);
        let mut changes = InstanceTagChanges::default();
        let changed: Vec<NodeTags> = nodes
            .into_iter()
            .zip(&self.spec.nodes)
            .filter(|(next, was)| next.tags_assigned != was.tags_assigned)
            .map(|(next, was)| {
                let given = next
                    .tags_assigned
                    .iter()
                    .filter(|t| !was.tags_assigned.contains(t))
                    .count();
                let taken = was
                    .tags_assigned
                    .iter()
                    .filter(|t| !next.tags_assigned.contains(t))
                    .count();
                changes.add(InstanceTagChanges {
                    nodes: 1,
                    assigned: given,
                    removed: taken,
                });
                next
            })
            .collect();
        (changed, changes)
    }

    /// What `node`'s instance tags are decided among: the roles that bring
    /// a tag with `instances` that `node`'s roles bring, and those tags.
    /// Only nodes given one of those roles, or an instance of one of those
    /// tags by hand, count for their instances.
    pub fn instance_contenders(&self, node: &NodeTags) -> (Vec<RoleName>, Vec<TagName>) {
        let roles = self.role_tags();
        let meta = self.tags_metadata();
        let tags: Vec<TagName> = tag::role_brought(node, &roles)
            .into_iter()
            .filter(|t| meta.get(t).is_some_and(|m| m.instances.is_some()))
            .collect();
        (tag::roles_bringing(&roles, &tags), tags)
    }
}

/// Assigns instance tags to the nodes of `changed` among `nodes`, in node
/// order: first each forgets the assignments no role of it calls for any
/// more, then each tag with `instances: N` its roles bring and of which it
/// carries no instance gets the emptiest instance `1..=N` among the
/// nodes (not pending deletion) as they stand.
pub fn assign_instances(
    nodes: &mut [NodeTags],
    changed: &BTreeSet<i64>,
    role_tags: &RoleTags,
    meta: &TagsMetadata,
) {
    for node in nodes.iter_mut().filter(|n| changed.contains(&n.id)) {
        let brought = tag::role_brought(node, role_tags);
        node.tags_assigned.retain(|t| {
            t.instance_of()
                .is_some_and(|of| brought.iter().any(|b| b.as_str() == of))
        });
    }
    let mut counts = instance_counts(nodes, role_tags);
    for node in nodes.iter_mut().filter(|n| changed.contains(&n.id)) {
        for brought in tag::role_brought(node, role_tags) {
            let Some(n) = meta.get(&brought).and_then(|m| m.instances) else {
                continue;
            };
            let instance_of = |t: &TagName| t.instance_of() == Some(brought.as_str());
            // One it carries, or one assigned before that was removed by hand.
            if tag::node_tags(node, role_tags).iter().any(instance_of)
                || node.tags_assigned.iter().any(instance_of)
            {
                continue;
            }
            let of = counts.entry(brought.to_string()).or_default();
            let k = (1..=u64::from(n))
                .min_by_key(|k| (of.get(k).copied().unwrap_or(0), *k))
                .unwrap_or(1);
            *of.entry(k).or_default() += 1;
            let instance = TagName::new(format!("{brought}:{k}")).expect("a tag and a number");
            node.tags_assigned.push(instance);
        }
    }
}

/// Tag → instance number → how many nodes (not pending deletion) carry it.
fn instance_counts(
    nodes: &[NodeTags],
    role_tags: &RoleTags,
) -> BTreeMap<String, BTreeMap<u64, usize>> {
    let mut counts: BTreeMap<String, BTreeMap<u64, usize>> = BTreeMap::new();
    for node in nodes.iter().filter(|n| !n.pending_deletion) {
        for t in tag::node_tags(node, role_tags) {
            if let (Some(of), Some(k)) = (t.instance_of(), t.instance_number()) {
                *counts
                    .entry(of.to_owned())
                    .or_default()
                    .entry(k)
                    .or_default() += 1;
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::RoleName;
    use crate::tag::TagMeta;

    fn tags(list: &[&str]) -> Vec<TagName> {
        list.iter().map(|t| TagName::new(*t).unwrap()).collect()
    }

    fn node(id: i64, roles: &[&str], added: &[&str]) -> NodeTags {
        NodeTags {
            id,
            roles: roles.iter().map(|r| RoleName::new(*r).unwrap()).collect(),
            tags_added: tags(added),
            ..NodeTags::default()
        }
    }

    fn setup() -> (RoleTags, TagsMetadata) {
        let role_tags = RoleTags::from([(
            RoleName::new("controller").unwrap(),
            tags(&["controller", "mysql"]),
        )]);
        let meta = TagsMetadata::from([(
            TagName::new("mysql").unwrap(),
            TagMeta {
                has_primary: false,
                instances: Some(2),
            },
        )]);
        (role_tags, meta)
    }

    /// Each case: the nodes (roles, hand-added tags), which change, and
    /// the instance tags each node carries after.
    #[test]
    fn instances_spread_by_rule() {
        let (role_tags, meta) = setup();
        type Case = (
            &'static str,
            Vec<NodeTags>,
            Vec<i64>,
            Vec<Vec<&'static str>>,
        );
        let cases: Vec<Case> = vec![
            (
                "three nodes given the role together spread in node order",
                vec![
                    node(1, &["controller"], &[]),
                    node(2, &["controller"], &[]),
                    node(3, &["controller"], &[]),
                ],
                vec![1, 2, 3],
                vec![vec!["mysql:1"], vec!["mysql:2"], vec!["mysql:1"]],
            ),
            (
                "a hand-set instance is kept and counts for its instance",
                vec![
                    node(4, &["controller"], &[]),
                    node(5, &["controller"], &[]),
                    node(6, &["controller"], &["mysql:2"]),
                ],
                vec![4, 5, 6],
                vec![vec!["mysql:1"], vec!["mysql:1"], vec!["mysql:2"]],
            ),
            (
                "nodes that do not change get nothing",
                vec![node(1, &["controller"], &[]), node(2, &["controller"], &[])],
                vec![2],
                vec![vec![], vec!["mysql:1"]],
            ),
            (
                "a node without the role gets nothing",
                vec![node(1, &["compute"], &[])],
                vec![1],
                vec![vec![]],
            ),
        ];
        for (what, mut nodes, changed, expected) in cases {
            let changed: BTreeSet<i64> = changed.into_iter().collect();
            assign_instances(&mut nodes, &changed, &role_tags, &meta);
            let got: Vec<Vec<String>> = nodes
                .iter()
                .map(|n| {
                    tag::node_tags(n, &role_tags)
                        .into_iter()
                        .filter(|t| t.instance_of().is_some())
                        .map(|t| t.to_string())
                        .collect()
                })
                .collect();
            assert_eq!(got, expected, "{what}");
        }
    }

    #[test]
    fn an_assigned_instance_stays_when_other_nodes_go_and_goes_with_its_role() {
        let (role_tags, meta) = setup();
        let mut nodes = vec![node(1, &["controller"], &[]), node(2, &["controller"], &[])];
        assign_instances(&mut nodes, &BTreeSet::from([1, 2]), &role_tags, &meta);
        nodes.remove(0);
        assert_eq!(
            tag::node_tags(&nodes[0], &role_tags),
            tags(&["controller", "mysql", "mysql:2"])
        );
        nodes[0].roles.clear();
        assert_eq!(tag::node_tags(&nodes[0], &role_tags), tags(&[]));
        assign_instances(&mut nodes, &BTreeSet::from([2]), &role_tags, &meta);
        assert!(
            nodes[0].tags_assigned.is_empty(),
            "forgotten once its role is gone"
        );
    }

    #[test]
    fn nodes_pending_deletion_do_not_count() {
        let (role_tags, meta) = setup();
        let mut gone = node(1, &["controller"], &["mysql:1"]);
        gone.pending_deletion = true;
        let mut nodes = vec![gone, node(2, &["controller"], &[])];
        assign_instances(&mut nodes, &BTreeSet::from([2]), &role_tags, &meta);
        assert_eq!(nodes[1].tags_assigned, tags(&["mysql:1"]));
    }
}
