//! A node's interfaces and bonds, and which networks ride on them
//! (SEMANTICS §11.1). A node that declares interfaces takes the default
//! layout — Fuel's: networks in `map_priority` order, each untagged
//! network on the next port without one, tagged networks with the
//! untagged network before them — unless it has a layout of its own, set
//! for it or for many nodes at once. The checks of one node's layout and
//! Fuel's checks across nodes (two untagged networks on one port, one VLAN
//! tag twice on one port) are here too.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::config::{Network, NetworkConfiguration};
use super::metadata::{Metas, NetworkMeta, label};
use super::problem::{NetworkProblem, ProblemKind};

/// A network interface card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nic {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
    /// Its speed as found (SEMANTICS §13), in Mbit/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mbps: Option<u32>,
}

/// Fuel's bond modes (Linux bonding, and Open vSwitch's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum BondMode {
    #[serde(rename = "balance-rr")]
    BalanceRr,
    #[serde(rename = "active-backup")]
    ActiveBackup,
    #[serde(rename = "balance-xor")]
    BalanceXor,
    #[serde(rename = "broadcast")]
    Broadcast,
    #[serde(rename = "802.3ad")]
    Lacp,
    #[serde(rename = "balance-tlb")]
    BalanceTlb,
    #[serde(rename = "balance-alb")]
    BalanceAlb,
    #[serde(rename = "balance-slb")]
    BalanceSlb,
    #[serde(rename = "balance-tcp")]
    BalanceTcp,
}

/// Interfaces joined into one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bond {
    pub name: String,
    pub mode: BondMode,
    pub slaves: Vec<String>,
}

/// What a node declares: its interfaces, its bonds, and the networks on
/// each interface or bond when it does not take the default layout.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeInterfaces {
    #[serde(default)]
    pub interfaces: Vec<Nic>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonds: Vec<Bond>,
    /// Port (interface or bond) → networks; none: the default layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub networks: Option<BTreeMap<String, Vec<String>>>,
}

/// Which networks are on which port, ports in order.
pub type Layout = Vec<(String, Vec<String>)>;

impl NodeInterfaces {
    pub fn is_empty(&self) -> bool {
        self.interfaces.is_empty() && self.bonds.is_empty()
    }

    /// The ports networks can ride on, in order: the interfaces, a bond
    /// in the place of its first slave, slaves left out.
    pub fn ports(&self) -> Vec<String> {
        let enslaved: BTreeSet<&str> = self
            .bonds
            .iter()
            .flat_map(|b| b.slaves.iter().map(String::as_str))
            .collect();
        let mut out: Vec<String> = Vec::new();
        for nic in &self.interfaces {
            if let Some(bond) = self
                .bonds
                .iter()
                .find(|b| b.slaves.first() == Some(&nic.name))
            {
                out.push(bond.name.clone());
            } else if !enslaved.contains(nic.name.as_str()) {
                out.push(nic.name.clone());
            }
        }
        for bond in &self.bonds {
            if !out.contains(&bond.name) {
                out.push(bond.name.clone());
            }
        }
        out
    }

    /// Its layout: its own, or the default one over `networks` (those it
    /// carries, each with its metadata).
    pub fn layout(&self, networks: &[(&Network, &NetworkMeta)]) -> Layout {
        match &self.networks {
            Some(own) => self
                .ports()
                .into_iter()
                .map(|p| {
                    let nets = own.get(&p).cloned().unwrap_or_default();
                    (p, nets)
                })
                .chain(
                    own.iter()
                        .filter(|(p, _)| !self.ports().contains(p))
                        .map(|(p, n)| (p.clone(), n.clone())),
                )
                .collect(),
            None => default_layout(&self.ports(), networks),
        }
    }

    /// With `changes` (port → networks) made to its layout: each listed
    /// network moves to its port, each listed port carries exactly what is
    /// listed; the result is its own layout.
    pub fn with_networks(
        &self,
        networks: &[(&Network, &NetworkMeta)],
        changes: &BTreeMap<String, Vec<String>>,
    ) -> NodeInterfaces {
        let mut layout: BTreeMap<String, Vec<String>> = self.layout(networks).into_iter().collect();
        let moved: BTreeSet<&String> = changes.values().flatten().collect();
        for nets in layout.values_mut() {
            nets.retain(|n| !moved.contains(n));
        }
        for (port, nets) in changes {
            layout.insert(port.clone(), nets.clone());
        }
        NodeInterfaces {
            networks: Some(layout),
            ..self.clone()
        }
    }
}

/// Untagged: no VLAN tag, and not the network carrying tenant VLANs.
pub fn untagged(network: &Network, meta: &NetworkMeta) -> bool {
    network.vlan_start.is_none() && !meta.neutron_vlan_range
}

