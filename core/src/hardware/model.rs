//! What a node's hardware is (SEMANTICS §13): its network interfaces (the
//! permanent MAC, the current speed, the link's state, the driver, the PCI
//! address, what LLDP says of the switch port), the bonds found, its disks
//! (sizes in bytes as found), its memory and CPUs, the machine, and where
//! and when all of it was found.

use serde::{Deserialize, Serialize};

/// A node's hardware.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Hardware {
    #[serde(default)]
    pub interfaces: Vec<FoundNic>,
    #[serde(default)]
    pub bonds: Vec<FoundBond>,
    #[serde(default)]
    pub disks: Vec<Disk>,
    /// Memory, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<u64>,
    /// Logical CPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<u32>,
    #[serde(default)]
    pub system: System,
}

/// A network interface card as found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FoundNic {
    pub name: String,
    /// The permanent MAC (a bond's slave reports the bond's as its
    /// current one), lowercase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
    /// The current speed; none when unknown (Ansible's `-1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mbps: Option<u32>,
    #[serde(default)]
    pub state: LinkState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lldp: Option<Lldp>,
}

/// Whether a link is up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum LinkState {
    Up,
    #[default]
    Down,
}

/// What LLDP says of the switch port a NIC is cabled to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Lldp {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vlans: Vec<u16>,
}

/// A bond as found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FoundBond {
    pub name: String,
    /// Linux's name of its mode (`802.3ad`, `active-backup`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(default)]
    pub slaves: Vec<String>,
}

/// A disk as found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Disk {
    /// Its kernel name (`sda`, `nvme0n1`).
    pub name: String,
    /// Bytes.
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Its `/dev/disk/by-path` link, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_path: Option<String>,
    /// Its `/dev/disk/by-id` links.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    #[serde(default)]
    pub rotational: bool,
    #[serde(default)]
    pub removable: bool,
}

/// The machine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct System {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial: Option<String>,
}

/// Serials a vendor leaves in place of one: they name no machine.
pub const PLACEHOLDER_SERIALS: [&str; 6] = [
    "",
    "NA",
    "0123456789",
    "To be filled by O.E.M.",
    "System Serial Number",
    "Not Specified",
];

impl System {
    /// Its serial, when it names the machine (not a placeholder).
    pub fn real_serial(&self) -> Option<&str> {
        let serial = self.serial.as_deref()?.trim();
        let placeholder = PLACEHOLDER_SERIALS
            .iter()
            .any(|p| p.eq_ignore_ascii_case(serial));
        (!placeholder).then_some(serial)
    }
}

/// Where a node's hardware came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum HardwareSource {
    /// Ansible's facts (`setup`).
    Ansible,
    /// Ironic's inspection.
    Ironic,
    /// Declared by hand (`PUT …/hardware`).
    Declared,
}

/// A MAC address in one spelling: six lowercase hex pairs joined by `:`.
pub fn normal_mac(text: &str) -> Option<String> {
    let hex: String = text
        .chars()
        .filter(|c| !matches!(c, ':' | '-' | '.'))
        .collect();
    let valid = hex.len() == 12 && hex.chars().all(|c| c.is_ascii_hexdigit());
    if !valid || hex.chars().all(|c| c == '0') {
        return None;
    }
    let lower = hex.to_ascii_lowercase();
    let pairs: Vec<&str> = (0..6).map(|i| &lower[i * 2..i * 2 + 2]).collect();
    Some(pairs.join(":"))
}

impl Hardware {
    /// Its NICs' MACs.
    pub fn macs(&self) -> impl Iterator<Item = &str> {
        self.interfaces.iter().filter_map(|n| n.mac.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macs_are_spelled_one_way_and_zero_is_none() {
        assert_eq!(
            normal_mac("52:54:00:AB:cd:01").as_deref(),
            Some("52:54:00:ab:cd:01")
        );
        assert_eq!(
            normal_mac("5254.00ab.cd01").as_deref(),
            Some("52:54:00:ab:cd:01")
        );
        assert_eq!(
            normal_mac("52-54-00-ab-cd-01").as_deref(),
            Some("52:54:00:ab:cd:01")
        );
        assert_eq!(normal_mac("00:00:00:00:00:00"), None);
        assert_eq!(normal_mac("xyz"), None);
    }

    #[test]
    fn placeholder_serials_name_no_machine() {
        for placeholder in [
            "",
            "NA",
            "To be filled by O.E.M.",
            "system serial number",
            " Not Specified ",
        ] {
            let system = System {
                serial: Some(placeholder.to_owned()),
                ..System::default()
            };
            assert_eq!(system.real_serial(), None, "{placeholder}");
        }
        let real = System {
            serial: Some("CZ3401ABCD".to_owned()),
            ..System::default()
        };
        assert_eq!(real.real_serial(), Some("CZ3401ABCD"));
    }
}
