//! Where a new node found lands (SEMANTICS §13): the node group whose
//! management network — or admin network, for a group that has its own —
//! holds the address the host was reached at; else `default`.

use std::net::Ipv4Addr;

use crate::network::{DEFAULT_GROUP, Network, NodeGroup};

/// The networks whose CIDR says which rack an address is in.
const LOCATING: [&str; 2] = ["management", "fuelweb_admin"];

/// The node group of a new node reached at `address`, the environment's
/// networks being `networks`.
pub fn node_group_of(
    networks: &[Network],
    groups: &[NodeGroup],
    address: Option<std::net::Ipv4Addr>,
) -> String {
    let Some(address) = address else {
        return DEFAULT_GROUP.to_owned();
    };
    let holds = |cidr: Option<&ipnet::Ipv4Net>, a: Ipv4Addr| cidr.is_some_and(|c| c.contains(&a));
    LOCATING
        .iter()
        .find_map(|name| {
            networks.iter().find_map(|net| {
                let here =
                    net.name == *name && holds(net.cidr.as_ref().and_then(|c| c.valid()), address);
                let group = net.group_id?;
                here.then(|| {
                    groups
                        .iter()
                        .find(|g| g.id == group)
                        .map(|g| g.name.clone())
                })?
            })
        })
        .unwrap_or_else(|| DEFAULT_GROUP.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_lands_in_the_rack_whose_management_network_holds_its_address() {
        let networks: Vec<Network> = serde_json::from_value(serde_json::json!([
            {"id": 1, "group_id": null, "name": "fuelweb_admin", "cidr": "10.20.0.0/24"},
            {"id": 2, "group_id": 1, "name": "management", "cidr": "192.168.0.0/24"},
            {"id": 3, "group_id": 2, "name": "management", "cidr": "192.168.1.0/24"}
        ]))
        .unwrap();
        let groups = [
            NodeGroup {
                id: 1,
                name: "default".into(),
            },
            NodeGroup {
                id: 2,
                name: "rack-2".into(),
            },
        ];
        let at = |a: &str| node_group_of(&networks, &groups, Some(a.parse().unwrap()));
        assert_eq!(at("192.168.1.40"), "rack-2");
        assert_eq!(at("192.168.0.40"), "default");
        assert_eq!(
            at("10.20.0.9"),
            "default",
            "the shared admin network names no rack"
        );
        assert_eq!(at("172.16.0.1"), "default");
        assert_eq!(node_group_of(&networks, &groups, None), "default");
    }
}
