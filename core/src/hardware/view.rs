//! A node's hardware as people read it — the CLI's `mosaic node show`
//! and the node's page print the same rows: each NIC (name, MAC, speed,
//! state, driver, LLDP), each bond, each disk (name, size, model, kind),
//! memory, CPUs and the machine, and where and when it was found.

use bytesize::ByteSize;

use super::model::{Disk, FoundNic, Hardware, HardwareStamp, LinkState, Lldp, NodeHardware};

/// `bytes` in binary units, as `lsblk` and `free -h` say them (`447.1 GiB`).
pub fn size(bytes: u64) -> String {
    ByteSize::b(bytes).display().iec().to_string()
}

/// A link's speed (`10 Gbit/s`, `100 Mbit/s`), or `unknown`.
pub fn speed(mbps: Option<u32>) -> String {
    match mbps {
        None => "unknown".to_owned(),
        Some(m) if m >= 1000 && m % 1000 == 0 => format!("{} Gbit/s", m / 1000),
        Some(m) if m >= 1000 => format!("{:.1} Gbit/s", f64::from(m) / 1000.0),
        Some(m) => format!("{m} Mbit/s"),
    }
}

/// What LLDP says, in a few words (`sw-r1 Ethernet1/7, VLANs 101, 102`).
pub fn lldp(lldp: Option<&Lldp>) -> String {
    let Some(lldp) = lldp else {
        return String::new();
    };
    let place: Vec<&str> = [lldp.switch.as_deref(), lldp.port.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let mut text = place.join(" ");
    if !lldp.vlans.is_empty() {
        let vlans: Vec<String> = lldp.vlans.iter().map(u16::to_string).collect();
        let sep = if text.is_empty() { "" } else { ", " };
        text = format!("{text}{sep}VLANs {}", vlans.join(", "));
    }
    text
}

/// A NIC's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NicRow {
    pub name: String,
    pub mac: String,
    pub speed: String,
    pub state: &'static str,
    pub driver: String,
    pub lldp: String,
}

impl NicRow {
    fn of(nic: &FoundNic) -> NicRow {
        NicRow {
            name: nic.name.clone(),
            mac: nic.mac.clone().unwrap_or_default(),
            speed: speed(nic.speed_mbps),
            state: match nic.state {
                LinkState::Up => "up",
                LinkState::Down => "down",
            },
            driver: nic.driver.clone().unwrap_or_default(),
            lldp: lldp(nic.lldp.as_ref()),
        }
    }
}

/// A disk's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskRow {
    pub name: String,
    pub size: String,
    pub model: String,
    /// `HDD` (rotational), `SSD`, and `removable` besides.
    pub kind: String,
}

impl DiskRow {
    fn of(disk: &Disk) -> DiskRow {
        let medium = if disk.rotational { "HDD" } else { "SSD" };
        DiskRow {
            name: disk.name.clone(),
            size: size(disk.size),
            model: disk.model.clone().unwrap_or_default(),
            kind: match disk.removable {
                true => format!("{medium}, removable"),
                false => medium.to_owned(),
            },
        }
    }
}

/// The hardware's rows and lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HardwareView {
    /// `Ansible facts, found 2026-12-07T10:00:00Z`.
    pub found: String,
    pub nics: Vec<NicRow>,
    /// `bond0 (802.3ad) of eth0, eth1`.
    pub bonds: Vec<String>,
    pub disks: Vec<DiskRow>,
    /// Memory, CPUs, machine and serial, each `(label, value)`, those known.
    pub facts: Vec<(&'static str, String)>,
}

impl HardwareView {
    /// A node's hardware as the API answers it (`GET …/hardware`), shown.
    pub fn of_node(node: NodeHardware) -> HardwareView {
        let stamp = node.source.map(|source| HardwareStamp {
            source,
            found_at: node.found_at.clone().unwrap_or_default(),
            switches: Vec::new(),
        });
        HardwareView::of(stamp.as_ref(), &node.hardware())
    }

