//! Every check of SEMANTICS §11.2, one case each: a default configuration
//! with one thing changed, and the problem it must give (Fuel's exact
//! message where Fuel had one).

use serde_json::json;

use super::*;
use crate::network::address::Demand;
use crate::network::config::{NetworkConfiguration, NetworkingParameters, NodeGroup};
use crate::network::ip::{RangeField, Typed};
use crate::network::metadata::{Metas, NetworkMeta, Segmentation};

/// Fuel's Neutron networks and the admin network, as the bundled release
/// declares them.
pub(crate) fn metas() -> Vec<NetworkMeta> {
    serde_json::from_value(json!([
        {"name": "fuelweb_admin", "cidr": "10.20.0.0/24", "gateway": "10.20.0.1",
         "ip_range": ["10.20.0.3", "10.20.0.254"], "use_gateway": true,
         "notation": "ip_ranges", "map_priority": 0, "configurable": true},
        {"name": "public", "cidr": "172.16.0.0/24", "ip_range": ["172.16.0.2", "172.16.0.126"],
         "use_gateway": true, "notation": "ip_ranges", "map_priority": 1, "configurable": true,
         "floating_range_var": "floating_ranges"},
        {"name": "management", "cidr": "192.168.0.0/24", "vlan_start": 101,
         "notation": "cidr", "map_priority": 2, "configurable": true},
        {"name": "storage", "cidr": "192.168.1.0/24", "vlan_start": 102,
         "notation": "cidr", "map_priority": 2, "configurable": true},
        {"name": "private", "seg_type": "vlan", "neutron_vlan_range": true,
         "map_priority": 2, "configurable": false},
        {"name": "private", "seg_type": "tun", "cidr": "192.168.2.0/24", "vlan_start": 103,
         "notation": "cidr", "map_priority": 2, "configurable": true},
        {"name": "baremetal", "cidr": "192.168.3.0/24", "ip_range": ["192.168.3.2", "192.168.3.50"],
         "vlan_start": 104, "notation": "ip_ranges", "map_priority": 2, "configurable": true}
    ]))
    .unwrap()
}

/// Network `name`, for tests that name networks as text.
pub(crate) fn named(name: &str) -> crate::name::NetworkName {
    crate::name::NetworkName::new(name).unwrap()
}

pub(crate) fn groups(n: i64) -> Vec<NodeGroup> {
    (1..=n)
        .map(|id| NodeGroup {
            id,
            name: if id == 1 {
                "default".to_owned()
            } else {
                format!("rack-{id}")
            },
        })
        .collect()
}

pub(crate) fn applying(all: &[NetworkMeta], segmentation: Segmentation, ironic: bool) -> Metas<'_> {
    all.iter()
        .filter(|m| crate::network::config::applies(m, segmentation))
        .filter(|m| ironic || m.name != "baremetal")
        .collect()
}

pub(crate) fn configuration(
    metas: &Metas<'_>,
    groups: &[NodeGroup],
    ironic: bool,
) -> NetworkConfiguration {
    let segmentation = if metas
        .iter()
        .any(|m| m.name == "private" && m.cidr.is_some())
    {
        Segmentation::Tun
    } else {
        Segmentation::Vlan
    };
    let mut config = serde_json::Map::new();
    if ironic {
        config.insert("baremetal_gateway".into(), json!("192.168.3.51"));
        config.insert(
            "baremetal_range".into(),
            json!(["192.168.3.52", "192.168.3.254"]),
        );
    }
    let params = NetworkingParameters::defaults(&config, segmentation, ironic).unwrap();
    NetworkConfiguration::defaults(metas, groups, params)
}

struct Case {
    segmentation: Segmentation,
    groups: i64,
    ironic: bool,
}

const VLAN: Case = Case {
    segmentation: Segmentation::Vlan,
    groups: 1,
    ironic: false,
};

fn problems_of(case: &Case, edit: impl FnOnce(&mut NetworkConfiguration)) -> Vec<NetworkProblem> {
    let all = metas();
    let metas = applying(&all, case.segmentation, case.ironic);
    let groups = groups(case.groups);
    let mut config = configuration(&metas, &groups, case.ironic);
    edit(&mut config);
    check(&Input {
        config: &config,
        metas: &metas,
        groups: &groups,
        ironic: case.ironic,
        demand: &Demand::default(),
        nodes: &[],
    })
}

/// `edit` gives a problem of `kind` with `message`, once.
fn gives(
    case: &Case,
    edit: impl FnOnce(&mut NetworkConfiguration),
    kind: ProblemKind,
    message: &str,
) {
    let problems = problems_of(case, edit);
    let found: Vec<&NetworkProblem> = problems.iter().filter(|p| p.message == message).collect();
    assert_eq!(found.len(), 1, "{message}\nin {problems:#?}");
    assert_eq!(found[0].kind, kind);
}

