//! Which node each host found is (SEMANTICS §13, Fuel's order,
//! tightened): a permanent MAC already stored names its node (MACs naming
//! two nodes are a problem naming both); else a system serial that is no
//! placeholder and unique in the import; else the node's name (the
//! inventory's host name, else the host's own); else the host is a new
//! node. Across the import: a MAC found on two hosts, two hosts taken for
//! one node and two new hosts of one name are problems, every one at once.

use std::collections::{BTreeMap, BTreeSet};

use crate::hardware::{Found, ReadProblem};

/// A node of the environment as matching sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    pub id: i64,
    pub name: String,
    /// The permanent MACs stored for it (its found NICs', and its declared
    /// interfaces').
    pub macs: Vec<String>,
    /// Its system serial as stored (placeholders never are).
    pub serial: Option<String>,
}

/// What a host found is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Node `id`, found by what `by` says.
    Node { id: i64, by: MatchedBy },
    /// A node the environment does not have yet.
    New,
}

/// What told a host's node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    Mac,
    Serial,
    Name,
}

/// Each host's match, in `found`'s order, or every problem.
pub fn match_hosts(found: &[Found], nodes: &[Known]) -> Result<Vec<Match>, Vec<ReadProblem>> {
    let mut problems = shared_macs(found);
    let by_mac: BTreeMap<&str, &Known> = nodes
        .iter()
        .flat_map(|n| n.macs.iter().map(move |m| (m.as_str(), n)))
        .collect();
    let by_name: BTreeMap<&str, &Known> = nodes.iter().map(|n| (n.name.as_str(), n)).collect();
    let serials = import_serials(found);
    let mut matches = Vec::with_capacity(found.len());
    for host in found {
        match match_one(host, &by_mac, &by_name, nodes, &serials) {
            Ok(m) => matches.push(m),
            Err(problem) => problems.push(problem),
        }
    }
    problems.extend(taken_twice(found, &matches, nodes));
    if problems.is_empty() {
        Ok(matches)
    } else {
        Err(problems)
    }
}

fn problem(host: &Found, message: String) -> ReadProblem {
    ReadProblem {
        file: host.file.clone(),
        host: Some(host.name.clone()),
        message,
    }
}

