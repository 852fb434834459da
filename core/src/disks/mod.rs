//! Disks and volumes (SEMANTICS §14): a role brings its volumes, and
//! Fuel's volume manager places them on each node's disks.
//!
//! - [`metadata`]: the release's and plugins' `volumes.yaml`, typed and
//!   merged;
//! - [`generator`]: Fuel's size generators;
//! - [`manager`]: the allocation, the boot disk, the checks — Fuel's
//!   `manager.py` side by side, and the only code deciding a size;
//! - [`layout`]: a layout as stored and as the API shows it;
//! - [`validate`]: a layout sent, refused with Fuel's messages;
//! - [`edit`]: what the Configure Disks screen says as the operator types.
//!
//! The functions here take a node as its roles and whether the environment
//! keeps images in Ceph ([`NodeVolumes`]): what Fuel's allocation reads.

pub mod edit;
pub mod generator;
pub mod layout;
pub mod manager;
pub mod metadata;
pub mod validate;

pub use layout::{DiskEntry, DiskLayout, LaidDisk, Space, VolumeEntry, VolumeInfo};
pub use manager::{Machine, MachineDisk, VolumeManager, node_spaces};
pub use metadata::{MetadataError, VolumesMetadata};
pub use validate::LayoutProblem;

use serde::Serialize;

/// What a node's volumes depend on besides its disks.
#[derive(Debug, Clone, Copy)]
pub struct NodeVolumes<'a> {
    pub meta: &'a VolumesMetadata,
    /// Its roles, then its pending roles, in order.
    pub roles: &'a [&'a str],
    /// The environment's `storage.images_ceph`.
    pub images_ceph: bool,
}

impl<'a> NodeVolumes<'a> {
    fn manager(&self, layout: &DiskLayout) -> VolumeManager<'a> {
        let allowed = node_spaces(
            self.meta,
            self.roles.iter().copied(),
            layout.disks.len(),
            self.images_ceph,
        );
        VolumeManager::over(self.meta, allowed, layout)
    }

    /// The default layout of the node on this machine (`gen_volumes_info`).
    pub fn defaults(&self, machine: &Machine) -> DiskLayout {
        let allowed = node_spaces(
            self.meta,
            self.roles.iter().copied(),
            machine.disks.len(),
            self.images_ceph,
        );
        VolumeManager::defaults(self.meta, allowed, machine)
    }

    /// `get_volumes_info`: each volume the node uses, with its minimum.
    pub fn info(&self, layout: &DiskLayout) -> Vec<VolumeInfo> {
        let manager = self.manager(layout);
        manager
            .allowed()
            .iter()
            .map(|a| VolumeInfo {
                name: a.space.id.clone(),
                label: a.space.label.clone(),
                min_size: manager.min_size(a.space),
            })
            .collect()
    }

    /// A layout sent (`format_disks_to_full`), checked first: the stored
    /// layout with the sizes, flags and boot disk sent.
    pub fn apply(
        &self,
        stored: &DiskLayout,
        sent: &[DiskEntry],
    ) -> Result<DiskLayout, Vec<LayoutProblem>> {
        let problems = validate::check(stored, sent);
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut manager = self.manager(stored);
        for disk in sent {
            for v in &disk.volumes {
                manager.set_volume_size(&disk.id, &v.name, v.size);
                manager.set_keep_data(&disk.id, &v.name, v.keep_data);
            }
        }
        let flags: Vec<(&str, bool)> = sent.iter().map(|d| (d.id.as_str(), d.bootable)).collect();
        manager.update_bootable_flags(&flags);
        Ok(manager.layout())
    }

    /// What is short on the node (`check_disk_space_for_deployment`, then
    /// `check_volume_sizes_for_deployment`): none when it has room; else
    /// Fuel 9's line per volume group short of its minimum (none when
    /// only the disks' total is short).
    pub fn shortage(&self, layout: &DiskLayout) -> Option<Vec<String>> {
        let manager = self.manager(layout);
        let lines = manager.short_volumes();
        (!manager.enough_disk_space() || !lines.is_empty()).then_some(lines)
    }
}

/// A node short of disk space, as the checks, a refused export and a run's
/// start say it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiskShortage {
    pub node_id: i64,
    pub node: String,
    /// Fuel 9's lines: "Volume group 'LABEL' requires a minimum of NMB".
    pub lines: Vec<String>,
}

impl DiskShortage {
    /// "Node 'NAME' has insufficient disk space", then its lines.
    pub fn message(&self) -> String {
        let mut out = format!("Node '{}' has insufficient disk space", self.node);
        for line in &self.lines {
            out.push('\n');
            out.push_str(line);
        }
        out
    }
}

/// A node among those given one layout at once.
#[derive(Debug, Clone, Copy)]
pub struct Selected<'a> {
    pub name: &'a str,
    pub roles: &'a [&'a str],
    pub layout: &'a DiskLayout,
}

/// Whether roles `now` differ from `before` as sets (the order, and a role
/// named twice, aside): what lays a node's disks out again (SEMANTICS §14).
pub fn roles_differ(before: &[&str], now: &[&str]) -> bool {
    let before: std::collections::BTreeSet<&str> = before.iter().copied().collect();
    let now: std::collections::BTreeSet<&str> = now.iter().copied().collect();
    before != now
}

/// Fuel's "Selected nodes have different disk capacities.": the nodes
/// unlike the first in their roles or their sorted disk sizes, named.
pub fn same_capacities(nodes: &[Selected<'_>]) -> Result<(), String> {
    let Some(first) = nodes.first() else {
        return Ok(());
    };
    let sizes = first.layout.sorted_sizes();
    let unlike: Vec<&str> = nodes
        .iter()
        .filter(|n| n.roles != first.roles || n.layout.sorted_sizes() != sizes)
        .map(|n| n.name)
        .collect();
    if unlike.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "Selected nodes have different disk capacities. Unlike {}: {}",
            first.name,
            unlike.join(", ")
        ))
    }
}

/// One layout for another node with the same disks: by disk position
/// (in name order), each disk taking the node's own id.
pub fn by_position(sent: &[DiskEntry], target: &DiskLayout) -> Vec<DiskEntry> {
    sent.iter()
        .zip(&target.disks)
        .map(|(entry, disk)| DiskEntry {
            id: disk.id.clone(),
            name: disk.name.clone(),
            extra: disk.extra.clone(),
            ..entry.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests;
