//! Fuel's volume manager, number for number (SEMANTICS §14): read it beside
//! `nailgun/extensions/volume_manager/manager.py` of openstack/fuel-web.
//! Each function names the Fuel function it is; where Mosaic decides
//! otherwise (§14's decisions) the line says so. Nothing else in Mosaic
//! decides a size.

use super::generator::{Amount, Generator};
use super::generator::{BOOT_RECORDS_SIZE, BOOT_SIZE, LVM_META_SIZE, Sizes};
use super::layout::{self, DiskLayout, LaidDisk, Space};
use super::metadata::{
    AllocateSize, BootRule, LogicalVolume, SpaceKind, VolumeSpace, VolumesMetadata,
};
use crate::hardware::Hardware;

/// The operating system's volume group: never spread over two disks by
/// default (SEMANTICS §14).
pub const OS: &str = "os";

/// A disk as the allocation takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineDisk {
    pub id: String,
    pub name: String,
    /// MB: its bytes // 2^20.
    pub size: i64,
    pub extra: Vec<String>,
}

/// What the allocation reads of a node's hardware: its disks in name
/// order and its memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Machine {
    pub disks: Vec<MachineDisk>,
    pub memory: Option<u64>,
}

impl Machine {
    /// A node's found or declared hardware: its disks in name order,
    /// removable and empty ones left out (Fuel's agent reported neither).
    pub fn of(hardware: &Hardware) -> Machine {
        let mut disks: Vec<MachineDisk> = hardware
            .disks
            .iter()
            .filter(|d| !d.removable && d.size >= 1 << 20)
            .map(|d| MachineDisk {
                id: d.name.clone(),
                name: d.name.clone(),
                size: (d.size >> 20) as i64,
                extra: d.extra.clone(),
            })
            .collect();
        disks.sort_by(|a, b| a.name.cmp(&b.name));
        Machine {
            disks,
            memory: hardware.memory,
        }
    }

    /// Whether a layout was made for this machine: the same disks, the
    /// same sizes, the same memory. When not, its defaults are made again.
    pub fn made(&self, layout: &DiskLayout) -> bool {
        self.memory == layout.memory
            && self.disks.len() == layout.disks.len()
            && self
                .disks
                .iter()
                .zip(&layout.disks)
                .all(|(m, d)| m.id == d.id && m.size == d.size)
    }
}

/// A volume a node uses and how it is allocated.
#[derive(Debug, Clone, Copy)]
pub struct Allowed<'m> {
    pub space: &'m VolumeSpace,
    pub allocate_size: AllocateSize,
}

/// `get_node_spaces`: the volumes of a node's roles in the node's order
/// (roles, then pending roles — §14: not a set's), each once, its first
/// mapping's `allocate_size` kept; none: role `other`'s, else `os` `all`.
/// `exclude_glance_partition`: with Ceph for images a controller has no
/// `image`. `get_allocate_size`: `full-disk` is `all` on a one-disk node.
pub fn node_spaces<'m, 'r>(
    meta: &'m VolumesMetadata,
    roles: impl IntoIterator<Item = &'r str>,
    disk_count: usize,
    images_ceph: bool,
) -> Vec<Allowed<'m>> {
    let mut out: Vec<Allowed<'m>> = Vec::new();
    let add = |id: &str, size: AllocateSize, out: &mut Vec<Allowed<'m>>| {
        let Some(space) = meta.space(id) else { return };
        if out.iter().any(|a| a.space.id == id) {
            return;
        }
        let allocate_size = if disk_count == 1 && size == AllocateSize::FullDisk {
            AllocateSize::All
        } else {
            size
        };
        out.push(Allowed {
            space,
            allocate_size,
        });
    };
    for role in roles {
        for m in meta.roles.get(role).into_iter().flatten() {
            if images_ceph && role == "controller" && m.id == "image" {
                continue;
            }
            add(&m.id, m.allocate_size, &mut out);
        }
    }
    if out.is_empty() {
        match meta.roles.get("other") {
            Some(list) => list
                .iter()
                .for_each(|m| add(&m.id, m.allocate_size, &mut out)),
            None => add(OS, AllocateSize::All, &mut out),
        }
    }
    out
}

