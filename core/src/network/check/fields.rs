//! The values one by one: what does not parse, what is missing, ranges
//! in order and inside their CIDR, VLAN ids and id ranges within bounds,
//! the base MAC, and Fuel's checks of one value (a CIDR with host bits set,
//! DNS servers given twice).

use super::{Input, NetworkProblem, ProblemKind};
use crate::network::config::{Network, NetworkingParameters};
use crate::network::ip::{IpRange, RangeField, Typed};
use crate::network::metadata::{NetworkMeta, Notation};

pub(super) fn check(input: &Input<'_>, out: &mut Vec<NetworkProblem>) {
    for (network, meta) in input.networks() {
        network_values(input, network, meta, out);
    }
    let public = input
        .networks()
        .any(|(n, _)| n.name == crate::network::metadata::PUBLIC);
    parameter_values(
        &input.config.networking_parameters,
        (input.ironic, public),
        out,
    );
}

fn invalid<T>(value: &Typed<T>) -> Option<&str> {
    match value {
        Typed::Valid(_) => None,
        Typed::Invalid { reason, .. } => Some(reason),
    }
}

fn range_invalid(range: &RangeField) -> Option<&str> {
    invalid(&range.0).or_else(|| invalid(&range.1))
}

fn network_values(
    input: &Input<'_>,
    network: &Network,
    meta: &NetworkMeta,
    out: &mut Vec<NetworkProblem>,
) {
    let problem = |kind, message: String, fields: &[&str]| {
        NetworkProblem::new(kind, message)
            .networks([network.id])
            .fields(fields)
    };
    let name = input.describe(network);
    if let Some(reason) = network.cidr.as_ref().and_then(invalid) {
        out.push(problem(
            ProblemKind::InvalidValue,
            format!("{name}: {reason}."),
            &["cidr"],
        ));
    }
    if let Some(reason) = network.gateway.as_ref().and_then(invalid) {
        out.push(problem(
            ProblemKind::InvalidValue,
            format!("{name}: {reason}."),
            &["gateway"],
        ));
    }
    for range in &network.ip_ranges {
        if let Some(reason) = range_invalid(range) {
            out.push(problem(
                ProblemKind::InvalidValue,
                format!("{name}: {reason}."),
                &["ip_ranges"],
            ));
        } else if range.range().is_none() {
            out.push(problem(
                ProblemKind::RangeOrder,
                format!(
                    "{name} network IP range [{}, {}]: the first address is after the last.",
                    range.0, range.1
                ),
                &["ip_ranges"],
            ));
        }
    }
    if network.vlan_start.is_some_and(|v| !(1..=4094).contains(&v)) {
        out.push(problem(
            ProblemKind::VlanOutOfRange,
            format!("VLAN ID(s) is out of range for {} network.", meta.label()),
            &["vlan_start"],
        ));
    }
    if meta.is_addressed() && network.cidr.is_none() {
        out.push(problem(
            ProblemKind::InvalidValue,
            format!("{name}: a CIDR is needed."),
            &["cidr"],
        ));
    }
    let Some(net) = network.net() else {
        return;
    };
    let trunc = net.trunc();
    if trunc != net {
        out.push(problem(
            ProblemKind::CidrHostBits,
            format!(
                "Calculated CIDR ({trunc}) is different from value ({}) set by user for network:\n{}.",
                net,
                meta.label()
            ),
            &["cidr"],
        ));
    }
    if meta.notation == Some(Notation::IpRanges) {
        range_placement(input, network, IpRange::of_net(&trunc), out);
    }
}

/// A network given by ranges (not public: Fuel's own messages say it
/// there) has one at least, each inside its CIDR and apart from the others.
fn range_placement(
    input: &Input<'_>,
    network: &Network,
    cidr: IpRange,
    out: &mut Vec<NetworkProblem>,
) {
    let name = input.describe(network);
    let problem = |kind, message: String| {
        NetworkProblem::new(kind, message)
            .networks([network.id])
            .fields(&["ip_ranges"])
    };
    if network.ip_ranges.is_empty() {
        out.push(problem(
            ProblemKind::NoRange,
            format!("{name}: an IP range is needed."),
        ));
    }
    if network.name == crate::network::metadata::PUBLIC {
        return;
    }
    let ranges = network.ranges();
    for range in ranges.iter().filter(|r| !r.within(&cidr)) {
        out.push(problem(
            ProblemKind::RangeOutsideCidr,
            format!(
                "{name} network IP range [{range}] is not inside its CIDR {}.",
                network
                    .net()
                    .map(|n| n.trunc().to_string())
                    .unwrap_or_default()
            ),
        ));
    }
    for (i, a) in ranges.iter().enumerate() {
        if ranges[i + 1..].iter().any(|b| a.intersects(b)) {
            out.push(problem(
                ProblemKind::RangesIntersect,
                format!(
                    "Address space intersection between ranges of {} network.",
                    crate::network::metadata::label(&network.name)
                ),
            ));
        }
    }
}

