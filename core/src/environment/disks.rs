//! An environment's disks (SEMANTICS §14): the volumes metadata of its
//! release and enabled plugins, each node's volumes from its roles, the
//! layouts made again when roles or disks change, and the nodes short of
//! space — what the checks, a refused export and a run's start say.

use super::Environment;
use super::bulk::{MAX_BULK_NODES, NodeProblem};
use crate::disks::{
    DiskEntry, DiskLayout, DiskShortage, LayoutProblem, Machine, MachineDisk, MetadataError,
    NodeVolumes, Selected, VolumesMetadata, by_position, same_capacities,
};
use crate::hardware::ReadProblem;
use crate::node_import::{ImportPlan, Outcome};
use crate::tag::NodeTags;

impl Environment<'_> {
    /// The release's `volumes_metadata`, then each enabled plugin's.
    pub fn volumes_metadata(&self) -> Result<VolumesMetadata, Vec<MetadataError>> {
        let release = std::iter::once((self.release.source(), &self.release.volumes_metadata));
        let plugins = self
            .enabled_plugins()
            .map(|p| (p.source(), &p.volumes_metadata));
        VolumesMetadata::merged(release.chain(plugins))
    }

    /// Whether images are kept in Ceph (`storage.images_ceph`): then a
    /// controller has no `image` volume.
    pub fn images_ceph(&self) -> bool {
        self.settings()
            .value("storage", "images_ceph")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false)
    }

    /// A node's defaults on `machine` with `roles` (its roles, then its
    /// pending roles).
    pub fn disk_defaults(
        &self,
        meta: &VolumesMetadata,
        roles: &[&str],
        machine: &Machine,
    ) -> DiskLayout {
        self.node_volumes(meta, roles).defaults(machine)
    }

    /// What a node's volumes depend on besides its disks: `meta`, its
    /// `roles` (roles, then pending roles) and where images are kept.
    pub fn node_volumes<'m>(
        &self,
        meta: &'m VolumesMetadata,
        roles: &'m [&'m str],
    ) -> NodeVolumes<'m> {
        NodeVolumes {
            meta,
            roles,
            images_ceph: self.images_ceph(),
        }
    }

    /// `node`'s layout once its hardware shows `machine` (SEMANTICS §14):
    /// none without a disk, the layout it has when that was made for
    /// this machine, else the defaults of its roles on it.
    pub fn layout_on(
        &self,
        meta: &VolumesMetadata,
        node: &NodeTags,
        machine: &Machine,
    ) -> Option<DiskLayout> {
        if !lays_out_again(node, machine) {
            return node.disks.clone();
        }
        (!machine.disks.is_empty()).then(|| {
            let roles = roles_of(node);
            self.disk_defaults(meta, &roles, machine)
        })
    }

    /// The nodes of an import laid out on the disks found
    /// ([`Self::layout_on`]); a node whose hardware is as it was but whose
    /// layout is not made for it (never laid out yet) is updated for it.
    /// The volumes metadata is read only when a layout is made; when it
    /// cannot be, its problems are the import's (nothing is stored).
    pub fn lay_out_import(&self, plan: &mut ImportPlan) {
        let mut meta = None;
        for p in &mut plan.planned {
            let machine = Machine::of(&p.hardware);
            if !lays_out_again(&p.node, &machine) {
                continue;
            }
            let meta = match meta.get_or_insert_with(|| self.volumes_metadata()) {
                Ok(meta) => meta,
                Err(errors) => {
                    let problems = errors.iter().map(|e| ReadProblem {
                        file: p.file.clone(),
                        host: Some(p.host.clone()),
                        message: format!("its disks cannot be laid out: {e}"),
                    });
                    plan.problems.extend(problems);
                    return;
                }
            };
            let line = match p.node.disks {
                Some(_) => "disk layout made again from its roles' defaults",
                None => "disks laid out for its roles",
            };
            p.node.disks = self.layout_on(meta, &p.node, &machine);
            match &mut p.outcome {
                Outcome::Create => {}
                Outcome::Update(lines) => lines.push(line.to_owned()),
                Outcome::Unchanged => p.outcome = Outcome::Update(vec![line.to_owned()]),
            }
        }
    }

    /// One layout `sent` for the nodes `ids` (`PUT /api/v1/clusters/{id}/
    /// disks`; `nodes`: the environment's), by disk position: every node
    /// laid out, or why not — nodes not here or with no known disks,
    /// nodes unlike in roles or disk sizes (Fuel's "Selected nodes have
    /// different disk capacities."), a layout of another number of disks,
    /// or every problem of the layout on each node.
    pub fn lay_out_many(
        &self,
        meta: &VolumesMetadata,
        (ids, nodes): (&[i64], &[NodeTags]),
        sent: &[DiskEntry],
    ) -> Result<Vec<NodeTags>, DisksRefusal> {
        let picked = picked_nodes(ids, nodes)?;
        let roles: Vec<Vec<&str>> = picked.iter().map(|(n, _)| roles_of(n)).collect();
        let names: Vec<String> = picked.iter().map(|(n, _)| n.display_name()).collect();
        let selected: Vec<Selected<'_>> = picked
            .iter()
            .zip(&roles)
            .zip(&names)
            .map(|(((_, layout), roles), name)| Selected {
                name,
                roles,
                layout,
            })
            .collect();
        same_capacities(&selected).map_err(DisksRefusal::Capacities)?;
        let disks = selected.first().map_or(0, |s| s.layout.disks.len());
        if sent.len() != disks {
            return Err(DisksRefusal::Request(format!(
                "layout: {} disk{} sent; the selected nodes have {disks}",
                sent.len(),
                crate::text::plural(sent.len())
            )));
        }
        let mut problems = Vec::new();
        let mut changed = Vec::new();
        for (((node, layout), roles), name) in picked.iter().zip(&roles).zip(&names) {
            let volumes = self.node_volumes(meta, roles);
            match volumes.apply(layout, &by_position(sent, layout)) {
                Ok(laid) => changed.push(NodeTags {
                    disks: Some(laid),
                    ..(*node).clone()
                }),
                Err(found) => problems.extend(found.iter().map(|p| NodeProblem {
                    node: node.id,
                    name: Some(name.clone()),
                    message: layout_problem(p),
                })),
            }
        }
        match problems.is_empty() {
            true => Ok(changed),
            false => Err(DisksRefusal::Nodes(problems)),
        }
    }

    /// Every node short of disk space, in the environment's order, and
    /// the nodes whose disks are unknown (a warning, SEMANTICS §14). Nodes
    /// marked for deletion are left out.
    pub fn disk_shortages(&self, meta: &VolumesMetadata) -> (Vec<DiskShortage>, Vec<&NodeTags>) {
        let images_ceph = self.images_ceph();
        let mut short = Vec::new();
        let mut unknown = Vec::new();
        for node in self.spec.nodes.iter().filter(|n| !n.pending_deletion) {
            let Some(layout) = node.disks.as_ref().filter(|l| !l.disks.is_empty()) else {
                unknown.push(node);
                continue;
            };
            let roles = roles_of(node);
            let volumes = NodeVolumes {
                meta,
                roles: &roles,
                images_ceph,
            };
            if let Some(lines) = volumes.shortage(layout) {
                short.push(DiskShortage {
                    node_id: node.id,
                    node: node.display_name(),
                    lines,
                });
            }
        }
        (short, unknown)
    }
}

