//! Hardware declared by hand (`PUT /api/v1/nodes/{id}/hardware`) for a
//! node no import found: checked as what a reader would have found — names
//! given once, MACs that are MACs (each on one NIC), bonds of the node's
//! NICs, disks with a size, VLANs that are VLANs — every problem at once,
//! each naming its field.

use std::collections::BTreeSet;

use super::model::{Hardware, HardwareSource, HardwareStamp, normal_mac};

/// Whether a node's hardware may be declared by hand: not once an import
/// found it (found hardware is what the machine says; a re-import
/// changes it), or why not.
pub fn may_declare(found: Option<&HardwareStamp>) -> Result<(), String> {
    match found {
        Some(f) if f.source != HardwareSource::Declared => Err(format!(
            "its hardware was found by {} at {}: import its facts again to change it",
            f.source.label(),
            f.found_at
        )),
        _ => Ok(()),
    }
}

/// The longest name Linux gives an interface (`IFNAMSIZ` less its NUL).
const NAME_LIMIT: usize = 15;

/// `hardware` as stored (MACs in one spelling), or every problem.
pub fn checked(mut hardware: Hardware) -> Result<Hardware, Vec<String>> {
    let mut problems = Vec::new();
    check_nics(&mut hardware, &mut problems);
    check_bonds(&hardware, &mut problems);
    check_disks(&hardware, &mut problems);
    if hardware.memory == Some(0) {
        problems.push("memory: 0 bytes; leave it out when unknown".to_owned());
    }
    if hardware.cpus == Some(0) {
        problems.push("cpus: 0; leave it out when unknown".to_owned());
    }
    if problems.is_empty() {
        Ok(hardware)
    } else {
        Err(problems)
    }
}

fn check_name(field: &str, name: &str, seen: &mut BTreeSet<String>, problems: &mut Vec<String>) {
    if name.trim().is_empty() {
        problems.push(format!("{field}: a name is needed"));
    } else if name.len() > NAME_LIMIT || name.contains(['/', ' ', ':']) {
        problems.push(format!(
            "{field}: '{name}' is no interface name (at most {NAME_LIMIT} characters, no '/', ':' or space)"
        ));
    } else if !seen.insert(name.to_owned()) {
        problems.push(format!("{field}: '{name}' is named twice"));
    }
}

fn check_nics(hardware: &mut Hardware, problems: &mut Vec<String>) {
    let mut names = BTreeSet::new();
    let mut macs = BTreeSet::new();
    for (i, nic) in hardware.interfaces.iter_mut().enumerate() {
        let field = format!("interfaces[{i}]");
        check_name(&format!("{field}.name"), &nic.name, &mut names, problems);
        if let Some(mac) = &nic.mac {
            match normal_mac(mac) {
                None => problems.push(format!("{field}.mac: '{mac}' is not a MAC address")),
                Some(normal) if !macs.insert(normal.clone()) => {
                    problems.push(format!("{field}.mac: {normal} is on two interfaces"))
                }
                Some(normal) => nic.mac = Some(normal),
            }
        }
        let vlans = nic.lldp.iter().flat_map(|l| &l.vlans);
        if let Some(vlan) = vlans.into_iter().find(|v| !(1..=4094).contains(*v)) {
            problems.push(format!("{field}.lldp.vlans: {vlan} is not a VLAN (1–4094)"));
        }
    }
}

fn check_bonds(hardware: &Hardware, problems: &mut Vec<String>) {
    let nics: BTreeSet<&str> = hardware
        .interfaces
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    let mut names: BTreeSet<String> = nics.iter().map(|n| (*n).to_owned()).collect();
    let mut enslaved = BTreeSet::new();
    for (i, bond) in hardware.bonds.iter().enumerate() {
        let field = format!("bonds[{i}]");
        check_name(&format!("{field}.name"), &bond.name, &mut names, problems);
        if bond.slaves.is_empty() {
            problems.push(format!("{field}.slaves: a bond needs its interfaces"));
        }
        for slave in &bond.slaves {
            if !nics.contains(slave.as_str()) {
                problems.push(format!(
                    "{field}.slaves: '{slave}' is not an interface of the node"
                ));
            } else if !enslaved.insert(slave.as_str()) {
                problems.push(format!("{field}.slaves: '{slave}' is in two bonds"));
            }
        }
    }
}

fn check_disks(hardware: &Hardware, problems: &mut Vec<String>) {
    let mut names = BTreeSet::new();
    for (i, disk) in hardware.disks.iter().enumerate() {
        let field = format!("disks[{i}]");
        if disk.name.trim().is_empty() || disk.name.contains('/') {
            problems.push(format!(
                "{field}.name: '{}' is no disk name (its kernel name: sda, nvme0n1)",
                disk.name
            ));
        } else if !names.insert(disk.name.as_str()) {
            problems.push(format!("{field}.name: '{}' is named twice", disk.name));
        }
        if disk.size == 0 {
            problems.push(format!("{field}.size: 0 bytes"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::{Disk, FoundBond, FoundNic, Lldp};
    use super::*;

    fn nic(name: &str, mac: &str) -> FoundNic {
        FoundNic {
            name: name.to_owned(),
            mac: Some(mac.to_owned()),
            ..FoundNic::default()
        }
    }

    #[test]
    fn declared_hardware_is_stored_with_macs_in_one_spelling() {
        let hardware = Hardware {
            interfaces: vec![
                nic("eth0", "52:54:00:AA:00:01"),
                nic("eth1", "5254.00aa.0002"),
            ],
            bonds: vec![FoundBond {
                name: "bond0".into(),
                mode: Some("802.3ad".into()),
                slaves: vec!["eth0".into(), "eth1".into()],
            }],
            disks: vec![Disk {
                name: "sda".into(),
                size: 480 << 30,
                ..Disk::default()
            }],
            memory: Some(64 << 30),
            cpus: Some(16),
            ..Hardware::default()
        };
        let stored = checked(hardware).unwrap();
        assert_eq!(
            stored.interfaces[1].mac.as_deref(),
            Some("52:54:00:aa:00:02")
        );
    }

    #[test]
    fn every_problem_of_declared_hardware_names_its_field() {
        let mut eth1 = nic("eth1", "52-54-00-aa-00-01");
        eth1.lldp = Some(Lldp {
            vlans: vec![5000],
            ..Lldp::default()
        });
        let hardware = Hardware {
            interfaces: vec![nic("eth0", "52:54:00:aa:00:01"), eth1, nic("eth0", "xx")],
            bonds: vec![FoundBond {
                name: "bond0".into(),
                mode: None,
                slaves: vec!["eth7".into()],
            }],
            disks: vec![Disk {
                name: "sda".into(),
                size: 0,
                ..Disk::default()
            }],
            cpus: Some(0),
            ..Hardware::default()
        };
        let problems = checked(hardware).unwrap_err();
        assert_eq!(
            problems,
            [
                "interfaces[1].mac: 52:54:00:aa:00:01 is on two interfaces",
                "interfaces[1].lldp.vlans: 5000 is not a VLAN (1–4094)",
                "interfaces[2].name: 'eth0' is named twice",
                "interfaces[2].mac: 'xx' is not a MAC address",
                "bonds[0].slaves: 'eth7' is not an interface of the node",
                "disks[0].size: 0 bytes",
                "cpus: 0; leave it out when unknown",
            ]
        );
    }
}