fn net<'c>(
    config: &'c mut NetworkConfiguration,
    name: &str,
) -> &'c mut crate::network::config::Network {
    config.networks.iter_mut().find(|n| n.name == name).unwrap()
}

fn range(a: &str, b: &str) -> RangeField {
    RangeField(Typed::parse(a), Typed::parse(b))
}

#[test]
fn the_defaults_have_no_problem() {
    for segmentation in [Segmentation::Vlan, Segmentation::Tun] {
        for groups in [1, 3] {
            for ironic in [false, true] {
                let case = Case {
                    segmentation,
                    groups,
                    ironic,
                };
                assert_eq!(
                    problems_of(&case, |_| {}),
                    vec![],
                    "{segmentation:?} {groups} {ironic}"
                );
            }
        }
    }
}

#[test]
fn address_spaces_that_intersect_name_both_networks() {
    let problems = problems_of(&VLAN, |c| {
        net(c, "storage").cidr = Some(Typed::parse("192.168.0.0/23"))
    });
    let found: Vec<_> = problems
        .iter()
        .filter(|p| p.kind == ProblemKind::AddressSpaceIntersection)
        .collect();
    assert_eq!(found.len(), 1, "{problems:#?}");
    assert_eq!(
        found[0].message,
        "Address space intersection between networks:\nmanagement, storage"
    );
    assert_eq!(found[0].fields, vec!["cidr"]);
    assert_eq!(found[0].networks.len(), 2);
    gives(
        &VLAN,
        |c| net(c, "management").cidr = Some(Typed::parse("10.20.0.0/16")),
        ProblemKind::AddressSpaceIntersection,
        "Address space intersection between networks:\nadmin (PXE), management",
    );
}

#[test]
fn one_network_shared_by_racks_is_no_intersection_without_the_same_gateway() {
    let case = Case { groups: 2, ..VLAN };
    assert!(problems_of(&case, |_| {}).is_empty());
    let problems = problems_of(&case, |c| {
        let rack = c
            .networks
            .iter_mut()
            .rfind(|n| n.name == "management")
            .unwrap();
        rack.gateway = Some(Typed::parse("192.168.0.254"));
        rack.derive_ranges(&metas()[2]);
    });
    assert!(
        problems
            .iter()
            .any(|p| p.kind == ProblemKind::AddressSpaceIntersection),
        "{problems:#?}"
    );
}

#[test]
fn fuels_checks_of_one_network() {
    gives(
        &VLAN,
        |c| net(c, "management").cidr = Some(Typed::parse("192.168.0.5/24")),
        ProblemKind::CidrHostBits,
        "Calculated CIDR (192.168.0.0/24) is different from value (192.168.0.5/24) set by user for network:\nmanagement.",
    );
    gives(
        &VLAN,
        |c| net(c, "storage").cidr = Some(Typed::parse("230.0.0.0/24")),
        ProblemKind::NotAbcClass,
        "storage network address space does not belong to A, B, C network classes. It must belong to either A, B or C network class.",
    );
    gives(
        &VLAN,
        |c| net(c, "storage").cidr = Some(Typed::parse("127.1.0.0/24")),
        ProblemKind::Loopback,
        "storage network address space is inside loopback range (127.0.0.0/8). It must have no intersection with loopback range.",
    );
    gives(
        &VLAN,
        |c| net(c, "public").gateway = Some(Typed::parse("172.16.0.255")),
        ProblemKind::GatewayIsNetworkOrBroadcast,
        "public network gateway address is equal to either subnet address or broadcast address of the network.",
    );
    gives(
        &VLAN,
        |c| net(c, "fuelweb_admin").ip_ranges = vec![range("10.20.0.0", "10.20.0.10")],
        ProblemKind::RangeTouchesNetworkOrBroadcast,
        "admin (PXE) network IP range [10.20.0.0-10.20.0.10] intersect with either subnet address or broadcast address of the network.",
    );
    gives(
        &VLAN,
        |c| net(c, "management").vlan_start = Some(4095),
        ProblemKind::VlanOutOfRange,
        "VLAN ID(s) is out of range for management network.",
    );
}