/// `Disk`: one disk while it is being laid out.
#[derive(Debug, Clone)]
struct DiskState {
    disk: LaidDisk,
    free_space: i64,
}

impl DiskState {
    /// `Disk.__init__` with existing volumes: what they leave free.
    fn existing(disk: LaidDisk) -> DiskState {
        let used: i64 = disk.volumes.iter().map(Space::size).sum();
        DiskState {
            free_space: disk.size - used,
            disk,
        }
    }

    /// `Disk.reset` then `create_service_partitions`: boot records, `/boot`
    /// (RAID on a node of several disks), the LVM metadata pool.
    fn fresh(d: &MachineDisk, boot_is_raid: bool, possible_pvs: i64) -> DiskState {
        let mut s = DiskState {
            disk: LaidDisk {
                id: d.id.clone(),
                name: d.name.clone(),
                size: d.size,
                extra: d.extra.clone(),
                bootable: false,
                volumes: Vec::new(),
            },
            free_space: d.size,
        };
        let size = s.get_size(BOOT_RECORDS_SIZE);
        s.disk.volumes.push(Space::Boot { size });
        let size = s.get_size(BOOT_SIZE);
        s.disk.volumes.push(Space::BootPartition {
            size,
            raid: boot_is_raid,
        });
        let size = s.get_size(LVM_META_SIZE * possible_pvs);
        s.disk.volumes.push(Space::LvmMetaPool { size });
        s
    }

    /// `get_size`: the size if it fits, else 0.
    fn get_size(&mut self, size: i64) -> i64 {
        let given = if self.free_space >= size { size } else { 0 };
        self.free_space -= given;
        given
    }

    fn pool(&mut self) -> Option<&mut i64> {
        self.disk.volumes.iter_mut().find_map(|v| match v {
            Space::LvmMetaPool { size } => Some(size),
            _ => None,
        })
    }

    /// `get_lvm_meta_from_pool`.
    fn lvm_meta_from_pool(&mut self) -> i64 {
        match self.pool() {
            Some(pool) if *pool >= LVM_META_SIZE => {
                *pool -= LVM_META_SIZE;
                LVM_META_SIZE
            }
            _ => 0,
        }
    }

    /// `create_pv`: all the free space when no size is given; the LVM
    /// metadata from the pool unless the size is 0.
    fn create_pv(&mut self, vg: &str, size: Option<i64>) {
        let size = size.unwrap_or(self.free_space);
        self.free_space -= size;
        let lvm_meta_size = if size != 0 {
            self.lvm_meta_from_pool()
        } else {
            0
        };
        self.disk.volumes.push(Space::Pv {
            vg: vg.to_string(),
            size: size + lvm_meta_size,
            lvm_meta_size,
            keep_data: false,
        });
    }

    /// `create_partition`.
    fn create_partition(&mut self, name: &str, size: Option<i64>, raid: bool) {
        let size = size.unwrap_or(self.free_space);
        self.free_space -= size;
        self.disk.volumes.push(Space::Partition {
            name: name.to_string(),
            size,
            raid,
            keep_data: false,
        });
    }

    /// `_get_allocator`: a physical volume for a group, else a partition.
    fn allocate(&mut self, space: &VolumeSpace, size: Option<i64>) {
        match space.kind {
            SpaceKind::Vg => self.create_pv(&space.id, size),
            SpaceKind::Partition => self.create_partition(&space.id, size, false),
            SpaceKind::Raid => self.create_partition(&space.id, size, true),
        }
    }

    /// `set_pv_size` (`remove_pv` then `create_pv`), `set_partition_size`
    /// and `set_raid_size`. Mosaic keeps the volume in its place on the
    /// disk where Fuel appended it again; the numbers are Fuel's.
    fn set_size(&mut self, volume: &str, size: i64) {
        let index = self
            .disk
            .volumes
            .iter()
            .position(|v| v.volume() == Some(volume));
        let Some(index) = index else { return };
        match self.disk.volumes[index].clone() {
            Space::Pv {
                vg,
                size: old,
                lvm_meta_size,
                keep_data,
            } => {
                if let Some(pool) = self.pool() {
                    *pool += lvm_meta_size;
                }
                self.free_space += old - lvm_meta_size;
                self.free_space -= size;
                let meta = if size != 0 {
                    self.lvm_meta_from_pool()
                } else {
                    0
                };
                self.disk.volumes[index] = Space::Pv {
                    vg,
                    size: size + meta,
                    lvm_meta_size: meta,
                    keep_data,
                };
            }
            Space::Partition { size: old, .. } => {
                self.free_space += old - size;
                if let Space::Partition { size: s, .. } = &mut self.disk.volumes[index] {
                    *s = size;
                }
            }
            _ => {}
        }
    }

