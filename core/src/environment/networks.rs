//! An environment's networks (SEMANTICS §11): which of its release's
//! networks exist here (segmentation, restrictions), its node groups, its
//! configuration (stored, or the release's defaults), its network roles
//! and VIPs, who needs which address, and its checks. The server stores
//! what this decides; the browser checks drafts with the same functions.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use serde_json::Value;

use super::Environment;
use crate::name::{NetworkName, RoleName};
use crate::network::address::{self, Addresses, Demand, Holder, HolderKey};
use crate::network::check::{self, Input, NetworkProblem};
use crate::network::config::{
    ConfigurationChange, DEFAULT_GROUP, Network, NetworkConfiguration, NetworkingParameters,
    NodeGroup, Rebuilt, UnreadableParameters, VipAddress, applies,
};
use crate::network::interfaces::{NodeInterfaces, NodeLayout};
use crate::network::ip::IpRange;
use crate::network::metadata::{
    BAREMETAL, DuplicateNetworkRole, NetworkMeta, NetworkRole, PUBLIC, Segmentation, VipMeta,
    merged_roles,
};
use crate::network::view::{ConfigurationView, NetworkView, VipView};
use crate::tag::NodeTags;

/// The setting that gives every node a public address (Fuel's).
pub const PUBLIC_TO_ALL: (&str, &str) = ("public_network_assignment", "assign_to_all_nodes");

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

/// A VIP an environment has: its network role's entry and its network.
#[derive(Debug, Clone, PartialEq)]
pub struct Vip {
    pub name: String,
    pub role: String,
    pub network: NetworkName,
    pub meta: VipMeta,
}

/// One address a node needs: on which network of which group, from which
/// pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressNeed {
    pub network: NetworkName,
    pub group: i64,
    pub pool: Vec<IpRange>,
}