fn parameter_values(
    p: &NetworkingParameters,
    (ironic, public): (bool, bool),
    out: &mut Vec<NetworkProblem>,
) {
    let problem =
        |kind, message: String, fields: &[&str]| NetworkProblem::new(kind, message).fields(fields);
    let mut typed = |value: Option<&str>, field: &str| {
        if let Some(reason) = value {
            out.push(problem(
                ProblemKind::InvalidValue,
                format!("{field}: {reason}."),
                &[field],
            ));
        }
    };
    typed(p.internal_cidr.as_ref().and_then(invalid), "internal_cidr");
    typed(
        p.internal_gateway.as_ref().and_then(invalid),
        "internal_gateway",
    );
    for range in &p.floating_ranges {
        typed(range_invalid(range), "floating_ranges");
    }
    for dns in &p.dns_nameservers {
        typed(invalid(dns), "dns_nameservers");
    }
    if ironic {
        typed(
            p.baremetal_range.as_ref().and_then(range_invalid),
            "baremetal_range",
        );
        typed(
            p.baremetal_gateway.as_ref().and_then(invalid),
            "baremetal_gateway",
        );
    }
    let mut missing = |value: bool, field: &str| {
        if !value {
            out.push(problem(
                ProblemKind::InvalidValue,
                format!("{field}: a value is needed."),
                &[field],
            ));
        }
    };
    missing(p.internal_cidr.is_some(), "internal_cidr");
    missing(p.internal_gateway.is_some(), "internal_gateway");
    missing(!public || !p.floating_ranges.is_empty(), "floating_ranges");
    if ironic {
        missing(p.baremetal_range.is_some(), "baremetal_range");
        missing(p.baremetal_gateway.is_some(), "baremetal_gateway");
    }
    for range in p.floating_ranges.iter().chain(&p.baremetal_range) {
        if range_invalid(range).is_none() && range.range().is_none() {
            out.push(problem(
                ProblemKind::RangeOrder,
                format!(
                    "Range [{}, {}]: the first address is after the last.",
                    range.0, range.1
                ),
                &[if p.baremetal_range.as_ref() == Some(range) {
                    "baremetal_range"
                } else {
                    "floating_ranges"
                }],
            ));
        }
    }
    id_ranges(p, out);
    dns_and_base_mac(p, out);
}

/// DNS servers given once each, and a base MAC that is one.
fn dns_and_base_mac(p: &NetworkingParameters, out: &mut Vec<NetworkProblem>) {
    let problem =
        |kind, message: String, fields: &[&str]| NetworkProblem::new(kind, message).fields(fields);
    let valid: Vec<_> = p.dns_nameservers.iter().filter_map(Typed::valid).collect();
    let mut distinct = valid.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() < valid.len() {
        out.push(problem(
            ProblemKind::DnsDuplicates,
            "DNS servers IPs have to be distinct.".to_owned(),
            &["dns_nameservers"],
        ));
    }
    if !crate::network::ip::is_mac(&p.base_mac) {
        out.push(problem(
            ProblemKind::BaseMac,
            format!("base_mac: '{}' is not a MAC address (six pairs of hex digits, e.g. fa:16:3e:00:00:00).", p.base_mac),
            &["base_mac"],
        ));
    }
}

/// Tenant VLANs within 2–4094, tunnel ids within 1–65535, each range in
/// order (SEMANTICS §11.2).
fn id_ranges(p: &NetworkingParameters, out: &mut Vec<NetworkProblem>) {
    let bounded = |range: &[i64; 2], low: i64, high: i64| {
        range[0] <= range[1] && low <= range[0] && range[1] <= high
    };
    if let Some(range) = p.vlan_range.filter(|r| !bounded(r, 2, 4094)) {
        out.push(
            NetworkProblem::new(
                ProblemKind::SegmentationRange,
                format!(
                    "VLAN ID range [{}, {}] for Neutron L2 must be in order and within 2 to 4094.",
                    range[0], range[1]
                ),
            )
            .fields(&["vlan_range"]),
        );
    }
    if let Some(range) = p.gre_id_range.filter(|r| !bounded(r, 1, 65535)) {
        out.push(
            NetworkProblem::new(
                ProblemKind::SegmentationRange,
                format!("Tunnel ID range [{}, {}] for Neutron L2 must be in order and within 1 to 65535.", range[0], range[1]),
            )
            .fields(&["gre_id_range"]),
        );
    }
}