    /// Whether a volume of the node's already takes room here (the test
    /// of `_allocate_full_disk`).
    fn holds_a_volume(&self) -> bool {
        self.disk
            .volumes
            .iter()
            .any(|v| !v.is_service() && v.size() > 0)
    }
}

/// `VolumeManager`: one node's disks laid out for its volumes.
pub struct VolumeManager<'m> {
    allowed: Vec<Allowed<'m>>,
    rules: &'m [BootRule],
    memory: Option<u64>,
    disks: Vec<DiskState>,
}

impl Sizes for VolumeManager<'_> {
    fn ram(&self) -> Option<u64> {
        self.memory
    }

    fn first_disk(&self) -> Option<i64> {
        self.disks.first().map(|d| d.disk.size)
    }

    fn total_vg(&self, vg: &str) -> i64 {
        layout::total_vg(self.disks.iter().map(|d| &d.disk), vg)
    }
}

impl<'m> VolumeManager<'m> {
    /// A manager over a stored layout (Fuel's `VolumeManager(node)` with
    /// the node's volumes).
    pub fn over(meta: &'m VolumesMetadata, allowed: Vec<Allowed<'m>>, layout: &DiskLayout) -> Self {
        VolumeManager {
            allowed,
            rules: &meta.boot_rules,
            memory: layout.memory,
            disks: layout
                .disks
                .iter()
                .cloned()
                .map(DiskState::existing)
                .collect(),
        }
    }

    /// `gen_volumes_info`: the defaults of a node with these volumes on
    /// this machine.
    pub fn defaults(
        meta: &'m VolumesMetadata,
        allowed: Vec<Allowed<'m>>,
        machine: &Machine,
    ) -> DiskLayout {
        let boot_is_raid = machine.disks.len() > 1;
        let possible_pvs = allowed
            .iter()
            .filter(|a| a.space.kind == SpaceKind::Vg)
            .count() as i64;
        let disks = machine
            .disks
            .iter()
            .map(|d| DiskState::fresh(d, boot_is_raid, possible_pvs))
            .collect();
        let mut manager = VolumeManager {
            allowed,
            rules: &meta.boot_rules,
            memory: machine.memory,
            disks,
        };
        manager.allocate_all();
        manager.pick_default_bootable_disk();
        manager.layout()
    }

