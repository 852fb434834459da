//! What the API answers about networks, in Fuel's shapes: the Networks
//! tab's configuration (`GET …/network_configuration/neutron`) with each
//! network's metadata and how many addresses it gives, the VIPs, and a
//! node's interfaces with the networks on them and its addresses.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::address::Demand;
use super::check::{Input, NetworkProblem};
use super::config::{
    ConfigurationChange, Network, NetworkConfiguration, NetworkingParameters, NodeGroup,
};
use super::interfaces::{Bond, BondMode, Layout, Nic, NodeInterfaces};
use super::metadata::{Metas, NetworkMeta, label};
use crate::name::NetworkName;

/// One network with its metadata (`meta`, as Fuel's) and its addresses:
/// how many its pool holds, how many are needed and how many are given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NetworkView {
    #[serde(flatten)]
    pub network: Network,
    /// The release's metadata of the network (read only).
    pub meta: NetworkMetaView,
    /// How many addresses its pool holds.
    pub capacity: u64,
    /// How many addresses are needed there (its nodes' and VIPs').
    pub need: u64,
    /// How many addresses are given.
    pub used: u64,
}

impl NetworkView {
    /// What its card says of its addresses: how many are given of how
    /// many its pool holds, and how many are needed; none where Mosaic
    /// gives none (the admin network's are the PXE server's DHCP's).
    pub fn usage(&self) -> Option<String> {
        if !self.meta.gives_addresses() {
            return None;
        }
        Some(format!(
            "{} of {} addresses given, {} needed",
            self.used, self.capacity, self.need
        ))
    }
}

/// A network's release metadata as an answer carries it: the keys Mosaic
/// reads, typed. The release's other keys (Fuel's `render_type`,
/// `render_addr_mask`, …) stay the release's data, shown with the release,
/// not flattened into an answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NetworkMetaView(NetworkMeta);

impl From<NetworkMeta> for NetworkMetaView {
    fn from(mut meta: NetworkMeta) -> NetworkMetaView {
        meta.other.clear();
        NetworkMetaView(meta)
    }
}

impl std::ops::Deref for NetworkMetaView {
    type Target = NetworkMeta;
    fn deref(&self) -> &NetworkMeta {
        &self.0
    }
}

impl<'de> Deserialize<'de> for NetworkMetaView {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        NetworkMeta::deserialize(d).map(NetworkMetaView::from)
    }
}

/// A VIP as Fuel's `vips` had it (and the network and node group it is in).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VipView {
    pub network_role: String,
    pub network: NetworkName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// None while its network has no address left.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Ipv4))]
    pub ipaddr: Option<Ipv4Addr>,
    pub node_roles: Vec<String>,
    pub is_user_defined: bool,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub vendor_specific: Value,
}

/// The Networks tab's configuration (Fuel's shape, with the node groups
/// besides). `aliases` are Fuel's flat keys (`management_vip`,
/// `public_vip`, …): each VIP's alias with its address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConfigurationView {
    /// The admin network, then each node group's networks.
    pub networks: Vec<NetworkView>,
    pub networking_parameters: NetworkingParameters,
    /// By VIP name.
    pub vips: BTreeMap<String, VipView>,
    pub node_groups: Vec<NodeGroup>,
    /// Fuel's flat keys (`management_vip`, `public_vip`, …): each VIP's
    /// alias with its address.
    #[serde(flatten)]
    #[cfg_attr(feature = "openapi", schema(value_type = BTreeMap<String, Option<String>>))]
    pub aliases: BTreeMap<String, Option<Ipv4Addr>>,
}

/// An interface or a bond as `GET /nodes/{id}/interfaces` shows it: with
/// the networks on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PortView {
    /// 1 to 15 letters, digits, `-`, `_` or `.` (a name that is not one is
    /// a problem of the node's interfaces).
    pub name: String,
    /// An interface's MAC address (`aa:bb:cc:dd:ee:ff`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
    /// An interface's speed as found, in Mbit/s (an import sets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mbps: Option<u32>,
    /// A bond's mode (a bond needs one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<BondMode>,
    /// A bond's interfaces (a bond needs them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slaves: Option<Vec<String>>,
    /// On a save, absent everywhere: the default layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub networks: Option<Vec<String>>,
}

