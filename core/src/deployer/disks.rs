//! What a release's deployer data says of the disk layouts (the `disks`
//! key of `deployers.yaml`, SEMANTICS §14): which volumes the deployer uses
//! and how each is prepared before it runs.

use serde::{Deserialize, Serialize};

use super::Expression;
use crate::disks::metadata::SpaceKind;

/// A volume of the disk layouts the deployer uses, and how it is prepared
/// (an entry of `disks` in `deployers.yaml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiskUse {
    /// The volume's id in the volumes metadata (`cinder`, `image`).
    pub volume: String,
    pub prepare: Prepare,
    /// `volume_group`: the group's name; `swift_partitions`: the
    /// partitions' GPT name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The deployer's variable set on each host that has the volume: the
    /// group's name (`volume_group`), the mount point (`mounted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
    /// The variable is set only when this holds (an expression); the
    /// volume is prepared all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Expression>,
    /// Why the variable is not set when `when` does not hold: the export's
    /// warning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// How a volume is prepared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prepare {
    /// An LVM volume group of its physical volumes, named `name`, with
    /// nothing in it (the service makes its own logical volumes).
    VolumeGroup,
    /// An LVM volume group of its physical volumes named after the volume
    /// (as Fuel named them), its logical volumes formatted and mounted as
    /// the metadata declares; `variable` names the first mount point.
    Mounted,
    /// Each of its partitions named `name` and formatted XFS, labelled
    /// `d0`, `d1`, … in the host's disk order (Swift's, as kolla-ansible
    /// finds them).
    SwiftPartitions,
}

impl Prepare {
    /// The kind of volume it prepares.
    pub fn kind(self) -> SpaceKind {
        match self {
            Prepare::VolumeGroup | Prepare::Mounted => SpaceKind::Vg,
            Prepare::SwiftPartitions => SpaceKind::Partition,
        }
    }

    /// As `deployers.yaml` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Prepare::VolumeGroup => "volume_group",
            Prepare::Mounted => "mounted",
            Prepare::SwiftPartitions => "swift_partitions",
        }
    }
}
