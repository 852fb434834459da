//! An import of found hardware planned whole before anything is stored
//! (SEMANTICS §13: all or nothing, every problem at once): each host read,
//! matched to its node or made a new one (in the rack its address says),
//! its interfaces worked out as a re-import may change them; what each
//! host becomes, as a dry run answers it. The hardware itself, and reading
//! it, is `crate::hardware`'s; this module is where it meets an
//! environment's nodes, networks and racks.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::name::NodeStatus;
use crate::network::{Network, NodeGroup};
use crate::tag::NodeTags;

pub mod matching;
pub mod merge;
pub mod place;

use crate::hardware::model::normal_mac;
use crate::hardware::{Found, Hardware, ReadProblem};
use matching::{Known, Match, match_hosts};
use merge::{changes, interfaces_after, with_known_macs};
use place::node_group_of;

/// A node of the environment as an import sees it: as stored, with its
/// hardware as last found (or declared).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Existing {
    pub node: NodeTags,
    pub hardware: Option<Hardware>,
}

impl Existing {
    fn known(&self) -> Known {
        let found = self
            .hardware
            .iter()
            .flat_map(|h| h.macs().map(str::to_owned));
        let declared = self.node.interfaces.iter().flat_map(|i| {
            i.interfaces
                .iter()
                .filter_map(|n| n.mac.as_deref().and_then(normal_mac))
        });
        let mut macs: Vec<String> = found.chain(declared).collect();
        macs.sort();
        macs.dedup();
        Known {
            id: self.node.id,
            name: self.node.display_name(),
            macs,
            serial: self
                .hardware
                .as_ref()
                .and_then(|h| h.system.real_serial())
                .map(str::to_owned),
        }
    }
}

/// What one host of an import becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The file it was found in, and its name there.
    pub file: String,
    pub host: String,
    /// The node as it is to be stored (id 0: a new one): its interfaces
    /// and its hardware's stamp as found.
    pub node: NodeTags,
    pub hardware: Hardware,
    pub outcome: Outcome,
}

/// Whether a host makes a node, changes one, or finds it as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A new node: status `discover`, no roles, in the node group its
    /// address says.
    Create,
    /// The node's hardware (or its interfaces) change: what, in words.
    Update(Vec<String>),
    /// As found before: nothing is stored.
    Unchanged,
}

/// What an import would do: every host's plan, and every problem (an
/// import with one stores nothing).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportPlan {
    pub planned: Vec<Planned>,
    pub problems: Vec<ReadProblem>,
}

impl ImportPlan {
    /// The plan without its new nodes: what a deployment's own facts
    /// change (SEMANTICS §15: a run updates the hardware of the nodes it
    /// deploys; a host that is no node is not one because Ansible
    /// reached it).
    pub fn known_only(mut self) -> ImportPlan {
        let new: std::collections::HashSet<String> = self
            .planned
            .iter()
            .filter(|p| p.outcome == Outcome::Create)
            .map(|p| p.file.clone())
            .collect();
        self.planned.retain(|p| p.outcome != Outcome::Create);
        self.problems.retain(|p| !new.contains(&p.file));
        self
    }
}

/// Where an import lands: the environment's networks and node groups
/// (which rack a new node is in), and the time it is made (RFC 3339; the
/// found time of a file that does not say).
#[derive(Debug, Clone, Copy)]
pub struct Landing<'a> {
    pub networks: &'a [Network],
    pub groups: &'a [NodeGroup],
    pub now: &'a str,
}

