//! What a run deploys, frozen when it starts (SEMANTICS §15): the export's
//! files with their SHA-256 and its hosts with their groups, and what
//! differs between two snapshots — what "deploy changes" deploys.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::export::Export;

/// kolla-ansible's group of the control nodes: a change of hosts is
/// deployed to the hosts it adds and these (kolla-ansible's "Adding and
/// removing hosts").
pub const CONTROL_GROUP: &str = "control";

/// The files a run deployed and the hosts it deployed them to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The OpenStack release the files deploy (`2024.1`): moving to
    /// another is kolla-ansible's `upgrade`, not a change.
    #[serde(default)]
    pub openstack_release: String,
    /// Every file of the export by its path, with its digest.
    pub files: BTreeMap<String, SnapshotFile>,
    /// Every host of the inventory that is a node, in the export's order.
    pub hosts: Vec<SnapshotHost>,
}

/// One file of a snapshot: its SHA-256 (hex) and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotFile {
    pub sha256: String,
    pub content: String,
}

/// One host: its node, its host name, every group it is in and its host
/// variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotHost {
    pub node: i64,
    pub name: String,
    pub groups: Vec<String>,
    pub vars: BTreeMap<String, String>,
}

/// `text`'s SHA-256, in lowercase hex.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Snapshot {
    /// The snapshot of `export`.
    pub fn of(export: &Export) -> Snapshot {
        let files = export
            .files
            .iter()
            .map(|(path, content)| {
                let file = SnapshotFile {
                    sha256: sha256_hex(content),
                    content: content.clone(),
                };
                (path.clone(), file)
            })
            .collect();
        let hosts = export
            .hosts
            .iter()
            .map(|h| SnapshotHost {
                node: h.node,
                name: h.name.clone(),
                groups: h.groups.clone(),
                vars: h.vars.clone(),
            })
            .collect();
        Snapshot {
            openstack_release: export.openstack_release.clone(),
            files,
            hosts,
        }
    }

    /// The host named `name`.
    pub fn host(&self, name: &str) -> Option<&SnapshotHost> {
        self.hosts.iter().find(|h| h.name == name)
    }

    /// The host of node `node`.
    pub fn host_of(&self, node: i64) -> Option<&SnapshotHost> {
        self.hosts.iter().find(|h| h.node == node)
    }

    /// The hosts in the control group, in order.
    pub fn control_hosts(&self) -> impl Iterator<Item = &SnapshotHost> {
        self.hosts
            .iter()
            .filter(|h| h.groups.iter().any(|g| g == CONTROL_GROUP))
    }

    /// Each file's digest, by path (what a run's answer shows of it).
    pub fn digests(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .map(|(path, f)| (path.clone(), f.sha256.clone()))
            .collect()
    }
}

/// The files whose difference is a change of configuration: everything
/// but the inventory (its hosts are compared one by one), the README and
/// the playbook preparing the disks, which the operator runs before
/// kolla-ansible (its host variables are compared with the hosts).
fn is_configuration(path: &str) -> bool {
    use crate::export::PLAYBOOK;
    !["inventory", "README.md", PLAYBOOK].contains(&path)
}

/// What differs from the last snapshot deployed to the one now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Changes {
    /// Hosts the last snapshot did not have.
    pub added: Vec<String>,
    /// Hosts of both placed in groups they were not in: host → the groups.
    pub grown: BTreeMap<String, Vec<String>>,
    /// Hosts of the last snapshot that are gone.
    pub removed: Vec<String>,
    /// Hosts of both taken out of groups they were in: host → the groups.
    pub shrunk: BTreeMap<String, Vec<String>>,
    /// Configuration files (`globals.yml`, `config/…`) added, removed or
    /// changed.
    pub files: Vec<String>,
    /// Hosts of both whose variables changed (addresses, interfaces).
    pub vars: Vec<String>,
}