#[test]
fn public_and_floating_ranges() {
    gives(
        &VLAN,
        |c| {
            net(c, "public")
                .ip_ranges
                .push(range("172.16.0.100", "172.16.0.110"))
        },
        ProblemKind::PublicRanges,
        "Address space intersection between ranges of public network.",
    );
    gives(
        &VLAN,
        |c| net(c, "public").ip_ranges = vec![range("172.16.0.2", "172.16.0.140")],
        ProblemKind::PublicRanges,
        "Address space intersection between ranges of public and floating network.",
    );
    gives(
        &VLAN,
        |c| net(c, "public").gateway = Some(Typed::parse("172.16.0.20")),
        ProblemKind::GatewayInRange,
        "Address intersection between public gateway and IP range of public network.",
    );
    gives(
        &VLAN,
        |c| net(c, "public").ip_ranges = vec![range("172.16.0.2", "172.16.1.20")],
        ProblemKind::PublicRanges,
        "Public gateway and public ranges are not in one CIDR.",
    );
    gives(
        &VLAN,
        |c| {
            c.networking_parameters.floating_ranges = vec![
                range("172.16.0.130", "172.16.0.254"),
                range("10.9.0.1", "10.9.0.9"),
            ]
        },
        ProblemKind::FloatingOutsidePublic,
        "Floating address ranges 172.16.0.130-172.16.0.254, 10.9.0.1-10.9.0.9 are not in the same public CIDR.",
    );
    gives(
        &VLAN,
        |c| c.networking_parameters.floating_ranges = vec![range("172.16.0.130", "172.16.0.255")],
        ProblemKind::FloatingTouchesNetworkOrBroadcast,
        "Neutron L3 external floating range [172.16.0.130-172.16.0.255] intersect with either subnet address or broadcast address of public network.",
    );
}

#[test]
fn the_internal_network() {
    gives(
        &VLAN,
        |c| c.networking_parameters.internal_gateway = Some(Typed::parse("192.168.112.1")),
        ProblemKind::Internal,
        "Internal gateway 192.168.112.1 is not in internal address space 192.168.111.0/24.",
    );
    gives(
        &VLAN,
        |c| c.networking_parameters.internal_gateway = Some(Typed::parse("192.168.111.0")),
        ProblemKind::Internal,
        "Neutron L3 internal network gateway address is equal to either subnet address or broadcast address of the network.",
    );
    gives(
        &VLAN,
        |c| c.networking_parameters.internal_cidr = Some(Typed::parse("172.16.0.128/25")),
        ProblemKind::Internal,
        "Intersection between internal CIDR 172.16.0.128/25 and floating range 172.16.0.130-172.16.0.254.",
    );
}

#[test]
fn vlan_tags_inside_the_tenant_vlans() {
    gives(
        &VLAN,
        |c| net(c, "storage").vlan_start = Some(1010),
        ProblemKind::VlanInL2Range,
        "VLAN tags of storage network(s) intersect with VLAN ID range defined for Neutron L2. Networks VLAN tags must not intersect with Neutron L2 VLAN ID range.",
    );
    let tun = Case {
        segmentation: Segmentation::Tun,
        ..VLAN
    };
    assert!(problems_of(&tun, |c| net(c, "storage").vlan_start = Some(1010)).is_empty());
}

#[test]
fn ironic_ranges() {
    let case = Case {
        ironic: true,
        ..VLAN
    };
    gives(
        &case,
        |c| c.networking_parameters.baremetal_gateway = Some(Typed::parse("192.168.3.60")),
        ProblemKind::Ironic,
        "Neutron L3 address intersection between Ironic gateway and Ironic IP range.",
    );
    gives(
        &case,
        |c| c.networking_parameters.baremetal_range = Some(range("192.168.3.40", "192.168.3.254")),
        ProblemKind::Ironic,
        "Neutron L3 address intersection between Ironic ranges for service nodes and baremetal nodes.",
    );
}

#[test]
fn gateways_of_two_node_groups() {
    let case = Case { groups: 2, ..VLAN };
    gives(
        &case,
        |c| net(c, "management").gateway = None,
        ProblemKind::GatewayMissing,
        "Gateway is not set for network.",
    );
    gives(
        &case,
        |c| net(c, "storage").gateway = Some(Typed::parse("10.0.0.1")),
        ProblemKind::GatewayOutsideCidr,
        "Gateway address does not belong to the network.",
    );
    let ironic = Case {
        ironic: true,
        groups: 2,
        ..VLAN
    };
    gives(
        &ironic,
        |c| net(c, "baremetal").gateway = Some(Typed::parse("192.168.3.10")),
        ProblemKind::GatewayInRange,
        "Gateway address belongs to the network's IP range [192.168.3.2-192.168.3.50].",
    );
}

#[test]
fn dns_servers_twice() {
    gives(
        &VLAN,
        |c| {
            c.networking_parameters.dns_nameservers =
                vec![Typed::parse("8.8.8.8"), Typed::parse("8.8.8.8")]
        },
        ProblemKind::DnsDuplicates,
        "DNS servers IPs have to be distinct.",
    );
}