/// A node's interfaces, bonds and addresses (`GET/PUT
/// /nodes/{id}/interfaces`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterfacesView {
    #[serde(default)]
    pub interfaces: Vec<PortView>,
    #[serde(default)]
    pub bonds: Vec<PortView>,
    /// Network → address, for the networks it has an address on. Read
    /// only, as the two below: an answer reads back whole (the browser
    /// shows them), and a save takes only the ports ([`Self::declared`]).
    #[serde(default)]
    pub addresses: BTreeMap<NetworkName, Ipv4Addr>,
    /// Whether it takes the environment's default layout.
    #[serde(default)]
    pub default_layout: bool,
    /// Its node group.
    #[serde(default)]
    pub node_group: String,
}

/// [`InterfacesView`]'s schema: what a request sends, and what only
/// answers carry as read-only properties (serde does not read them, so
/// the derive would leave them out).
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[schema(example = json!({"interfaces": [{"name": "eth0", "networks": ["fuelweb_admin"]}, {"name": "eth1"}, {"name": "eth2"}], "bonds": [{"name": "bond0", "mode": "active-backup", "slaves": ["eth1", "eth2"], "networks": ["public", "management", "storage", "private"]}]}))]
#[allow(dead_code)]
struct InterfacesSchema {
    /// The node's interfaces (none, and no bond: it declares none).
    #[schema(required = false)]
    interfaces: Vec<PortView>,
    /// Its bonds, each in the place of its first slave.
    #[schema(required = false)]
    bonds: Vec<PortView>,
    /// Network → the node's address on it, for the networks it has one on.
    #[schema(read_only, required = false)]
    addresses: BTreeMap<String, String>,
    /// Whether it takes the default layout (no port names its networks).
    #[schema(read_only, required = false)]
    default_layout: bool,
    /// Its node group.
    #[schema(read_only, required = false)]
    node_group: String,
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for InterfacesView {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <InterfacesSchema as utoipa::PartialSchema>::schema()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for InterfacesView {
    fn schemas(
        out: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <InterfacesSchema as utoipa::ToSchema>::schemas(out);
    }
}

/// A bond sent without its mode or its slaves (named): what a save of
/// interfaces cannot read as a bond at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bonds: bond '{0}' needs a mode and its slaves")]
pub struct IncompleteBond(pub String);

impl InterfacesView {
    /// What it declares: its interfaces and bonds, and the networks on
    /// each when any port names its networks (none: the default layout);
    /// none at all when it lists no interface and no bond.
    pub fn declared(&self) -> Result<Option<NodeInterfaces>, IncompleteBond> {
        if self.interfaces.is_empty() && self.bonds.is_empty() {
            return Ok(None);
        }
        let interfaces = self
            .interfaces
            .iter()
            .map(|p| Nic {
                name: p.name.clone(),
                mac: p.mac.clone(),
                speed_mbps: p.speed_mbps,
            })
            .collect();
        let bonds = self
            .bonds
            .iter()
            .map(|b| match (b.mode, &b.slaves) {
                (Some(mode), Some(slaves)) => Ok(Bond {
                    name: b.name.clone(),
                    mode,
                    slaves: slaves.clone(),
                }),
                _ => Err(IncompleteBond(b.name.clone())),
            })
            .collect::<Result<Vec<Bond>, IncompleteBond>>()?;
        let ports = self.interfaces.iter().chain(&self.bonds);
        let own = ports.clone().any(|p| p.networks.is_some());
        let networks = own.then(|| {
            ports
                .map(|p| (p.name.clone(), p.networks.clone().unwrap_or_default()))
                .collect()
        });
        Ok(Some(NodeInterfaces {
            interfaces,
            bonds,
            networks,
        }))
    }

    /// A node's interfaces as the API shows them: each port with the
    /// networks `layout` puts on it, and the node's addresses.
    pub fn of(
        declared: Option<&NodeInterfaces>,
        layout: &Layout,
        addresses: &BTreeMap<NetworkName, Ipv4Addr>,
        node_group: &str,
    ) -> InterfacesView {
        let on = |port: &str| -> Option<Vec<String>> {
            Some(
                layout
                    .iter()
                    .find(|(p, _)| p == port)
                    .map(|(_, n)| n.clone())
                    .unwrap_or_default(),
            )
        };
        let Some(declared) = declared else {
            return InterfacesView {
                addresses: addresses.clone(),
                default_layout: true,
                node_group: node_group.to_owned(),
                ..InterfacesView::default()
            };
        };
        InterfacesView {
            interfaces: declared
                .interfaces
                .iter()
                .map(|n| PortView {
                    name: n.name.clone(),
                    mac: n.mac.clone(),
                    speed_mbps: n.speed_mbps,
                    mode: None,
                    slaves: None,
                    networks: on(&n.name),
                })
                .collect(),
            bonds: declared
                .bonds
                .iter()
                .map(|b| PortView {
                    name: b.name.clone(),
                    mac: None,
                    speed_mbps: None,
                    mode: Some(b.mode),
                    slaves: Some(b.slaves.clone()),
                    networks: on(&b.name),
                })
                .collect(),
            addresses: addresses.clone(),
            default_layout: declared.networks.is_none(),
            node_group: node_group.to_owned(),
        }
    }
}

/// One row of a node's ports as the interfaces editor lists them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PortRow {
    pub name: String,
    /// An interface's MAC and its speed as found ("52:54:00:00:00:01, 10
    /// Gbit/s"), or "bond (active-backup) of eth1, eth2".
    pub what: String,
    /// The networks on it, by label, comma separated.
    pub networks: String,
    pub bond: bool,
}

impl InterfacesView {
    /// Its interfaces, then its bonds, as rows.
    pub fn port_rows(&self) -> Vec<PortRow> {
        let ports = self.interfaces.iter().map(|p| (p, false));
        ports
            .chain(self.bonds.iter().map(|b| (b, true)))
            .map(|(p, bond)| {
                let what = match (&p.mode, &p.slaves) {
                    (Some(mode), Some(slaves)) => {
                        let mode = serde_json::to_value(mode)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_owned))
                            .unwrap_or_default();
                        format!("bond ({mode}) of {}", slaves.join(", "))
                    }
                    _ => {
                        let speed = p.speed_mbps.map(|s| crate::hardware::view::speed(Some(s)));
                        let parts: Vec<String> = p.mac.iter().cloned().chain(speed).collect();
                        parts.join(", ")
                    }
                };
                let networks: Vec<&str> = p.networks.iter().flatten().map(label).collect();
                PortRow {
                    name: p.name.clone(),
                    what,
                    networks: networks.join(", "),
                    bond,
                }
            })
            .collect()
    }

    /// "Node group rack-2; the environment's default layout."
    pub fn layout_line(&self) -> String {
        let layout = if self.default_layout {
            "the environment's default layout"
        } else {
            "a layout of its own"
        };
        format!("Node group {}; {layout}.", self.node_group)
    }
}