/// What every host of `found` becomes among `nodes`: matched to its node
/// (SEMANTICS §13) or a new one, with its interfaces as the re-import
/// rules make them; every problem besides. Hosts whose node cannot be
/// told leave the plan empty: there is nothing sure to show.
pub fn plan(found: Vec<Found>, nodes: &[Existing], landing: Landing<'_>) -> ImportPlan {
    let known: Vec<Known> = nodes.iter().map(Existing::known).collect();
    let matches = match match_hosts(&found, &known) {
        Ok(matches) => matches,
        Err(problems) => {
            return ImportPlan {
                planned: Vec::new(),
                problems,
            };
        }
    };
    let by_id: HashMap<i64, &Existing> = nodes.iter().map(|n| (n.node.id, n)).collect();
    let mut out = ImportPlan::default();
    for (host, m) in found.into_iter().zip(matches) {
        let existing = match m {
            Match::Node { id, .. } => by_id.get(&id).copied(),
            Match::New => None,
        };
        match planned(host, existing, landing) {
            Ok(p) => out.planned.push(p),
            Err(problems) => out.problems.extend(problems),
        }
    }
    out
}

/// What `host` makes of `existing` (none: a new node).
fn planned(
    host: Found,
    existing: Option<&Existing>,
    landing: Landing<'_>,
) -> Result<Planned, Vec<ReadProblem>> {
    let name = existing.map_or_else(|| host.name.clone(), |e| e.node.display_name());
    let declared = existing.and_then(|e| {
        let interfaces = e.node.interfaces.as_ref()?;
        Some(with_known_macs(interfaces, e.hardware.as_ref()))
    });
    let interfaces =
        interfaces_after(&name, declared.as_ref(), &host.hardware).map_err(|lost| {
            lost.into_iter()
                .map(|message| ReadProblem {
                    file: host.file.clone(),
                    host: Some(host.name.clone()),
                    message,
                })
                .collect::<Vec<_>>()
        })?;
    let found_at = host.found_at.as_deref().unwrap_or(landing.now);
    let stamp = host.hardware.stamp(host.source, found_at);
    let (node, outcome) = match existing {
        None => {
            let node = NodeTags {
                name: Some(host.name.clone()),
                status: NodeStatus::Discover,
                node_group: Some(node_group_of(
                    landing.networks,
                    landing.groups,
                    host.address,
                )),
                interfaces,
                found: Some(stamp),
                ..NodeTags::default()
            };
            (node, Outcome::Create)
        }
        Some(e) => {
            let lines = changes(e.hardware.as_ref(), &host.hardware);
            let outcome = if lines.is_empty() && interfaces == e.node.interfaces {
                Outcome::Unchanged
            } else {
                Outcome::Update(lines)
            };
            let node = NodeTags {
                interfaces,
                found: Some(stamp),
                ..e.node.clone()
            };
            (node, outcome)
        }
    };
    Ok(Planned {
        file: host.file,
        host: host.name,
        node,
        hardware: host.hardware,
        outcome,
    })
}

/// What an import did, or would do (`?dry_run=true`): the new nodes' names,
/// each node updated with what changes, the unchanged ones, and every
/// problem (an import with one stores nothing).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportReport {
    pub created: Vec<String>,
    pub updated: Vec<Updated>,
    pub unchanged: Vec<String>,
    pub problems: Vec<ReadProblem>,
}

/// A node an import updates, with what changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Updated {
    pub node: String,
    pub changes: Vec<String>,
}

impl ImportReport {
    /// "3 new nodes, 1 updated, 40 unchanged; 2 problems".
    pub fn summary(&self) -> String {
        use crate::text::counted;
        let mut line = format!(
            "{}, {} updated, {} unchanged",
            counted(self.created.len(), "new node"),
            self.updated.len(),
            self.unchanged.len()
        );
        if !self.problems.is_empty() {
            line.push_str(&format!("; {}", counted(self.problems.len(), "problem")));
        }
        line
    }