#[test]
fn what_fuel_never_checked() {
    gives(
        &VLAN,
        |c| net(c, "storage").cidr = Some(Typed::parse("192.168.1.0/33")),
        ProblemKind::InvalidValue,
        "storage: '192.168.1.0/33' is not a CIDR (an address and a prefix length, e.g. 192.168.0.0/24).",
    );
    gives(
        &VLAN,
        |c| net(c, "fuelweb_admin").ip_ranges = vec![range("10.20.0.9", "10.20.0.3")],
        ProblemKind::RangeOrder,
        "admin (PXE) network IP range [10.20.0.9, 10.20.0.3]: the first address is after the last.",
    );
    gives(
        &VLAN,
        |c| net(c, "fuelweb_admin").ip_ranges = vec![range("10.20.0.3", "10.20.1.3")],
        ProblemKind::RangeOutsideCidr,
        "admin (PXE) network IP range [10.20.0.3-10.20.1.3] is not inside its CIDR 10.20.0.0/24.",
    );
    gives(
        &VLAN,
        |c| c.networking_parameters.vlan_range = Some([1030, 1000]),
        ProblemKind::SegmentationRange,
        "VLAN ID range [1030, 1000] for Neutron L2 must be in order and within 2 to 4094.",
    );
    gives(
        &VLAN,
        |c| c.networking_parameters.gre_id_range = Some([2, 70000]),
        ProblemKind::SegmentationRange,
        "Tunnel ID range [2, 70000] for Neutron L2 must be in order and within 1 to 65535.",
    );
    gives(
        &VLAN,
        |c| net(c, "storage").vlan_start = Some(0),
        ProblemKind::VlanOutOfRange,
        "VLAN ID(s) is out of range for storage network.",
    );
    gives(
        &VLAN,
        |c| c.networking_parameters.base_mac = "fa:16:3e".to_owned(),
        ProblemKind::BaseMac,
        "base_mac: 'fa:16:3e' is not a MAC address (six pairs of hex digits, e.g. fa:16:3e:00:00:00).",
    );
    gives(
        &VLAN,
        |c| net(c, "storage").gateway = Some(Typed::parse("10.1.1.1")),
        ProblemKind::GatewayOutsideCidr,
        "storage network gateway 10.1.1.1 is not inside its CIDR 192.168.1.0/24.",
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let problems = problems_of(&VLAN, |c| {
        net(c, "storage").cidr = Some(Typed::parse("192.168.0.0/24"));
        net(c, "management").vlan_start = Some(1005);
        c.networking_parameters.dns_nameservers =
            vec![Typed::parse("1.1.1.1"), Typed::parse("1.1.1.1")];
    });
    let kinds: Vec<ProblemKind> = problems.iter().map(|p| p.kind).collect();
    assert_eq!(
        kinds,
        vec![
            ProblemKind::DnsDuplicates,
            ProblemKind::AddressSpaceIntersection,
            ProblemKind::VlanInL2Range
        ]
    );
}

#[test]
fn a_rendered_problem_names_its_networks_and_racks() {
    let all = metas();
    let metas = applying(&all, Segmentation::Vlan, false);
    let groups = groups(2);
    let mut config = configuration(&metas, &groups, false);
    let rack = config
        .networks
        .iter_mut()
        .rfind(|n| n.name == "storage")
        .unwrap();
    rack.gateway = None;
    let input = Input {
        config: &config,
        metas: &metas,
        groups: &groups,
        ironic: false,
        demand: &Demand::default(),
        nodes: &[],
    };
    let problems = check(&input);
    let missing = problems
        .iter()
        .find(|p| p.kind == ProblemKind::GatewayMissing)
        .unwrap();
    assert_eq!(
        render(&input, missing),
        "storage (node group rack-2): Gateway is not set for network."
    );
    let both = problems
        .iter()
        .find(|p| p.kind == ProblemKind::AddressSpaceIntersection)
        .unwrap();
    assert_eq!(
        render(&input, both),
        "storage (node group default), storage (node group rack-2): Address space intersection between networks:\nstorage, storage"
    );
    // A message that names its network already names it once.
    let rack = config
        .networks
        .iter_mut()
        .rfind(|n| n.name == "storage")
        .unwrap();
    rack.cidr = Some(crate::network::ip::Typed::parse("10.0.0.0/33"));
    let input = Input {
        config: &config,
        metas: &metas,
        groups: &groups,
        ironic: false,
        demand: &Demand::default(),
        nodes: &[],
    };
    let invalid = check(&input)
        .into_iter()
        .find(|p| p.kind == ProblemKind::InvalidValue)
        .unwrap();
    assert_eq!(
        render(&input, &invalid),
        "storage (node group rack-2): '10.0.0.0/33' is not a CIDR (an address and a prefix length, e.g. 192.168.0.0/24)."
    );
}
