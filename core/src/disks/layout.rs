//! A node's disk layout: as stored (Fuel's "full" format — every space on
//! every disk, the service ones included) and as the API shows it (Fuel's
//! "simple" format: per disk the space left for volumes and each volume's
//! size). `DisksFormatConvertor.format_disks_to_simple` is [`simple`].

use serde::{Deserialize, Serialize};

/// The layout of one node's disks, sizes in MB.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DiskLayout {
    /// The memory (bytes) its swap was worked out from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<u64>,
    pub disks: Vec<LaidDisk>,
}

/// One disk and what is on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct LaidDisk {
    pub id: String,
    pub name: String,
    /// The whole disk, MB.
    pub size: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    #[serde(default)]
    pub bootable: bool,
    pub volumes: Vec<Space>,
}

/// A space on a disk (`volumes` of Fuel's full format).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Space {
    /// EFI, GPT and BIOS records (Fuel's `type: boot`).
    Boot { size: i64 },
    /// `/boot`: a RAID member when the node has several disks.
    BootPartition { size: i64, raid: bool },
    /// What is kept for the LVM metadata of the physical volumes to come.
    LvmMetaPool { size: i64 },
    /// A physical volume of a volume group, its LVM metadata included.
    Pv {
        vg: String,
        size: i64,
        lvm_meta_size: i64,
        #[serde(default)]
        keep_data: bool,
    },
    /// A plain partition (Ceph) or a RAID member, by its volume's id.
    Partition {
        name: String,
        size: i64,
        #[serde(default)]
        raid: bool,
        #[serde(default)]
        keep_data: bool,
    },
}

impl Space {
    pub fn size(&self) -> i64 {
        match self {
            Space::Boot { size }
            | Space::BootPartition { size, .. }
            | Space::LvmMetaPool { size }
            | Space::Pv { size, .. }
            | Space::Partition { size, .. } => *size,
        }
    }

    /// `is_service`: not a volume of the node's (`/boot`, records, pool).
    pub fn is_service(&self) -> bool {
        !matches!(self, Space::Pv { .. } | Space::Partition { .. })
    }

    /// The volume it belongs to: a group's or a partition's id.
    pub fn volume(&self) -> Option<&str> {
        match self {
            Space::Pv { vg, .. } => Some(vg),
            Space::Partition { name, .. } => Some(name),
            _ => None,
        }
    }

    /// What the volume is given here, LVM metadata left out.
    pub fn usable(&self) -> i64 {
        match self {
            Space::Pv {
                size,
                lvm_meta_size,
                ..
            } => (size - lvm_meta_size).max(0),
            other => other.size(),
        }
    }

    pub fn keep_data(&self) -> bool {
        match self {
            Space::Pv { keep_data, .. } | Space::Partition { keep_data, .. } => *keep_data,
            _ => false,
        }
    }
}

/// A disk as `GET /api/v1/nodes/{id}/disks` shows it (Fuel's simple
/// format): `size` is what its volumes may share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiskEntry {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub size: i64,
    #[serde(default)]
    pub bootable: bool,
    #[serde(default)]
    pub extra: Vec<String>,
    pub volumes: Vec<VolumeEntry>,
}

/// A volume's share of a disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumeEntry {
    pub name: String,
    pub size: i64,
    #[serde(default)]
    pub keep_data: bool,
}

/// A volume a node has, as `GET /api/v1/nodes/{id}/volumes` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumeInfo {
    pub name: String,
    pub label: String,
    pub min_size: i64,
}

impl LaidDisk {
    /// What its volumes may share: the disk less its service spaces and
    /// the LVM metadata of its physical volumes.
    pub fn available(&self) -> i64 {
        let reserved: i64 = self
            .volumes
            .iter()
            .filter(|v| v.is_service())
            .map(Space::size)
            .sum();
        let meta: i64 = self
            .volumes
            .iter()
            .map(|v| match v {
                Space::Pv { lvm_meta_size, .. } => *lvm_meta_size,
                _ => 0,
            })
            .sum();
        if self.size >= reserved {
            self.size - reserved - meta
        } else {
            0
        }
    }

