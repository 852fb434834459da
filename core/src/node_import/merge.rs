//! What a re-import changes (SEMANTICS §13): hardware only — roles, tags,
//! node group and a node's own layout stay. The node's interfaces become
//! the NICs found; a declared interface keeps its networks on the NIC that
//! agrees with it by MAC, else by name (a renamed NIC keeps its networks);
//! one carrying networks that no NIC agrees with is a problem, never
//! dropped in silence. Found bonds become the node's bonds when it
//! declares none. And what changed, said for a dry run.

use std::collections::BTreeMap;

use crate::network::{Bond, BondMode, Nic, NodeInterfaces};

use crate::hardware::Hardware;
use crate::hardware::model::normal_mac;
use crate::hardware::view::size;

/// The node's interfaces once `found` is its hardware (`declared`: what it
/// has now), or every problem.
pub fn interfaces_after(
    node: &str,
    declared: Option<&NodeInterfaces>,
    found: &Hardware,
) -> Result<Option<NodeInterfaces>, Vec<String>> {
    if found.interfaces.is_empty() {
        return Ok(declared.cloned());
    }
    let nics: Vec<Nic> = found
        .interfaces
        .iter()
        .map(|n| Nic {
            name: n.name.clone(),
            mac: n.mac.clone(),
            speed_mbps: n.speed_mbps,
        })
        .collect();
    let Some(declared) = declared.filter(|d| !d.is_empty()) else {
        return Ok(Some(NodeInterfaces {
            interfaces: nics,
            bonds: found_bonds(found),
            networks: None,
        }));
    };
    let renamed = renames(declared, found);
    let mut problems = lost(node, declared, &renamed);
    let bonds = if declared.bonds.is_empty() {
        found_bonds(found)
    } else {
        let (bonds, bond_problems) = kept_bonds(node, declared, &renamed);
        problems.extend(bond_problems);
        bonds
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let networks = declared.networks.as_ref().map(|map| {
        map.iter()
            .filter_map(|(port, nets)| {
                let port = renamed
                    .get(port.as_str())
                    .cloned()
                    .flatten()
                    .or_else(|| bonds.iter().any(|b| &b.name == port).then(|| port.clone()))?;
                Some((port, nets.clone()))
            })
            .collect()
    });
    Ok(Some(NodeInterfaces {
        interfaces: nics,
        bonds,
        networks,
    }))
}

/// `declared` with the MAC its NIC had when last found on each interface
/// that names none (a layout saved without MACs): a NIC renamed since is
/// then still told by its MAC.
pub fn with_known_macs(declared: &NodeInterfaces, before: Option<&Hardware>) -> NodeInterfaces {
    let mut out = declared.clone();
    let Some(before) = before else {
        return out;
    };
    for nic in out.interfaces.iter_mut().filter(|n| n.mac.is_none()) {
        nic.mac = before
            .interfaces
            .iter()
            .find(|f| f.name == nic.name)
            .and_then(|f| f.mac.clone());
    }
    out
}

/// Each declared interface's name → the found NIC it is (by MAC, then by
/// name), `None` when no NIC agrees with it.
fn renames<'d>(
    declared: &'d NodeInterfaces,
    found: &Hardware,
) -> BTreeMap<&'d str, Option<String>> {
    declared
        .interfaces
        .iter()
        .map(|nic| {
            let mac = nic.mac.as_deref().and_then(normal_mac);
            let by_mac = mac.and_then(|m| {
                found
                    .interfaces
                    .iter()
                    .find(|f| f.mac.as_deref() == Some(m.as_str()))
            });
            let by_name = || found.interfaces.iter().find(|f| f.name == nic.name);
            (
                nic.name.as_str(),
                by_mac.or_else(by_name).map(|f| f.name.clone()),
            )
        })
        .collect()
}

/// The declared interfaces no NIC agrees with that carry networks (a
/// layout of the node's own names them).
fn lost(
    node: &str,
    declared: &NodeInterfaces,
    renamed: &BTreeMap<&str, Option<String>>,
) -> Vec<String> {
    renamed
        .iter()
        .filter(|(_, to)| to.is_none())
        .filter_map(|(name, _)| {
            let nets = declared
                .networks
                .as_ref()?
                .get(*name)
                .filter(|n| !n.is_empty())?;
            Some(format!(
                "Node '{node}': interface '{name}' carrying {} is no longer found",
                nets.join(", ")
            ))
        })
        .collect()
}

