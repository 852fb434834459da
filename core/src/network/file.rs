//! The networks as the environment file writes them (docs/environment-file.md):
//! by name rather than by id — the admin network, then each node group's
//! networks under the group's name, the VIPs with their node group — so
//! that a file reads well, imports anywhere, and exports again the same.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use serde::{Deserialize, Serialize};
use serde_json::Map;

use super::config::{Network, NetworkConfiguration, NetworkingParameters, NodeGroup, VipAddress};
use super::ip::{Addr, Cidr, RangeField};
use crate::name::NetworkName;

/// One network's values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileNetwork {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cidr: Option<Cidr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway: Option<Addr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vlan_start: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_ranges: Vec<RangeField>,
}

/// A VIP's place and address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileVip {
    pub node_group: String,
    pub ipaddr: Ipv4Addr,
}

/// The file's `networks:`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileNetworks {
    pub networking_parameters: NetworkingParameters,
    /// The admin (PXE) network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin: Option<FileNetwork>,
    /// Node group name → network name → values, groups and networks in
    /// order.
    pub node_groups: Map<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vips: BTreeMap<String, FileVip>,
}

/// What in a file's `networks:` cannot be read, with where (as a path
/// into the file: `networks.node_groups.rack-2.management: …`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    /// A node group's entry that is not a map of networks.
    #[error("networks.node_groups.{group}: a map of networks by name is expected")]
    NotAMap { group: String },
    /// A network's values that do not read.
    #[error("networks.node_groups.{group}.{network}: {reason}")]
    Network {
        group: String,
        network: String,
        reason: String,
    },
    /// A VIP in a node group the file does not list.
    #[error("networks.vips.{vip}: node group '{group}' is not in networks.node_groups")]
    VipGroup { vip: String, group: String },
}

fn values(network: &Network) -> FileNetwork {
    FileNetwork {
        cidr: network.cidr.clone(),
        gateway: network.gateway.clone(),
        vlan_start: network.vlan_start,
        ip_ranges: network.ip_ranges.clone(),
    }
}

impl FileNetworks {
    /// `config` of an environment with `groups`, written by name.
    pub fn from_configuration(config: &NetworkConfiguration, groups: &[NodeGroup]) -> FileNetworks {
        let mut node_groups = Map::new();
        for group in groups {
            let mut networks = Map::new();
            for network in config.of_group(group.id) {
                let value = serde_json::to_value(values(network)).unwrap_or_default();
                networks.insert(network.name.to_string(), value);
            }
            node_groups.insert(group.name.clone(), networks.into());
        }
        let group_name = |id: i64| groups.iter().find(|g| g.id == id).map(|g| g.name.clone());
        FileNetworks {
            networking_parameters: config.networking_parameters.clone(),
            admin: config.admin().map(values),
            node_groups,
            vips: config
                .vips
                .iter()
                .filter_map(|(name, vip)| {
                    Some((
                        name.clone(),
                        FileVip {
                            node_group: group_name(vip.group_id)?,
                            ipaddr: vip.ipaddr,
                        },
                    ))
                })
                .collect(),
        }
    }

    /// The node groups it names, in order, numbered from 1.
    pub fn groups(&self) -> Vec<NodeGroup> {
        self.node_groups
            .keys()
            .enumerate()
            .map(|(i, name)| NodeGroup {
                id: i as i64 + 1,
                name: name.clone(),
            })
            .collect()
    }

    /// The configuration it describes, ids by position (the admin network
    /// first), and what in it cannot be read.
    pub fn configuration(&self) -> (NetworkConfiguration, Vec<FileProblem>) {
        let mut problems = Vec::new();
        let mut networks = Vec::new();
        let mut push = |group: Option<i64>, name: NetworkName, v: FileNetwork| {
            networks.push(Network {
                id: networks.len() as i64 + 1,
                group_id: group,
                name,
                cidr: v.cidr,
                gateway: v.gateway,
                vlan_start: v.vlan_start,
                ip_ranges: v.ip_ranges,
            });
        };
        if let Some(admin) = &self.admin {
            push(None, NetworkName::admin(), admin.clone());
        }
        let groups = self.groups();
        for (group, (name, nets)) in groups.iter().zip(&self.node_groups) {
            let Some(nets) = nets.as_object() else {
                problems.push(FileProblem::NotAMap {
                    group: name.clone(),
                });
                continue;
            };
            for (network, value) in nets {
                let read = NetworkName::new(network.as_str())
                    .map_err(|e| e.to_string())
                    .and_then(|n| {
                        let v = serde_json::from_value::<FileNetwork>(value.clone());
                        v.map(|v| (n, v)).map_err(|e| e.to_string())
                    });
                match read {
                    Ok((network, v)) => push(Some(group.id), network, v),
                    Err(reason) => problems.push(FileProblem::Network {
                        group: name.clone(),
                        network: network.clone(),
                        reason,
                    }),
                }
            }
        }
        let mut vips = BTreeMap::new();
        for (name, vip) in &self.vips {
            match groups.iter().find(|g| g.name == vip.node_group) {
                Some(group) => {
                    vips.insert(
                        name.clone(),
                        VipAddress {
                            group_id: group.id,
                            ipaddr: vip.ipaddr,
                        },
                    );
                }
                None => problems.push(FileProblem::VipGroup {
                    vip: name.clone(),
                    group: vip.node_group.clone(),
                }),
            }
        }
        let config = NetworkConfiguration {
            networks,
            networking_parameters: self.networking_parameters.clone(),
            vips,
        };
        (config, problems)
    }
}
