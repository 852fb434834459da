//! The disks handed to a deployer (SEMANTICS §14, "Hand-off"):
//! kolla-ansible prepares no disks, so the export carries what must exist
//! on each host before `bootstrap-servers` — worked out from each node's
//! disk layout and the volumes metadata only — as an Ansible playbook the
//! operator runs first (`prepare-disks.yml`), with the host variables that
//! point the deployer there.
//!
//! Which volumes the deployer uses, and how, is the release's data
//! (`disks` of `deployers.yaml`, [`DiskUse`]): an empty LVM volume group
//! under the deployer's name for it (`cinder` → `cinder-volumes`), a
//! volume group whose logical volumes are formatted and mounted where the
//! metadata says (`image` → `/var/lib/glance`, the deployer's variable
//! pointing there), or partitions the deployer finds by their GPT name
//! (Swift's `KOLLA_SWIFT_DATA`, XFS labelled `d0`, `d1`, …).
//!
//! Each partition is made where the layout places it — at the sum of the
//! sizes before it on its disk — and of its size, in MiB; only the GPT's
//! own tables take the first and the last MiB of a disk when the layout
//! puts a volume there. What the layout gives volumes the deployer does
//! not use (the operating system's `os`, `logs`, …) is left to the
//! operating system's installer.

use std::collections::BTreeMap;

use serde::Serialize;

use super::problem::{ExportProblem, ExportProblemKind, listed, problem_on, tab_read_by};
use crate::deployer::{DiskUse, Expression, Prepare};
use crate::disks::manager::{LvSize, logical_volumes};
use crate::disks::metadata::{SpaceKind, VolumeSpace, VolumesMetadata};
use crate::disks::{DiskLayout, LaidDisk, Space};

/// The playbook's file in the export.
pub const PLAYBOOK: &str = "prepare-disks.yml";

/// What the hand-off makes on one host.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct HostDisks {
    /// The disks it partitions, in the layout's (name) order.
    pub disks: Vec<PreparedDisk>,
    pub volume_groups: Vec<PreparedGroup>,
}

/// A disk and the partitions made on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreparedDisk {
    /// Its kernel name (`sdb`).
    pub device: String,
    /// A partition's path is this and its number (`/dev/sdb`,
    /// `/dev/nvme0n1p`).
    pub prefix: String,
    /// MiB, as the layout was made for it.
    pub size: i64,
    /// Its `/dev/disk/by-id/` names when known: one must be the disk's.
    pub ids: Vec<String>,
    pub partitions: Vec<PreparedPartition>,
}

/// A partition: MiB from the disk's start, `end` excluded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreparedPartition {
    /// Its GPT name.
    pub name: String,
    pub start: i64,
    pub end: i64,
    /// The volume group it is a physical volume of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vg: Option<String>,
    /// Its XFS label (Swift's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A volume group and its logical volumes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreparedGroup {
    pub name: String,
    pub lvs: Vec<PreparedVolume>,
}

/// A logical volume: its size as `lvol` takes it (`100%FREE`, `1024m`),
/// its device, its file system and mount point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreparedVolume {
    pub name: String,
    pub size: String,
    pub device: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fs: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mount: Option<String>,
}

/// The hand-off of an environment's nodes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandOff {
    /// Host → what is made there, in the nodes' order; hosts with nothing
    /// to make are left out.
    pub hosts: Vec<(String, HostDisks)>,
    /// Host → the deployer's variables pointing at what is made there.
    pub vars: BTreeMap<String, BTreeMap<String, String>>,
    pub warnings: Vec<String>,
    /// What the deployer's data asks that the volumes metadata cannot give
    /// (a volume group prepared as partitions, …): the data's mistakes.
    pub problems: Vec<ExportProblem>,
}

/// A use checked against the metadata: its volume, and whether its
/// variable is set here.
struct Checked<'u> {
    use_: &'u DiskUse,
    space: &'u VolumeSpace,
    set: bool,
}