    /// The disk in the simple format.
    pub fn entry(&self) -> DiskEntry {
        DiskEntry {
            id: self.id.clone(),
            name: self.name.clone(),
            size: self.available(),
            bootable: self.bootable,
            extra: self.extra.clone(),
            volumes: self
                .volumes
                .iter()
                .filter(|v| !v.is_service())
                .map(|v| VolumeEntry {
                    name: v.volume().unwrap_or_default().to_string(),
                    size: v.usable(),
                    keep_data: v.keep_data(),
                })
                .collect(),
        }
    }
}

/// `get_total_allocated_size`: what a volume holds over `disks`, LVM
/// metadata counted as Fuel counts it.
pub fn allocated<'d>(disks: impl IntoIterator<Item = &'d LaidDisk>, volume: &str) -> i64 {
    disks
        .into_iter()
        .flat_map(|d| &d.volumes)
        .filter(|v| v.volume() == Some(volume))
        .map(Space::size)
        .sum()
}

/// `_calc_total_vg`: what a volume group holds over `disks`, its physical
/// volumes less their metadata.
pub fn total_vg<'d>(disks: impl IntoIterator<Item = &'d LaidDisk>, vg: &str) -> i64 {
    disks
        .into_iter()
        .flat_map(|d| &d.volumes)
        .filter_map(|v| match v {
            Space::Pv {
                vg: g,
                size,
                lvm_meta_size,
                ..
            } if g == vg => Some(size - lvm_meta_size),
            _ => None,
        })
        .sum()
}

/// `format_disks_to_simple`: the layout as the API shows it.
pub fn simple(layout: &DiskLayout) -> Vec<DiskEntry> {
    layout.disks.iter().map(LaidDisk::entry).collect()
}

/// The largest disk a layout may name: 2^40 MB (an exbibyte). Sizes past
/// it are no disk, and sums of them stay far from overflowing.
pub const MAX_DISK_MB: i64 = 1 << 40;

impl DiskLayout {
    /// What makes a layout read from outside (an environment file) no
    /// layout Mosaic could have made: a disk past [`MAX_DISK_MB`] or
    /// named twice, a negative space, spaces larger than their disk, LVM
    /// metadata larger than its physical volume. Each with its place.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, d) in self.disks.iter().enumerate() {
            let at = format!("disks[{i}] ({})", d.id);
            if self.disks[..i].iter().any(|e| e.id == d.id) {
                out.push(format!("{at}: disk '{}' is named twice", d.id));
            }
            if !(0..=MAX_DISK_MB).contains(&d.size) {
                out.push(format!("{at}: size {} MB is no disk's", d.size));
                continue;
            }
            let mut total = 0i64;
            for (j, v) in d.volumes.iter().enumerate() {
                let meta = match v {
                    Space::Pv { lvm_meta_size, .. } => *lvm_meta_size,
                    _ => 0,
                };
                if !(0..=d.size).contains(&v.size()) || !(0..=v.size()).contains(&meta) {
                    out.push(format!(
                        "{at}.volumes[{j}]: size {} MB does not fit the disk",
                        v.size()
                    ));
                }
                total = total.saturating_add(v.size());
            }
            if total > d.size {
                out.push(format!("{at}: its spaces take {total} MB of {} MB", d.size));
            }
        }
        out
    }

    /// `_calc_total_vg`: a group's physical volumes less their metadata.
    pub fn total_vg(&self, vg: &str) -> i64 {
        total_vg(&self.disks, vg)
    }

    /// The disks' sizes, smallest first: what nodes laid out alike share.
    pub fn sorted_sizes(&self) -> Vec<i64> {
        let mut sizes: Vec<i64> = self.disks.iter().map(|d| d.size).collect();
        sizes.sort_unstable();
        sizes
    }
}
