//! An environment's network configuration (SEMANTICS §11.1), in Fuel's
//! shape: its networks — the admin network, then each node group's copy
//! of every other network — and its networking parameters; built from its
//! release's metadata with Fuel's defaults, changed by the operator's saves
//! (which keep what Fuel kept: the name, group and metadata of a network
//! are not the operator's), and rebuilt when the components change which
//! networks exist.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use ipnet::Ipv4Net;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::ip::{Addr, Cidr, IpRange, RangeField, Typed, hosts, without};
use super::metadata::{ADMIN, Metas, NetworkMeta, Notation, Segmentation};
use crate::name::NetworkName;

/// A node group named by its name or its id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GroupRef {
    Id(i64),
    Name(String),
}

impl GroupRef {
    /// The group of `groups` it names, or why none.
    pub fn resolve<'g>(&self, groups: &'g [NodeGroup]) -> Result<&'g NodeGroup, UnknownGroup> {
        let found = groups.iter().find(|g| match self {
            GroupRef::Id(id) => g.id == *id,
            GroupRef::Name(name) => &g.name == name,
        });
        found.ok_or_else(|| UnknownGroup {
            wanted: self.clone(),
            known: groups.iter().map(|g| g.name.clone()).collect(),
        })
    }
}

/// How messages name a node group a request names: its id, or its name
/// quoted.
impl std::fmt::Display for GroupRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GroupRef::Id(id) => write!(f, "{id}"),
            GroupRef::Name(name) => write!(f, "'{name}'"),
        }
    }
}

/// A node group the environment does not have: the one named, and the
/// names of those it has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("node_group: the environment has no node group {wanted} (it has {})", .known.join(", "))]
pub struct UnknownGroup {
    pub wanted: GroupRef,
    pub known: Vec<String>,
}

/// A name a node group may not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a node group name: use 1 to 50 letters, digits, '-', '_' or '.'")]
pub struct InvalidGroupName(pub String);

/// The node group every environment has.
pub const DEFAULT_GROUP: &str = "default";

/// A node group (a rack): its own copy of every network but the admin one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NodeGroup {
    pub id: i64,
    pub name: String,
}

impl NodeGroup {
    /// The id of node group `name` among `groups` (`default` when none is
    /// named).
    pub fn id_of(groups: &[NodeGroup], name: Option<&str>) -> Option<i64> {
        let name = name.unwrap_or(DEFAULT_GROUP);
        groups.iter().find(|g| g.name == name).map(|g| g.id)
    }

    /// What a node group may be called: 1–50 letters, digits, `-`, `_`, `.`.
    pub fn check_name(name: &str) -> Result<(), InvalidGroupName> {
        let ok = !name.is_empty()
            && name.len() <= 50
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if ok {
            Ok(())
        } else {
            Err(InvalidGroupName(name.to_owned()))
        }
    }
}

/// One network of an environment, as stored and sent (its `meta` comes
/// from the release, [`super::NetworkView`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Network {
    pub id: i64,
    /// Its node group; none: the admin network.
    pub group_id: Option<i64>,
    pub name: NetworkName,
    #[serde(default)]
    pub cidr: Option<Cidr>,
    #[serde(default)]
    pub gateway: Option<Addr>,
    #[serde(default)]
    pub vlan_start: Option<i64>,
    #[serde(default)]
    pub ip_ranges: Vec<RangeField>,
}

impl Network {
    /// A network of group `group_id` with `meta`'s defaults.
    pub fn from_meta(id: i64, group_id: Option<i64>, meta: &NetworkMeta) -> Network {
        let cidr: Option<Cidr> = meta.cidr.as_deref().map(Typed::parse);
        let gateway = match (&meta.gateway, cidr.as_ref().and_then(Typed::valid)) {
            (Some(gateway), _) => Some(Typed::parse(gateway)),
            (None, Some(net)) if meta.use_gateway => Some(hosts(net).first().into()),
            _ => None,
        };
        let mut network = Network {
            id,
            group_id: if meta.is_admin() { None } else { group_id },
            name: meta.name.clone(),
            cidr,
            gateway,
            vlan_start: meta.vlan_start,
            ip_ranges: meta
                .ip_range
                .iter()
                .map(|[a, b]| RangeField(Typed::parse(a), Typed::parse(b)))
                .collect(),
        };
        network.derive_ranges(meta);
        network
    }