impl InterfacesView {
    /// The ports networks can ride on, in order (a bond in the place of
    /// its first slave, slaves left out).
    pub fn ports(&self) -> Vec<String> {
        match self.declared() {
            Ok(Some(declared)) => declared.ports(),
            _ => self.interfaces.iter().map(|p| p.name.clone()).collect(),
        }
    }

    /// The port `network` rides on, if any.
    pub fn port_of(&self, network: &str) -> Option<&str> {
        self.interfaces
            .iter()
            .chain(&self.bonds)
            .find(|p| p.networks.iter().flatten().any(|n| n == network))
            .map(|p| p.name.as_str())
    }

    /// Every network of `names` (the environment's, in order), then any
    /// other a port carries, each with the port it rides on.
    pub fn placements(&self, names: &[String]) -> Vec<(String, Option<String>)> {
        let carried = self
            .interfaces
            .iter()
            .chain(&self.bonds)
            .flat_map(|p| p.networks.iter().flatten());
        let mut out: Vec<String> = names.to_vec();
        for name in carried {
            if !out.contains(name) {
                out.push(name.clone());
            }
        }
        out.into_iter()
            .map(|n| {
                let port = self.port_of(&n).map(str::to_owned);
                (n, port)
            })
            .collect()
    }

    /// The same with `network` moved to `port` (off every port when none):
    /// the node's own layout from then on, every port carrying what it
    /// carries now but for that network.
    pub fn with_network_on(&self, network: &str, port: Option<&str>) -> InterfacesView {
        let mut next = self.clone();
        for p in next.interfaces.iter_mut().chain(next.bonds.iter_mut()) {
            let mut nets = p.networks.take().unwrap_or_default();
            nets.retain(|n| n != network);
            if Some(p.name.as_str()) == port {
                nets.push(network.to_owned());
            }
            p.networks = Some(nets);
        }
        next.default_layout = false;
        next
    }

