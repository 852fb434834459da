//! What a release and its plugins say of disks (SEMANTICS §14): the
//! volume groups and partitions (`volumes`), which of them each role needs
//! and how much space they get (`volumes_roles_mapping`), and how the boot
//! disk is picked (`rule_to_pick_boot_disk`) — read from Fuel's format into
//! types, and merged: the release's, then each enabled plugin's.

use std::collections::BTreeMap;

use serde_json::Value;

use super::generator::{Amount, Generator};

/// What a space is on a disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpaceKind {
    /// An LVM volume group: a physical volume on each disk it uses.
    Vg,
    /// A plain partition (Ceph's data and journal).
    Partition,
    /// A software RAID member.
    Raid,
}

/// A logical volume of a volume group: where it is mounted and how big.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicalVolume {
    pub name: String,
    pub mount: Option<String>,
    pub file_system: Option<String>,
    pub size: Amount,
}

/// One entry of `volumes`: a volume group or a partition.
#[derive(Debug, Clone, PartialEq)]
pub struct VolumeSpace {
    pub id: String,
    pub kind: SpaceKind,
    pub label: String,
    pub min_size: Amount,
    /// A partition's mount point (`none`: not mounted).
    pub mount: Option<String>,
    pub file_system: Option<String>,
    pub partition_guid: Option<String>,
    /// A volume group's logical volumes.
    pub volumes: Vec<LogicalVolume>,
}

/// How much of the disks a role's volume takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllocateSize {
    /// Its minimum, first-fit across the disks.
    Min,
    /// A share of what is left.
    All,
    /// Every disk still empty (`all` when the node has one disk).
    FullDisk,
}

impl AllocateSize {
    pub const NAMES: [&'static str; 3] = ["min", "all", "full-disk"];

    pub fn parse(text: &str) -> Option<AllocateSize> {
        match text {
            "min" => Some(AllocateSize::Min),
            "all" => Some(AllocateSize::All),
            "full-disk" => Some(AllocateSize::FullDisk),
            _ => None,
        }
    }
}

/// One line of a role's mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    pub id: String,
    pub allocate_size: AllocateSize,
}

/// A rule of `rule_to_pick_boot_disk`.
#[derive(Debug, Clone)]
pub enum BootRule {
    /// Disks whose name matches are never picked to boot from.
    ExcludeByName(regex::Regex),
    /// The disk holding `root_mount` boots when its name matches.
    RootDiskIfNameMatches {
        regex: regex::Regex,
        root_mount: String,
    },
}

/// A release's disk metadata with its plugins' merged in.
#[derive(Debug, Clone, Default)]
pub struct VolumesMetadata {
    pub spaces: Vec<VolumeSpace>,
    pub roles: BTreeMap<String, Vec<Mapped>>,
    pub boot_rules: Vec<BootRule>,
}

/// What cannot be read or merged, with the source and the place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {path}: {message}")]
pub struct MetadataError {
    /// `release 'openstack'` or `plugin 'name'`.
    pub origin: String,
    pub path: String,
    pub message: String,
}

impl VolumesMetadata {
    /// The release's metadata, then each plugin's in order (SEMANTICS
    /// §14): a role's mapping replaces the one before it; volumes are
    /// added, and an id two sources declare is an error naming both; boot
    /// rules are added. Every problem at once.
    pub fn merged<'a>(
        sources: impl IntoIterator<Item = (String, &'a Value)>,
    ) -> Result<VolumesMetadata, Vec<MetadataError>> {
        let mut out = VolumesMetadata::default();
        let mut declared: BTreeMap<String, String> = BTreeMap::new();
        let mut problems = Vec::new();
        for (source, value) in sources {
            let one = match read(&source, value) {
                Ok(one) => one,
                Err(mut e) => {
                    problems.append(&mut e);
                    continue;
                }
            };
            for space in one.spaces {
                if let Some(first) = declared.get(&space.id) {
                    problems.push(MetadataError {
                        origin: source.clone(),
                        path: format!("volumes.{}", space.id),
                        message: format!("volume '{}' is also declared by {first}", space.id),
                    });
                    continue;
                }
                declared.insert(space.id.clone(), source.clone());
                out.spaces.push(space);
            }
            out.roles.extend(one.roles);
            out.boot_rules.extend(one.boot_rules);
        }
        problems.extend(unknown_mapped(&out));
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(problems)
        }
    }

    pub fn space(&self, id: &str) -> Option<&VolumeSpace> {
        self.spaces.iter().find(|s| s.id == id)
    }
}

/// Mappings naming a volume nothing declares.
fn unknown_mapped(meta: &VolumesMetadata) -> Vec<MetadataError> {
    let mut out = Vec::new();
    for (role, list) in &meta.roles {
        for m in list.iter().filter(|m| meta.space(&m.id).is_none()) {
            out.push(MetadataError {
                origin: "volumes_roles_mapping".into(),
                path: role.clone(),
                message: format!("volume '{}' is declared nowhere", m.id),
            });
        }
    }
    out
}