/// The machine a stored layout was made for: what its defaults are made
/// again on when only the roles change.
pub fn machine_of(layout: &DiskLayout) -> Machine {
    Machine {
        disks: layout
            .disks
            .iter()
            .map(|d| MachineDisk {
                id: d.id.clone(),
                name: d.name.clone(),
                size: d.size,
                extra: d.extra.clone(),
            })
            .collect(),
        memory: layout.memory,
    }
}

/// Why one layout cannot be given to many nodes at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisksRefusal {
    /// The request itself: no node, too many, a layout of another number
    /// of disks.
    Request(String),
    /// "Selected nodes have different disk capacities. Unlike …".
    Capacities(String),
    /// Every node that cannot take it, with why.
    Nodes(Vec<NodeProblem>),
}

impl std::fmt::Display for DisksRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DisksRefusal::Request(m) | DisksRefusal::Capacities(m) => f.write_str(m),
            DisksRefusal::Nodes(problems) => write!(
                f,
                "{} cannot take the layout: {}; nothing was changed",
                crate::text::counted(problems.len(), "problem"),
                problems
                    .iter()
                    .take(5)
                    .map(|p| format!("{}: {}", p.name.as_deref().unwrap_or("?"), p.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        }
    }
}

/// "No known disks" of a node, as every disk route says it.
pub fn no_known_disks(node: &NodeTags) -> String {
    format!(
        "Node '{}' has no known disks: import its hardware or declare its disks",
        node.display_name()
    )
}