    /// The CIDR, when it parses.
    pub fn net(&self) -> Option<Ipv4Net> {
        self.cidr.as_ref().and_then(Typed::valid).copied()
    }

    /// The gateway, when it parses.
    pub fn gateway_ip(&self) -> Option<Ipv4Addr> {
        self.gateway.as_ref().and_then(Typed::valid).copied()
    }

    /// The ranges that parse.
    pub fn ranges(&self) -> Vec<IpRange> {
        self.ip_ranges
            .iter()
            .filter_map(RangeField::range)
            .collect()
    }

    /// Under notation `cidr`, the ranges follow the CIDR: its hosts less
    /// the gateway (as Fuel recalculated them); otherwise they stay.
    pub fn derive_ranges(&mut self, meta: &NetworkMeta) {
        if meta.notation != Some(Notation::Cidr) {
            return;
        }
        let Some(net) = self.net() else {
            return;
        };
        let gateway: Vec<Ipv4Addr> = self.gateway_ip().into_iter().collect();
        self.ip_ranges = without(&[hosts(&net.trunc())], &gateway)
            .into_iter()
            .map(RangeField::from)
            .collect();
    }

    /// Gives it the first host address outside its ranges as its gateway,
    /// if it has none (SEMANTICS §11.1: two node groups or more need
    /// gateways).
    pub fn ensure_gateway(&mut self, meta: &NetworkMeta) {
        if self.gateway.is_some() || !meta.is_addressed() {
            return;
        }
        let Some(net) = self.net() else {
            return;
        };
        let hosts = hosts(&net.trunc());
        // A CIDR's own ranges make way for the gateway; ranges given do not.
        let taken = match meta.notation {
            Some(Notation::Cidr) => Vec::new(),
            _ => self.ranges(),
        };
        let free = (hosts.first_u32()..=hosts.last_u32())
            .find(|ip| !taken.iter().any(|r| r.contains_u32(*ip)));
        if let Some(ip) = free {
            self.gateway = Some(Ipv4Addr::from(ip).into());
            self.derive_ranges(meta);
        }
    }
}

/// Neutron's parameters (Fuel's `networking_parameters`), readable as
/// `networking_parameters:*` in every expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NetworkingParameters {
    /// Follows the components (`cluster:net_segment_type`); a network save
    /// cannot change it.
    pub segmentation_type: Segmentation,
    #[serde(default = "ovs")]
    pub net_l23_provider: String,
    /// Tenant VLANs (VLAN segmentation).
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::optional_int_pair))]
    pub vlan_range: Option<[i64; 2]>,
    /// Tunnel ids (tunnelling).
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::optional_int_pair))]
    pub gre_id_range: Option<[i64; 2]>,
    pub base_mac: String,
    pub internal_cidr: Option<Cidr>,
    pub internal_gateway: Option<Addr>,
    pub internal_name: String,
    #[serde(default)]
    pub floating_ranges: Vec<RangeField>,
    pub floating_name: String,
    #[serde(default)]
    pub dns_nameservers: Vec<Addr>,
    /// Ironic's range and gateway for the nodes it provisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baremetal_range: Option<RangeField>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baremetal_gateway: Option<Addr>,
}

/// A release's networking parameters (its `config` over Fuel's defaults)
/// that do not read as [`NetworkingParameters`]: why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the release's networking parameters do not read: {reason}")]
pub struct UnreadableParameters {
    pub reason: String,
}

fn ovs() -> String {
    "ovs".to_owned()
}