/// Fuel's default layout over `ports`: networks by `map_priority` (then
/// as declared); an untagged one on the next port without an untagged
/// network (the last port when none is left, which the checks report),
/// a tagged one with the untagged network placed before it.
pub fn default_layout(ports: &[String], networks: &[(&Network, &NetworkMeta)]) -> Layout {
    let mut layout: Layout = ports.iter().map(|p| (p.clone(), Vec::new())).collect();
    if layout.is_empty() {
        return layout;
    }
    let mut ordered: Vec<&(&Network, &NetworkMeta)> = networks.iter().collect();
    ordered.sort_by_key(|(_, m)| m.map_priority);
    let mut with_untagged = vec![false; layout.len()];
    let mut current = 0;
    for (network, meta) in ordered {
        if untagged(network, meta) {
            current = with_untagged
                .iter()
                .position(|taken| !taken)
                .unwrap_or(layout.len() - 1);
            with_untagged[current] = true;
        }
        layout[current].1.push(network.name.to_string());
    }
    layout
}

/// One node's layout, for the checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeLayout {
    pub node: i64,
    pub name: String,
    pub group: i64,
    pub declared: NodeInterfaces,
    pub layout: Layout,
    /// The networks it needs on some port.
    pub needed: Vec<String>,
}

/// What a port or interface may be called (Linux: 1–15 characters).
pub fn valid_port_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 15
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Every problem of the nodes' interfaces: each node's own, MAC addresses
/// two nodes declare, and Fuel's checks of tags on one port.
pub fn problems(
    config: &NetworkConfiguration,
    metas: &Metas<'_>,
    nodes: &[NodeLayout],
) -> Vec<NetworkProblem> {
    let mut out = Vec::new();
    for node in nodes {
        declared_problems(node, &mut out);
        layout_problems(config, node, &mut out);
    }
    duplicate_macs(nodes, &mut out);
    out.extend(untagged_problem(config, metas, nodes));
    out.extend(vlan_problems(config, nodes));
    out
}

fn node_problem(node: &NodeLayout, kind: ProblemKind, message: String) -> NetworkProblem {
    NetworkProblem::new(kind, format!("Node '{}': {message}", node.name)).nodes([node.node])
}

/// What a node declares: names valid and distinct, MACs valid, bonds of
/// two slaves or more that exist and are in one bond only.
fn declared_problems(node: &NodeLayout, out: &mut Vec<NetworkProblem>) {
    let d = &node.declared;
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for name in d
        .interfaces
        .iter()
        .map(|n| &n.name)
        .chain(d.bonds.iter().map(|b| &b.name))
    {
        if !valid_port_name(name) {
            out.push(node_problem(node, ProblemKind::InterfaceName, format!("'{name}' is not a valid interface name: use 1 to 15 letters, digits, '-', '_' or '.'.")));
        } else if !seen.insert(name) {
            out.push(node_problem(
                node,
                ProblemKind::DuplicateInterface,
                format!("interface '{name}' is declared twice."),
            ));
        }
    }
    for nic in &d.interfaces {
        if let Some(mac) = nic.mac.as_deref().filter(|m| !super::ip::is_mac(m)) {
            out.push(node_problem(
                node,
                ProblemKind::InvalidMac,
                format!("'{mac}' is not a MAC address (interface {}).", nic.name),
            ));
        }
    }
    let mut slave_of: BTreeMap<&str, &str> = BTreeMap::new();
    for bond in &d.bonds {
        if bond.slaves.len() < 2 {
            out.push(node_problem(
                node,
                ProblemKind::BondTooFewSlaves,
                format!("bond '{}' needs two slaves at least.", bond.name),
            ));
        }
        for slave in &bond.slaves {
            if !d.interfaces.iter().any(|n| &n.name == slave) {
                out.push(node_problem(
                    node,
                    ProblemKind::UnknownSlave,
                    format!(
                        "bond '{}' names '{slave}', which is no interface of the node.",
                        bond.name
                    ),
                ));
            }
            if let Some(other) = slave_of.insert(slave, &bond.name) {
                out.push(node_problem(
                    node,
                    ProblemKind::SlaveOfTwoBonds,
                    format!(
                        "interface '{slave}' is a slave of bonds '{other}' and '{}'.",
                        bond.name
                    ),
                ));
            }
        }
    }
}

/// Where its networks are: on its ports, each once, each known, each
/// network it needs somewhere.
fn layout_problems(
    config: &NetworkConfiguration,
    node: &NodeLayout,
    out: &mut Vec<NetworkProblem>,
) {
    let ports = node.declared.ports();
    let mut placed: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (port, nets) in &node.layout {
        if !ports.contains(port) && !nets.is_empty() {
            let (kind, what) = if node.declared.bonds.iter().any(|b| b.slaves.contains(port)) {
                (
                    ProblemKind::NetworksOnSlave,
                    format!(
                        "interface '{port}' is a slave of a bond and cannot carry networks itself."
                    ),
                )
            } else {
                (
                    ProblemKind::UnknownPort,
                    format!(
                        "networks are put on '{port}', which is no interface or bond of the node."
                    ),
                )
            };
            out.push(node_problem(node, kind, what));
        }
        for net in nets {
            placed.entry(net).or_default().push(port);
            if config.find(node.group, net).is_none() {
                out.push(node_problem(
                    node,
                    ProblemKind::NetworkNotInGroup,
                    format!("network '{net}' is no network of its node group."),
                ));
            }
        }
    }
    for (net, on) in &placed {
        if on.len() > 1 {
            out.push(node_problem(
                node,
                ProblemKind::NetworkOnTwoPorts,
                format!("network '{net}' is on '{}' and '{}'.", on[0], on[1]),
            ));
        }
    }
    for net in node
        .needed
        .iter()
        .filter(|n| !placed.contains_key(n.as_str()))
    {
        out.push(node_problem(
            node,
            ProblemKind::NetworkOnNoPort,
            format!("network '{}' is on no interface.", label(net)),
        ));
    }
}