    /// The three passes of `gen_volumes_info`: `min` volumes, then
    /// `full-disk` ones, then `all` ones sharing what is left equally, the
    /// last taking the remainder.
    fn allocate_all(&mut self) {
        let of = |size: AllocateSize, allowed: &[Allowed<'m>]| -> Vec<&'m VolumeSpace> {
            allowed
                .iter()
                .filter(|a| a.allocate_size == size)
                .map(|a| a.space)
                .collect()
        };
        for space in of(AllocateSize::Min, &self.allowed) {
            let min_size = space.min_size.value(self);
            self.allocate_size_for_volume(space, min_size);
        }
        for space in of(AllocateSize::FullDisk, &self.allowed) {
            self.allocate_full_disk(space);
        }
        let all = of(AllocateSize::All, &self.allowed);
        if let Some((last, first)) = all.split_last() {
            if !first.is_empty() {
                let free: i64 = self.disks.iter().map(|d| d.free_space).sum();
                let share = free.div_euclid(all.len() as i64);
                for space in first {
                    self.allocate_size_for_volume(space, share);
                }
            }
            self.allocate_all_free_space_for_volume(last);
        }
    }

    /// `_allocate_size_for_volume`: first-fit across the disks by name,
    /// what does not fit on one disk going on to the next. The OS group
    /// stays on one disk (§14): the first that holds it, else the first.
    fn allocate_size_for_volume(&mut self, space: &VolumeSpace, size: i64) {
        let os_disk = (space.id == OS).then(|| self.os_disk(size));
        let mut left = size;
        for (i, disk) in self.disks.iter_mut().enumerate() {
            let here = if os_disk.is_some_and(|o| o != i) {
                0
            } else if disk.free_space >= left {
                left
            } else if disk.free_space > 0 {
                disk.free_space
            } else {
                0
            };
            disk.allocate(space, Some(here));
            left -= here;
        }
    }

    /// The disk the OS group goes on: the one already holding it, else
    /// the first with room for `size`, else the first.
    fn os_disk(&self, size: i64) -> usize {
        let holds = |d: &DiskState| {
            d.disk
                .volumes
                .iter()
                .any(|v| v.volume() == Some(OS) && v.size() > 0)
        };
        self.disks
            .iter()
            .position(holds)
            .or_else(|| self.disks.iter().position(|d| d.free_space >= size))
            .unwrap_or(0)
    }

    /// `_allocate_all_free_space_for_volume`: every disk's free space (the
    /// OS group: its own disk's only).
    fn allocate_all_free_space_for_volume(&mut self, space: &VolumeSpace) {
        let os_disk = (space.id == OS).then(|| self.os_disk(1));
        for (i, disk) in self.disks.iter_mut().enumerate() {
            if disk.free_space > 0 && os_disk.is_none_or(|o| o == i) {
                disk.allocate(space, None);
            } else {
                disk.allocate(space, Some(0));
            }
        }
    }

    /// `_allocate_full_disk`: every disk no volume uses yet.
    fn allocate_full_disk(&mut self, space: &VolumeSpace) {
        for disk in &mut self.disks {
            let size = if disk.holds_a_volume() { Some(0) } else { None };
            disk.allocate(space, size);
        }
    }

    /// `_get_root_disk`: the disk holding a mount point, directly or
    /// through a volume group with room on it.
    fn root_disk(&self, root_mount: &str) -> Option<usize> {
        self.disks.iter().position(|d| {
            d.disk.volumes.iter().any(|v| match v {
                Space::BootPartition { .. } => root_mount == "/boot",
                Space::Partition { name, .. } => self
                    .allowed_space(name)
                    .is_some_and(|s| s.mount.as_deref() == Some(root_mount)),
                Space::Pv { vg, size, .. } if *size > 0 => {
                    self.allowed_space(vg).is_some_and(|s| {
                        s.volumes
                            .iter()
                            .any(|lv| lv.mount.as_deref() == Some(root_mount))
                    })
                }
                _ => false,
            })
        })
    }

    fn allowed_space(&self, id: &str) -> Option<&'m VolumeSpace> {
        self.allowed
            .iter()
            .find(|a| a.space.id == id)
            .map(|a| a.space)
    }

    /// `pick_default_bootable_disk`: the root disk when a
    /// `pick_root_disk_if_disk_name_match` rule names it; else the first
    /// disk no `exclude_disks_by_name` rule excludes; else the first.
    fn pick_default_bootable_disk(&mut self) {
        for rule in self.rules {
            if let BootRule::RootDiskIfNameMatches { regex, root_mount } = rule
                && let Some(i) = self.root_disk(root_mount)
                && regex.is_match(&self.disks[i].disk.name)
            {
                return self.pick_bootable(Some(i));
            }
        }
        let excluded = |name: &str| {
            self.rules
                .iter()
                .any(|r| matches!(r, BootRule::ExcludeByName(re) if re.is_match(name)))
        };
        let first = self.disks.iter().position(|d| !excluded(&d.disk.name));
        let pick = first.or((!self.disks.is_empty()).then_some(0));
        self.pick_bootable(pick);
    }

    /// `pick_disk_as_bootable`.
    fn pick_bootable(&mut self, pick: Option<usize>) {
        for (i, d) in self.disks.iter_mut().enumerate() {
            d.disk.bootable = Some(i) == pick;
        }
    }

    /// `set_volume_size`.
    pub fn set_volume_size(&mut self, disk_id: &str, volume: &str, size: i64) {
        if let Some(d) = self.disks.iter_mut().find(|d| d.disk.id == disk_id) {
            d.set_size(volume, size);
        }
    }