/// The real serials seen once in the import.
fn import_serials(found: &[Found]) -> BTreeSet<&str> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for host in found {
        if let Some(serial) = host.hardware.system.real_serial() {
            *counts.entry(serial).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .filter(|(_, n)| *n == 1)
        .map(|(s, _)| s)
        .collect()
}

fn match_one(
    host: &Found,
    by_mac: &BTreeMap<&str, &Known>,
    by_name: &BTreeMap<&str, &Known>,
    nodes: &[Known],
    serials: &BTreeSet<&str>,
) -> Result<Match, ReadProblem> {
    let owners: BTreeMap<i64, &str> = host
        .hardware
        .macs()
        .filter_map(|mac| by_mac.get(mac))
        .map(|n| (n.id, n.name.as_str()))
        .collect();
    if owners.len() > 1 {
        let names: Vec<String> = owners.values().map(|n| format!("'{n}'")).collect();
        return Err(problem(
            host,
            format!("its MACs name two nodes: {}", names.join(" and ")),
        ));
    }
    if let Some((&id, _)) = owners.iter().next() {
        return Ok(Match::Node {
            id,
            by: MatchedBy::Mac,
        });
    }
    let serial = host
        .hardware
        .system
        .real_serial()
        .filter(|s| serials.contains(s));
    if let Some(node) = serial.and_then(|s| nodes.iter().find(|n| n.serial.as_deref() == Some(s))) {
        return Ok(Match::Node {
            id: node.id,
            by: MatchedBy::Serial,
        });
    }
    let named = by_name
        .get(host.name.as_str())
        .or_else(|| host.host_name.as_deref().and_then(|h| by_name.get(h)));
    Ok(match named {
        Some(node) => Match::Node {
            id: node.id,
            by: MatchedBy::Name,
        },
        None => Match::New,
    })
}

/// A MAC found on two hosts of the import.
fn shared_macs(found: &[Found]) -> Vec<ReadProblem> {
    let mut seen: BTreeMap<&str, &Found> = BTreeMap::new();
    let mut problems = Vec::new();
    for host in found {
        let own: BTreeSet<&str> = host.hardware.macs().collect();
        for mac in own {
            match seen.get(mac) {
                Some(other) if other.name != host.name => problems.push(problem(
                    host,
                    format!(
                        "its MAC {mac} is also host '{}''s ({})",
                        other.name, other.file
                    ),
                )),
                _ => {
                    seen.insert(mac, host);
                }
            }
        }
    }
    problems
}

/// Two hosts taken for one node, or two new hosts of one name.
fn taken_twice(found: &[Found], matches: &[Match], nodes: &[Known]) -> Vec<ReadProblem> {
    let mut nodes_taken: BTreeMap<i64, &Found> = BTreeMap::new();
    let mut names_taken: BTreeMap<&str, &Found> = BTreeMap::new();
    let mut problems = Vec::new();
    for (host, m) in found.iter().zip(matches) {
        match m {
            Match::Node { id, .. } => {
                if let Some(other) = nodes_taken.insert(*id, host) {
                    let name = nodes
                        .iter()
                        .find(|n| n.id == *id)
                        .map_or("?", |n| n.name.as_str());
                    problems.push(problem(
                        host,
                        format!(
                            "host '{}' ({}) is node '{name}' too",
                            other.name, other.file
                        ),
                    ));
                }
            }
            Match::New => {
                if let Some(other) = names_taken.insert(host.name.as_str(), host) {
                    problems.push(problem(
                        host,
                        format!("a new node of this name comes from {} too", other.file),
                    ));
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::{FoundNic, Hardware, HardwareSource, System};

    fn host(name: &str, macs: &[&str], serial: Option<&str>) -> Found {
        Found {
            file: format!("facts/{name}"),
            name: name.to_owned(),
            host_name: None,
            address: None,
            found_at: None,
            source: HardwareSource::Ansible,
            hardware: Hardware {
                interfaces: macs
                    .iter()
                    .enumerate()
                    .map(|(i, m)| FoundNic {
                        name: format!("eth{i}"),
                        mac: Some((*m).to_owned()),
                        ..FoundNic::default()
                    })
                    .collect(),
                system: System {
                    serial: serial.map(str::to_owned),
                    ..System::default()
                },
                ..Hardware::default()
            },
        }
    }

    fn node(id: i64, name: &str, macs: &[&str], serial: Option<&str>) -> Known {
        Known {
            id,
            name: name.to_owned(),
            macs: macs.iter().map(|m| (*m).to_owned()).collect(),
            serial: serial.map(str::to_owned),
        }
    }

    const A: &str = "52:54:00:00:00:0a";
    const B: &str = "52:54:00:00:00:0b";
    const C: &str = "52:54:00:00:00:0c";

    #[test]
    fn a_mac_then_a_serial_then_a_name_tell_the_node() {
        let nodes = [
            node(1, "ctl-1", &[A], None),
            node(2, "cmp-1", &[], Some("SER-2")),
            node(3, "cmp-2", &[], None),
        ];
        let found = [
            host("renamed", &[A], None),
            host("whatever", &[B], Some("SER-2")),
            host("cmp-2", &[C], Some("To be filled by O.E.M.")),
            host("cmp-9", &["52:54:00:00:00:0d"], None),
        ];
        let matches = match_hosts(&found, &nodes).unwrap();
        assert_eq!(
            matches,
            [
                Match::Node {
                    id: 1,
                    by: MatchedBy::Mac
                },
                Match::Node {
                    id: 2,
                    by: MatchedBy::Serial
                },
                Match::Node {
                    id: 3,
                    by: MatchedBy::Name
                },
                Match::New,
            ]
        );
    }

    #[test]
    fn a_serial_seen_twice_in_the_import_tells_nothing() {
        let nodes = [node(2, "cmp-1", &[], Some("SER-2"))];
        let found = [
            host("x", &[A], Some("SER-2")),
            host("y", &[B], Some("SER-2")),
        ];
        assert_eq!(
            match_hosts(&found, &nodes).unwrap(),
            [Match::New, Match::New]
        );
    }

    #[test]
    fn macs_of_two_nodes_a_mac_of_two_hosts_and_a_node_taken_twice_are_problems() {
        let nodes = [node(1, "ctl-1", &[A], None), node(2, "ctl-2", &[B], None)];
        let both = match_hosts(&[host("h", &[A, B], None)], &nodes).unwrap_err();
        assert!(
            both[0].message.contains("'ctl-1' and 'ctl-2'"),
            "{}",
            both[0].message
        );
        let shared =
            match_hosts(&[host("h1", &[C], None), host("h2", &[C], None)], &nodes).unwrap_err();
        assert_eq!(shared.len(), 1);
        assert!(
            shared[0].message.contains("also host 'h1''s"),
            "{}",
            shared[0].message
        );
        let twice =
            match_hosts(&[host("ctl-1", &[], None), host("x", &[A], None)], &nodes).unwrap_err();
        assert!(
            twice[0].message.contains("is node 'ctl-1' too"),
            "{}",
            twice[0].message
        );
    }
}