fn duplicate_macs(nodes: &[NodeLayout], out: &mut Vec<NetworkProblem>) {
    let mut owners: BTreeMap<String, Vec<&NodeLayout>> = BTreeMap::new();
    for node in nodes {
        for mac in node
            .declared
            .interfaces
            .iter()
            .filter_map(|n| n.mac.as_deref())
        {
            owners
                .entry(mac.to_ascii_lowercase())
                .or_default()
                .push(node);
        }
    }
    for (mac, nodes) in owners.into_iter().filter(|(_, n)| n.len() > 1) {
        let names: Vec<String> = nodes.iter().map(|n| format!("'{}'", n.name)).collect();
        out.push(
            NetworkProblem::new(
                ProblemKind::DuplicateMac,
                format!(
                    "MAC address {mac} is declared more than once: on nodes {}.",
                    names.join(", ")
                ),
            )
            .nodes(nodes.iter().map(|n| n.node)),
        );
    }
}

/// How many nodes a message of Fuel's that lists nodes names before it
/// says how many more there are.
pub const LISTED_NODES: usize = 20;

/// Fuel's check: two untagged networks on one port, one problem for
/// every node where it happens.
fn untagged_problem(
    config: &NetworkConfiguration,
    metas: &Metas<'_>,
    nodes: &[NodeLayout],
) -> Option<NetworkProblem> {
    let mut affected: Vec<(&NodeLayout, Vec<String>)> = Vec::new();
    for node in nodes {
        for (_, nets) in &node.layout {
            let crossed: Vec<String> = nets
                .iter()
                .filter(|n| {
                    config
                        .find(node.group, n)
                        .zip(metas.get(n))
                        .is_some_and(|(net, meta)| untagged(net, meta))
                })
                .map(|n| format!("\"{}\"", label(n)))
                .collect();
            if crossed.len() > 1 {
                affected.push((node, crossed));
            }
        }
    }
    if affected.is_empty() {
        return None;
    }
    let mut lines: Vec<String> = affected
        .iter()
        .take(LISTED_NODES)
        .map(|(node, nets)| format!("{} networks at node \"{}\"", nets.join(", "), node.name))
        .collect();
    if affected.len() > LISTED_NODES {
        lines.push(format!("… and {} more", affected.len() - LISTED_NODES));
    }
    Some(
        NetworkProblem::new(
            ProblemKind::UntaggedOnOneInterface,
            format!(
                "Some untagged networks are assigned to the same physical interface. You should assign them to different physical interfaces. Affected:\n{}",
                lines.join("\n")
            ),
        )
        .nodes(affected.iter().map(|(n, _)| n.node)),
    )
}

/// Fuel's check: two networks with one VLAN tag on one port; one problem
/// per port and set of networks, naming the first node (and how many more).
fn vlan_problems(config: &NetworkConfiguration, nodes: &[NodeLayout]) -> Vec<NetworkProblem> {
    let mut groups: BTreeMap<(String, Vec<String>), Vec<&NodeLayout>> = BTreeMap::new();
    for node in nodes {
        for (port, nets) in &node.layout {
            let mut by_tag: BTreeMap<i64, Vec<String>> = BTreeMap::new();
            for net in nets {
                if let Some(tag) = config.find(node.group, net).and_then(|n| n.vlan_start) {
                    by_tag.entry(tag).or_default().push(label(net).to_owned());
                }
            }
            for (_, same) in by_tag.into_iter().filter(|(_, n)| n.len() > 1) {
                groups.entry((port.clone(), same)).or_default().push(node);
            }
        }
    }
    groups
        .into_iter()
        .map(|((port, nets), nodes)| {
            let more = match nodes.len() {
                1 => String::new(),
                n => format!(" (and on {} more node{})", n - 1, crate::text::plural(n - 1)),
            };
            NetworkProblem::new(
                ProblemKind::SameVlanOnOneInterface,
                format!(
                    "Node {}, interface {port}: {} networks use the same VLAN tags. Different VLAN tags should be assigned to the networks on the same interface.{more}",
                    nodes[0].name,
                    nets.join(", ")
                ),
            )
            .fields(&["vlan_start"])
            .nodes(nodes.iter().map(|n| n.node))
        })
        .collect()
}

#[cfg(test)]
mod tests;