impl Environment<'_> {
    /// The tenant network segmentation the components chose (VLAN unless
    /// a bind says otherwise).
    pub fn segmentation(&self) -> Segmentation {
        self.context.cluster["net_segment_type"]
            .as_str()
            .and_then(Segmentation::parse)
            .unwrap_or_default()
    }

    /// The release's networks that exist here: of this segmentation, not
    /// restricted away (the baremetal network only with Ironic), in the
    /// order declared.
    pub fn network_metas(&self) -> Vec<&NetworkMeta> {
        let segmentation = self.segmentation();
        self.release
            .networks_metadata
            .neutron
            .networks
            .iter()
            .filter(|m| applies(m, segmentation))
            .filter(|m| {
                // A network exists while none of its restrictions holds; one
                // that cannot be evaluated keeps it (the release's check says why).
                !m.restrictions
                    .iter()
                    .any(|r| r.condition.holds(self.models(), r.strict).unwrap_or(false))
            })
            .collect()
    }

    /// Whether Ironic's networking is in use (its network exists).
    pub fn uses_ironic(&self) -> bool {
        self.network_metas().iter().any(|m| m.name == BAREMETAL)
    }

    /// Its node groups: those stored, or `default` alone.
    pub fn node_groups(&self) -> Vec<NodeGroup> {
        if self.spec.node_groups.is_empty() {
            return vec![NodeGroup {
                id: 1,
                name: DEFAULT_GROUP.to_owned(),
            }];
        }
        self.spec.node_groups.clone()
    }

    /// The id of node group `name` (`default` when none is named).
    pub fn group_id(&self, name: Option<&str>) -> Option<i64> {
        let name = name.unwrap_or(DEFAULT_GROUP);
        self.node_groups()
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.id)
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
        let metas = self.network_metas();
        let groups = self.node_groups();
        let defaults = self.default_parameters()?;
        Ok(match &self.spec.network {
            Some(stored) => stored.rebuilt(&metas, &groups, &defaults),
            None => (
                NetworkConfiguration::defaults(&metas, &groups, defaults),
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

    /// Its VIPs: every network role's, on networks that exist and give
    /// addresses.
    pub fn vips(&self) -> Vec<Vip> {
        let metas = self.network_metas();
        let roles = self.network_roles().unwrap_or_default();
        roles
            .iter()
            .flat_map(|(_, role)| role.properties.vip.iter().map(move |v| (role, v)))
            .filter(|(role, _)| {
                metas
                    .iter()
                    .any(|m| m.name == role.default_mapping && m.is_addressed() && !m.is_admin())
            })
            .map(|(role, vip)| Vip {
                name: vip.name.clone(),
                role: role.id.clone(),
                network: role.default_mapping.clone(),
                meta: vip.clone(),
            })
            .collect()
    }

    /// Whether a node with `roles` gets a public address: a role of its
    /// needs one, or the setting gives every node one.
    pub fn needs_public(&self, roles: &[&RoleName]) -> bool {
        let to_all =
            self.settings.value(PUBLIC_TO_ALL.0, PUBLIC_TO_ALL.1) == Some(&Value::Bool(true));
        to_all
            || roles.iter().any(|r| {
                self.roles
                    .iter()
                    .any(|role| &role.id == *r && role.public_ip_required)
            })
    }

    /// The networks `node` is on (the admin network, its group's networks,
    /// public only when it needs an address there), with their metadata.
    pub fn node_networks<'c>(
        &self,
        config: &'c NetworkConfiguration,
        node: &NodeTags,
    ) -> Vec<(&'c Network, NetworkMeta)> {
        let Some(group) = self.group_id(node.node_group.as_deref()) else {
            return Vec::new();
        };
        let roles: Vec<&RoleName> = node.all_roles().collect();
        let public = self.needs_public(&roles);
        let metas = self.network_metas();
        config
            .networks
            .iter()
            .filter(|n| n.group_id.is_none() || n.group_id == Some(group))
            .filter(|n| n.name != PUBLIC || public)
            .filter_map(|n| {
                metas
                    .iter()
                    .find(|m| m.name == n.name)
                    .map(|m| (n, (*m).clone()))
            })
            .collect()
    }

    /// What decides who needs which address under `config`, on its own
    /// (what a single node's change takes into its transaction).
    pub fn addressing(&self, config: &NetworkConfiguration) -> Addressing {
        let metas = self.network_metas();
        let mut pools = BTreeMap::new();
        for network in &config.networks {
            let (Some(group), Some(meta)) = (
                network.group_id,
                metas.iter().find(|m| m.name == network.name),
            ) else {
                continue;
            };
            if meta.is_addressed() && !meta.is_admin() {
                pools.insert((group, network.name.clone()), address::pool(network, meta));
            }
        }
        Addressing {
            groups: self.node_groups(),
            pools,
            public_roles: self
                .roles
                .iter()
                .filter(|r| r.public_ip_required)
                .map(|r| r.id.clone())
                .collect(),
            public_to_all: self.settings.value(PUBLIC_TO_ALL.0, PUBLIC_TO_ALL.1)
                == Some(&Value::Bool(true)),
            vips: self.vips(),
        }
    }

    /// Every holder of addresses, VIPs first, then nodes by id, each with
    /// the addresses it has now.
    pub fn address_holders(&self, config: &NetworkConfiguration) -> Vec<Holder> {
        let addressing = self.addressing(config);
        let placed = addressing.vip_groups(&self.spec.nodes, &config.vips);
        let mut out: Vec<Holder> = self
            .vips()
            .into_iter()
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
                    key: HolderKey::Vip(vip.name),
                    group,
                    networks: vec![vip.network],
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
        let holders = self.address_holders(config);
        let metas = self.network_metas();
        let addresses = address::allocate(config, &metas, &holders);
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
        let mut demand = Demand::default();
        for holder in self.address_holders(config) {
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
        let owned = self.node_networks(config, node);
        let networks: Vec<(&Network, &NetworkMeta)> = owned.iter().map(|(n, m)| (*n, m)).collect();
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
        let metas = self.network_metas();
        let layouts: Vec<NodeLayout> = self.node_layout(config, node).into_iter().collect();
        crate::network::interfaces::problems(config, &metas, &layouts)
    }

    /// Every problem of `config` here, with the nodes' interfaces when
    /// `with_nodes` (the browser has none to give).
    pub fn network_problems(
        &self,
        config: &NetworkConfiguration,
        with_nodes: bool,
    ) -> Vec<NetworkProblem> {
        let metas = self.network_metas();
        let groups = self.node_groups();
        let demand = self.demand(config);
        let layouts = if with_nodes {
            self.node_layouts(config)
        } else {
            Vec::new()
        };
        let mut out = check::check(&Input {
            config,
            metas: &metas,
            groups: &groups,
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
        let metas = self.network_metas();
        let groups = self.node_groups();
        let demand = Demand::default();
        check::render(
            &Input {
                config,
                metas: &metas,
                groups: &groups,
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
        let metas = self.network_metas();
        let (next, mut problems) = current.with_change(change, &metas);
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
        let metas = self.network_metas();
        let demand = self.demand(config);
        let groups = self.node_groups();
        let networks = config
            .networks
            .iter()
            .filter_map(|n| {
                let meta = metas.iter().find(|m| m.name == n.name)?;
                let pool = address::pool(n, meta);
                Some(NetworkView {
                    network: n.clone(),
                    meta: (*meta).clone(),
                    capacity: if meta.is_admin() {
                        0
                    } else {
                        address::capacity(&pool)
                    },
                    need: n
                        .group_id
                        .map(|g| demand.get(g, &n.name))
                        .unwrap_or_default(),
                    used: used.get(&n.id).copied().unwrap_or_default(),
                })
            })
            .collect();
        let group_name = |id: i64| groups.iter().find(|g| g.id == id).map(|g| g.name.clone());
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
        ConfigurationView {
            networks,
            networking_parameters: config.networking_parameters.clone(),
            vips,
            node_groups: groups,
            aliases,
        }
    }

    /// One node's management address, when it has one.
    pub fn management_address(&self, node: &NodeTags) -> Option<Ipv4Addr> {
        node.addresses
            .get(crate::network::metadata::MANAGEMENT)
            .copied()
    }
}

/// Who needs which address, worked out from an environment once and held
/// on its own: a single node's change decides its addresses with it inside
/// its transaction, where the environment is not at hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Addressing {
    groups: Vec<NodeGroup>,
    /// Each addressed network's pool by node group and name (the admin
    /// network left out: the PXE server's DHCP hands out its addresses).
    pools: BTreeMap<(i64, NetworkName), Vec<IpRange>>,
    public_roles: Vec<RoleName>,
    public_to_all: bool,
    vips: Vec<Vip>,
}

impl Addressing {
    /// The id of node group `name` (`default` when none is named).
    pub fn group_id(&self, name: Option<&str>) -> Option<i64> {
        let name = name.unwrap_or(DEFAULT_GROUP);
        self.groups.iter().find(|g| g.name == name).map(|g| g.id)
    }

    /// The addresses `node` needs: one on each addressed network of its
    /// group, public only when a role of its needs one or every node gets
    /// one (SEMANTICS §11.1). None for a node deleted or pending deletion.
    pub fn needs(&self, node: &NodeTags) -> Vec<AddressNeed> {
        let Some(group) = self
            .group_id(node.node_group.as_deref())
            .filter(|_| !node.pending_deletion)
        else {
            return Vec::new();
        };
        let public = self.public_to_all || node.all_roles().any(|r| self.public_roles.contains(r));
        self.pools
            .iter()
            .filter(|((g, name), _)| *g == group && (name != PUBLIC || public))
            .map(|((g, name), pool)| AddressNeed {
                network: name.clone(),
                group: *g,
                pool: pool.clone(),
            })
            .collect()
    }

    /// The roles that decide where VIPs go.
    pub fn vip_roles(&self) -> Vec<RoleName> {
        let mut roles: Vec<RoleName> = self.vips.iter().flat_map(|v| v.meta.roles()).collect();
        roles.sort();
        roles.dedup();
        roles
    }

    /// VIP `name`'s need in node group `group`.
    pub fn vip_need(&self, name: &str, group: i64) -> Option<AddressNeed> {
        let vip = self.vips.iter().find(|v| v.name == name)?;
        Some(AddressNeed {
            network: vip.network.clone(),
            group,
            pool: self.pools.get(&(group, vip.network.clone()))?.clone(),
        })
    }

    /// Which node group each VIP is in: where most of the nodes it serves
    /// are (the lowest group id on a tie); where it is now when no node
    /// serves it (`current`), else the first group. `nodes`: every node
    /// holding one of [`Self::vip_roles`] (others are not read).
    pub fn vip_groups(
        &self,
        nodes: &[NodeTags],
        current: &BTreeMap<String, VipAddress>,
    ) -> BTreeMap<String, i64> {
        let first = self.groups.first().map(|g| g.id).unwrap_or(1);
        let mut out = BTreeMap::new();
        for vip in &self.vips {
            let roles = vip.meta.roles();
            let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
            for node in nodes.iter().filter(|n| !n.pending_deletion) {
                if node.all_roles().any(|r| roles.contains(r))
                    && let Some(g) = self.group_id(node.node_group.as_deref())
                {
                    *counts.entry(g).or_default() += 1;
                }
            }
            let most = counts
                .iter()
                .max_by_key(|(g, c)| (**c, -**g))
                .map(|(g, _)| *g);
            let here = current
                .get(&vip.name)
                .map(|v| v.group_id)
                .filter(|g| self.groups.iter().any(|x| x.id == *g));
            out.insert(vip.name.clone(), most.or(here).unwrap_or(first));
        }
        out
    }
}
