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
        needed: networks.iter().map(|(n, _)| n.name.to_string()).collect(),
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
    assert_eq!(found[0].kind, ProblemKind::SameVlanOnOneInterface);
    assert_eq!(
        found[0].message,
        "Node node-7, interface eth1: management, storage networks use the same VLAN tags. Different VLAN tags should be assigned to the networks on the same interface."
    );
}

/// The kinds of the problems node-7 has declaring `declared` under the
/// default configuration.
fn kinds_of(declared: NodeInterfaces) -> Vec<ProblemKind> {
    declared_problems(declared)
        .into_iter()
        .map(|p| p.kind)
        .collect()
}

/// The problems node-7 has declaring `declared` under the default
/// configuration.
fn declared_problems(declared: NodeInterfaces) -> Vec<NetworkProblem> {
    let (all, config) = setup(Segmentation::Vlan);
    let node = node_layout(declared, &config, &all);
    problems_of(&[node], &config, &all)
}

/// Three interfaces with the default layout, changed by `edit`, give
/// problems of `kinds`, in order.
fn check(edit: impl FnOnce(&mut NodeInterfaces), kinds: &[ProblemKind]) {
    let mut declared = nics(&["eth0", "eth1", "eth2"]);
    edit(&mut declared);
    assert_eq!(kinds_of(declared.clone()), kinds, "{declared:#?}");
}

fn bond(name: &str, slaves: &[&str]) -> Bond {
    Bond {
        name: name.to_owned(),
        mode: BondMode::ActiveBackup,
        slaves: slaves.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// `networks` on `port`, the other ports as the default layout has them.
fn own(declared: &mut NodeInterfaces, port: &str, networks: &[&str]) {
    let mut layout: BTreeMap<String, Vec<String>> = BTreeMap::from([
        ("eth0".to_owned(), vec!["fuelweb_admin".to_owned()]),
        (
            "eth1".to_owned(),
            ["public", "management", "storage", "private"]
                .map(str::to_owned)
                .to_vec(),
        ),
    ]);
    layout.insert(
        port.to_owned(),
        networks.iter().map(|n| (*n).to_owned()).collect(),
    );
    declared.networks = Some(layout);
}

#[test]
fn each_rule_of_what_a_node_declares_has_its_kind() {
    use ProblemKind::*;
    check(|_| {}, &[]);
    check(
        |d| d.interfaces[2].name = "this-name-is-too-long".to_owned(),
        &[InterfaceName],
    );
    check(
        |d| d.interfaces[2].name = "eth1".to_owned(),
        &[DuplicateInterface],
    );
    check(
        |d| d.interfaces[1].mac = Some("00:11".to_owned()),
        &[InvalidMac],
    );
    check(
        |d| d.bonds.push(bond("bond0", &["eth9"])),
        &[BondTooFewSlaves, UnknownSlave],
    );
    check(
        |d| {
            d.bonds.push(bond("bond0", &["eth1", "eth2"]));
            d.bonds.push(bond("bond1", &["eth2", "eth0"]));
        },
        &[SlaveOfTwoBonds],
    );
    check(
        |d| {
            d.interfaces.push(nics(&["eth3"]).interfaces.remove(0));
            d.bonds.push(bond("bond0", &["eth2", "eth3"]));
            own(d, "eth2", &["baremetal"]);
        },
        &[NetworksOnSlave, NetworkNotInGroup],
    );
    check(
        |d| own(d, "eth5", &["storage"]),
        &[UnknownPort, NetworkOnTwoPorts],
    );
    check(|d| own(d, "eth2", &["storage"]), &[NetworkOnTwoPorts]);
    check(|d| own(d, "eth2", &["nowhere"]), &[NetworkNotInGroup]);
    check(
        |d| own(d, "eth1", &["public", "storage", "private"]),
        &[NetworkOnNoPort],
    );
}

#[test]
fn a_problem_of_a_node_names_it() {
    let found = declared_problems(nics(&["eth0", "eth1", "eth1"]));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].kind, ProblemKind::DuplicateInterface);
    assert_eq!(
        found[0].message,
        "Node 'node-7': interface 'eth1' is declared twice."
    );
    assert_eq!(found[0].nodes, vec![7]);
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
    assert_eq!(found[0].kind, ProblemKind::DuplicateMac);
    assert_eq!(
        found[0].message,
        "MAC address 52:54:00:00:00:01 is declared more than once: on nodes 'a', 'b'."
    );
    assert_eq!(found[0].nodes, vec![1, 2]);
}