/// The hand-off of `nodes` (host name, layout) by `uses`; `holds` works
/// out a use's `when`.
pub fn hand_off<'n>(
    uses: &[DiskUse],
    meta: &VolumesMetadata,
    nodes: impl IntoIterator<Item = (String, &'n DiskLayout)>,
    holds: &dyn Fn(&Expression) -> Result<bool, String>,
) -> HandOff {
    let mut out = HandOff::default();
    let mut checked = Vec::new();
    for use_ in uses {
        match check(use_, meta, holds) {
            Ok(Some(c)) => checked.push(c),
            Ok(None) => {}
            Err(message) => out.problems.push(problem_on(
                ExportProblemKind::Disks,
                tab_read_by(&use_.when),
                format!("disks: volume '{}': {message}", use_.volume),
                None,
            )),
        }
    }
    let mut unset: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (host, layout) in nodes {
        let (disks, used) = host_disks(&checked, layout);
        if disks.disks.is_empty() {
            continue;
        }
        for &i in &used {
            let c = &checked[i];
            let Some(variable) = &c.use_.variable else {
                continue;
            };
            if !c.set {
                unset.entry(i).or_default().push(host.clone());
                continue;
            }
            let value = match c.use_.prepare {
                Prepare::VolumeGroup => c.use_.name.clone(),
                Prepare::Mounted => first_mount(c.space),
                Prepare::SwiftPartitions => None,
            };
            if let Some(value) = value {
                let vars = out.vars.entry(host.clone()).or_default();
                vars.insert(variable.clone(), value);
            }
        }
        out.hosts.push((host, disks));
    }
    for (i, hosts) in unset {
        let c = &checked[i];
        out.warnings.push(format!(
            "{} is not set for the {} made on {} ({}): {}",
            c.use_.variable.as_deref().unwrap_or_default(),
            c.space.label,
            listed(&hosts),
            first_mount(c.space).unwrap_or_else(|| c.space.id.clone()),
            c.use_
                .reason
                .as_deref()
                .unwrap_or("its condition does not hold")
        ));
    }
    out
}

/// A use against the metadata: none when no volume of that id exists
/// (a plugin's that is not enabled); an error when it cannot be prepared
/// so or its condition cannot be worked out.
fn check<'u>(
    use_: &'u DiskUse,
    meta: &'u VolumesMetadata,
    holds: &dyn Fn(&Expression) -> Result<bool, String>,
) -> Result<Option<Checked<'u>>, String> {
    let Some(space) = meta.space(&use_.volume) else {
        return Ok(None);
    };
    let prepare = use_.prepare;
    if space.kind != prepare.kind() {
        return Err(format!(
            "it is {}, which '{}' does not prepare",
            match space.kind {
                SpaceKind::Vg => "a volume group",
                SpaceKind::Partition => "a partition",
                SpaceKind::Raid => "a RAID member",
            },
            prepare.name()
        ));
    }
    let needs_name = matches!(prepare, Prepare::VolumeGroup | Prepare::SwiftPartitions);
    if needs_name && use_.name.is_none() {
        return Err(format!("'{}' needs a name", prepare.name()));
    }
    if prepare == Prepare::Mounted && first_mount(space).is_none() {
        return Err("it has no logical volume with a mount point".to_owned());
    }
    let set = match &use_.when {
        None => true,
        Some(when) => holds(when).map_err(|e| format!("its condition: {e}"))?,
    };
    Ok(Some(Checked { use_, space, set }))
}

/// The first mount point of a volume group's logical volumes.
fn first_mount(space: &VolumeSpace) -> Option<String> {
    space
        .volumes
        .iter()
        .filter_map(|lv| lv.mount.as_ref())
        .find(|m| m.starts_with('/'))
        .cloned()
}

