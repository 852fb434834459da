//! Addresses: pools, the rule for the next address, and a property test
//! of the whole allocation against brute force.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use proptest::prelude::*;

use super::*;
use crate::network::check::tests::{applying, configuration, groups, metas, named};
use crate::network::ip::{RangeField, Typed};
use crate::network::metadata::{Metas, Segmentation};

fn ip(text: &str) -> Ipv4Addr {
    text.parse().unwrap()
}

fn range(a: &str, b: &str) -> IpRange {
    IpRange::new(ip(a), ip(b)).unwrap()
}

#[test]
fn pools_of_the_defaults() {
    let all = metas();
    let metas = applying(&all, Segmentation::Tun, false);
    let config = configuration(&metas, &groups(1), false);
    let pool_of = |name: &str| {
        let network = config.networks.iter().find(|n| n.name == name).unwrap();
        let meta = metas.iter().find(|m| m.name == name).unwrap();
        pool(network, meta)
    };
    assert_eq!(
        pool_of("management"),
        vec![range("192.168.0.1", "192.168.0.254")]
    );
    assert_eq!(pool_of("public"), vec![range("172.16.0.2", "172.16.0.126")]);
    assert_eq!(capacity(&pool_of("private")), 254);
    let two = configuration(&metas, &groups(2), false);
    let management = two
        .networks
        .iter()
        .find(|n| n.name == "management")
        .unwrap();
    assert_eq!(management.gateway_ip(), Some(ip("192.168.0.1")));
    let meta = metas.iter().find(|m| m.name == "management").unwrap();
    assert_eq!(
        pool(management, meta),
        vec![range("192.168.0.2", "192.168.0.254")]
    );
}

#[test]
fn the_next_address_follows_the_highest_then_fills_gaps() {
    let pool = vec![
        range("10.0.0.2", "10.0.0.4"),
        range("10.0.0.10", "10.0.0.11"),
    ];
    assert_eq!(next_address(&pool, None), Next::Address(ip("10.0.0.2")));
    assert_eq!(
        next_address(&pool, Some(ip("10.0.0.3"))),
        Next::Address(ip("10.0.0.4"))
    );
    assert_eq!(
        next_address(&pool, Some(ip("10.0.0.4"))),
        Next::Address(ip("10.0.0.10"))
    );
    assert_eq!(next_address(&pool, Some(ip("10.0.0.11"))), Next::Scan);
    let used: BTreeSet<u32> = [ip("10.0.0.2"), ip("10.0.0.4"), ip("10.0.0.11")]
        .into_iter()
        .map(u32::from)
        .collect();
    assert_eq!(lowest_free(&pool, &used), Some(ip("10.0.0.3")));
    let full: BTreeSet<u32> = (2..=4)
        .chain(10..=11)
        .map(|i| u32::from(ip("10.0.0.0")) + i)
        .collect();
    assert_eq!(lowest_free(&pool, &full), None);
}

fn node(id: i64, networks: &[&str], current: &[(&str, &str)]) -> Holder {
    Holder {
        key: HolderKey::Node(id),
        group: 1,
        networks: networks.iter().map(|n| named(n)).collect(),
        current: current.iter().map(|(n, a)| (named(n), ip(a))).collect(),
    }
}

#[test]
fn addresses_stay_when_a_node_in_the_middle_goes() {
    let all = metas();
    let metas = applying(&all, Segmentation::Vlan, false);
    let config = configuration(&metas, &groups(1), false);
    let holders: Vec<Holder> = (1..=3).map(|id| node(id, &["management"], &[])).collect();
    let first = allocate(&Pools::new(&config, &metas), &holders);
    let of = |a: &Addresses, id: i64| a[&HolderKey::Node(id)]["management"];
    assert_eq!(of(&first, 1), ip("192.168.0.1"));
    assert_eq!(of(&first, 3), ip("192.168.0.3"));
    let kept: Vec<Holder> = [1, 3, 4]
        .into_iter()
        .map(|id| {
            let current = first.get(&HolderKey::Node(id)).cloned().unwrap_or_default();
            Holder {
                current,
                ..node(id, &["management"], &[])
            }
        })
        .collect();
    let second = allocate(&Pools::new(&config, &metas), &kept);
    assert_eq!(of(&second, 1), ip("192.168.0.1"));
    assert_eq!(of(&second, 3), ip("192.168.0.3"));
    assert_eq!(
        of(&second, 4),
        ip("192.168.0.4"),
        "after the highest, not into the gap"
    );
}

