//! What the API answers about networks, in Fuel's shapes: the Networks
//! tab's configuration (`GET …/network_configuration/neutron`) with each
//! network's metadata and how many addresses it gives, the VIPs, and a
//! node's interfaces with the networks on them and its addresses.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::{Network, NetworkingParameters, NodeGroup};
use super::interfaces::BondMode;
use super::metadata::NetworkMeta;

/// One network with its metadata (`meta`, as Fuel's) and its addresses:
/// how many its pool holds, how many are needed and how many are given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetworkView {
    #[serde(flatten)]
    pub network: Network,
    pub meta: NetworkMeta,
    pub capacity: u64,
    pub need: u64,
    pub used: u64,
}

/// A VIP as Fuel's `vips` had it (and the network and node group it is in).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VipView {
    pub network_role: String,
    pub network: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// None while its network has no address left.
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
pub struct ConfigurationView {
    pub networks: Vec<NetworkView>,
    pub networking_parameters: NetworkingParameters,
    pub vips: BTreeMap<String, VipView>,
    pub node_groups: Vec<NodeGroup>,
    #[serde(flatten)]
    pub aliases: BTreeMap<String, Option<Ipv4Addr>>,
}

/// An interface or a bond as `GET /nodes/{id}/interfaces` shows it: with
/// the networks on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortView {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<BondMode>,
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
    /// Network → address, for the networks it has an address on (read
    /// only).
    #[serde(default, skip_deserializing)]
    pub addresses: BTreeMap<String, Ipv4Addr>,
    /// Whether it takes the environment's default layout (read only).
    #[serde(default, skip_deserializing)]
    pub default_layout: bool,
    /// Its node group (read only).
    #[serde(default, skip_deserializing)]
    pub node_group: String,
}
