//! What the Configure Disks screen says as the operator types (fuel-ui's
//! `models.Disk.validate`, `models.Volume.getMinimalSize`, `getMaxSize`
//! and the screen's `not_enough_space`), from the draft in the simple
//! format and the node's volumes (`GET …/volumes`). The app calls these;
//! so may a script.

use serde::{Deserialize, Serialize};

use super::layout::{DiskEntry, VolumeInfo};

/// One volume's slider on one disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VolumeBounds {
    pub name: String,
    pub label: String,
    pub size: i64,
    /// `getMinimalSize`: the volume's minimum less what the other disks
    /// give it (may be 0 or less: nothing needed here).
    pub min: i64,
    /// `getMaxSize`: the disk less the other volumes on it.
    pub max: i64,
    /// "The size is too small. Allocate at least N MB." — on the rows
    /// that can change (a size, or room to grow).
    pub error: Option<String>,
}

/// One disk of the draft with its bars and messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiskBounds {
    pub id: String,
    pub volumes: Vec<VolumeBounds>,
    /// What no volume takes (negative: too much is asked).
    pub unallocated: i64,
    /// "The total size of volume groups exceeds available space of N MB."
    /// or "Not enough space for assigned volume groups: …".
    pub error: Option<String>,
}

/// The draft's every disk, in order.
pub fn bounds(draft: &[DiskEntry], volumes: &[VolumeInfo]) -> Vec<DiskBounds> {
    draft
        .iter()
        .enumerate()
        .map(|(i, _)| disk_bounds(draft, i, volumes))
        .collect()
}

fn disk_bounds(draft: &[DiskEntry], i: usize, volumes: &[VolumeInfo]) -> DiskBounds {
    let disk = &draft[i];
    let taken = disk
        .volumes
        .iter()
        .fold(0i64, |t, v| t.saturating_add(v.size));
    let rows: Vec<VolumeBounds> = disk
        .volumes
        .iter()
        .map(|v| {
            let info = volumes.iter().find(|x| x.name == v.name);
            let elsewhere: i64 = draft
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .flat_map(|(_, d)| d.volumes.iter().filter(|x| x.name == v.name))
                .fold(0i64, |t, x| t.saturating_add(x.size));
            let min = info.map_or(0, |x| x.min_size).saturating_sub(elsewhere);
            let max = disk.size.saturating_sub(taken.saturating_sub(v.size));
            // Said where the operator can act: not on a row with no room.
            let changeable = v.size > 0 || max > 0;
            VolumeBounds {
                name: v.name.clone(),
                label: info.map_or_else(|| v.name.clone(), |x| x.label.clone()),
                size: v.size,
                min,
                max,
                error: (changeable && v.size < min).then(|| too_small(min)),
            }
        })
        .collect();
    let required: i64 = rows.iter().map(|r| r.min.max(0)).sum();
    let unallocated = disk.size.saturating_sub(taken);
    let error = if unallocated < 0 {
        Some(format!(
            "The total size of volume groups exceeds available space of {} MB.",
            disk.size
        ))
    } else if disk.size < required {
        Some(format!(
            "Not enough space for assigned volume groups: there is total {} MB space on the disk, but volumes require at least {required} MB.",
            disk.size
        ))
    } else {
        None
    };
    DiskBounds {
        id: disk.id.clone(),
        volumes: rows,
        unallocated,
        error,
    }
}

/// Fuel's `volume_error`.
pub fn too_small(min: i64) -> String {
    format!("The size is too small. Allocate at least {min} MB.")
}

/// Whether the draft may be applied: no message on any disk or volume.
pub fn applicable(bounds: &[DiskBounds]) -> bool {
    bounds
        .iter()
        .all(|d| d.error.is_none() && d.volumes.iter().all(|v| v.error.is_none()))
}

/// A volume's size typed or slid on disk `disk`, held to 0..=max as
/// Fuel's slider held it (`updateDisk`): what the draft becomes.
pub fn with_size(draft: &[DiskEntry], disk: usize, volume: &str, size: i64) -> Vec<DiskEntry> {
    let mut out = draft.to_vec();
    let Some(d) = out.get_mut(disk) else {
        return out;
    };
    let taken = d
        .volumes
        .iter()
        .filter(|v| v.name != volume)
        .fold(0i64, |t, v| t.saturating_add(v.size));
    let max = d.size.saturating_sub(taken).max(0);
    if let Some(v) = d.volumes.iter_mut().find(|v| v.name == volume) {
        v.size = size.clamp(0, max);
    }
    out
}

/// The draft with disk `disk` the one to boot from.
pub fn with_boot_disk(draft: &[DiskEntry], disk: usize) -> Vec<DiskEntry> {
    let mut out = draft.to_vec();
    for (i, d) in out.iter_mut().enumerate() {
        d.bootable = i == disk;
    }
    out
}
