//! What a release declares of networks (SEMANTICS §11.1), as Fuel's
//! releases declared it: `networks_metadata` — the networks an environment
//! gets, with their defaults, and the defaults of its networking
//! parameters — and `network_roles_metadata` — which network each service
//! talks on and the virtual addresses it needs. Enabled plugins add
//! network roles (`network_roles.yaml`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::name::{NetworkName, RoleName};
use crate::restriction::Restriction;

/// The name of the admin (PXE) network: one per environment, in no node
/// group, its addresses handed out by the PXE server's DHCP.
pub const ADMIN: &str = NetworkName::ADMIN;
/// How Fuel's messages call the admin network.
pub const ADMIN_LABEL: &str = "admin (PXE)";
/// The networks with a meaning of their own.
pub const PUBLIC: &str = "public";
pub const MANAGEMENT: &str = "management";
pub const STORAGE: &str = "storage";
pub const PRIVATE: &str = "private";
pub const BAREMETAL: &str = "baremetal";

/// `networks_metadata`: Neutron's networks and parameters (Fuel's
/// `nova_network` part is not read: Mosaic's environments use Neutron),
/// and the bonding options, kept as declared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NetworksMetadata {
    #[serde(default)]
    pub neutron: NeutronMetadata,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub bonding: Value,
    /// Anything else, kept so that stored releases read back whole.
    #[serde(flatten)]
    pub other: serde_json::Map<String, Value>,
}

impl NetworksMetadata {
    pub fn is_empty(&self) -> bool {
        self.neutron.networks.is_empty() && self.bonding.is_null() && self.other.is_empty()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NeutronMetadata {
    #[serde(default)]
    pub networks: Vec<NetworkMeta>,
    /// The networking parameters' defaults (`vlan_range`,
    /// `floating_ranges`, …), as Fuel's `config`.
    #[serde(default)]
    pub config: serde_json::Map<String, Value>,
}

/// How a network's addresses are given: from its CIDR, from ranges, or
/// none (a network without L3, e.g. VLAN segmentation's private network).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Notation {
    Cidr,
    IpRanges,
}

/// Neutron's tenant network segmentation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Segmentation {
    #[default]
    Vlan,
    Tun,
    /// Fuel's GRE: releases may declare it; no environment of Mosaic's
    /// uses it (the wizard offers VLAN or tunnelling).
    Gre,
}

impl Segmentation {
    pub fn parse(text: &str) -> Option<Segmentation> {
        match text {
            "vlan" => Some(Segmentation::Vlan),
            "tun" => Some(Segmentation::Tun),
            "gre" => Some(Segmentation::Gre),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Segmentation::Vlan => "vlan",
            Segmentation::Tun => "tun",
            Segmentation::Gre => "gre",
        }
    }
}

/// One network a release declares (`networks_metadata.neutron.networks[]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NetworkMeta {
    pub name: NetworkName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cidr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway: Option<String>,
    #[serde(default)]
    pub use_gateway: bool,
    #[serde(default)]
    pub vlan_start: Option<i64>,
    #[serde(default)]
    pub notation: Option<Notation>,
    /// The default range (notation `ip_ranges`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<String>>, min_items = 2, max_items = 2))]
    pub ip_range: Option<[String; 2]>,
    /// Lower first: which networks the default layout puts first.
    #[serde(default)]
    pub map_priority: i64,
    #[serde(default)]
    pub configurable: bool,
    /// The segmentation the network exists with (none: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seg_type: Option<Segmentation>,
    /// It carries Neutron's tenant VLANs (`vlan_range`): tagged, though it
    /// has no `vlan_start`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub neutron_vlan_range: bool,
    /// The networking parameter holding its floating ranges (public).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floating_range_var: Option<String>,
    /// When the network exists (e.g. baremetal only with Ironic).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restrictions: Vec<Restriction>,
    /// Other keys as declared (`render_type`, `render_addr_mask`, `vips`,
    /// …), kept so that the network's `meta` shows them as Fuel's did.
    #[serde(flatten)]
    pub other: serde_json::Map<String, Value>,
}

impl NetworkMeta {
    pub fn is_admin(&self) -> bool {
        self.name == ADMIN
    }

    /// Whether nodes get addresses on it.
    pub fn is_addressed(&self) -> bool {
        self.notation.is_some()
    }

    /// Whether Mosaic gives its addresses (to nodes and VIPs): it is
    /// addressed and not the admin network, whose addresses the PXE
    /// server's DHCP hands out.
    pub fn gives_addresses(&self) -> bool {
        self.is_addressed() && !self.is_admin()
    }

    /// How Fuel's messages call it.
    pub fn label(&self) -> &str {
        label(&self.name)
    }
}

/// The networks that exist in an environment, each with its metadata, in
/// the order its release declares them; the one way a network's metadata
/// is found by its name. A release declares a handful of networks, so a
/// lookup is a short scan, and the order is kept for the default layout
/// and the configuration's networks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metas<'m>(Vec<&'m NetworkMeta>);