/// Fuel's defaults where a release's `config` says nothing.
fn fuel_defaults() -> Map<String, Value> {
    let value = serde_json::json!({
        "net_l23_provider": "ovs",
        "vlan_range": [1000, 1030],
        "gre_id_range": [2, 65535],
        "base_mac": "fa:16:3e:00:00:00",
        "internal_cidr": "192.168.111.0/24",
        "internal_gateway": "192.168.111.1",
        "internal_name": "admin_internal_net",
        "floating_ranges": [["172.16.0.130", "172.16.0.254"]],
        "floating_name": "admin_floating_net",
        "dns_nameservers": ["8.8.4.4", "8.8.8.8"],
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

impl NetworkingParameters {
    /// The release's defaults (its `config`, then Fuel's) with
    /// `segmentation`; Ironic's range and gateway only `with_ironic`.
    pub fn defaults(
        config: &Map<String, Value>,
        segmentation: Segmentation,
        with_ironic: bool,
    ) -> Result<NetworkingParameters, UnreadableParameters> {
        let mut map = fuel_defaults();
        for (key, value) in config {
            if key != "parameters" {
                map.insert(key.clone(), value.clone());
            }
        }
        map.insert("segmentation_type".to_owned(), segmentation.as_str().into());
        if !with_ironic {
            map.remove("baremetal_range");
            map.remove("baremetal_gateway");
        }
        serde_json::from_value(Value::Object(map)).map_err(|e| UnreadableParameters {
            reason: e.to_string(),
        })
    }

    /// These parameters for what `defaults` says now: its segmentation,
    /// and Ironic's range and gateway only when it has them (kept when
    /// these had them already).
    fn rebuilt(&self, defaults: &NetworkingParameters) -> NetworkingParameters {
        let ironic = defaults.baremetal_range.is_some();
        NetworkingParameters {
            segmentation_type: defaults.segmentation_type,
            baremetal_range: ironic
                .then(|| {
                    self.baremetal_range
                        .clone()
                        .or_else(|| defaults.baremetal_range.clone())
                })
                .flatten(),
            baremetal_gateway: ironic
                .then(|| {
                    self.baremetal_gateway
                        .clone()
                        .or_else(|| defaults.baremetal_gateway.clone())
                })
                .flatten(),
            ..self.clone()
        }
    }

    /// Its fields as the `networking_parameters` model.
    pub fn to_model(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The floating ranges that parse.
    pub fn floating(&self) -> Vec<IpRange> {
        self.floating_ranges
            .iter()
            .filter_map(RangeField::range)
            .collect()
    }
}

/// Whether a network's metadata applies to a segmentation: it names none,
/// or this one. Its restrictions are not read here: whether it exists in
/// an environment is `Environment::network_metas`' to say.
pub fn applies(meta: &NetworkMeta, segmentation: Segmentation) -> bool {
    meta.seg_type.is_none_or(|s| s == segmentation)
}

/// An environment's networks and parameters, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkConfiguration {
    pub networks: Vec<Network>,
    pub networking_parameters: NetworkingParameters,
    /// The VIPs' addresses by VIP name, each in its node group.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vips: BTreeMap<String, VipAddress>,
}

/// Where a VIP is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct VipAddress {
    pub group_id: i64,
    pub ipaddr: Ipv4Addr,
}

impl NetworkConfiguration {
    /// The networks of `metas` (those that exist) for `groups` with their
    /// defaults, ids from 1: the admin network once, every other network
    /// once per group, gateways set when there are two groups or more.
    pub fn defaults(
        metas: &Metas<'_>,
        groups: &[NodeGroup],
        parameters: NetworkingParameters,
    ) -> NetworkConfiguration {
        let mut config = NetworkConfiguration {
            networks: Vec::new(),
            networking_parameters: parameters,
            vips: BTreeMap::new(),
        };
        for meta in metas.iter().filter(|m| m.is_admin()) {
            config.push(meta, None);
        }
        for group in groups {
            for meta in metas.iter().filter(|m| !m.is_admin()) {
                config.push(meta, Some(group.id));
            }
        }
        config.ensure_gateways(metas, groups.len());
        config
    }

    fn next_id(&self) -> i64 {
        self.networks.iter().map(|n| n.id).max().unwrap_or(0) + 1
    }

    fn push(&mut self, meta: &NetworkMeta, group: Option<i64>) {
        let id = self.next_id();
        self.networks.push(Network::from_meta(id, group, meta));
    }

    /// With two node groups or more, every addressed network gets a
    /// gateway if it has none.
    fn ensure_gateways(&mut self, metas: &Metas<'_>, groups: usize) {
        if groups < 2 {
            return;
        }
        for network in &mut self.networks {
            if let Some(meta) = metas.get(&network.name)
                && !meta.is_admin()
            {
                network.ensure_gateway(meta);
            }
        }
    }

    /// The networks of group `group` (the admin network not included).
    pub fn of_group(&self, group: i64) -> impl Iterator<Item = &Network> {
        self.networks
            .iter()
            .filter(move |n| n.group_id == Some(group))
    }

    /// The admin network.
    pub fn admin(&self) -> Option<&Network> {
        self.networks.iter().find(|n| n.name == ADMIN)
    }

    pub fn network(&self, id: i64) -> Option<&Network> {
        self.networks.iter().find(|n| n.id == id)
    }

    /// Network `name` of group `group` (the admin network for any group).
    pub fn find(&self, group: i64, name: &str) -> Option<&Network> {
        self.networks
            .iter()
            .find(|n| n.name == name && (n.group_id == Some(group) || n.group_id.is_none()))
    }

    /// A copy of group `template`'s networks for new group `group`, and
    /// gateways for every addressed network once there are two groups
    /// (SEMANTICS §11.1: a new group never makes a valid configuration
    /// invalid — the copies share the template's CIDRs and gateways, which
    /// the checks take as one network across racks).
    pub fn add_group(&mut self, metas: &Metas<'_>, group: i64, template: i64, groups: usize) {
        self.ensure_gateways(metas, groups);
        let copies: Vec<Network> = self.of_group(template).cloned().collect();
        for copy in copies {
            let id = self.next_id();
            self.networks.push(Network {
                id,
                group_id: Some(group),
                ..copy
            });
        }
    }

    /// Without group `group`'s networks and VIPs.
    pub fn remove_group(&mut self, group: i64) {
        self.networks.retain(|n| n.group_id != Some(group));
        self.vips.retain(|_, v| v.group_id != group);
    }

    /// The configuration with exactly the networks `metas` declares for
    /// `groups` and `segmentation`: those it has kept as they are, the
    /// others added with their defaults, and those that no longer exist
    /// removed (a components change, SEMANTICS §11.1); with what changed.
    pub fn rebuilt(
        &self,
        metas: &Metas<'_>,
        groups: &[NodeGroup],
        parameters: &NetworkingParameters,
    ) -> (NetworkConfiguration, Rebuilt) {
        let fresh = NetworkConfiguration::defaults(metas, groups, parameters.clone());
        let mut next = NetworkConfiguration {
            networks: Vec::new(),
            networking_parameters: self.networking_parameters.rebuilt(parameters),
            vips: self.vips.clone(),
        };
        let mut rebuilt = Rebuilt::default();
        let mut next_id = self.next_id();
        for wanted in &fresh.networks {
            let same = |n: &&Network| n.name == wanted.name && n.group_id == wanted.group_id;
            let kept = self.networks.iter().find(same).filter(|old| {
                let meta = metas.get(&old.name);
                // A private network of another segmentation is another network.
                meta.is_some_and(|m| m.is_addressed() == old.cidr.is_some())
            });
            match kept {
                Some(old) => next.networks.push(old.clone()),
                None => {
                    rebuilt.added.push(wanted.name.clone());
                    next.networks.push(Network {
                        id: next_id,
                        ..wanted.clone()
                    });
                    next_id += 1;
                }
            }
        }
        for old in &self.networks {
            if !next.networks.iter().any(|n| n.id == old.id) {
                rebuilt.removed.push(old.name.clone());
            }
        }
        for names in [&mut rebuilt.added, &mut rebuilt.removed] {
            names.sort();
            names.dedup();
        }
        (next, rebuilt)
    }
}

impl NetworkConfiguration {
    /// The same configuration with node group ids replaced as `ids` maps
    /// them (a file's or a new environment's ids by position, once the
    /// database has given the groups theirs).
    pub fn with_group_ids(&self, ids: &BTreeMap<i64, i64>) -> NetworkConfiguration {
        let map = |id: i64| ids.get(&id).copied().unwrap_or(id);
        let mut next = self.clone();
        for network in &mut next.networks {
            network.group_id = network.group_id.map(map);
        }
        for vip in next.vips.values_mut() {
            vip.group_id = map(vip.group_id);
        }
        next
    }
}

/// What a rebuild changed: the networks added and removed, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Rebuilt {
    pub added: Vec<NetworkName>,
    pub removed: Vec<NetworkName>,
}

impl Rebuilt {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }

    /// What a preview says of it: a line for the networks removed (with
    /// their addresses), one for those added with the release's defaults.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.removed.is_empty() {
            lines.push(format!(
                "Removed with their addresses: {}",
                self.removed.join(", ")
            ));
        }
        if !self.added.is_empty() {
            lines.push(format!(
                "Added with the release's defaults: {}",
                self.added.join(", ")
            ));
        }
        lines
    }
}

