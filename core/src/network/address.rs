//! Addresses (SEMANTICS §11.1): which addresses a network gives (its
//! pool), how many it must give where (its demand: nodes and VIPs), and
//! which address each holder gets. One rule for every path — the address
//! after the highest one in use, and once the pool's end is in use, the
//! lowest free one — so that a single node's add, which the server answers
//! from two indexed reads whatever the environment's size, gives the same
//! address the whole environment's allocation would. An address is kept
//! while its holder stays and its pool still holds it; none is given twice
//! within one network name (node groups sharing a network share its
//! addresses).

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use serde::{Deserialize, Serialize};

use super::config::{Network, NetworkConfiguration, NodeGroup};
use super::ip::{IpRange, without};
use super::metadata::{Metas, NetworkMeta, Notation};
use super::problem::{NetworkProblem, ProblemKind};
use crate::name::NetworkName;

/// The addresses `network` gives nodes and VIPs: its ranges (those of a
/// CIDR follow it) less its gateway; none for a network without L3.
pub fn pool(network: &Network, meta: &NetworkMeta) -> Vec<IpRange> {
    let Some(notation) = meta.notation else {
        return Vec::new();
    };
    let mut ranges = network.ranges();
    if notation == Notation::Cidr {
        let mut derived = network.clone();
        derived.derive_ranges(meta);
        ranges = derived.ranges();
    }
    let gateway: Vec<Ipv4Addr> = network.gateway_ip().into_iter().collect();
    let mut pool = without(&ranges, &gateway);
    pool.sort();
    merged(pool)
}

/// Overlapping or adjacent ranges joined: a pool counts an address once.
fn merged(sorted: Vec<IpRange>) -> Vec<IpRange> {
    let mut out: Vec<IpRange> = Vec::new();
    for range in sorted {
        match out.last_mut() {
            Some(last) if range.first_u32() <= last.last_u32().saturating_add(1) => {
                let end = last.last_u32().max(range.last_u32());
                *last = IpRange::from_u32(last.first_u32(), end).unwrap_or(*last);
            }
            _ => out.push(range),
        }
    }
    out
}

/// How many addresses a pool holds.
pub fn capacity(pool: &[IpRange]) -> u64 {
    merged({
        let mut p = pool.to_vec();
        p.sort();
        p
    })
    .iter()
    .map(IpRange::len)
    .sum()
}

/// How many addresses are needed where: per node group and network name,
/// the nodes that need one and the VIPs placed there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Demand(pub BTreeMap<(i64, NetworkName), u64>);

impl Demand {
    pub fn add(&mut self, group: i64, network: &NetworkName, count: u64) {
        *self.0.entry((group, network.clone())).or_default() += count;
    }

    pub fn get(&self, group: i64, network: &NetworkName) -> u64 {
        self.0
            .get(&(group, network.clone()))
            .copied()
            .unwrap_or_default()
    }
}

/// The networks that give addresses from one space: a network alone, or
/// the copies of one network that node groups share (same CIDR and
/// gateway).
fn spaces<'a>(
    config: &'a NetworkConfiguration,
    metas: &Metas<'a>,
) -> Vec<Vec<(&'a Network, &'a NetworkMeta)>> {
    let mut out: Vec<Vec<(&Network, &NetworkMeta)>> = Vec::new();
    for network in config.networks.iter().filter(|n| n.group_id.is_some()) {
        let Some(meta) = metas.get(&network.name).filter(|m| m.gives_addresses()) else {
            continue;
        };
        let same = |(n, _): &(&Network, &NetworkMeta)| {
            n.name == network.name && n.cidr == network.cidr && n.gateway == network.gateway
        };
        match out.iter_mut().find(|space| space.iter().any(same)) {
            Some(space) => space.push((network, meta)),
            None => out.push(vec![(network, meta)]),
        }
    }
    out
}

/// A network's need above what its pool holds (SEMANTICS §11.1: an
/// error of the environment's checks, not a refusal to add nodes).
pub fn capacity_problems(
    config: &NetworkConfiguration,
    metas: &Metas<'_>,
    groups: &[NodeGroup],
    demand: &Demand,
) -> Vec<NetworkProblem> {
    let group_name = |id: Option<i64>| {
        groups
            .iter()
            .find(|g| Some(g.id) == id)
            .map(|g| g.name.as_str())
    };
    let mut out = Vec::new();
    for space in spaces(config, metas) {
        let need: u64 = space
            .iter()
            .filter_map(|(n, _)| n.group_id.map(|g| demand.get(g, &n.name)))
            .sum();
        let pool: Vec<IpRange> = space.iter().flat_map(|(n, m)| pool(n, m)).collect();
        let available = capacity(&pool);
        if need <= available {
            continue;
        }
        let (first, _) = space[0];
        let names: Vec<String> = space
            .iter()
            .filter_map(|(n, _)| group_name(n.group_id))
            .map(|g| format!("'{g}'"))
            .collect();
        let which = match names.len() {
            1 => format!("node group {}", names[0]),
            _ => format!("node groups {}", names.join(", ")),
        };
        out.push(
            NetworkProblem::new(
                ProblemKind::Capacity,
                format!(
                    "Not enough IP addresses in network '{}' of {which}: {need} needed, {available} available",
                    first.name
                ),
            )
            .networks(space.iter().map(|(n, _)| n.id))
            .fields(&["cidr", "ip_ranges"]),
        );
    }
    out
}

/// Where the next address of a pool comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Address(Ipv4Addr),
    /// The pool's last address is in use: the lowest free one is wanted,
    /// which takes every address in use ([`lowest_free`]).
    Scan,
}

