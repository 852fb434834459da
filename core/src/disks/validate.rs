//! A layout sent to be saved (`PUT /api/v1/nodes/{id}/disks`), checked
//! before anything is changed: Fuel's validator (`validators/disks.py`),
//! message for message, and what Fuel let through (SEMANTICS §14): an
//! unknown disk or volume, a disk sent twice, a negative size. Every
//! problem at once, each with where it is.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::layout::{DiskEntry, DiskLayout};
use super::manager::OS;

/// What is wrong with a layout sent, and where (`[0].volumes[1].size`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LayoutProblem {
    pub path: String,
    pub message: String,
}

fn problem(path: String, message: String) -> LayoutProblem {
    LayoutProblem { path, message }
}

/// Every problem of `sent` against the node's stored layout.
pub fn check(stored: &DiskLayout, sent: &[DiskEntry]) -> Vec<LayoutProblem> {
    if sent.is_empty() {
        // `at_least_one_disk_exists`.
        return vec![problem(
            String::new(),
            "Node seems not to have disks".into(),
        )];
    }
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, disk) in sent.iter().enumerate() {
        if !seen.insert(disk.id.as_str()) {
            out.push(problem(
                format!("[{i}].id"),
                format!("Disk '{}' is sent twice", disk.id),
            ));
            continue;
        }
        let Some(known) = stored.disks.iter().find(|d| d.id == disk.id) else {
            out.push(problem(
                format!("[{i}].id"),
                format!("Unknown disk '{}'", disk.id),
            ));
            continue;
        };
        let entry = known.entry();
        for (j, v) in disk.volumes.iter().enumerate() {
            if !entry.volumes.iter().any(|k| k.name == v.name) {
                out.push(problem(
                    format!("[{i}].volumes[{j}].name"),
                    format!("Unknown volume '{}' on disk '{}'", v.name, disk.id),
                ));
            }
            if v.size < 0 {
                out.push(problem(
                    format!("[{i}].volumes[{j}].size"),
                    format!(
                        "The size of volume '{}' on disk '{}' is negative: {}",
                        v.name, disk.id, v.size
                    ),
                ));
            }
        }
        // `sum_of_volumes_not_greater_than_disk_size`, against the disk's
        // real room, not the size sent.
        // Saturating: a hostile size must not overflow the sum.
        let total = disk
            .volumes
            .iter()
            .fold(0i64, |t, v| t.saturating_add(v.size));
        if total > entry.size {
            out.push(problem(
                format!("[{i}].volumes"),
                format!(
                    "Not enough free space on disk: {} ({total} MB asked, {} MB available)",
                    disk.id, entry.size
                ),
            ));
        }
    }
    out.extend(keep_data(sent));
    out.extend(os_on_one_disk(sent));
    out.extend(single_bootable(sent));
    out
}

/// `check_keep_data_flag_for_volumes_with_same_role`.
fn keep_data(sent: &[DiskEntry]) -> Option<LayoutProblem> {
    let mut flags: BTreeMap<&str, BTreeSet<bool>> = BTreeMap::new();
    for v in sent.iter().flat_map(|d| &d.volumes) {
        flags.entry(&v.name).or_default().insert(v.keep_data);
    }
    let incorrect: Vec<&str> = flags
        .iter()
        .filter(|(_, f)| f.len() > 1)
        .map(|(n, _)| *n)
        .collect();
    (!incorrect.is_empty()).then(|| {
        problem(
            String::new(),
            format!(
                "All volumes with the same name should have the same value for `keep_data` flag, incorrect volumes: {}",
                incorrect.join(", ")
            ),
        )
    })
}

/// `os_vg_single_disk` (Fuel's for Ubuntu; every kolla host here).
fn os_on_one_disk(sent: &[DiskEntry]) -> Option<LayoutProblem> {
    let disks = sent
        .iter()
        .filter(|d| d.volumes.iter().any(|v| v.name == OS && v.size > 0))
        .count();
    (disks > 1).then(|| {
        problem(
            String::new(),
            "Base system should be allocated on one disk only".into(),
        )
    })
}

/// `check_single_disk_bootable`.
fn single_bootable(sent: &[DiskEntry]) -> Option<LayoutProblem> {
    let bootable: Vec<&str> = sent
        .iter()
        .filter(|d| d.bootable)
        .map(|d| d.id.as_str())
        .collect();
    (bootable.len() > 1).then(|| {
        problem(
            String::new(),
            format!(
                "Disks {} can not be selected as bootable at the same time. Only one disk should be selected as bootable.",
                bootable.join(", ")
            ),
        )
    })
}