/// The declared bonds with their slaves renamed; a slave no NIC agrees
/// with is a problem.
fn kept_bonds(
    node: &str,
    declared: &NodeInterfaces,
    renamed: &BTreeMap<&str, Option<String>>,
) -> (Vec<Bond>, Vec<String>) {
    let mut problems = Vec::new();
    let bonds = declared
        .bonds
        .iter()
        .map(|bond| {
            let slaves = bond
                .slaves
                .iter()
                .filter_map(
                    |slave| match renamed.get(slave.as_str()).cloned().flatten() {
                        Some(found) => Some(found),
                        None => {
                            problems.push(format!(
                            "Node '{node}': interface '{slave}' of bond '{}' is no longer found",
                            bond.name
                        ));
                            None
                        }
                    },
                )
                .collect();
            Bond {
                slaves,
                ..bond.clone()
            }
        })
        .collect();
    (bonds, problems)
}

/// The bonds found, those of a mode Mosaic knows.
fn found_bonds(found: &Hardware) -> Vec<Bond> {
    found
        .bonds
        .iter()
        .filter_map(|b| {
            let mode: BondMode =
                serde_json::from_value(serde_json::json!(b.mode.as_deref()?)).ok()?;
            Some(Bond {
                name: b.name.clone(),
                mode,
                slaves: b.slaves.clone(),
            })
        })
        .collect()
}

/// What changes from `before` (none: never found) to `after`, a line each.
pub fn changes(before: Option<&Hardware>, after: &Hardware) -> Vec<String> {
    let Some(before) = before else {
        return vec!["found for the first time".to_owned()];
    };
    let mut lines = Vec::new();
    nic_changes(before, after, &mut lines);
    for disk in &after.disks {
        match before.disks.iter().find(|d| d.name == disk.name) {
            None => lines.push(format!("disk {} found ({})", disk.name, size(disk.size))),
            Some(old) if old.size != disk.size => {
                lines.push(format!(
                    "disk {}: {} → {}",
                    disk.name,
                    size(old.size),
                    size(disk.size)
                ));
            }
            Some(_) => {}
        }
    }
    for disk in before
        .disks
        .iter()
        .filter(|d| !after.disks.iter().any(|n| n.name == d.name))
    {
        lines.push(format!("disk {} no longer found", disk.name));
    }
    if before.memory != after.memory {
        lines.push(format!(
            "memory: {} → {}",
            shown(before.memory.map(size)),
            shown(after.memory.map(size))
        ));
    }
    if before.cpus != after.cpus {
        lines.push(format!(
            "CPUs: {} → {}",
            shown(before.cpus),
            shown(after.cpus)
        ));
    }
    if before.system != after.system {
        lines.push("the machine's vendor, product or serial".to_owned());
    }
    lines
}

fn shown<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "unknown".to_owned(), |v| v.to_string())
}