    /// The same taking the environment's default layout again (what a
    /// save of it asks for: no port names its networks).
    pub fn with_default_layout(&self) -> InterfacesView {
        let mut next = self.clone();
        for p in next.interfaces.iter_mut().chain(next.bonds.iter_mut()) {
            p.networks = None;
        }
        next.default_layout = true;
        next
    }

    /// The same with interface `name` (and its MAC, if given) added last;
    /// it carries nothing under the node's own layout.
    pub fn with_interface(&self, name: &str, mac: &str) -> InterfacesView {
        let mut next = self.clone();
        let mac = mac.trim();
        next.interfaces.push(PortView {
            name: name.trim().to_owned(),
            mac: (!mac.is_empty()).then(|| mac.to_owned()),
            speed_mbps: None,
            mode: None,
            slaves: None,
            networks: (!self.default_layout).then(Vec::new),
        });
        next
    }

    /// The same without interface `name` (the networks on it with it).
    pub fn without_interface(&self, name: &str) -> InterfacesView {
        let mut next = self.clone();
        next.interfaces.retain(|p| p.name != name);
        next
    }
}

/// A node group with how many nodes are in it (`GET
/// /clusters/{id}/node_groups`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupView {
    pub id: i64,
    pub name: String,
    /// Its environment.
    pub cluster_id: i64,
    /// How many nodes are in it.
    pub nodes: usize,
}

/// `POST /clusters/{id}/node_groups`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "rack-2"})))]
#[serde(deny_unknown_fields)]
pub struct NewGroup {
    /// 1 to 50 letters, digits, `-`, `_` or `.` (whitespace around it is
    /// trimmed).
    #[cfg_attr(feature = "openapi", schema(pattern = "^[A-Za-z0-9._-]{1,50}$"))]
    pub name: String,
}

/// The answer of `PUT …/network_configuration/neutron/verify`: every
/// problem a save of the body would have.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Verification {
    pub problems: Vec<NetworkProblem>,
}

/// One line of a network table (the CLI's `mosaic env networks`, the
/// Networks tab's summary): a network of a node group with its values
/// written out and how many addresses it gives of how many.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkRow {
    pub network: String,
    /// Empty for the admin network.
    pub node_group: String,
    pub cidr: String,
    pub gateway: String,
    /// The VLAN tag, `untagged`, or `vlan_range a-b` for the network that
    /// carries tenant VLANs.
    pub vlan: String,
    pub ranges: String,
    /// `used/capacity`; `-` where Mosaic gives no addresses.
    #[serde(rename = "used/capacity")]
    pub used: String,
}

impl ConfigurationView {
    /// Its networks as table lines, in order.
    pub fn rows(&self) -> Vec<NetworkRow> {
        let group = |id: Option<i64>| {
            id.and_then(|id| self.node_groups.iter().find(|g| g.id == id))
                .map(|g| g.name.clone())
                .unwrap_or_default()
        };
        let text = |value: &Option<super::ip::Typed<_>>| {
            value.as_ref().map(ToString::to_string).unwrap_or_default()
        };
        self.networks
            .iter()
            .map(|n| {
                let vlan = match (n.network.vlan_start, n.meta.neutron_vlan_range) {
                    (Some(tag), _) => tag.to_string(),
                    (None, true) => match self.networking_parameters.vlan_range {
                        Some([a, b]) => format!("vlan_range {a}-{b}"),
                        None => "vlan_range".to_owned(),
                    },
                    (None, false) => "untagged".to_owned(),
                };
                let addressed = n.meta.gives_addresses();
                NetworkRow {
                    network: n.network.name.to_string(),
                    node_group: group(n.network.group_id),
                    cidr: n
                        .network
                        .cidr
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    gateway: text(&n.network.gateway),
                    vlan,
                    ranges: n
                        .network
                        .ip_ranges
                        .iter()
                        .map(|r| format!("{}-{}", r.0, r.1))
                        .collect::<Vec<_>>()
                        .join(", "),
                    used: match addressed {
                        true => format!("{}/{}", n.used, n.capacity),
                        false => "-".to_owned(),
                    },
                }
            })
            .collect()
    }
}