/// A layout's problem in one line: `[0].volumes[1].size: message`.
pub fn layout_problem(p: &LayoutProblem) -> String {
    match p.path.is_empty() {
        true => p.message.clone(),
        false => format!("{}: {}", p.path, p.message),
    }
}

/// The nodes `ids` names among `nodes`, each with its layout, in the
/// order named (once each): refused when none is named, more than
/// [`MAX_BULK_NODES`], or any is not here or has no known disks.
fn picked_nodes<'n>(
    ids: &[i64],
    nodes: &'n [NodeTags],
) -> Result<Vec<(&'n NodeTags, &'n DiskLayout)>, DisksRefusal> {
    if ids.is_empty() {
        return Err(DisksRefusal::Request(
            "nodes: name at least one node".into(),
        ));
    }
    if ids.len() > MAX_BULK_NODES {
        return Err(DisksRefusal::Request(format!(
            "nodes: at most {MAX_BULK_NODES} nodes in one change (got {})",
            ids.len()
        )));
    }
    let by_id: std::collections::HashMap<i64, &NodeTags> =
        nodes.iter().map(|n| (n.id, n)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut picked = Vec::new();
    let mut problems = Vec::new();
    for &id in ids.iter().filter(|id| seen.insert(**id)) {
        match by_id.get(&id) {
            None => problems.push(NodeProblem {
                node: id,
                name: None,
                message: format!("node {id} is not in this environment"),
            }),
            Some(node) => match &node.disks {
                Some(layout) if !layout.disks.is_empty() => picked.push((*node, layout)),
                _ => problems.push(NodeProblem {
                    node: id,
                    name: Some(node.display_name()),
                    message: no_known_disks(node),
                }),
            },
        }
    }
    match problems.is_empty() {
        true => Ok(picked),
        false => Err(DisksRefusal::Nodes(problems)),
    }
}

/// `node`'s roles, then its pending roles: what its volumes come from.
pub fn roles_of(node: &NodeTags) -> Vec<&str> {
    node.all_roles().map(|r| r.as_str()).collect()
}

/// Whether `node`'s layout is made again now that its hardware shows
/// `machine`: it has disks but no layout made for them (the same disks,
/// sizes and memory: [`Machine::made`]), or a layout but no disk.
pub fn lays_out_again(node: &NodeTags, machine: &Machine) -> bool {
    match &node.disks {
        None => !machine.disks.is_empty(),
        Some(layout) => !machine.made(layout),
    }
}

/// Whether a change of `node`'s roles from `before` (its roles, then
/// pending roles, before the change) lays its disks out again: it has a
/// layout, and its roles differ as sets (deploying a pending role changes
/// none).
pub fn relays(before: &[&str], node: &NodeTags) -> bool {
    node.disks.is_some() && crate::disks::roles_differ(before, &roles_of(node))
}

/// A node's layout after a change of its roles (`before` its roles, then
/// pending roles, before the change): made again from its disks when the
/// roles differ (as sets: deploying a pending role changes none), as Fuel
/// did, discarding edits (SEMANTICS §14). `None`: nothing to do — no disks
/// known, or the same roles.
pub fn relaid(
    env: &Environment<'_>,
    meta: &VolumesMetadata,
    before: &[&str],
    node: &NodeTags,
) -> Option<DiskLayout> {
    let layout = node.disks.as_ref()?;
    let roles = roles_of(node);
    // Pending roles becoming deployed ones change no volume.
    relays(before, node).then(|| env.disk_defaults(meta, &roles, &machine_of(layout)))
}
