//! What a node's hardware is (SEMANTICS §13): its network interfaces (the
//! permanent MAC, the current speed, the link's state, the driver, the PCI
//! address, what LLDP says of the switch port), the bonds found, its disks
//! (sizes in bytes as found), its memory and CPUs, the machine, and where
//! and when all of it was found.

use std::net::Ipv4Addr;

use serde::{Deserialize, Serialize};

/// A host found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub file: String,
    /// Its inventory name: the facts file's name, an inventory's host
    /// name (else its file's stem).
    pub name: String,
    /// The name the host gives itself.
    pub host_name: Option<String>,
    /// The address it was reached at (its default route's, or the one it
    /// booted from).
    pub address: Option<Ipv4Addr>,
    /// When it was found, as the file says (RFC 3339).
    pub found_at: Option<String>,
    pub source: HardwareSource,
    pub hardware: Hardware,
}

/// Why a file (or a host in it) cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReadProblem {
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    pub message: String,
}

impl ReadProblem {
    /// Where it is: the file, and the host in it (`facts.json (ctl-1)`).
    pub fn place(&self) -> String {
        match &self.host {
            Some(host) => format!("{} ({host})", self.file),
            None => self.file.clone(),
        }
    }
}

/// `facts.json (ctl-1): not JSON: …`.
impl std::fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.place(), self.message)
    }
}

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

impl HardwareSource {
    /// How people call it.
    pub fn label(self) -> &'static str {
        match self {
            HardwareSource::Ansible => "Ansible facts",
            HardwareSource::Ironic => "Ironic inspection",
            HardwareSource::Declared => "declared by hand",
        }
    }
}

/// Where and when a node's hardware was found, and the switches its NICs
/// are cabled to (LLDP): what a node's answer and the node table carry
/// (the hardware itself is `GET /api/v1/nodes/{id}/hardware`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HardwareStamp {
    pub source: HardwareSource,
    /// When it was found (RFC 3339): as its file says, else when it was
    /// imported or declared.
    pub found_at: String,
    /// The switches LLDP names, sorted, each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<String>,
}

/// A node's hardware with where and when it was found (`GET/PUT
/// /api/v1/nodes/{id}/hardware`): [`Hardware`]'s fields, and two the
/// server says (a `PUT` may send them back; they are not read). Written
/// out rather than flattened: serde's `flatten` would let an unknown
/// field pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NodeHardware {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(read_only))]
    pub source: Option<HardwareSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(read_only))]
    pub found_at: Option<String>,
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

impl NodeHardware {
    /// `hardware` as found per `stamp`.
    pub fn of(stamp: Option<&HardwareStamp>, hardware: Hardware) -> NodeHardware {
        let Hardware {
            interfaces,
            bonds,
            disks,
            memory,
            cpus,
            system,
        } = hardware;
        NodeHardware {
            source: stamp.map(|s| s.source),
            found_at: stamp.map(|s| s.found_at.clone()),
            interfaces,
            bonds,
            disks,
            memory,
            cpus,
            system,
        }
    }

    /// The hardware it names.
    pub fn hardware(self) -> Hardware {
        Hardware {
            interfaces: self.interfaces,
            bonds: self.bonds,
            disks: self.disks,
            memory: self.memory,
            cpus: self.cpus,
            system: self.system,
        }
    }
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

    /// The switches LLDP names, sorted, each once.
    pub fn switches(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .interfaces
            .iter()
            .filter_map(|n| n.lldp.as_ref()?.switch.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Its stamp: from `source`, found at `found_at`.
    pub fn stamp(&self, source: HardwareSource, found_at: &str) -> HardwareStamp {
        HardwareStamp {
            source,
            found_at: found_at.to_owned(),
            switches: self.switches(),
        }
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
    fn node_hardware_reads_back_whole_and_refuses_unknown_fields() {
        let text = r#"{"source":"ansible","found_at":"2026-12-07T10:00:00Z","interfaces":[{"name":"eth0","mac":"52:54:00:00:00:01","state":"up"}],"bonds":[],"disks":[{"name":"sda","size":1000}],"memory":4096,"cpus":2,"system":{}}"#;
        let read: NodeHardware = serde_json::from_str(text).unwrap();
        assert_eq!(read.source, Some(HardwareSource::Ansible));
        assert_eq!(read.clone().hardware().disks[0].size, 1000);
        let again: NodeHardware =
            serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
        assert_eq!(again, read);
        let wrong = serde_json::from_str::<NodeHardware>(r#"{"memroy": 1}"#);
        assert!(wrong.unwrap_err().to_string().contains("memroy"));
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