/// A field of a change: absent (keep), `null` (none) or a value.
pub fn tri_state<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// One network in a save: its id and the fields it changes (absent: kept;
/// `null`: none). Anything else a network of an answer carries (`name`,
/// `group_id`, `meta`, …) may be sent back and is ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NetworkChange {
    pub id: i64,
    #[serde(
        default,
        deserialize_with = "tri_state",
        skip_serializing_if = "Option::is_none"
    )]
    pub cidr: Option<Option<Cidr>>,
    #[serde(
        default,
        deserialize_with = "tri_state",
        skip_serializing_if = "Option::is_none"
    )]
    pub gateway: Option<Option<Addr>>,
    #[serde(
        default,
        deserialize_with = "tri_state",
        skip_serializing_if = "Option::is_none"
    )]
    pub vlan_start: Option<Option<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_ranges: Option<Vec<RangeField>>,
    /// What Fuel's answers carry and a save may send back; not the
    /// operator's to change, so not read.
    #[serde(default, skip_serializing)]
    pub name: Option<Value>,
    #[serde(default, skip_serializing)]
    pub group_id: Option<Value>,
    #[serde(default, skip_serializing)]
    pub meta: Option<Value>,
    #[serde(flatten, skip_serializing)]
    pub other: Map<String, Value>,
}

