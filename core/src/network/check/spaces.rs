//! Address spaces (Fuel's checks across networks): CIDRs that intersect
//! (one network shared by node groups excepted), CIDRs outside classes A–C
//! or in loopback, gateways and ranges on a network's network or broadcast
//! address, and the gateways two node groups or more need.

use ipnet::Ipv4Net;

use super::{Input, NetworkProblem, ProblemKind};
use crate::network::config::Network;
use crate::network::ip::IpRange;
use crate::network::metadata::{Notation, label};

pub(super) fn check(input: &Input<'_>, out: &mut Vec<NetworkProblem>) {
    intersections(input, out);
    for (network, meta) in input.networks() {
        let Some(net) = network.net().map(|n| n.trunc()) else {
            continue;
        };
        classes(network, &net, out);
        if meta.is_addressed() {
            edges(
                network,
                &net,
                meta.notation == Some(Notation::IpRanges),
                out,
            );
        }
        if input.groups.len() >= 2 && meta.is_addressed() {
            group_gateway(network, &net, out);
        } else if network.gateway_ip().is_some_and(|g| !net.contains(&g)) {
            out.push(
                NetworkProblem::new(
                    ProblemKind::GatewayOutsideCidr,
                    format!(
                        "{} network gateway {} is not inside its CIDR {net}.",
                        label(&network.name),
                        network
                            .gateway_ip()
                            .map(|g| g.to_string())
                            .unwrap_or_default()
                    ),
                )
                .networks([network.id])
                .fields(&["gateway"]),
            );
        }
    }
}

/// Two networks of the same name in two node groups with the same CIDR
/// and gateway are one network shared by the racks (Fuel's exception).
fn shared(a: &Network, b: &Network) -> bool {
    a.group_id.is_some()
        && b.group_id.is_some()
        && a.group_id != b.group_id
        && a.name == b.name
        && a.gateway.is_some()
        && a.gateway == b.gateway
        && a.cidr == b.cidr
}

fn intersections(input: &Input<'_>, out: &mut Vec<NetworkProblem>) {
    let with_cidr: Vec<(&Network, Ipv4Net)> = input
        .networks()
        .filter_map(|(n, _)| n.net().map(|net| (n, net.trunc())))
        .collect();
    for (i, (a, net_a)) in with_cidr.iter().enumerate() {
        for (b, net_b) in &with_cidr[i + 1..] {
            if shared(a, b) || !IpRange::of_net(net_a).intersects(&IpRange::of_net(net_b)) {
                continue;
            }
            out.push(
                NetworkProblem::new(
                    ProblemKind::AddressSpaceIntersection,
                    format!(
                        "Address space intersection between networks:\n{}, {}",
                        label(&a.name),
                        label(&b.name)
                    ),
                )
                .networks([a.id, b.id])
                .fields(&["cidr"]),
            );
        }
    }
}

fn classes(network: &Network, net: &Ipv4Net, out: &mut Vec<NetworkProblem>) {
    let within = |outer: &str| {
        let outer: Ipv4Net = outer.parse().expect("a literal CIDR");
        IpRange::of_net(net).within(&IpRange::of_net(&outer))
    };
    let name = label(&network.name);
    let message = if within("224.0.0.0/3") {
        (
            ProblemKind::NotAbcClass,
            format!(
                "{name} network address space does not belong to A, B, C network classes. It must belong to either A, B or C network class."
            ),
        )
    } else if within("127.0.0.0/8") {
        (
            ProblemKind::Loopback,
            format!(
                "{name} network address space is inside loopback range (127.0.0.0/8). It must have no intersection with loopback range."
            ),
        )
    } else {
        return;
    };
    out.push(
        NetworkProblem::new(message.0, message.1)
            .networks([network.id])
            .fields(&["cidr", "ip_ranges"]),
    );
}

/// A gateway or a range on the network's network or broadcast address
/// (Fuel checked networks given by ranges; a CIDR's own ranges never do).
fn edges(network: &Network, net: &Ipv4Net, by_ranges: bool, out: &mut Vec<NetworkProblem>) {
    let name = label(&network.name);
    let (first, last) = (net.network(), net.broadcast());
    if network
        .gateway_ip()
        .is_some_and(|g| g == first || g == last)
    {
        out.push(
            NetworkProblem::new(
                ProblemKind::GatewayIsNetworkOrBroadcast,
                format!("{name} network gateway address is equal to either subnet address or broadcast address of the network."),
            )
            .networks([network.id])
            .fields(&["gateway"]),
        );
    }
    if !by_ranges {
        return;
    }
    for range in network.ranges() {
        if range.contains(first) || range.contains(last) {
            out.push(
                NetworkProblem::new(
                    ProblemKind::RangeTouchesNetworkOrBroadcast,
                    format!("{name} network IP range [{range}] intersect with either subnet address or broadcast address of the network."),
                )
                .networks([network.id])
                .fields(&["ip_ranges"]),
            );
        }
    }
}

/// With two node groups or more, a network's gateway is set, inside its
/// CIDR and outside its ranges (Fuel's `neutron_check_gateways`).
fn group_gateway(network: &Network, net: &Ipv4Net, out: &mut Vec<NetworkProblem>) {
    let (kind, message) = match network.gateway_ip() {
        None if network.gateway.is_some() => return,
        None => (
            ProblemKind::GatewayMissing,
            "Gateway is not set for network.".to_owned(),
        ),
        Some(gw) if !net.contains(&gw) => (
            ProblemKind::GatewayOutsideCidr,
            "Gateway address does not belong to the network.".to_owned(),
        ),
        Some(gw) => match network.ranges().into_iter().find(|r| r.contains(gw)) {
            Some(range) => (
                ProblemKind::GatewayInRange,
                format!("Gateway address belongs to the network's IP range [{range}]."),
            ),
            None => return,
        },
    };
    out.push(
        NetworkProblem::new(kind, message)
            .networks([network.id])
            .fields(&["gateway"]),
    );
}
