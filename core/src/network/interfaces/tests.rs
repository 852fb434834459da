//! Interfaces: the default layout, changes of one node's layout, and the
//! checks of layouts (Fuel's, with its messages, and Mosaic's).

use std::collections::BTreeMap;

use super::*;
use crate::network::check::tests::{applying, configuration, groups, metas};
use crate::network::config::NetworkConfiguration;
use crate::network::metadata::Segmentation;

fn nics(names: &[&str]) -> NodeInterfaces {
    NodeInterfaces {
        interfaces: names
            .iter()
            .map(|n| Nic {
                name: (*n).to_owned(),
                mac: None,
                speed_mbps: None,
            })
            .collect(),
        bonds: Vec::new(),
        networks: None,
    }
}

fn setup(segmentation: Segmentation) -> (Vec<NetworkMeta>, NetworkConfiguration) {
    let all = metas();
    let config = configuration(&applying(&all, segmentation, false), &groups(1), false);
    (all, config)
}

fn carried<'a>(
    all: &'a [NetworkMeta],
    config: &'a NetworkConfiguration,
    segmentation: Segmentation,
) -> Vec<(&'a Network, &'a NetworkMeta)> {
    let metas = applying(all, segmentation, false);
    config
        .networks
        .iter()
        .filter_map(|n| metas.iter().find(|m| m.name == n.name).map(|m| (n, *m)))
        .collect()
}

fn names(layout: &Layout) -> Vec<(String, String)> {
    layout
        .iter()
        .map(|(p, n)| (p.clone(), n.join(",")))
        .collect()
}

#[test]
fn the_default_layout_puts_each_untagged_network_on_its_own_port() {
    let (all, config) = setup(Segmentation::Vlan);
    let networks = carried(&all, &config, Segmentation::Vlan);
    let layout = nics(&["eth0", "eth1", "eth2"]).layout(&networks);
    assert_eq!(
        names(&layout),
        vec![
            ("eth0".to_owned(), "fuelweb_admin".to_owned()),
            (
                "eth1".to_owned(),
                "public,management,storage,private".to_owned()
            ),
            ("eth2".to_owned(), String::new()),
        ]
    );
    let one = nics(&["eth0"]).layout(&networks);
    assert_eq!(one[0].1.len(), 5, "everything on the only port");
}

#[test]
fn a_bond_takes_the_place_of_its_first_slave() {
    let mut declared = nics(&["eth0", "eth1", "eth2"]);
    declared.bonds.push(Bond {
        name: "bond0".to_owned(),
        mode: BondMode::Lacp,
        slaves: vec!["eth1".to_owned(), "eth2".to_owned()],
    });
    assert_eq!(declared.ports(), vec!["eth0", "bond0"]);
}

#[test]
fn setting_networks_moves_them_and_makes_the_layout_the_nodes_own() {
    let (all, config) = setup(Segmentation::Vlan);
    let networks = carried(&all, &config, Segmentation::Vlan);
    let declared = nics(&["eth0", "eth1", "eth2"]);
    let changes: BTreeMap<String, Vec<String>> = [("eth2".to_owned(), vec!["storage".to_owned()])]
        .into_iter()
        .collect();
    let next = declared.with_networks(&networks, &changes);
    let layout = next.layout(&networks);
    assert_eq!(
        names(&layout),
        vec![
            ("eth0".to_owned(), "fuelweb_admin".to_owned()),
            ("eth1".to_owned(), "public,management,private".to_owned()),
            ("eth2".to_owned(), "storage".to_owned()),
        ]
    );
    assert!(next.networks.is_some());
}

fn node_layout(
    declared: NodeInterfaces,
    config: &NetworkConfiguration,
    all: &[NetworkMeta],
) -> NodeLayout {
    let networks = carried(all, config, Segmentation::Vlan);
    NodeLayout {
        node: 7,
        name: "node-7".to_owned(),
        group: 1,
        layout: declared.layout(&networks),
        needed: networks.iter().map(|(n, _)| n.name.clone()).collect(),
        declared,
    }
}