    /// `set_volume_flags`: a volume's `keep_data` as sent.
    pub fn set_keep_data(&mut self, disk_id: &str, volume: &str, keep: bool) {
        let Some(d) = self.disks.iter_mut().find(|d| d.disk.id == disk_id) else {
            return;
        };
        for v in &mut d.disk.volumes {
            match v {
                Space::Pv { vg, keep_data, .. } if vg == volume => *keep_data = keep,
                Space::Partition {
                    name, keep_data, ..
                } if name == volume => *keep_data = keep,
                _ => {}
            }
        }
    }

    /// `update_bootable_flags`: the disks sent bootable boot; none sent
    /// bootable: the default pick.
    pub fn update_bootable_flags(&mut self, bootable: &[(&str, bool)]) {
        if !bootable.iter().any(|(_, b)| *b) {
            return self.pick_default_bootable_disk();
        }
        for (id, flag) in bootable {
            if let Some(d) = self.disks.iter_mut().find(|d| d.disk.id == *id) {
                d.disk.bootable = *flag;
            }
        }
    }

    /// `expand_generators(volume)['min_size']`.
    pub fn min_size(&self, space: &VolumeSpace) -> i64 {
        space.min_size.value(self)
    }

    /// The volumes this node uses.
    pub fn allowed(&self) -> &[Allowed<'m>] {
        &self.allowed
    }

    /// `check_disk_space_for_deployment`: the disks hold `/boot`, the boot
    /// records and every volume's minimum (`__calc_minimal_installation_size`).
    pub fn enough_disk_space(&self) -> bool {
        let disks_space: i64 = self.disks.iter().map(|d| d.disk.size).sum();
        let used = self.disks.iter().filter(|d| d.disk.size > 0).count() as i64;
        let minimal = used * (BOOT_SIZE + BOOT_RECORDS_SIZE)
            + self
                .allowed
                .iter()
                .map(|a| self.min_size(a.space))
                .sum::<i64>();
        disks_space >= minimal
    }

    /// `check_volume_sizes_for_deployment`: each volume group short of its
    /// minimum, in Fuel 9's words.
    pub fn short_volumes(&self) -> Vec<String> {
        self.allowed
            .iter()
            .filter_map(|a| {
                let min_size = self.min_size(a.space);
                let given = layout::allocated(self.disks.iter().map(|d| &d.disk), &a.space.id);
                (given < min_size).then(|| {
                    format!(
                        "Volume group '{}' requires a minimum of {min_size}MB",
                        a.space.label
                    )
                })
            })
            .collect()
    }

    /// The layout as it stands.
    pub fn layout(&self) -> DiskLayout {
        DiskLayout {
            memory: self.memory,
            disks: self.disks.iter().map(|d| d.disk.clone()).collect(),
        }
    }
}

/// Fuel's generators read against a stored layout, as the volume manager
/// reads them against the same disks.
impl Sizes for DiskLayout {
    fn ram(&self) -> Option<u64> {
        self.memory
    }

    fn first_disk(&self) -> Option<i64> {
        self.disks.first().map(|d| d.size)
    }

    fn total_vg(&self, vg: &str) -> i64 {
        DiskLayout::total_vg(self, vg)
    }
}

/// A logical volume's size on a laid-out node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LvSize {
    /// What its group holds less the volumes before it: the one volume
    /// whose size is `calc_total_vg` of its own group.
    Rest,
    Mb(i64),
}

/// A volume group's logical volumes with their sizes on a laid-out node
/// (`expand_generators` of the group, as Fuel sent it to its agent).
pub fn logical_volumes<'s>(
    space: &'s VolumeSpace,
    layout: &DiskLayout,
) -> Vec<(&'s LogicalVolume, LvSize)> {
    space
        .volumes
        .iter()
        .map(|lv| {
            let size = match &lv.size {
                Amount::Generated {
                    generator: Generator::TotalVg,
                    args,
                } if args.first().and_then(serde_json::Value::as_str) == Some(&space.id) => {
                    LvSize::Rest
                }
                amount => LvSize::Mb(amount.value(layout)),
            };
            (lv, size)
        })
        .collect()
}