impl ConfigurationView {
    /// The configuration it shows (what a save is made to).
    pub fn configuration(&self) -> NetworkConfiguration {
        NetworkConfiguration {
            networks: self.networks.iter().map(|n| n.network.clone()).collect(),
            networking_parameters: self.networking_parameters.clone(),
            vips: BTreeMap::new(),
        }
    }

    /// The metadata of each network it shows, once per name.
    pub fn metas(&self) -> Metas<'_> {
        let mut out: Vec<&NetworkMeta> = Vec::new();
        for n in &self.networks {
            if !out.iter().any(|m| m.name == n.meta.name) {
                out.push(&n.meta);
            }
        }
        out.into_iter().collect()
    }

    /// The name of every network it shows, once each, in order.
    pub fn network_names(&self) -> Vec<String> {
        self.metas().iter().map(|m| m.name.to_string()).collect()
    }

    /// `problems` as people read them: each with the networks it concerns
    /// — with their node group when there are several — before its
    /// message (what the CLI and the checks panel write too).
    pub fn describe(&self, problems: &[NetworkProblem]) -> Vec<String> {
        let metas = self.metas();
        let config = self.configuration();
        let demand = Demand::default();
        let input = Input {
            config: &config,
            metas: &metas,
            groups: &self.node_groups,
            ironic: false,
            demand: &demand,
            nodes: &[],
        };
        problems
            .iter()
            .map(|p| super::check::render(&input, p))
            .collect()
    }

    /// `change` made to what it shows, checked as a save checks it but for
    /// the nodes' interfaces, which a view does not hold: what the browser
    /// shows as the operator types (SEMANTICS §11.2).
    pub fn check_change(
        &self,
        change: &ConfigurationChange,
    ) -> Result<NetworkConfiguration, Vec<NetworkProblem>> {
        let metas = self.metas();
        let (next, mut problems) = self.configuration().with_change(change, &metas);
        let mut demand = Demand::default();
        for n in &self.networks {
            if let Some(group) = n.network.group_id {
                demand.add(group, &n.network.name, n.need);
            }
        }
        problems.extend(super::check::configuration(&Input {
            config: &next,
            metas: &metas,
            groups: &self.node_groups,
            ironic: metas.get(super::metadata::BAREMETAL).is_some(),
            demand: &demand,
            nodes: &[],
        }));
        if problems.is_empty() {
            Ok(next)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ports_are_listed_interfaces_first_with_their_networks_by_label() {
        let view: InterfacesView = serde_json::from_value(serde_json::json!({
            "interfaces": [
                {"name": "eth0", "mac": "aa:bb:cc:dd:ee:ff", "networks": ["fuelweb_admin"]},
                {"name": "eth1"}, {"name": "eth2"}
            ],
            "bonds": [{"name": "bond0", "mode": "active-backup", "slaves": ["eth1", "eth2"],
                       "networks": ["storage"]}],
            "node_group": "rack-2"
        }))
        .unwrap();
        let rows = view.port_rows();
        assert_eq!(rows[0].what, "aa:bb:cc:dd:ee:ff");
        assert_eq!(rows[0].networks, label("fuelweb_admin"));
        assert_eq!(rows[3].what, "bond (active-backup) of eth1, eth2");
        assert!(rows[3].bond && !rows[0].bond);
        assert_eq!(
            view.layout_line(),
            "Node group rack-2; a layout of its own."
        );
    }

    /// A node with eth0, eth1 and a bond of eth2 and eth3, on the default
    /// layout.
    fn node() -> InterfacesView {
        serde_json::from_value(json!({
            "interfaces": [
                {"name": "eth0", "networks": ["fuelweb_admin", "management"]},
                {"name": "eth1", "networks": ["public"]},
                {"name": "eth2", "networks": []},
                {"name": "eth3", "networks": []}
            ],
            "bonds": [
                {"name": "bond0", "mode": "802.3ad", "slaves": ["eth2", "eth3"],
                 "networks": ["storage", "private"]}
            ]
        }))
        .map(|view: InterfacesView| InterfacesView {
            default_layout: true,
            ..view
        })
        .unwrap()
    }

    fn networks(view: &InterfacesView) -> Vec<(String, Option<Vec<String>>)> {
        view.interfaces
            .iter()
            .chain(&view.bonds)
            .map(|p| (p.name.clone(), p.networks.clone()))
            .collect()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn a_network_moved_to_a_port_makes_the_nodes_own_layout() {
        let view = node();
        assert_eq!(view.ports(), ["eth0", "eth1", "bond0"]);
        assert_eq!(view.port_of("storage"), Some("bond0"));
        assert_eq!(view.port_of("baremetal"), None);
        let env = names(&[
            "fuelweb_admin",
            "public",
            "management",
            "storage",
            "private",
        ]);
        let placed = view.placements(&env);
        assert_eq!(
            placed[2],
            ("management".to_owned(), Some("eth0".to_owned()))
        );
        let moved = view.with_network_on("management", Some("eth1"));
        assert!(!moved.default_layout);
        assert_eq!(moved.port_of("management"), Some("eth1"));
        assert_eq!(
            networks(&moved),
            [
                ("eth0".to_owned(), Some(names(&["fuelweb_admin"]))),
                ("eth1".to_owned(), Some(names(&["public", "management"]))),
                ("eth2".to_owned(), Some(vec![])),
                ("eth3".to_owned(), Some(vec![])),
                ("bond0".to_owned(), Some(names(&["storage", "private"]))),
            ]
        );
        // Off every port: listed with none, which a save reports.
        let off = moved.with_network_on("private", None);
        assert_eq!(off.port_of("private"), None);
        assert!(off.placements(&env).contains(&("private".to_owned(), None)));
        // Back to the default layout: no port names its networks.
        let back = off.with_default_layout();
        assert!(back.default_layout);
        assert!(networks(&back).iter().all(|(_, n)| n.is_none()));
        assert_eq!(back.declared().unwrap().unwrap().networks, None);
    }

    #[test]
    fn an_answer_reads_back_whole_and_a_save_takes_only_the_ports() {
        let answer = json!({
            "interfaces": [{"name": "eth0", "networks": ["management"]}],
            "bonds": [],
            "addresses": {"management": "192.168.0.3"},
            "default_layout": true,
            "node_group": "rack-2"
        });
        let view: InterfacesView = serde_json::from_value(answer.clone()).unwrap();
        assert_eq!(view.addresses["management"].to_string(), "192.168.0.3");
        assert!(view.default_layout);
        assert_eq!(view.node_group, "rack-2");
        assert_eq!(serde_json::to_value(&view).unwrap(), answer);
        let declared = view.declared().unwrap().unwrap();
        assert_eq!(declared.interfaces.len(), 1);
        assert_eq!(
            declared.networks,
            Some(BTreeMap::from([(
                "eth0".to_owned(),
                vec!["management".to_owned()]
            )]))
        );
    }

    #[test]
    fn interfaces_are_added_and_removed() {
        let view = node().with_interface(" eth4 ", " ");
        let added = view.interfaces.last().unwrap();
        assert_eq!((added.name.as_str(), &added.mac), ("eth4", &None));
        assert_eq!(added.networks, None, "the default layout places it");
        let own = node()
            .with_network_on("public", Some("eth0"))
            .with_interface("eth4", "52:54:00:12:34:56");
        let added = own.interfaces.last().unwrap();
        assert_eq!(added.mac.as_deref(), Some("52:54:00:12:34:56"));
        assert_eq!(added.networks, Some(vec![]));
        let fewer = own.without_interface("eth1");
        assert_eq!(fewer.ports(), ["eth0", "bond0", "eth4"]);
    }

    #[test]
    fn a_card_says_how_many_addresses_are_given_of_how_many() {
        let meta: NetworkMeta =
            serde_json::from_value(json!({"name": "management", "notation": "cidr"})).unwrap();
        let network: Network = serde_json::from_value(
            json!({"id": 3, "group_id": 1, "name": "management", "cidr": "192.168.0.0/24"}),
        )
        .unwrap();
        let view = NetworkView {
            network,
            meta: meta.clone().into(),
            capacity: 253,
            need: 5,
            used: 4,
        };
        assert_eq!(
            view.usage().as_deref(),
            Some("4 of 253 addresses given, 5 needed")
        );
        let admin = NetworkView {
            meta: NetworkMeta {
                name: NetworkName::admin(),
                ..meta
            }
            .into(),
            ..view
        };
        assert_eq!(admin.usage(), None);
    }
}
