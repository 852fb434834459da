//! The export's files as text: the Ansible inventory (INI), `globals.yml`,
//! the configuration overrides (INI) and the playbook preparing the disks
//! (the README is the deployer's own, `kolla.rs`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::hand_off::{HostDisks, PreparedDisk, PreparedGroup};
use crate::deployer::Deployer;
use crate::tag::NodeTags;

/// One group of the written inventory.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// Its hosts' names, and host lines the series writes as they are.
    Hosts(Vec<String>, Vec<String>),
    Children(Vec<String>),
}

/// The inventory as it is written: groups in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inventory {
    groups: Vec<(String, Entry)>,
}

impl Inventory {
    /// `deployer`'s skeleton with the groups `placed` lists hosts for, and
    /// a group for each role of one's own (`own`, before the first group of
    /// children, and among the children of the deployer's
    /// `own_roles_under`).
    pub fn build(
        deployer: &Deployer,
        placed: &BTreeMap<&str, Vec<&NodeTags>>,
        own: &[(String, Vec<&NodeTags>)],
    ) -> Inventory {
        let hosts = |nodes: &[&NodeTags]| -> Entry {
            Entry::Hosts(nodes.iter().map(|n| n.display_name()).collect(), Vec::new())
        };
        let mut groups: Vec<(String, Entry)> = Vec::new();
        let mut own_written = false;
        for group in &deployer.inventory {
            let name = group.group.clone();
            if !group.children.is_empty() && !own_written {
                groups.extend(own.iter().map(|(role, nodes)| (role.clone(), hosts(nodes))));
                own_written = true;
            }
            let entry = match placed.get(name.as_str()) {
                Some(nodes) => hosts(nodes),
                None if group.children.is_empty() => Entry::Hosts(Vec::new(), group.hosts.clone()),
                None => {
                    let mut children = group.children.clone();
                    if deployer.own_roles_under.contains(&name) {
                        children.extend(own.iter().map(|(role, _)| role.clone()));
                    }
                    Entry::Children(children)
                }
            };
            groups.push((name, entry));
        }
        if !own_written {
            groups.extend(own.iter().map(|(role, nodes)| (role.clone(), hosts(nodes))));
        }
        Inventory { groups }
    }

    /// The INI text: each host's variables (`vars`) on its first line.
    pub fn text(
        &self,
        header: String,
        vars: &BTreeMap<String, BTreeMap<String, String>>,
    ) -> String {
        let mut out = format!(
            "# {header}\n# Groups placed by Mosaic's tags list their hosts, the primary first;\n# the others are the series' own.\n"
        );
        let mut described: BTreeSet<&str> = BTreeSet::new();
        for (name, entry) in &self.groups {
            match entry {
                Entry::Hosts(hosts, literal) => {
                    out.push_str(&format!("\n[{name}]\n"));
                    for host in hosts {
                        out.push_str(host);
                        if described.insert(host) {
                            for (key, value) in vars.get(host).into_iter().flatten() {
                                out.push(' ');
                                out.push_str(key);
                                out.push('=');
                                out.push_str(value);
                            }
                        }
                        out.push('\n');
                    }
                    for line in literal {
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                Entry::Children(children) => {
                    out.push_str(&format!("\n[{name}:children]\n"));
                    for child in children {
                        out.push_str(child);
                        out.push('\n');
                    }
                }
            }
        }
        out
    }

    /// Every group each host is in, directly or through children, in the
    /// inventory's order.
    pub fn membership(&self) -> BTreeMap<String, Vec<String>> {
        let mut memo: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        let index: BTreeMap<&str, &Entry> =
            self.groups.iter().map(|(n, e)| (n.as_str(), e)).collect();
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, _) in &self.groups {
            for host in members(name, &index, &mut memo, &mut Vec::new()) {
                out.entry(host).or_default().push(name.clone());
            }
        }
        out
    }

    /// The groups that list each host by name, in the inventory's order.
    pub fn placed(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, entry) in &self.groups {
            if let Entry::Hosts(hosts, _) = entry {
                for host in hosts {
                    out.entry(host.clone()).or_default().push(name.clone());
                }
            }
        }
        out
    }

    /// The names of the hosts it lists.
    pub fn host_names(&self) -> BTreeSet<&str> {
        self.groups
            .iter()
            .filter_map(|(_, e)| match e {
                Entry::Hosts(hosts, _) => Some(hosts.iter().map(String::as_str)),
                Entry::Children(_) => None,
            })
            .flatten()
            .collect()
    }
}