/// A save of the Networks tab (`PUT …/network_configuration/neutron`):
/// the networks it changes and the parameters it sets (absent: kept).
/// What else an answer carries (`vips`, `node_groups`, `management_vip`,
/// …) may be sent back and is ignored, so a downloaded configuration
/// uploads as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"networks": [{"id": 3, "cidr": "192.168.10.0/24", "vlan_start": 110}], "networking_parameters": {"vlan_range": [1000, 1100]}})))]
pub struct ConfigurationChange {
    #[serde(default)]
    pub networks: Vec<NetworkChange>,
    /// The parameters set, by name (those of `NetworkingParameters`);
    /// `segmentation_type` only as it is (it follows the components).
    #[serde(default)]
    pub networking_parameters: Option<Map<String, Value>>,
    /// What Fuel's answers carry besides (`vips`, `management_vip`, …);
    /// read-only, so not read.
    #[serde(flatten, skip_serializing)]
    pub other: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_not_found_or_misnamed_says_which_as_data() {
        let groups = [NodeGroup {
            id: 1,
            name: DEFAULT_GROUP.to_owned(),
        }];
        let wanted = GroupRef::Name("rack-2".to_owned());
        let err = wanted.resolve(&groups).unwrap_err();
        assert_eq!(
            err,
            UnknownGroup {
                wanted,
                known: vec![DEFAULT_GROUP.to_owned()]
            }
        );
        assert_eq!(
            err.to_string(),
            "node_group: the environment has no node group 'rack-2' (it has default)"
        );
        assert_eq!(GroupRef::Id(1).resolve(&groups), Ok(&groups[0]));
        assert_eq!(
            NodeGroup::check_name("rack 2"),
            Err(InvalidGroupName("rack 2".to_owned()))
        );
        assert_eq!(NodeGroup::check_name("rack-2.a_b"), Ok(()));
    }
}
