//! What an environment's network rules read, worked out once per
//! environment (SEMANTICS §11.1): which of its release's networks exist
//! here — their restrictions are expressions, evaluated once —, its node
//! groups, its VIPs and who gets a public address ([`NetworkContext`]);
//! and, under one configuration, who needs which address from which pool
//! ([`Addressing`]), held on its own for a single node's change.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Environment, Spec};
use crate::name::{NetworkName, RoleName};
use crate::network::address::Pools;
use crate::network::config::{DEFAULT_GROUP, NetworkConfiguration, NodeGroup, VipAddress, applies};
use crate::network::ip::IpRange;
use crate::network::metadata::{Metas, NetworkMeta, NetworkRole, PUBLIC, VipMeta};
use crate::tag::NodeTags;

/// The setting that gives every node a public address (Fuel's).
pub const PUBLIC_TO_ALL: (&str, &str) = ("public_network_assignment", "assign_to_all_nodes");

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

/// Who gets an address on the public network (SEMANTICS §11.1): a node
/// holding a role that needs one, or every node when the setting says so.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicAddress {
    to_all: bool,
    /// The roles that need one.
    roles: Vec<RoleName>,
}

impl PublicAddress {
    fn of(env: &Environment<'_>) -> PublicAddress {
        let (group, attr) = PUBLIC_TO_ALL;
        PublicAddress {
            to_all: env.settings.value(group, attr) == Some(&Value::Bool(true)),
            roles: env
                .roles
                .iter()
                .filter(|r| r.public_ip_required)
                .map(|r| r.id.clone())
                .collect(),
        }
    }

    /// Whether a node holding `roles` gets a public address.
    pub fn given<'r>(&self, roles: impl IntoIterator<Item = &'r RoleName>) -> bool {
        self.to_all || roles.into_iter().any(|r| self.roles.contains(r))
    }
}

/// Whether a node is on network `name` of its node group: every one but
/// the public network, and that one when it gets a public address
/// (`public`, [`PublicAddress::given`]).
pub(super) fn is_on(name: &str, public: bool) -> bool {
    name != PUBLIC || public
}

/// What an environment's network rules read, worked out on first use and
/// kept with the environment ([`Environment::network_context`]).
#[derive(Debug, Clone)]
pub struct NetworkContext<'a> {
    metas: Metas<'a>,
    groups: Vec<NodeGroup>,
    vips: Vec<Vip>,
    public: PublicAddress,
}

impl<'a> NetworkContext<'a> {
    pub(super) fn new(env: &Environment<'a>) -> NetworkContext<'a> {
        let metas = existing(env);
        let vips = vips(&metas, &env.network_roles().unwrap_or_default());
        NetworkContext {
            groups: groups(env.spec),
            vips,
            public: PublicAddress::of(env),
            metas,
        }
    }

    /// The release's networks that exist here, in the order declared.
    pub fn metas(&self) -> &Metas<'a> {
        &self.metas
    }

    /// Its node groups: those stored, or `default` alone.
    pub fn groups(&self) -> &[NodeGroup] {
        &self.groups
    }

    /// Its VIPs: every network role's, on networks that exist and whose
    /// addresses Mosaic gives.
    pub fn vips(&self) -> &[Vip] {
        &self.vips
    }

    pub fn public(&self) -> &PublicAddress {
        &self.public
    }

    /// Who needs which address under `config`.
    pub fn addressing(&self, config: &NetworkConfiguration) -> Addressing {
        Addressing {
            groups: self.groups.clone(),
            pools: Pools::new(config, &self.metas),
            public: self.public.clone(),
            vips: self.vips.clone(),
        }
    }
}

/// The release's networks that exist in `env`: of its segmentation, and
/// none of whose restrictions holds (the baremetal network only with
/// Ironic); a restriction that cannot be evaluated keeps its network (the
/// release's check says why).
fn existing<'a>(env: &Environment<'a>) -> Metas<'a> {
    let segmentation = env.segmentation();
    env.release
        .networks_metadata
        .neutron
        .networks
        .iter()
        .filter(|m| applies(m, segmentation))
        .filter(|m| {
            !m.restrictions
                .iter()
                .any(|r| r.condition.holds(env.models(), r.strict).unwrap_or(false))
        })
        .collect()
}

/// The node groups `spec` stores, or `default` alone.
fn groups(spec: &Spec) -> Vec<NodeGroup> {
    if spec.node_groups.is_empty() {
        return vec![NodeGroup {
            id: 1,
            name: DEFAULT_GROUP.to_owned(),
        }];
    }
    spec.node_groups.clone()
}

/// The VIPs of `roles` on networks of `metas` that give addresses.
fn vips(metas: &Metas<'_>, roles: &[(String, NetworkRole)]) -> Vec<Vip> {
    roles
        .iter()
        .flat_map(|(_, role)| role.properties.vip.iter().map(move |v| (role, v)))
        .filter(|(role, _)| {
            metas
                .get(&role.default_mapping)
                .is_some_and(NetworkMeta::gives_addresses)
        })
        .map(|(role, vip)| Vip {
            name: vip.name.clone(),
            role: role.id.clone(),
            network: role.default_mapping.clone(),
            meta: vip.clone(),
        })
        .collect()
}

/// Who needs which address under one configuration, worked out from an
/// environment and held on its own: a single node's change decides its
/// addresses with it inside its transaction, where the environment is not
/// at hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Addressing {
    groups: Vec<NodeGroup>,
    pools: Pools,
    public: PublicAddress,
    vips: Vec<Vip>,
}

impl Addressing {
    /// The id of node group `name` (`default` when none is named).
    pub fn group_id(&self, name: Option<&str>) -> Option<i64> {
        NodeGroup::id_of(&self.groups, name)
    }

    /// Every network's pool.
    pub fn pools(&self) -> &Pools {
        &self.pools
    }

    /// The addresses `node` needs: one on each network of its group whose
    /// addresses Mosaic gives, public only when it gets a public address
    /// (SEMANTICS §11.1). None for a node deleted or pending deletion.
    pub fn needs(&self, node: &NodeTags) -> Vec<AddressNeed> {
        let Some(group) = self
            .group_id(node.node_group.as_deref())
            .filter(|_| !node.pending_deletion)
        else {
            return Vec::new();
        };
        let public = self.public.given(node.all_roles());
        self.pools
            .of_group(group)
            .filter(|(name, _)| is_on(name.as_str(), public))
            .map(|(name, pool)| AddressNeed {
                network: name.clone(),
                group,
                pool: pool.to_vec(),
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
            pool: self.pools.get(group, &vip.network)?.to_vec(),
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