/// The hosts of group `name`: its own and its children's (a cycle of
/// children counts each group once).
fn members<'g>(
    name: &'g str,
    index: &BTreeMap<&'g str, &'g Entry>,
    memo: &mut BTreeMap<&'g str, BTreeSet<String>>,
    path: &mut Vec<&'g str>,
) -> BTreeSet<String> {
    if let Some(done) = memo.get(name) {
        return done.clone();
    }
    if path.contains(&name) {
        return BTreeSet::new();
    }
    let Some(entry) = index.get(name) else {
        return BTreeSet::new();
    };
    path.push(name);
    let set: BTreeSet<String> = match entry {
        Entry::Hosts(hosts, _) => hosts.iter().cloned().collect(),
        Entry::Children(children) => children
            .iter()
            .flat_map(|c| members(c, index, memo, path))
            .collect(),
    };
    path.pop();
    memo.insert(name, set.clone());
    set
}

/// `globals.yml`: the header and the deployer's `note` as comments, then
/// each value as the deployer writes it.
pub fn globals_yaml(
    header: &str,
    note: &str,
    values: impl IntoIterator<Item = (String, Value)>,
) -> String {
    let map: Map<String, Value> = values.into_iter().collect();
    format!(
        "# {header}\n# {note}\n{}",
        crate::yaml::to_string(&Value::Object(map))
    )
}

/// An INI file: sections in the order first named, keys in order.
pub fn ini(header: &str, keys: &[(String, String, String)]) -> String {
    let mut out = format!("# {header}\n");
    let mut sections: Vec<&str> = Vec::new();
    for (section, _, _) in keys {
        if !sections.contains(&section.as_str()) {
            sections.push(section);
        }
    }
    for section in sections {
        out.push_str(&format!("\n[{section}]\n"));
        for (_, key, value) in keys.iter().filter(|(s, _, _)| s == section) {
            out.push_str(&format!("{key} = {value}\n"));
        }
    }
    out
}

/// `prepare-disks.yml`: the playbook with each host's disks.
pub fn prepare_disks(header: &str, hosts: &[(String, HostDisks)]) -> String {
    let mut layouts = String::new();
    for (host, prepared) in hosts {
        layouts.push_str(&format!("      {}:\n        disks:\n", scalar(host)));
        for disk in &prepared.disks {
            disk_lines(&mut layouts, disk);
        }
        if prepared.volume_groups.is_empty() {
            layouts.push_str("        volume_groups: []\n");
        } else {
            layouts.push_str("        volume_groups:\n");
            for group in &prepared.volume_groups {
                group_lines(&mut layouts, group);
            }
        }
    }
    include_str!("prepare-disks.yml")
        .replace("{header}", header)
        .replace("{layouts}\n", &layouts)
}

fn disk_lines(out: &mut String, disk: &PreparedDisk) {
    out.push_str(&format!(
        "          - device: {}\n            prefix: {}\n            size: {}\n",
        scalar(&disk.device),
        scalar(&disk.prefix),
        disk.size
    ));
    let ids: Vec<String> = disk.ids.iter().map(|i| scalar(i)).collect();
    out.push_str(&format!("            ids: [{}]\n", ids.join(", ")));
    out.push_str("            partitions:\n");
    for p in &disk.partitions {
        let mut fields = vec![
            ("name", scalar(&p.name)),
            ("start", p.start.to_string()),
            ("end", p.end.to_string()),
        ];
        fields.extend(p.vg.as_deref().map(|vg| ("vg", scalar(vg))));
        fields.extend(p.label.as_deref().map(|l| ("label", scalar(l))));
        out.push_str(&format!("              - {}\n", flow(&fields)));
    }
}

fn group_lines(out: &mut String, group: &PreparedGroup) {
    out.push_str(&format!("          - name: {}\n", scalar(&group.name)));
    if group.lvs.is_empty() {
        out.push_str("            lvs: []\n");
        return;
    }
    out.push_str("            lvs:\n");
    for lv in &group.lvs {
        let mut fields = vec![
            ("name", scalar(&lv.name)),
            ("size", scalar(&lv.size)),
            ("device", scalar(&lv.device)),
        ];
        fields.extend(lv.fs.as_deref().map(|f| ("fs", scalar(f))));
        fields.extend(lv.mount.as_deref().map(|m| ("mount", scalar(m))));
        out.push_str(&format!("              - {}\n", flow(&fields)));
    }
}

/// `{key: value, …}`.
fn flow(fields: &[(&str, String)]) -> String {
    let parts: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{{}}}", parts.join(", "))
}

/// A string as a YAML scalar that reads back as the same string in a flow
/// collection too: plain when the emitter writes it plain and it holds no
/// flow indicator, else double-quoted.
fn scalar(text: &str) -> String {
    let block = crate::yaml::to_string(&Value::from(text));
    let block = block.trim_end_matches('\n');
    if block.starts_with('"') || !text.contains([',', '[', ']', '{', '}']) {
        block.to_owned()
    } else {
        serde_json::to_string(text).unwrap_or_default()
    }
}