/// The address after `highest` (the highest in use within the pool's
/// span; none: nothing in use) in `pool`.
pub fn next_address(pool: &[IpRange], highest: Option<Ipv4Addr>) -> Next {
    let after = match highest {
        None => pool.first().map(IpRange::first_u32),
        Some(ip) => {
            let ip = u32::from(ip);
            pool.iter().find_map(|r| {
                if r.contains_u32(ip) && ip < r.last_u32() {
                    Some(ip + 1)
                } else if r.first_u32() > ip {
                    Some(r.first_u32())
                } else {
                    None
                }
            })
        }
    };
    match after {
        Some(ip) => Next::Address(ip.into()),
        None => Next::Scan,
    }
}

/// The lowest address of `pool` not in `used`.
pub fn lowest_free(pool: &[IpRange], used: &BTreeSet<u32>) -> Option<Ipv4Addr> {
    for range in pool {
        let mut candidate = range.first_u32();
        for ip in used.range(range.first_u32()..=range.last_u32()) {
            if *ip != candidate {
                break;
            }
            if candidate == range.last_u32() {
                candidate = u32::MAX;
                break;
            }
            candidate += 1;
        }
        if candidate != u32::MAX && range.contains_u32(candidate) {
            return Some(candidate.into());
        }
    }
    None
}

/// The span a pool covers (what the highest address in use is read over).
pub fn span(pool: &[IpRange]) -> Option<IpRange> {
    let first = pool.first()?.first_u32();
    let last = pool.iter().map(IpRange::last_u32).max()?;
    IpRange::from_u32(first, last)
}

/// Who holds addresses.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HolderKey {
    Vip(String),
    Node(i64),
}

/// One holder: in which node group, on which networks, with the
/// addresses it has now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub key: HolderKey,
    pub group: i64,
    pub networks: Vec<NetworkName>,
    pub current: BTreeMap<NetworkName, Ipv4Addr>,
}

/// Every holder's addresses: by holder, network → address (a holder
/// without one where its pool is full has none there).
pub type Addresses = BTreeMap<HolderKey, BTreeMap<NetworkName, Ipv4Addr>>;

/// The addresses of every holder in `holders` (in the order given: VIPs
/// first, then nodes by id, is what the server uses): each keeps the
/// addresses it has that its pool still holds and nobody before it took;
/// the others get the rule's next address.
pub fn allocate(pools: &Pools, holders: &[Holder]) -> Addresses {
    let mut used: BTreeMap<NetworkName, BTreeSet<u32>> = BTreeMap::new();
    let mut out: Addresses = BTreeMap::new();
    let mut missing: Vec<(&Holder, &NetworkName)> = Vec::new();
    for holder in holders {
        let mine = out.entry(holder.key.clone()).or_default();
        for network in &holder.networks {
            let pool = pools.get(holder.group, network).unwrap_or_default();
            let kept = holder.current.get(network).filter(|ip| {
                let ip = u32::from(**ip);
                pool.iter().any(|r| r.contains_u32(ip))
                    && used.entry(network.clone()).or_default().insert(ip)
            });
            match kept {
                Some(ip) => {
                    mine.insert(network.clone(), *ip);
                }
                None => missing.push((holder, network)),
            }
        }
    }
    for (holder, network) in missing {
        let pool = pools.get(holder.group, network).unwrap_or_default();
        let taken = used.entry(network.clone()).or_default();
        if let Some(ip) = take(pool, taken) {
            out.entry(holder.key.clone())
                .or_default()
                .insert(network.clone(), ip);
        }
    }
    out
}

/// The rule's next address of `pool` given the addresses `taken`, marked
/// as taken.
pub fn take(pool: &[IpRange], taken: &mut BTreeSet<u32>) -> Option<Ipv4Addr> {
    let span = span(pool)?;
    let highest = taken
        .range(span.first_u32()..=span.last_u32())
        .next_back()
        .map(|ip| Ipv4Addr::from(*ip));
    let ip = match next_address(pool, highest) {
        Next::Address(ip) => Some(ip),
        Next::Scan => lowest_free(pool, taken),
    }?;
    taken.insert(ip.into());
    Some(ip)
}

/// The pool of every network that gives addresses, by node group and name:
/// what the whole environment's allocation, a single node's change and the
/// Networks tab's capacities all read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pools(BTreeMap<i64, BTreeMap<NetworkName, Vec<IpRange>>>);

impl Pools {
    pub fn new(config: &NetworkConfiguration, metas: &Metas<'_>) -> Pools {
        let mut pools = Pools::default();
        for network in &config.networks {
            let (Some(group), Some(meta)) = (
                network.group_id,
                metas.get(&network.name).filter(|m| m.gives_addresses()),
            ) else {
                continue;
            };
            let of_group = pools.0.entry(group).or_default();
            of_group.insert(network.name.clone(), pool(network, meta));
        }
        pools
    }

    /// Network `name`'s pool in group `group`, when it gives addresses there.
    pub fn get<N: AsRef<str> + ?Sized>(&self, group: i64, name: &N) -> Option<&[IpRange]> {
        self.0.get(&group)?.get(name.as_ref()).map(Vec::as_slice)
    }

    /// The networks of group `group` that give addresses, with their pools.
    pub fn of_group(&self, group: i64) -> impl Iterator<Item = (&NetworkName, &[IpRange])> {
        self.0
            .get(&group)
            .into_iter()
            .flatten()
            .map(|(name, pool)| (name, pool.as_slice()))
    }
}

#[cfg(test)]
mod tests;
