//! Neutron's parameters against the networks (Fuel's Neutron checks): the
//! public ranges and the floating ranges, the internal network, tenant
//! VLANs against the networks' tags, and Ironic's ranges.

use std::net::Ipv4Addr;

use super::{Input, NetworkProblem, ProblemKind};
use crate::network::config::Network;
use crate::network::ip::{IpRange, Typed};
use crate::network::metadata::{BAREMETAL, PUBLIC, Segmentation, label};

pub(super) fn check(input: &Input<'_>, out: &mut Vec<NetworkProblem>) {
    let floating = input.config.networking_parameters.floating();
    let publics: Vec<&Network> = input
        .networks()
        .filter(|(n, _)| n.name == PUBLIC)
        .map(|(n, _)| n)
        .collect();
    floating_in_one_public(&publics, &floating, out);
    for public in &publics {
        public_ranges(public, &floating, out);
    }
    internal(input, &floating, out);
    vlans(input, out);
    if input.ironic {
        ironic(input, out);
    }
}

fn floating_in_one_public(
    publics: &[&Network],
    floating: &[IpRange],
    out: &mut Vec<NetworkProblem>,
) {
    let cidrs: Vec<IpRange> = publics
        .iter()
        .filter_map(|p| p.net())
        .map(|n| IpRange::of_net(&n.trunc()))
        .collect();
    // A release without a public network has no floating ranges to place.
    if floating.is_empty()
        || cidrs.is_empty()
        || cidrs.iter().any(|c| floating.iter().all(|r| r.within(c)))
    {
        return;
    }
    let ranges: Vec<String> = floating.iter().map(ToString::to_string).collect();
    out.push(
        NetworkProblem::new(
            ProblemKind::FloatingOutsidePublic,
            format!(
                "Floating address ranges {} are not in the same public CIDR.",
                ranges.join(", ")
            ),
        )
        .fields(&["floating_ranges"]),
    );
}

/// One public network's ranges with the floating ranges inside its CIDR:
/// apart from each other, without the gateway, inside the CIDR; and the
/// floating ranges off its network and broadcast addresses.
fn public_ranges(public: &Network, floating: &[IpRange], out: &mut Vec<NetworkProblem>) {
    let Some(net) = public.net().map(|n| n.trunc()) else {
        return;
    };
    let cidr = IpRange::of_net(&net);
    let own = public.ranges();
    let mine: Vec<IpRange> = floating
        .iter()
        .filter(|r| r.within(&cidr))
        .copied()
        .collect();
    let problem = |kind, message: &str, fields: &[&str]| {
        NetworkProblem::new(kind, message)
            .networks([public.id])
            .fields(fields)
    };
    let all: Vec<(IpRange, bool)> = own
        .iter()
        .map(|r| (*r, false))
        .chain(mine.iter().map(|r| (*r, true)))
        .collect();
    for (i, (a, a_floating)) in all.iter().enumerate() {
        for (b, b_floating) in &all[i + 1..] {
            if a.intersects(b) {
                let message = if *a_floating || *b_floating {
                    "Address space intersection between ranges of public and floating network."
                } else {
                    "Address space intersection between ranges of public network."
                };
                out.push(problem(ProblemKind::PublicRanges, message, &["ip_ranges"]));
            }
        }
    }
    for (range, is_floating) in &all {
        if public.gateway_ip().is_some_and(|g| range.contains(g)) {
            let fields: &[&str] = if *is_floating {
                &["gateway", "floating_ranges"]
            } else {
                &["gateway", "ip_ranges"]
            };
            out.push(problem(
                ProblemKind::GatewayInRange,
                "Address intersection between public gateway and IP range of public network.",
                fields,
            ));
        }
    }
    if own.iter().any(|r| !r.within(&cidr)) {
        out.push(problem(
            ProblemKind::PublicRanges,
            "Public gateway and public ranges are not in one CIDR.",
            &["gateway", "ip_ranges"],
        ));
    }
    for range in mine
        .iter()
        .filter(|r| r.contains(net.network()) || r.contains(net.broadcast()))
    {
        out.push(
            NetworkProblem::new(
                ProblemKind::FloatingTouchesNetworkOrBroadcast,
                format!("Neutron L3 external floating range [{range}] intersect with either subnet address or broadcast address of public network."),
            )
            .networks([public.id])
            .fields(&["floating_ranges"]),
        );
    }
}