impl Changes {
    /// What differs, a line each: hosts added, hosts joining groups,
    /// hosts gone, hosts leaving groups, files, variables.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.added.is_empty() {
            lines.push(format!("New hosts: {}", self.added.join(", ")));
        }
        for (host, groups) in &self.grown {
            lines.push(format!("{host} joins {}", groups.join(", ")));
        }
        if !self.removed.is_empty() {
            lines.push(format!("Hosts gone: {}", self.removed.join(", ")));
        }
        for (host, groups) in &self.shrunk {
            lines.push(format!("{host} leaves {}", groups.join(", ")));
        }
        if !self.files.is_empty() {
            lines.push(format!("Changed: {}", self.files.join(", ")));
        }
        if !self.vars.is_empty() {
            let hosts = self.vars.join(", ");
            lines.push(format!(
                "Hosts whose addresses or interfaces changed: {hosts}"
            ));
        }
        lines
    }

    /// What differs from `last` to `now`.
    pub fn between(last: &Snapshot, now: &Snapshot) -> Changes {
        let mut changes = Changes::default();
        let before_by_name: BTreeMap<&str, &SnapshotHost> =
            last.hosts.iter().map(|h| (h.name.as_str(), h)).collect();
        let now_names: BTreeSet<&str> = now.hosts.iter().map(|h| h.name.as_str()).collect();
        for host in &now.hosts {
            let Some(before) = before_by_name.get(host.name.as_str()) else {
                changes.added.push(host.name.clone());
                continue;
            };
            let (was, is) = (group_set(before), group_set(host));
            let gained: Vec<String> = is.difference(&was).map(|g| (*g).to_owned()).collect();
            let lost: Vec<String> = was.difference(&is).map(|g| (*g).to_owned()).collect();
            if !gained.is_empty() {
                changes.grown.insert(host.name.clone(), gained);
            }
            if !lost.is_empty() {
                changes.shrunk.insert(host.name.clone(), lost);
            }
            if before.vars != host.vars {
                changes.vars.push(host.name.clone());
            }
        }
        changes.removed = last
            .hosts
            .iter()
            .filter(|h| !now_names.contains(h.name.as_str()))
            .map(|h| h.name.clone())
            .collect();
        let paths: BTreeSet<&String> = last.files.keys().chain(now.files.keys()).collect();
        changes.files = paths
            .into_iter()
            .filter(|p| is_configuration(p))
            .filter(|p| {
                last.files.get(*p).map(|f| &f.sha256) != now.files.get(*p).map(|f| &f.sha256)
            })
            .cloned()
            .collect();
        changes
    }

    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}

fn group_set(host: &SnapshotHost) -> BTreeSet<&str> {
    host.groups.iter().map(String::as_str).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A snapshot of `hosts` (name, groups) with `globals` as its
    /// `globals.yml`; node ids count from 1.
    pub(crate) fn snapshot(hosts: &[(&str, &[&str])], globals: &str) -> Snapshot {
        let mut files = BTreeMap::new();
        for (path, content) in [
            ("globals.yml", globals),
            ("inventory", "…"),
            ("README.md", "…"),
        ] {
            let file = SnapshotFile {
                sha256: sha256_hex(content),
                content: content.to_owned(),
            };
            files.insert(path.to_owned(), file);
        }
        let hosts = hosts
            .iter()
            .zip(1..)
            .map(|((name, groups), node)| SnapshotHost {
                node,
                name: (*name).to_owned(),
                groups: groups.iter().map(|g| (*g).to_owned()).collect(),
                vars: BTreeMap::new(),
            })
            .collect();
        Snapshot {
            openstack_release: "2024.1".to_owned(),
            files,
            hosts,
        }
    }

    #[test]
    fn the_digest_is_sha256() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_new_host_a_new_group_and_a_changed_global_are_told_apart() {
        let last = snapshot(&[("ctl-1", &["control"]), ("cmp-1", &["compute"])], "a: 1");
        let now = snapshot(
            &[
                ("ctl-1", &["control", "rabbitmq"]),
                ("cmp-1", &["compute"]),
                ("cmp-2", &["compute"]),
            ],
            "a: 2",
        );
        let changes = Changes::between(&last, &now);
        assert_eq!(changes.added, ["cmp-2"]);
        assert_eq!(changes.grown["ctl-1"], ["rabbitmq"]);
        assert!(changes.removed.is_empty() && changes.shrunk.is_empty());
        assert_eq!(changes.files, ["globals.yml"]);
        assert!(Changes::between(&now, &now).is_empty());
        assert_eq!(
            changes.lines(),
            [
                "New hosts: cmp-2",
                "ctl-1 joins rabbitmq",
                "Changed: globals.yml"
            ]
        );
    }

    #[test]
    fn a_gone_host_and_a_lost_group_are_removals() {
        let last = snapshot(
            &[("ctl-1", &["control", "rabbitmq"]), ("cmp-1", &["compute"])],
            "",
        );
        let now = snapshot(&[("ctl-1", &["control"])], "");
        let changes = Changes::between(&last, &now);
        assert_eq!(changes.removed, ["cmp-1"]);
        assert_eq!(changes.shrunk["ctl-1"], ["rabbitmq"]);
        assert!(
            changes.files.is_empty(),
            "the inventory is compared host by host"
        );
        assert_eq!(
            changes.lines(),
            ["Hosts gone: cmp-1", "ctl-1 leaves rabbitmq"]
        );
    }

    #[test]
    fn the_disks_playbook_is_no_configuration_of_kolla_ansible() {
        let last = snapshot(&[("cinder-1", &["storage"])], "");
        let mut now = last.clone();
        let playbook = SnapshotFile {
            sha256: sha256_hex("- hosts: all"),
            content: "- hosts: all".to_owned(),
        };
        let path = crate::export::PLAYBOOK;
        now.files.insert(path.to_owned(), playbook);
        // What it makes shows in the hosts' variables, compared host by host.
        assert!(Changes::between(&last, &now).is_empty());
    }
}
