//! An environment's networks (SEMANTICS §11), read through its
//! [`NetworkContext`] (which networks exist here, its node groups, VIPs
//! and public-address rule, worked out once): its configuration (stored,
//! or the release's defaults), its network roles, the networks each node
//! is on and the addresses everyone gets, and its checks. The server
//! stores what this decides; the browser checks drafts with the same
//! functions.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::Environment;
use super::network_context::{Addressing, NetworkContext, Vip, is_on};
use crate::name::NetworkName;
use crate::network::address::{self, Addresses, Demand, Holder, HolderKey};
use crate::network::check::{self, Input, NetworkProblem};
use crate::network::config::{
    ConfigurationChange, DEFAULT_GROUP, Network, NetworkConfiguration, NetworkingParameters,
    NodeGroup, Rebuilt, UnreadableParameters, VipAddress,
};
use crate::network::interfaces::{NodeInterfaces, NodeLayout};
use crate::network::metadata::{
    BAREMETAL, DuplicateNetworkRole, Metas, NetworkMeta, NetworkRole, Segmentation, merged_roles,
};
use crate::network::view::{ConfigurationView, NetworkView, VipView};
use crate::tag::NodeTags;

/// A release whose networking parameters do not read: the release's data
/// at fault, which no change to an environment on it fixes (a release
/// installed before its parameters were checked at install).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{release} declares networking parameters that do not read: {}", .error.reason)]
pub struct ReleaseNetworksError {
    /// The release (`release NAME VERSION`).
    pub release: String,
    pub error: UnreadableParameters,
}

/// One address given: to whom, on which network of which node group.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct AddressRow {
    pub holder: HolderKey,
    pub network: NetworkName,
    pub group: i64,
    pub ip: Ipv4Addr,
}

impl<'a> Environment<'a> {
    /// The tenant network segmentation the components chose (VLAN unless
    /// a bind says otherwise).
    pub fn segmentation(&self) -> Segmentation {
        self.context.cluster["net_segment_type"]
            .as_str()
            .and_then(Segmentation::parse)
            .unwrap_or_default()
    }