    pub fn of(stamp: Option<&HardwareStamp>, hardware: &Hardware) -> HardwareView {
        let found = stamp.map_or_else(String::new, |s| {
            format!("{}, found {}", capitalized(s.source.label()), s.found_at)
        });
        let bonds = hardware
            .bonds
            .iter()
            .map(|b| {
                let mode = b
                    .mode
                    .as_deref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default();
                format!("{}{mode} of {}", b.name, b.slaves.join(", "))
            })
            .collect();
        HardwareView {
            found,
            nics: hardware.interfaces.iter().map(NicRow::of).collect(),
            bonds,
            disks: hardware.disks.iter().map(DiskRow::of).collect(),
            facts: facts(hardware),
        }
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The machine's serial, a placeholder said to be one.
fn serial(system: &super::model::System) -> Option<String> {
    let serial = system.serial.as_deref()?;
    Some(match system.real_serial() {
        Some(real) => real.to_owned(),
        None => format!("{serial} (a placeholder: it names no machine)"),
    })
}

fn facts(hardware: &Hardware) -> Vec<(&'static str, String)> {
    let system = &hardware.system;
    let machine: Vec<&str> = [system.vendor.as_deref(), system.product.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let total: u64 = hardware.disks.iter().map(|d| d.size).sum();
    [
        ("Memory", hardware.memory.map(size)),
        ("CPUs", hardware.cpus.map(|c| c.to_string())),
        (
            "Disks",
            (!hardware.disks.is_empty())
                .then(|| format!("{}, {} in all", hardware.disks.len(), size(total))),
        ),
        ("Machine", (!machine.is_empty()).then(|| machine.join(" "))),
        ("Serial", serial(system)),
    ]
    .into_iter()
    .filter_map(|(label, value)| Some((label, value?)))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::super::model::{FoundBond, HardwareSource, System};
    use super::*;

    #[test]
    fn sizes_and_speeds_read_as_people_say_them() {
        assert_eq!(size(480_103_981_056), "447.1 GiB");
        assert_eq!(size(64 << 30), "64.0 GiB");
        assert_eq!(speed(Some(10_000)), "10 Gbit/s");
        assert_eq!(speed(Some(2_500)), "2.5 Gbit/s");
        assert_eq!(speed(Some(100)), "100 Mbit/s");
        assert_eq!(speed(None), "unknown");
        let l = Lldp {
            switch: Some("sw-r1".into()),
            port: Some("Ethernet1/7".into()),
            vlans: vec![101, 102],
        };
        assert_eq!(lldp(Some(&l)), "sw-r1 Ethernet1/7, VLANs 101, 102");
    }

    #[test]
    fn a_nodes_hardware_reads_as_rows() {
        let hardware = Hardware {
            interfaces: vec![FoundNic {
                name: "eth0".into(),
                mac: Some("52:54:00:00:00:01".into()),
                speed_mbps: Some(25_000),
                state: LinkState::Up,
                driver: Some("mlx5_core".into()),
                ..FoundNic::default()
            }],
            bonds: vec![FoundBond {
                name: "bond0".into(),
                mode: Some("802.3ad".into()),
                slaves: vec!["eth0".into(), "eth1".into()],
            }],
            disks: vec![Disk {
                name: "sda".into(),
                size: 2 << 40,
                rotational: true,
                ..Disk::default()
            }],
            memory: Some(256 << 30),
            cpus: Some(64),
            system: System {
                vendor: Some("Dell Inc.".into()),
                product: Some("PowerEdge R650".into()),
                serial: None,
            },
        };
        let stamp = hardware.stamp(HardwareSource::Ansible, "2026-12-07T10:00:00Z");
        let view = HardwareView::of(Some(&stamp), &hardware);
        assert_eq!(view.found, "Ansible facts, found 2026-12-07T10:00:00Z");
        assert_eq!(view.nics[0].speed, "25 Gbit/s");
        assert_eq!(view.bonds, ["bond0 (802.3ad) of eth0, eth1"]);
        assert_eq!(view.disks[0].kind, "HDD");
        assert_eq!(
            view.facts,
            [
                ("Memory", "256.0 GiB".to_owned()),
                ("CPUs", "64".to_owned()),
                ("Disks", "1, 2.0 TiB in all".to_owned()),
                ("Machine", "Dell Inc. PowerEdge R650".to_owned()),
            ]
        );
    }
}