fn problems_of(
    nodes: &[NodeLayout],
    config: &NetworkConfiguration,
    all: &[NetworkMeta],
) -> Vec<NetworkProblem> {
    let metas = applying(all, Segmentation::Vlan, false);
    problems(config, &metas, nodes)
}

#[test]
fn two_untagged_networks_on_one_port_is_fuels_message() {
    let (all, config) = setup(Segmentation::Vlan);
    let node = node_layout(nics(&["eth0"]), &config, &all);
    let found = problems_of(&[node], &config, &all);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].kind, ProblemKind::UntaggedOnOneInterface);
    assert_eq!(
        found[0].message,
        "Some untagged networks are assigned to the same physical interface. You should assign them to different physical interfaces. Affected:\n\"admin (PXE)\", \"public\" networks at node \"node-7\""
    );
    assert_eq!(found[0].nodes, vec![7]);
}

#[test]
fn one_vlan_tag_twice_on_one_port_is_fuels_message() {
    let (all, mut config) = setup(Segmentation::Vlan);
    config
        .networks
        .iter_mut()
        .find(|n| n.name == "storage")
        .unwrap()
        .vlan_start = Some(101);
    let node = node_layout(nics(&["eth0", "eth1"]), &config, &all);
    let found = problems_of(&[node], &config, &all);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].message,
        "Node node-7, interface eth1: management, storage networks use the same VLAN tags. Different VLAN tags should be assigned to the networks on the same interface."
    );
}

#[test]
fn what_a_node_declares_is_checked() {
    let (all, config) = setup(Segmentation::Vlan);
    let mut declared = nics(&["eth0", "eth1", "eth1", "this-name-is-too-long"]);
    declared.interfaces[1].mac = Some("00:11".to_owned());
    declared.bonds.push(Bond {
        name: "bond0".to_owned(),
        mode: BondMode::ActiveBackup,
        slaves: vec!["eth9".to_owned()],
    });
    declared.networks = Some(
        [
            (
                "eth0".to_owned(),
                vec!["fuelweb_admin".to_owned(), "nowhere".to_owned()],
            ),
            ("eth5".to_owned(), vec!["public".to_owned()]),
        ]
        .into_iter()
        .collect(),
    );
    let node = node_layout(declared, &config, &all);
    let messages: Vec<String> = problems_of(&[node], &config, &all)
        .into_iter()
        .map(|p| p.message)
        .collect();
    for expected in [
        "Node 'node-7': interface 'eth1' is declared twice.",
        "Node 'node-7': 'this-name-is-too-long' is not a valid interface name: use 1 to 15 letters, digits, '-', '_' or '.'.",
        "Node 'node-7': '00:11' is not a MAC address (interface eth1).",
        "Node 'node-7': bond 'bond0' needs two slaves at least.",
        "Node 'node-7': bond 'bond0' names 'eth9', which is no interface of the node.",
        "Node 'node-7': networks are put on 'eth5', which is no interface or bond of the node.",
        "Node 'node-7': network 'nowhere' is no network of its node group.",
        "Node 'node-7': network 'management' is on no interface.",
    ] {
        assert!(
            messages.iter().any(|m| m == expected),
            "{expected}\nnot in {messages:#?}"
        );
    }
}

#[test]
fn a_mac_two_nodes_declare_names_both() {
    let (all, config) = setup(Segmentation::Vlan);
    let mut a = nics(&["eth0", "eth1"]);
    a.interfaces[0].mac = Some("52:54:00:00:00:01".to_owned());
    let b = a.clone();
    let mut first = node_layout(a, &config, &all);
    let mut second = node_layout(b, &config, &all);
    first.node = 1;
    first.name = "a".to_owned();
    second.node = 2;
    second.name = "b".to_owned();
    let found = problems_of(&[first, second], &config, &all);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].message,
        "MAC address 52:54:00:00:00:01 is declared more than once: on nodes 'a', 'b'."
    );
    assert_eq!(found[0].nodes, vec![1, 2]);
}