    /// What its network rules read, worked out on first use and kept: the
    /// rules below take it rather than working it out again (a network's
    /// restrictions are expressions, and the nodes' layouts read the
    /// networks once per node).
    pub fn network_context(&self) -> &NetworkContext<'a> {
        self.networks.get_or_init(|| NetworkContext::new(self))
    }

    /// The release's networks that exist here: of this segmentation, not
    /// restricted away (the baremetal network only with Ironic), in the
    /// order declared.
    pub fn network_metas(&self) -> &Metas<'a> {
        self.network_context().metas()
    }

    /// Whether Ironic's networking is in use (its network exists).
    pub fn uses_ironic(&self) -> bool {
        self.network_metas().get(BAREMETAL).is_some()
    }

    /// Its node groups: those stored, or `default` alone.
    pub fn node_groups(&self) -> &[NodeGroup] {
        self.network_context().groups()
    }

    /// The id of node group `name` (`default` when none is named).
    pub fn group_id(&self, name: Option<&str>) -> Option<i64> {
        NodeGroup::id_of(self.node_groups(), name)
    }

    /// The networking parameters a fresh configuration starts from.
    pub fn default_parameters(&self) -> Result<NetworkingParameters, ReleaseNetworksError> {
        NetworkingParameters::defaults(
            &self.release.networks_metadata.neutron.config,
            self.segmentation(),
            self.uses_ironic(),
        )
        .map_err(|error| ReleaseNetworksError {
            release: self.release.source(),
            error,
        })
    }

    /// Its network configuration: the stored one with exactly the networks
    /// that exist now (see [`NetworkConfiguration::rebuilt`]), or the
    /// release's defaults; and what differs from the stored one.
    pub fn network_configuration(
        &self,
    ) -> Result<(NetworkConfiguration, Rebuilt), ReleaseNetworksError> {
        let (metas, groups) = (self.network_metas(), self.node_groups());
        let defaults = self.default_parameters()?;
        Ok(match &self.spec.network {
            Some(stored) => stored.rebuilt(metas, groups, &defaults),
            None => (
                NetworkConfiguration::defaults(metas, groups, defaults),
                Rebuilt::default(),
            ),
        })
    }

    /// The release's network roles, then each enabled plugin's; an id two
    /// of them declare is an error naming both.
    pub fn network_roles(&self) -> Result<Vec<(String, NetworkRole)>, DuplicateNetworkRole> {
        let release = std::iter::once((
            self.release.source(),
            &self.release.network_roles_metadata[..],
        ));
        let plugins = self
            .enabled_plugins()
            .map(|p| (p.source(), &p.network_roles_metadata[..]));
        merged_roles(release.chain(plugins))
    }

    /// Its VIPs: every network role's, on networks that exist and whose
    /// addresses Mosaic gives.
    pub fn vips(&self) -> &[Vip] {
        self.network_context().vips()
    }

    /// The networks `node` is on (the admin network, its group's networks,
    /// public only when it gets a public address), with their metadata.
    pub fn node_networks<'c>(
        &self,
        config: &'c NetworkConfiguration,
        node: &NodeTags,
    ) -> Vec<(&'c Network, &'a NetworkMeta)> {
        let Some(group) = self.group_id(node.node_group.as_deref()) else {
            return Vec::new();
        };
        let context = self.network_context();
        let public = context.public().given(node.all_roles());
        config
            .networks
            .iter()
            .filter(|n| n.group_id.is_none() || n.group_id == Some(group))
            .filter(|n| is_on(n.name.as_str(), public))
            .filter_map(|n| context.metas().get(&n.name).map(|m| (n, m)))
            .collect()
    }

    /// What decides who needs which address under `config`, on its own
    /// (what a single node's change takes into its transaction).
    pub fn addressing(&self, config: &NetworkConfiguration) -> Addressing {
        self.network_context().addressing(config)
    }

    /// Every holder of addresses under `addressing`, VIPs first, then
    /// nodes by id, each with the addresses it has now.
    fn address_holders(
        &self,
        addressing: &Addressing,
        config: &NetworkConfiguration,
    ) -> Vec<Holder> {
        let placed = addressing.vip_groups(&self.spec.nodes, &config.vips);
        let mut out: Vec<Holder> = self
            .vips()
            .iter()
            .filter_map(|vip| {
                let group = *placed.get(&vip.name)?;
                let current = config
                    .vips
                    .get(&vip.name)
                    .filter(|v| v.group_id == group)
                    .map(|v| (vip.network.clone(), v.ipaddr))
                    .into_iter()
                    .collect();
                Some(Holder {
                    key: HolderKey::Vip(vip.name.clone()),
                    group,
                    networks: vec![vip.network.clone()],
                    current,
                })
            })
            .collect();
        let mut nodes: Vec<&NodeTags> = self
            .spec
            .nodes
            .iter()
            .filter(|n| !n.pending_deletion)
            .collect();
        nodes.sort_by_key(|n| n.id);
        for node in nodes {
            let needs = addressing.needs(node);
            let Some(group) = needs.first().map(|n| n.group) else {
                continue;
            };
            out.push(Holder {
                key: HolderKey::Node(node.id),
                group,
                networks: needs.into_iter().map(|n| n.network).collect(),
                current: node.addresses.clone(),
            });
        }
        out
    }

    /// Everyone's addresses under `config` (what the server stores after
    /// a change of the whole environment: an import, a network save, a
    /// node group's creation or deletion, a components change, a bulk
    /// change), and where the VIPs are.
    pub fn allocation(
        &self,
        config: &NetworkConfiguration,
    ) -> (Addresses, BTreeMap<String, VipAddress>) {
        let (rows, vips) = self.address_rows(config);
        let mut addresses: Addresses = BTreeMap::new();
        for row in rows {
            addresses
                .entry(row.holder)
                .or_default()
                .insert(row.network, row.ip);
        }
        (addresses, vips)
    }

    /// [`Self::allocation`] as the rows the server stores: each address
    /// with its holder, network and node group.
    pub fn address_rows(
        &self,
        config: &NetworkConfiguration,
    ) -> (Vec<AddressRow>, BTreeMap<String, VipAddress>) {
        let addressing = self.addressing(config);
        let holders = self.address_holders(&addressing, config);
        let addresses = address::allocate(addressing.pools(), &holders);
        let mut rows = Vec::new();
        let mut vips = BTreeMap::new();
        for holder in &holders {
            for (network, ip) in addresses.get(&holder.key).into_iter().flatten() {
                rows.push(AddressRow {
                    holder: holder.key.clone(),
                    network: network.clone(),
                    group: holder.group,
                    ip: *ip,
                });
                if let HolderKey::Vip(name) = &holder.key {
                    vips.insert(
                        name.clone(),
                        VipAddress {
                            group_id: holder.group,
                            ipaddr: *ip,
                        },
                    );
                }
            }
        }
        (rows, vips)
    }

    /// How many addresses each network must give: its nodes' and VIPs'.
    pub fn demand(&self, config: &NetworkConfiguration) -> Demand {
        self.demand_under(&self.addressing(config), config)
    }

    /// [`Self::demand`] under `addressing`, worked out already.
    fn demand_under(&self, addressing: &Addressing, config: &NetworkConfiguration) -> Demand {
        let mut demand = Demand::default();
        for holder in self.address_holders(addressing, config) {
            for network in &holder.networks {
                demand.add(holder.group, network, 1);
            }
        }
        demand
    }

    /// The layouts of the nodes that declare interfaces.
    pub fn node_layouts(&self, config: &NetworkConfiguration) -> Vec<NodeLayout> {
        self.spec
            .nodes
            .iter()
            .filter(|n| n.interfaces.as_ref().is_some_and(|i| !i.is_empty()))
            .filter_map(|node| self.node_layout(config, node))
            .collect()
    }

    /// `node`'s layout (none when it declares no interfaces or its node
    /// group does not exist).
    pub fn node_layout(
        &self,
        config: &NetworkConfiguration,
        node: &NodeTags,
    ) -> Option<NodeLayout> {
        let declared: &NodeInterfaces = node.interfaces.as_ref()?;
        let group = self.group_id(node.node_group.as_deref())?;
        let networks = self.node_networks(config, node);
        Some(NodeLayout {
            node: node.id,
            name: node.display_name(),
            group,
            declared: declared.clone(),
            layout: declared.layout(&networks),
            needed: networks.iter().map(|(n, _)| n.name.to_string()).collect(),
        })
    }

    /// The problems of one node's interfaces and layout (what its own
    /// change is refused for).
    pub fn interface_problems(
        &self,
        config: &NetworkConfiguration,
        node: &NodeTags,
    ) -> Vec<NetworkProblem> {
        let layouts: Vec<NodeLayout> = self.node_layout(config, node).into_iter().collect();
        crate::network::interfaces::problems(config, self.network_metas(), &layouts)
    }

    /// Every problem of `config` here, with the nodes' interfaces when
    /// `with_nodes` (the browser has none to give).
    pub fn network_problems(
        &self,
        config: &NetworkConfiguration,
        with_nodes: bool,
    ) -> Vec<NetworkProblem> {
        let demand = self.demand(config);
        let layouts = if with_nodes {
            self.node_layouts(config)
        } else {
            Vec::new()
        };
        let mut out = check::check(&Input {
            config,
            metas: self.network_metas(),
            groups: self.node_groups(),
            ironic: self.uses_ironic(),
            demand: &demand,
            nodes: &layouts,
        });
        if let Err(e) = self.network_roles() {
            out.push(NetworkProblem::new(
                check::ProblemKind::ReleaseData,
                e.to_string(),
            ));
        }
        out.extend(self.group_problems());
        if with_nodes {
            out.extend(self.vip_group_problems());
        }
        out
    }

    /// A VIP serves nodes in one node group (its address is on that rack's
    /// network): nodes holding its roles in several groups are a problem.
    fn vip_group_problems(&self) -> Vec<NetworkProblem> {
        let mut out = Vec::new();
        for vip in self.vips() {
            let roles = vip.meta.roles();
            let mut groups: Vec<&str> = Vec::new();
            let mut nodes = Vec::new();
            for node in self.spec.nodes.iter().filter(|n| !n.pending_deletion) {
                if node.all_roles().any(|r| roles.contains(r)) {
                    let group = node.node_group.as_deref().unwrap_or(DEFAULT_GROUP);
                    if !groups.contains(&group) {
                        groups.push(group);
                    }
                    nodes.push(node.id);
                }
            }
            if groups.len() > 1 {
                let roles: Vec<String> = roles.iter().map(ToString::to_string).collect();
                out.push(
                    NetworkProblem::new(
                        check::ProblemKind::VipGroups,
                        format!(
                            "VIP '{}' serves nodes in node groups {}: the nodes with roles {} must be in one node group.",
                            vip.name,
                            groups.join(", "),
                            roles.join(", ")
                        ),
                    )
                    .nodes(nodes),
                );
            }
        }
        out
    }

    /// `problem` as people read it: the networks it concerns (with their
    /// node group when there are several), then its message.
    pub fn describe_problem(
        &self,
        config: &NetworkConfiguration,
        problem: &NetworkProblem,
    ) -> String {
        let demand = Demand::default();
        check::render(
            &Input {
                config,
                metas: self.network_metas(),
                groups: self.node_groups(),
                ironic: false,
                demand: &demand,
                nodes: &[],
            },
            problem,
        )
    }

    /// Nodes in node groups the environment does not have (a file's).
    fn group_problems(&self) -> Vec<NetworkProblem> {
        self.spec
            .nodes
            .iter()
            .filter(|n| self.group_id(n.node_group.as_deref()).is_none())
            .map(|n| {
                NetworkProblem::new(
                    check::ProblemKind::InvalidValue,
                    format!(
                        "Node '{}' is in node group '{}', which the environment does not have.",
                        n.display_name(),
                        n.node_group.as_deref().unwrap_or(DEFAULT_GROUP)
                    ),
                )
                .nodes([n.id])
            })
            .collect()
    }

    /// `change` made to the configuration: the new configuration, or every
    /// problem of the change and of the configuration it makes.
    pub fn changed_networks(
        &self,
        change: &ConfigurationChange,
    ) -> Result<NetworkConfiguration, Vec<NetworkProblem>> {
        let (current, _) = self.network_configuration().map_err(|e| {
            vec![NetworkProblem::new(
                check::ProblemKind::ReleaseData,
                e.to_string(),
            )]
        })?;
        let (next, mut problems) = current.with_change(change, self.network_metas());
        problems.extend(self.network_problems(&next, true));
        if problems.is_empty() {
            Ok(next)
        } else {
            Err(problems)
        }
    }

    /// The Networks tab's answer for `config`, `used` counting the
    /// addresses given on each network (by id).
    pub fn configuration_view(
        &self,
        config: &NetworkConfiguration,
        used: &BTreeMap<i64, u64>,
    ) -> ConfigurationView {
        let addressing = self.addressing(config);
        let demand = self.demand_under(&addressing, config);
        let pool = |n: &Network| addressing.pools().get(n.group_id?, &n.name);
        let networks = config
            .networks
            .iter()
            .filter_map(|n| {
                let meta = self.network_metas().get(&n.name)?;
                Some(NetworkView {
                    network: n.clone(),
                    meta: meta.clone().into(),
                    capacity: pool(n).map(address::capacity).unwrap_or_default(),
                    need: n
                        .group_id
                        .map(|g| demand.get(g, &n.name))
                        .unwrap_or_default(),
                    used: used.get(&n.id).copied().unwrap_or_default(),
                })
            })
            .collect();
        let (vips, aliases) = self.vip_views(config);
        ConfigurationView {
            networks,
            networking_parameters: config.networking_parameters.clone(),
            vips,
            node_groups: self.node_groups().to_vec(),
            aliases,
        }
    }

    /// The VIPs as the Networks tab shows them under `config`, by name, and
    /// Fuel's flat aliases (`management_vip`, …) with their addresses.
    fn vip_views(
        &self,
        config: &NetworkConfiguration,
    ) -> (
        BTreeMap<String, VipView>,
        BTreeMap<String, Option<Ipv4Addr>>,
    ) {
        let group_name = |id: i64| {
            self.node_groups()
                .iter()
                .find(|g| g.id == id)
                .map(|g| g.name.clone())
        };
        let mut vips = BTreeMap::new();
        let mut aliases = BTreeMap::new();
        for vip in self.vips() {
            let placed = config.vips.get(&vip.name);
            if let Some(alias) = &vip.meta.alias {
                aliases.insert(alias.clone(), placed.map(|p| p.ipaddr));
            }
            vips.insert(
                vip.name.clone(),
                VipView {
                    network_role: vip.role.clone(),
                    network: vip.network.clone(),
                    node_group: placed.and_then(|p| group_name(p.group_id)),
                    namespace: vip.meta.namespace.clone(),
                    ipaddr: placed.map(|p| p.ipaddr),
                    node_roles: vip.meta.roles().iter().map(ToString::to_string).collect(),
                    is_user_defined: false,
                    vendor_specific: vip.meta.vendor_specific.clone(),
                },
            );
        }
        (vips, aliases)
    }

    /// One node's management address, when it has one.
    pub fn management_address(&self, node: &NodeTags) -> Option<Ipv4Addr> {
        node.addresses
            .get(crate::network::metadata::MANAGEMENT)
            .copied()
    }
}