impl<'m> Metas<'m> {
    /// The metadata of network `name`, when it exists here.
    pub fn get<N: AsRef<str> + ?Sized>(&self, name: &N) -> Option<&'m NetworkMeta> {
        let name = name.as_ref();
        self.0.iter().copied().find(|m| m.name == name)
    }
}

impl<'m> FromIterator<&'m NetworkMeta> for Metas<'m> {
    fn from_iter<I: IntoIterator<Item = &'m NetworkMeta>>(metas: I) -> Metas<'m> {
        Metas(metas.into_iter().collect())
    }
}

impl<'m> std::ops::Deref for Metas<'m> {
    type Target = [&'m NetworkMeta];

    fn deref(&self) -> &[&'m NetworkMeta] {
        &self.0
    }
}

/// How Fuel's messages call network `name` (a network's name, or one a
/// layout names as typed).
pub fn label<N: AsRef<str> + ?Sized>(name: &N) -> &str {
    let name = name.as_ref();
    if name == ADMIN { ADMIN_LABEL } else { name }
}

/// A service's network (`network_roles_metadata[]`, `network_roles.yaml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetworkRole {
    pub id: String,
    /// The network it is on.
    pub default_mapping: NetworkName,
    #[serde(default)]
    pub properties: NetworkRoleProperties,
    /// Where it is declared (the package's file and line), for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Place>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NetworkRoleProperties {
    #[serde(default)]
    pub subnet: bool,
    #[serde(default)]
    pub gateway: bool,
    #[serde(default)]
    pub vip: Vec<VipMeta>,
}

/// A virtual address a network role needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VipMeta {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The name it is also known by (`management_vip`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    /// The roles of the nodes it serves; none: controllers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_roles: Option<Vec<RoleName>>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub vendor_specific: Value,
}

/// The roles a VIP serves when it names none (Fuel's default was
/// `primary-controller` and `controller`; Mosaic's primaries are tags).
pub const DEFAULT_VIP_ROLES: &[&str] = &["controller"];

impl VipMeta {
    /// The roles of the nodes it serves.
    pub fn roles(&self) -> Vec<RoleName> {
        match &self.node_roles {
            Some(roles) => roles.clone(),
            None => DEFAULT_VIP_ROLES
                .iter()
                .filter_map(|r| RoleName::new(*r).ok())
                .collect(),
        }
    }
}

/// A file and a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub file: String,
    pub line: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A network role id two sources declare.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("network role '{id}' is declared by both {first} and {second}")]
pub struct DuplicateNetworkRole {
    pub id: String,
    /// Each source with where in it: "release OpenStack 2024.1 (network_roles.yaml:12)".
    pub first: String,
    pub second: String,
}

/// Where a role is declared, for messages: the source with its place.
pub fn described(source: &str, role: &NetworkRole) -> String {
    match &role.source {
        Some(place) => format!("{source} ({place})"),
        None => source.to_owned(),
    }
}

/// The network roles of several sources in order, or the first id two of
/// them declare.
pub fn merged_roles<'a>(
    sources: impl IntoIterator<Item = (String, &'a [NetworkRole])>,
) -> Result<Vec<(String, NetworkRole)>, DuplicateNetworkRole> {
    let mut out: Vec<(String, NetworkRole)> = Vec::new();
    for (source, roles) in sources {
        for role in roles {
            if let Some((first, earlier)) = out.iter().find(|(_, r)| r.id == role.id) {
                return Err(DuplicateNetworkRole {
                    id: role.id.clone(),
                    first: described(first, earlier),
                    second: described(&source, role),
                });
            }
            out.push((source.clone(), role.clone()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn role(id: &str, line: usize) -> NetworkRole {
        NetworkRole {
            id: id.to_owned(),
            default_mapping: NetworkName::new("management").unwrap(),
            properties: NetworkRoleProperties::default(),
            source: Some(Place {
                file: "network_roles.yaml".to_owned(),
                line,
            }),
        }
    }

    #[test]
    fn a_role_two_sources_declare_names_both_with_their_lines() {
        let release = [role("mgmt/vip", 12)];
        let plugin = [role("mgmt/vip", 3)];
        let err = merged_roles([
            ("release OpenStack".to_owned(), &release[..]),
            ("plugin overlay 1.0.0".to_owned(), &plugin[..]),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "network role 'mgmt/vip' is declared by both release OpenStack (network_roles.yaml:12) and plugin overlay 1.0.0 (network_roles.yaml:3)"
        );
    }

    #[test]
    fn fuel_metadata_reads_with_its_other_keys_kept() {
        let meta: NetworkMeta = serde_json::from_value(json!({
            "name": "private", "seg_type": "gre", "cidr": "192.168.2.0/24",
            "vlan_start": 103, "notation": "cidr", "render_type": "cidr",
            "map_priority": 2, "configurable": true
        }))
        .unwrap();
        assert_eq!(meta.seg_type, Some(Segmentation::Gre));
        assert_eq!(meta.other["render_type"], "cidr");
        let vip: VipMeta = serde_json::from_value(json!({"name": "public"})).unwrap();
        assert_eq!(vip.roles()[0].as_str(), "controller");
    }
}