#[test]
fn an_address_outside_the_pool_or_taken_is_given_again() {
    let all = metas();
    let metas = applying(&all, Segmentation::Vlan, false);
    let config = configuration(&metas, &groups(1), false);
    let holders = vec![
        node(1, &["management"], &[("management", "192.168.0.7")]),
        node(2, &["management"], &[("management", "192.168.0.7")]),
        node(3, &["management"], &[("management", "10.0.0.1")]),
    ];
    let got = allocate(&Pools::new(&config, &metas), &holders);
    assert_eq!(got[&HolderKey::Node(1)]["management"], ip("192.168.0.7"));
    assert_eq!(got[&HolderKey::Node(2)]["management"], ip("192.168.0.8"));
    assert_eq!(got[&HolderKey::Node(3)]["management"], ip("192.168.0.9"));
}

/// A random network: a /24 to /28 in 10.0.0.0/16 with up to three ranges
/// and maybe a gateway.
fn network_strategy() -> impl Strategy<Value = (u8, Vec<(u8, u8)>, Option<u8>)> {
    (
        24u8..=28,
        prop::collection::vec((0u8..=255, 0u8..=40), 1..4),
        prop::option::of(0u8..=255),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn allocation_never_repeats_stays_in_pools_and_matches_brute_force(
        (prefix, ranges, gateway) in network_strategy(),
        holders in prop::collection::vec((0u8..=3, prop::option::of(0u8..=255)), 0..300),
    ) {
        let size: u32 = 1 << (32 - prefix);
        let base = u32::from(ip("10.0.0.0"));
        let at = |offset: u8| Ipv4Addr::from(base + u32::from(offset) % size);
        let all = metas();
        let meta = all.iter().find(|m| m.name == "public").unwrap();
        let network = Network {
            id: 1,
            group_id: Some(1),
            name: named("public"),
            cidr: Some(Typed::parse(&format!("10.0.0.0/{prefix}"))),
            gateway: gateway.map(|g| at(g).into()),
            vlan_start: None,
            ip_ranges: ranges
                .iter()
                .map(|(start, len)| {
                    let first = u32::from(at(*start));
                    let last = (first + u32::from(*len)).min(base + size - 1);
                    RangeField::new(first.into(), last.into())
                })
                .collect(),
        };
        let defaults = configuration(&applying(&all, Segmentation::Vlan, false), &groups(1), false);
        let config = NetworkConfiguration {
            networks: vec![network.clone()],
            networking_parameters: defaults.networking_parameters,
            vips: BTreeMap::new(),
        };
        let metas: Metas = [meta].into_iter().collect();
        let network = &network;
        let the_pool = pool(network, meta);

        // Brute force: every address of the span, in a range, not the gateway.
        let brute: BTreeSet<u32> = (base..base + size)
            .filter(|a| network.ranges().iter().any(|r| r.contains_u32(*a)))
            .filter(|a| network.gateway_ip() != Some(Ipv4Addr::from(*a)))
            .collect();
        prop_assert_eq!(capacity(&the_pool), brute.len() as u64);

        let holders: Vec<Holder> = holders
            .iter()
            .enumerate()
            .map(|(i, (_, current))| Holder {
                key: HolderKey::Node(i as i64),
                group: 1,
                networks: vec![named("public")],
                current: current.map(|c| (named("public"), at(c))).into_iter().collect(),
            })
            .collect();
        let got = allocate(&Pools::new(&config, &metas), &holders);
        let mut seen = BTreeSet::new();
        for addresses in got.values() {
            for ip in addresses.values() {
                prop_assert!(brute.contains(&u32::from(*ip)), "{} is outside the pool", ip);
                prop_assert!(seen.insert(*ip), "{} given twice", ip);
            }
        }
        prop_assert_eq!(seen.len(), holders.len().min(brute.len()));
        // A holder whose address is in the pool and first claimed keeps it.
        let mut claimed = BTreeSet::new();
        for holder in &holders {
            if let Some(ip) = holder.current.get("public")
                && brute.contains(&u32::from(*ip))
                && claimed.insert(*ip)
            {
                prop_assert_eq!(got[&holder.key].get("public"), Some(ip));
            }
        }
    }
}

#[test]
fn only_networks_whose_addresses_mosaic_gives_have_a_pool() {
    let all = metas();
    let metas = applying(&all, Segmentation::Vlan, false);
    let config = configuration(&metas, &groups(1), false);
    let pools = Pools::new(&config, &metas);
    let names: Vec<&str> = pools.of_group(1).map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["management", "public", "storage"]);
    // The admin network's are the PXE server's; VLAN's private has no L3.
    assert_eq!(pools.get(1, "fuelweb_admin"), None);
    assert_eq!(pools.get(1, "private"), None);
    assert_eq!(pools.get(2, "management"), None);
}