/// What is made on a host laid out as `layout`, and the uses (indices of
/// `checked`) it makes something for.
fn host_disks(checked: &[Checked<'_>], layout: &DiskLayout) -> (HostDisks, Vec<usize>) {
    let mut disks = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    let mut labels = 0;
    for disk in &layout.disks {
        let mut partitions = Vec::new();
        for (start, end, i) in placed(checked, disk) {
            let c = &checked[i];
            let (name, vg, label) = match c.use_.prepare {
                Prepare::VolumeGroup => (c.space.id.clone(), c.use_.name.clone(), None),
                Prepare::Mounted => (c.space.id.clone(), Some(c.space.id.clone()), None),
                Prepare::SwiftPartitions => {
                    labels += 1;
                    let label = format!("d{}", labels - 1);
                    (c.use_.name.clone().unwrap_or_default(), None, Some(label))
                }
            };
            partitions.push(PreparedPartition {
                name,
                start,
                end,
                vg,
                label,
            });
            if !used.contains(&i) {
                used.push(i);
            }
        }
        if !partitions.is_empty() {
            disks.push(PreparedDisk {
                device: disk.id.clone(),
                prefix: partition_prefix(&disk.id),
                size: disk.size,
                ids: by_id(disk),
                partitions,
            });
        }
    }
    used.sort_unstable();
    let volume_groups = used
        .iter()
        .map(|&i| &checked[i])
        .filter(|c| c.use_.prepare != Prepare::SwiftPartitions)
        .map(|c| group(c, layout))
        .collect();
    (
        HostDisks {
            disks,
            volume_groups,
        },
        used,
    )
}

/// The spaces of `disk` a use prepares: (start, end, use) in MiB, where
/// the layout places them — the first and the last MiB left to the GPT's
/// tables; none left of a space when they take it all.
fn placed(checked: &[Checked<'_>], disk: &LaidDisk) -> Vec<(i64, i64, usize)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for space in &disk.volumes {
        let (start, size) = (offset, space.size().max(0));
        offset += size;
        let (Some(volume), true) = (space.volume(), size > 0) else {
            continue;
        };
        let pv = matches!(space, Space::Pv { .. });
        let Some(i) = checked
            .iter()
            .position(|c| c.space.id == volume && (c.use_.prepare.kind() == SpaceKind::Vg) == pv)
        else {
            continue;
        };
        let (first, last) = (start.max(1), (start + size).min(disk.size - 1));
        if first < last {
            out.push((first, last, i));
        }
    }
    out
}

/// A volume group with the logical volumes the use makes in it.
fn group(c: &Checked<'_>, layout: &DiskLayout) -> PreparedGroup {
    let name = match c.use_.prepare {
        Prepare::VolumeGroup => c.use_.name.clone().unwrap_or_default(),
        _ => c.space.id.clone(),
    };
    let mut lvs: Vec<PreparedVolume> = Vec::new();
    if c.use_.prepare == Prepare::Mounted {
        for (lv, size) in logical_volumes(c.space, layout) {
            let size = match size {
                LvSize::Rest => "100%FREE".to_owned(),
                LvSize::Mb(mb) => format!("{mb}m"),
            };
            lvs.push(PreparedVolume {
                device: format!("/dev/mapper/{}-{}", mapper(&name), mapper(&lv.name)),
                name: lv.name.clone(),
                size,
                fs: lv.file_system.clone().filter(|f| f != "none"),
                mount: lv.mount.clone().filter(|m| m.starts_with('/')),
            });
        }
    }
    // What takes the rest of the group is made last.
    lvs.sort_by_key(|lv| lv.size.ends_with("%FREE"));
    PreparedGroup { name, lvs }
}

/// A name as device-mapper writes it in `/dev/mapper` (`-` doubled).
fn mapper(name: &str) -> String {
    name.replace('-', "--")
}

/// What a partition's number is appended to: the disk's path, with a `p`
/// when its name ends with a digit (`nvme0n1p1`), as the kernel names
/// partitions.
fn partition_prefix(device: &str) -> String {
    let p = if device.ends_with(|c: char| c.is_ascii_digit()) {
        "p"
    } else {
        ""
    };
    format!("/dev/{device}{p}")
}

/// A disk's `/dev/disk/by-id/` names.
fn by_id(disk: &LaidDisk) -> Vec<String> {
    disk.extra
        .iter()
        .filter_map(|e| e.strip_prefix("disk/by-id/"))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::disks::{Machine, MachineDisk, NodeVolumes};

    /// Volumes as the bundled release declares them (`os`, `cinder`,
    /// `image`), and a `swift` partition as a plugin would.
    fn meta() -> VolumesMetadata {
        let os = json!({"id": "os", "type": "vg", "label": "Base System",
            "min_size": {"generator": "calc_min_os_size"},
            "volumes": [{"mount": "/", "type": "lv", "name": "root", "file_system": "ext4",
                         "size": {"generator": "calc_total_root_vg"}}]});
        let image = json!({"id": "image", "type": "vg", "label": "Image Storage",
            "min_size": {"generator": "calc_min_glance_size"},
            "volumes": [{"mount": "/var/lib/glance", "type": "lv", "name": "glance",
                         "file_system": "xfs",
                         "size": {"generator": "calc_total_vg", "generator_args": ["image"]}}]});
        let value = json!({
            "volumes": [os, image,
                {"id": "cinder", "type": "vg", "label": "Cinder",
                 "min_size": {"generator": "calc_min_cinder_size"}, "volumes": []},
                {"id": "swift", "type": "partition", "label": "Swift", "min_size": 1024,
                 "mount": "none", "file_system": "none"}],
            "volumes_roles_mapping": {
                "cinder": [{"id": "os", "allocate_size": "min"}, {"id": "cinder", "allocate_size": "all"}],
                "controller": [{"id": "os", "allocate_size": "min"}, {"id": "image", "allocate_size": "all"}],
                "swift": [{"id": "os", "allocate_size": "min"}, {"id": "swift", "allocate_size": "full-disk"}],
            },
        });
        crate::disks::metadata::read("test", &value).unwrap()
    }

    /// The release's `disks`, the image's `when` given.
    fn uses(image_when: &str) -> Vec<DiskUse> {
        serde_json::from_value(json!([
            {"volume": "cinder", "prepare": "volume_group", "name": "cinder-volumes",
             "variable": "cinder_volume_group"},
            {"volume": "image", "prepare": "mounted", "variable": "glance_file_datadir_volume",
             "when": image_when, "reason": "shared storage"},
            {"volume": "swift", "prepare": "swift_partitions", "name": "KOLLA_SWIFT_DATA"},
        ]))
        .unwrap()
    }

    /// The defaults of a node with `role` on `disks` (name, MiB; in name
    /// order, as [`Machine::of`] gives them), 8 GiB of memory.
    fn laid(meta: &VolumesMetadata, role: &str, disks: &[(&str, i64)]) -> DiskLayout {
        let machine = Machine {
            disks: disks
                .iter()
                .map(|(name, size)| MachineDisk {
                    id: (*name).to_owned(),
                    name: (*name).to_owned(),
                    size: *size,
                    extra: vec![format!("disk/by-id/wwn-{name}")],
                })
                .collect(),
            memory: Some(8 << 30),
        };
        let roles = [role];
        NodeVolumes {
            meta,
            roles: &roles,
            images_ceph: false,
        }
        .defaults(&machine)
    }

    fn holds(answer: bool) -> impl Fn(&Expression) -> Result<bool, String> {
        move |_| Ok(answer)
    }

    #[test]
    fn a_cinder_volume_group_is_made_where_the_layout_places_it() {
        let meta = meta();
        let layout = laid(&meta, "cinder", &[("nvme0n1", 102_400), ("sdb", 51_200)]);
        let out = hand_off(
            &uses("true"),
            &meta,
            [("cinder-1".to_owned(), &layout)],
            &holds(true),
        );
        assert!(out.problems.is_empty(), "{:?}", out.problems);
        let (host, disks) = &out.hosts[0];
        assert_eq!(host, "cinder-1");
        // Each partition starts at the sum of the sizes before it on its
        // disk and is as large as the layout's physical volume, but that
        // the last MiB of a disk is the GPT's.
        for (disk, prepared) in layout.disks.iter().zip(&disks.disks) {
            let mut offset = 0;
            let mut expected = Vec::new();
            for space in &disk.volumes {
                if space.volume() == Some("cinder") && space.size() > 0 {
                    expected.push((offset, (offset + space.size()).min(disk.size - 1)));
                }
                offset += space.size();
            }
            let got: Vec<(i64, i64)> = prepared
                .partitions
                .iter()
                .map(|p| (p.start, p.end))
                .collect();
            assert_eq!(got, expected, "{disk:?}");
            assert_eq!(prepared.ids, [format!("wwn-{}", disk.id)]);
        }
        assert_eq!(disks.disks[0].prefix, "/dev/nvme0n1p");
        assert_eq!(disks.disks[1].prefix, "/dev/sdb");
        assert_eq!(disks.disks[1].partitions[0].end, 51_199);
        let groups: Vec<(&str, usize)> = disks
            .volume_groups
            .iter()
            .map(|g| (g.name.as_str(), g.lvs.len()))
            .collect();
        assert_eq!(groups, [("cinder-volumes", 0)]);
        assert!(
            disks
                .disks
                .iter()
                .flat_map(|d| &d.partitions)
                .all(|p| { p.name == "cinder" && p.vg.as_deref() == Some("cinder-volumes") })
        );
        assert_eq!(
            out.vars["cinder-1"],
            BTreeMap::from([(
                "cinder_volume_group".to_owned(),
                "cinder-volumes".to_owned()
            )])
        );
    }

    #[test]
    fn swift_partitions_are_named_for_kolla_and_labelled_in_disk_order() {
        let meta = meta();
        let layout = laid(
            &meta,
            "swift",
            &[("nvme0n1", 102_400), ("sda", 51_200), ("sdb", 51_200)],
        );
        let out = hand_off(
            &uses("true"),
            &meta,
            [("st-1".to_owned(), &layout)],
            &holds(true),
        );
        let disks = &out.hosts[0].1;
        let parts: Vec<(&str, &str, &str, i64)> = disks
            .disks
            .iter()
            .flat_map(|d| {
                d.partitions.iter().map(move |p| {
                    (
                        d.prefix.as_str(),
                        p.name.as_str(),
                        p.label.as_deref().unwrap(),
                        p.start,
                    )
                })
            })
            .collect();
        // `full-disk` takes every disk left empty (the OS is on the first),
        // each keeping its boot spaces first; labels in the disks' order.
        assert_eq!(
            parts,
            [
                ("/dev/sda", "KOLLA_SWIFT_DATA", "d0", 564),
                ("/dev/sdb", "KOLLA_SWIFT_DATA", "d1", 564),
            ],
            "{layout:#?}"
        );
        assert!(disks.volume_groups.is_empty());
        assert!(out.vars.is_empty());
    }

    #[test]
    fn a_datadir_variable_is_set_only_when_its_condition_holds() {
        let meta = meta();
        let layout = laid(&meta, "controller", &[("sda", 204_800)]);
        let hosts = || [("ctl-1".to_owned(), &layout), ("ctl-2".to_owned(), &layout)];
        let set = hand_off(&uses("true"), &meta, hosts(), &holds(true));
        assert_eq!(
            set.vars["ctl-2"]["glance_file_datadir_volume"],
            "/var/lib/glance"
        );
        let group = &set.hosts[0].1.volume_groups[0];
        assert_eq!(
            group,
            &PreparedGroup {
                name: "image".to_owned(),
                lvs: vec![PreparedVolume {
                    name: "glance".to_owned(),
                    size: "100%FREE".to_owned(),
                    device: "/dev/mapper/image-glance".to_owned(),
                    fs: Some("xfs".to_owned()),
                    mount: Some("/var/lib/glance".to_owned()),
                }],
            }
        );
        let unset = hand_off(&uses("false"), &meta, hosts(), &holds(false));
        assert!(unset.vars.is_empty());
        // The volume is made and mounted all the same: the layout has it.
        assert_eq!(unset.hosts, set.hosts);
        assert_eq!(
            unset.warnings,
            [
                "glance_file_datadir_volume is not set for the Image Storage made on ctl-1, ctl-2 (/var/lib/glance): shared storage"
            ]
        );
    }

    #[test]
    fn a_use_the_metadata_cannot_give_is_the_datas_mistake() {
        let meta = meta();
        let wrong: Vec<DiskUse> = serde_json::from_value(json!([
            {"volume": "swift", "prepare": "volume_group", "name": "x", "variable": "y"},
            {"volume": "cinder", "prepare": "mounted", "variable": "z"},
            {"volume": "not-declared", "prepare": "mounted", "variable": "z"},
        ]))
        .unwrap();
        let layout = laid(&meta, "cinder", &[("sda", 102_400)]);
        let out = hand_off(&wrong, &meta, [("c".to_owned(), &layout)], &holds(true));
        let messages: Vec<&str> = out.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "disks: volume 'swift': it is a partition, which 'volume_group' does not prepare",
                "disks: volume 'cinder': it has no logical volume with a mount point",
            ]
        );
        assert!(out.hosts.is_empty());
    }

    #[test]
    fn the_playbook_carries_each_hosts_disks_as_yaml_reads_them() {
        let meta = meta();
        let cinder = laid(&meta, "cinder", &[("sda", 102_400), ("sdb", 51_200)]);
        let ctl = laid(&meta, "controller", &[("sda", 204_800)]);
        let out = hand_off(
            &uses("true"),
            &meta,
            [("cinder-1".to_owned(), &cinder), ("yes".to_owned(), &ctl)],
            &holds(true),
        );
        let text = super::super::write::prepare_disks("header", &out.hosts);
        let doc = crate::yaml::load("prepare-disks.yml", &text, Default::default()).unwrap();
        let value = doc.root.to_json();
        let layouts = &value[0]["vars"]["mosaic_layouts"];
        let sdb = &layouts["cinder-1"]["disks"][1];
        assert_eq!(sdb["device"], "sdb");
        assert_eq!(sdb["ids"], json!(["wwn-sdb"]));
        let last = cinder.disks[1].size - 1;
        assert_eq!(sdb["partitions"][0]["end"], json!(last));
        assert_eq!(sdb["partitions"][0]["vg"], "cinder-volumes");
        // A host named like a YAML boolean stays a name.
        let lv = &layouts["yes"]["volume_groups"][0]["lvs"][0];
        assert_eq!(lv["size"], "100%FREE");
        assert_eq!(lv["mount"], "/var/lib/glance");
        assert!(text.starts_with("# header\n"), "{text}");
    }
}