    /// The report of `plan`, each list in the node table's name order.
    pub fn of(plan: &ImportPlan) -> ImportReport {
        let mut report = ImportReport {
            problems: plan.problems.clone(),
            ..ImportReport::default()
        };
        for p in &plan.planned {
            let name = p.node.display_name();
            match &p.outcome {
                Outcome::Create => report.created.push(name),
                Outcome::Update(changes) => report.updated.push(Updated {
                    node: name,
                    changes: changes.clone(),
                }),
                Outcome::Unchanged => report.unchanged.push(name),
            }
        }
        let natural = crate::text::natural;
        report.created.sort_by_cached_key(|n| natural(n));
        report.unchanged.sort_by_cached_key(|n| natural(n));
        report.updated.sort_by_cached_key(|u| natural(&u.node));
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::read;

    fn facts(name: &str, nics: &[(&str, &str)], memory_mb: u64) -> Found {
        let mut facts = serde_json::json!({
            "ansible_interfaces": nics.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            "ansible_memtotal_mb": memory_mb,
            "ansible_devices": {}
        });
        for (nic, mac) in nics {
            facts[format!("ansible_{nic}")] = serde_json::json!({"type": "ether", "macaddress": mac, "module": "e1000", "active": true});
        }
        read(
            &format!("facts/{name}"),
            &serde_json::json!({"ansible_facts": facts}).to_string(),
        )
        .unwrap()
    }

    const NOW: &str = "2026-12-07T12:00:00Z";

    fn landing() -> Landing<'static> {
        Landing {
            networks: &[],
            groups: &[],
            now: NOW,
        }
    }

    fn existing(id: i64, name: &str, found: Option<&Found>) -> Existing {
        let hardware = found.map(|f| f.hardware.clone());
        let interfaces = found.and_then(|f| interfaces_after(name, None, &f.hardware).unwrap());
        Existing {
            node: NodeTags {
                id,
                name: Some(name.into()),
                interfaces,
                ..NodeTags::default()
            },
            hardware,
        }
    }

    #[test]
    fn hosts_become_new_nodes_updates_or_stay_as_they_were() {
        let known = facts("ctl-1", &[("eth0", "52:54:00:00:00:01")], 1024);
        let nodes = [
            existing(1, "ctl-1", Some(&known)),
            existing(2, "cmp-1", None),
        ];
        let found = vec![
            known.clone(),
            facts("cmp-1", &[("eth0", "52:54:00:00:00:02")], 2048),
            facts("cmp-2", &[("eth0", "52:54:00:00:00:03")], 2048),
        ];
        let plan = plan(found, &nodes, landing());
        let report = ImportReport::of(&plan);
        assert_eq!(report.created, ["cmp-2"]);
        assert_eq!(
            report.updated,
            [Updated {
                node: "cmp-1".into(),
                changes: vec!["found for the first time".into()],
            }]
        );
        assert_eq!(report.unchanged, ["ctl-1"]);
        assert!(report.problems.is_empty());
        assert_eq!(report.summary(), "1 new node, 1 updated, 1 unchanged");
        let new = &plan.planned[2].node;
        assert_eq!(new.node_group.as_deref(), Some("default"));
        assert_eq!(new.status, NodeStatus::Discover);
        assert_eq!(new.found.as_ref().unwrap().found_at, NOW);
        let nic = &new.interfaces.as_ref().unwrap().interfaces[0];
        assert_eq!(nic.mac.as_deref(), Some("52:54:00:00:00:03"));
    }

    #[test]
    fn a_lost_nic_carrying_networks_is_a_problem_of_its_file() {
        let mut node = existing(1, "cmp-1", None);
        let mut interfaces = crate::network::NodeInterfaces::default();
        interfaces.interfaces.push(crate::network::Nic {
            name: "eth9".into(),
            mac: None,
            speed_mbps: None,
        });
        interfaces.networks = Some([("eth9".to_owned(), vec!["storage".to_owned()])].into());
        node.node.interfaces = Some(interfaces);
        let found = vec![
            facts("cmp-1", &[("eth0", "52:54:00:00:00:02")], 1),
            facts("cmp-2", &[("eth0", "52:54:00:00:00:03")], 1),
        ];
        let plan = plan(found, &[node], landing());
        assert_eq!(plan.problems[0].file, "facts/cmp-1");
        assert!(
            plan.problems[0].message.contains("'eth9' carrying storage"),
            "{}",
            plan.problems[0].message
        );
        // The other host is still planned: a dry run shows it.
        assert_eq!(ImportReport::of(&plan).created, ["cmp-2"]);
    }
}