/// One source's `{volumes, volumes_roles_mapping, rule_to_pick_boot_disk}`.
pub fn read(source: &str, value: &Value) -> Result<VolumesMetadata, Vec<MetadataError>> {
    let mut problems = Vec::new();
    let mut fail = |path: String, message: String| {
        problems.push(MetadataError {
            origin: source.to_string(),
            path,
            message,
        })
    };
    let mut out = VolumesMetadata::default();
    for (i, v) in value["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        match space(v) {
            Ok(s) => out.spaces.push(s),
            Err((field, why)) => fail(format!("volumes[{i}]{field}"), why),
        }
    }
    let mapping = value["volumes_roles_mapping"].as_object();
    for (role, list) in mapping.into_iter().flatten() {
        match mapped(list) {
            Ok(m) => {
                out.roles.insert(role.clone(), m);
            }
            Err((field, why)) => fail(format!("volumes_roles_mapping.{role}{field}"), why),
        }
    }
    let rules = value["rule_to_pick_boot_disk"].as_array();
    for (i, r) in rules.into_iter().flatten().enumerate() {
        match boot_rule(r) {
            Ok(Some(rule)) => out.boot_rules.push(rule),
            Ok(None) => {}
            Err(why) => fail(format!("rule_to_pick_boot_disk[{i}]"), why),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

type Field = (String, String);

fn text(v: &Value, key: &str) -> Option<String> {
    v[key].as_str().map(str::to_string)
}

fn space(v: &Value) -> Result<VolumeSpace, Field> {
    let id = text(v, "id").ok_or_else(|| (".id".into(), "a volume needs an id".into()))?;
    let kind = match v["type"].as_str() {
        Some("vg") => SpaceKind::Vg,
        Some("partition") => SpaceKind::Partition,
        Some("raid") => SpaceKind::Raid,
        other => {
            return Err((
                ".type".into(),
                format!("volume '{id}': type {other:?} is none of vg, partition, raid"),
            ));
        }
    };
    let min_size = Amount::read(&v["min_size"]).map_err(|why| (".min_size".into(), why))?;
    let mut volumes = Vec::new();
    // Fuel spells a group's logical volumes `volumes`, the role-as-a-plugin
    // spec `items`.
    let lvs = v["volumes"].as_array().or_else(|| v["items"].as_array());
    for (i, lv) in lvs.into_iter().flatten().enumerate() {
        let size = Amount::read(&lv["size"]).map_err(|why| (format!(".volumes[{i}].size"), why))?;
        volumes.push(LogicalVolume {
            name: text(lv, "name").unwrap_or_default(),
            mount: text(lv, "mount"),
            file_system: text(lv, "file_system"),
            size,
        });
    }
    Ok(VolumeSpace {
        label: text(v, "label").unwrap_or_else(|| id.clone()),
        id,
        kind,
        min_size,
        mount: text(v, "mount"),
        file_system: text(v, "file_system"),
        partition_guid: text(v, "partition_guid"),
        volumes,
    })
}

fn mapped(list: &Value) -> Result<Vec<Mapped>, Field> {
    let Some(items) = list.as_array() else {
        return Err((String::new(), "a role's volumes are a list".into()));
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let id = text(item, "id").ok_or_else(|| (format!("[{i}].id"), "missing".into()))?;
        let size = item["allocate_size"].as_str().unwrap_or("");
        let allocate_size = AllocateSize::parse(size).ok_or_else(|| {
            (
                format!("[{i}].allocate_size"),
                format!("'{size}' is none of {}", AllocateSize::NAMES.join(", ")),
            )
        })?;
        out.push(Mapped { id, allocate_size });
    }
    Ok(out)
}

fn boot_rule(v: &Value) -> Result<Option<BootRule>, String> {
    let pattern = v["regex"].as_str().unwrap_or("");
    let regex = || {
        regex::Regex::new(&format!("^(?:{pattern})")).map_err(|e| format!("regex '{pattern}': {e}"))
    };
    match v["type"].as_str() {
        Some("exclude_disks_by_name") => Ok(Some(BootRule::ExcludeByName(regex()?))),
        Some("pick_root_disk_if_disk_name_match") => Ok(Some(BootRule::RootDiskIfNameMatches {
            regex: regex()?,
            root_mount: text(v, "root_mount").unwrap_or_else(|| "/".into()),
        })),
        // Fuel ignores a rule of a type it does not know; so do we.
        _ => Ok(None),
    }
}

/// Whether a generator name is one Fuel's volume manager knows: what the
/// plugin checks call before a package is installed.
pub fn known_generator(name: &str) -> bool {
    Generator::parse(name).is_some()
}