fn internal(input: &Input<'_>, floating: &[IpRange], out: &mut Vec<NetworkProblem>) {
    let p = &input.config.networking_parameters;
    let (Some(cidr), Some(gw)) = (
        p.internal_cidr.as_ref().and_then(Typed::valid),
        p.internal_gateway.as_ref().and_then(Typed::valid),
    ) else {
        return;
    };
    let problem = |message: String, fields: &[&str]| {
        NetworkProblem::new(ProblemKind::Internal, message).fields(fields)
    };
    let net = cidr.trunc();
    if !net.contains(gw) {
        out.push(problem(
            format!("Internal gateway {gw} is not in internal address space {net}."),
            &["internal_gateway"],
        ));
    } else if *gw == net.network() || *gw == net.broadcast() {
        out.push(problem(
            "Neutron L3 internal network gateway address is equal to either subnet address or broadcast address of the network.".to_owned(),
            &["internal_gateway"],
        ));
    }
    for range in floating
        .iter()
        .filter(|r| r.intersects(&IpRange::of_net(&net)))
    {
        out.push(problem(
            format!("Intersection between internal CIDR {net} and floating range {range}."),
            &["internal_cidr", "floating_ranges"],
        ));
    }
}

/// Under VLAN segmentation, no network's tag inside the tenant VLANs.
fn vlans(input: &Input<'_>, out: &mut Vec<NetworkProblem>) {
    let p = &input.config.networking_parameters;
    let (Segmentation::Vlan, Some([low, high])) = (p.segmentation_type, p.vlan_range) else {
        return;
    };
    let inside: Vec<&Network> = input
        .networks()
        .map(|(n, _)| n)
        .filter(|n| n.vlan_start.is_some_and(|v| low <= v && v <= high))
        .collect();
    if inside.is_empty() {
        return;
    }
    let mut names: Vec<&str> = inside.iter().map(|n| label(&n.name)).collect();
    names.dedup();
    let mut unique: Vec<&str> = Vec::new();
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    out.push(
        NetworkProblem::new(
            ProblemKind::VlanInL2Range,
            format!(
                "VLAN tags of {} network(s) intersect with VLAN ID range defined for Neutron L2. Networks VLAN tags must not intersect with Neutron L2 VLAN ID range.",
                unique.join(", ")
            ),
        )
        .networks(inside.iter().map(|n| n.id))
        .fields(&["vlan_start", "vlan_range"]),
    );
}

fn ironic(input: &Input<'_>, out: &mut Vec<NetworkProblem>) {
    let p = &input.config.networking_parameters;
    let Some(range) = p.baremetal_range.as_ref().and_then(|r| r.range()) else {
        return;
    };
    let gateway: Option<Ipv4Addr> = p.baremetal_gateway.as_ref().and_then(Typed::valid).copied();
    if gateway.is_some_and(|g| range.contains(g)) {
        out.push(
            NetworkProblem::new(
                ProblemKind::Ironic,
                "Neutron L3 address intersection between Ironic gateway and Ironic IP range.",
            )
            .fields(&["baremetal_gateway", "baremetal_range"]),
        );
    }
    for bare in input
        .networks()
        .filter(|(n, _)| n.name == BAREMETAL)
        .map(|(n, _)| n)
    {
        if bare.ranges().iter().any(|r| r.intersects(&range)) {
            out.push(
                NetworkProblem::new(
                    ProblemKind::Ironic,
                    "Neutron L3 address intersection between Ironic ranges for service nodes and baremetal nodes.",
                )
                .networks([bare.id])
                .fields(&["baremetal_range", "ip_ranges"]),
            );
        }
    }
}