fn nic_changes(before: &Hardware, after: &Hardware, lines: &mut Vec<String>) {
    for nic in &after.interfaces {
        let old = nic
            .mac
            .as_ref()
            .and_then(|m| before.interfaces.iter().find(|o| o.mac.as_ref() == Some(m)))
            .or_else(|| before.interfaces.iter().find(|o| o.name == nic.name));
        match old {
            None => lines.push(format!("NIC {} found", nic.name)),
            Some(old) if old.name != nic.name => {
                lines.push(format!("NIC {} renamed {}", old.name, nic.name))
            }
            Some(old) if old != nic => {
                lines.push(format!("NIC {}: speed, state, driver or LLDP", nic.name))
            }
            Some(_) => {}
        }
    }
    for old in &before.interfaces {
        let still = after
            .interfaces
            .iter()
            .any(|n| n.name == old.name || (n.mac.is_some() && n.mac == old.mac));
        if !still {
            lines.push(format!("NIC {} no longer found", old.name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::{FoundBond, FoundNic};

    fn found(nics: &[(&str, &str)]) -> Hardware {
        Hardware {
            interfaces: nics
                .iter()
                .map(|(name, mac)| FoundNic {
                    name: (*name).to_owned(),
                    mac: Some((*mac).to_owned()),
                    ..FoundNic::default()
                })
                .collect(),
            ..Hardware::default()
        }
    }

    fn declared(nics: &[(&str, Option<&str>)], networks: &[(&str, &[&str])]) -> NodeInterfaces {
        NodeInterfaces {
            interfaces: nics
                .iter()
                .map(|(name, mac)| Nic {
                    name: (*name).to_owned(),
                    mac: mac.map(str::to_owned),
                    speed_mbps: None,
                })
                .collect(),
            bonds: Vec::new(),
            networks: (!networks.is_empty()).then(|| {
                networks
                    .iter()
                    .map(|(p, n)| ((*p).to_owned(), n.iter().map(|x| (*x).to_owned()).collect()))
                    .collect()
            }),
        }
    }

    const M1: &str = "52:54:00:00:00:01";
    const M2: &str = "52:54:00:00:00:02";

    #[test]
    fn a_renamed_nic_keeps_its_networks() {
        let before = declared(
            &[("eth0", Some(M1)), ("eth1", Some(M2))],
            &[("eth1", &["management", "storage"])],
        );
        let after = interfaces_after(
            "cmp-1",
            Some(&before),
            &found(&[("eno1", M1), ("eno2", M2)]),
        )
        .unwrap()
        .unwrap();
        let names: Vec<&str> = after.interfaces.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["eno1", "eno2"]);
        assert_eq!(after.networks.unwrap()["eno2"], ["management", "storage"]);
    }

    #[test]
    fn an_interface_saved_without_its_mac_is_told_by_the_mac_last_found() {
        let before = declared(&[("eth1", None)], &[("eth1", &["storage"])]);
        let last = found(&[("eth1", M2)]);
        let known = with_known_macs(&before, Some(&last));
        let after = interfaces_after("n", Some(&known), &found(&[("ens4", M2)]))
            .unwrap()
            .unwrap();
        assert_eq!(after.networks.unwrap()["ens4"], ["storage"]);
    }

    #[test]
    fn a_nic_carrying_networks_that_is_gone_is_a_problem() {
        let before = declared(
            &[("eth0", Some(M1)), ("eth2", None)],
            &[("eth2", &["management", "storage"])],
        );
        let problems =
            interfaces_after("cmp-1", Some(&before), &found(&[("eth0", M1)])).unwrap_err();
        assert_eq!(
            problems,
            ["Node 'cmp-1': interface 'eth2' carrying management, storage is no longer found"]
        );
        // Carrying nothing, it goes quietly.
        let idle = declared(
            &[("eth0", Some(M1)), ("eth2", None)],
            &[("eth0", &["management"])],
        );
        assert!(interfaces_after("cmp-1", Some(&idle), &found(&[("eth0", M1)])).is_ok());
    }

    #[test]
    fn a_declared_interface_agrees_by_name_on_a_first_import() {
        let before = declared(&[("eth1", None)], &[("eth1", &["private"])]);
        let after = interfaces_after("n", Some(&before), &found(&[("eth1", M1)]))
            .unwrap()
            .unwrap();
        assert_eq!(after.interfaces[0].mac.as_deref(), Some(M1));
        assert_eq!(after.networks.unwrap()["eth1"], ["private"]);
    }

    #[test]
    fn found_bonds_are_the_nodes_when_it_declares_none() {
        let mut hw = found(&[("eno1", M1), ("eno2", M2)]);
        hw.bonds = vec![FoundBond {
            name: "bond0".into(),
            mode: Some("802.3ad".into()),
            slaves: vec!["eno1".into(), "eno2".into()],
        }];
        let after = interfaces_after("n", None, &hw).unwrap().unwrap();
        assert_eq!(after.bonds[0].mode, BondMode::Lacp);
        assert_eq!(after.networks, None, "the default layout");
    }

    #[test]
    fn changes_are_said_a_line_each() {
        let before = found(&[("eth0", M1), ("eth1", M2)]);
        let mut after = found(&[("ens0", M1)]);
        after.memory = Some(1 << 30);
        assert_eq!(
            changes(Some(&before), &after),
            [
                "NIC eth0 renamed ens0",
                "NIC eth1 no longer found",
                "memory: unknown → 1.0 GiB"
            ]
        );
        assert!(changes(Some(&before), &before).is_empty());
        assert_eq!(changes(None, &after), ["found for the first time"]);
    }
}
