//! An environment's disks (SEMANTICS §14): the volumes metadata of its
//! release and enabled plugins, each node's volumes from its roles, the
//! layouts made again when roles or disks change, and the nodes short of
//! space — what the checks, a refused export and a run's start say.

use super::Environment;
use crate::disks::{
    DiskLayout, DiskShortage, Machine, MachineDisk, MetadataError, NodeVolumes, VolumesMetadata,
};
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
        NodeVolumes {
            meta,
            roles,
            images_ceph: self.images_ceph(),
        }
        .defaults(machine)
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
            let roles: Vec<&str> = node.all_roles().map(|r| r.as_str()).collect();
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

/// A node's layout after a change of its roles (`before` its roles, then
/// pending roles, before the change): made again from its disks when the
/// roles differ (as sets: deploying a pending role changes none), as Fuel did, discarding edits (SEMANTICS §14). `None`:
/// nothing to do — no disks known, or the same roles.
pub fn relaid(
    env: &Environment<'_>,
    meta: &VolumesMetadata,
    before: &[&str],
    node: &NodeTags,
) -> Option<DiskLayout> {
    let layout = node.disks.as_ref()?;
    let roles: Vec<&str> = node.all_roles().map(|r| r.as_str()).collect();
    fn sorted<'r>(roles: &[&'r str]) -> Vec<&'r str> {
        let mut roles = roles.to_vec();
        roles.sort_unstable();
        roles
    }
    // Pending roles becoming deployed ones change no volume.
    (sorted(&roles) != sorted(before)).then(|| env.disk_defaults(meta, &roles, &machine_of(layout)))
}
