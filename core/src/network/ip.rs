//! IPv4 values as the Networks tab takes them. What the operator types is
//! kept as typed ([`Typed`]) until the checks read it, so that a form with
//! several mistakes is reported whole, each mistake at its field; address
//! arithmetic (ranges, their sizes and intersections) is on `u32`s, CIDRs
//! are [`ipnet::Ipv4Net`].

use std::fmt;
use std::net::Ipv4Addr;
use std::str::FromStr;

use ipnet::Ipv4Net;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A value typed as text: parsed, or kept as typed with why it does not
/// parse. Serialized back as the text either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed<T> {
    Valid(T),
    Invalid { text: String, reason: String },
}

/// What a value of a kind is, for the message of one that is not.
pub trait Kind: FromStr + fmt::Display {
    const WHAT: &'static str;
}

impl Kind for Ipv4Addr {
    const WHAT: &'static str = "an IPv4 address (e.g. 192.168.0.1)";
}

impl Kind for Ipv4Net {
    const WHAT: &'static str = "a CIDR (an address and a prefix length, e.g. 192.168.0.0/24)";
}

impl<T: Kind> Typed<T> {
    pub fn parse(text: &str) -> Typed<T> {
        match text.trim().parse::<T>() {
            Ok(value) => Typed::Valid(value),
            Err(_) => Typed::Invalid {
                text: text.to_owned(),
                reason: format!("'{text}' is not {}", T::WHAT),
            },
        }
    }

    pub fn valid(&self) -> Option<&T> {
        match self {
            Typed::Valid(value) => Some(value),
            Typed::Invalid { .. } => None,
        }
    }
}

impl<T: fmt::Display> fmt::Display for Typed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Typed::Valid(value) => value.fmt(f),
            Typed::Invalid { text, .. } => f.write_str(text),
        }
    }
}

impl<T: fmt::Display> Serialize for Typed<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de, T: Kind> Deserialize<'de> for Typed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Ok(Typed::parse(&text))
    }
}

impl<T> From<T> for Typed<T> {
    fn from(value: T) -> Self {
        Typed::Valid(value)
    }
}

/// An address field.
pub type Addr = Typed<Ipv4Addr>;
/// A CIDR field (host bits kept as typed: the checks say when they are set).
pub type Cidr = Typed<Ipv4Net>;

#[cfg(feature = "openapi")]
crate::schema::schema!(
    Addr as "TypedAddress",
    crate::schema::typed("An IPv4 address", "192.168.0.1")
);
#[cfg(feature = "openapi")]
crate::schema::schema!(
    Cidr as "TypedCidr",
    crate::schema::typed("A CIDR", "192.168.0.0/24")
);

/// A range of addresses as typed: `[first, last]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeField(pub Addr, pub Addr);

#[cfg(feature = "openapi")]
crate::schema::schema!(RangeField, crate::schema::range_field());

impl RangeField {
    pub fn new(first: Ipv4Addr, last: Ipv4Addr) -> RangeField {
        RangeField(first.into(), last.into())
    }

    /// The range, when both ends are addresses and the first is not after
    /// the last.
    pub fn range(&self) -> Option<IpRange> {
        let (first, last) = (*self.0.valid()?, *self.1.valid()?);
        IpRange::new(first, last)
    }
}

impl From<IpRange> for RangeField {
    fn from(range: IpRange) -> Self {
        RangeField::new(range.first(), range.last())
    }
}

/// A range of addresses, first ≤ last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IpRange {
    first: u32,
    last: u32,
}

impl IpRange {
    /// `None` when `first` is after `last`.
    pub fn new(first: Ipv4Addr, last: Ipv4Addr) -> Option<IpRange> {
        IpRange::from_u32(first.into(), last.into())
    }

    pub fn from_u32(first: u32, last: u32) -> Option<IpRange> {
        (first <= last).then_some(IpRange { first, last })
    }

    /// Every address of `net`, its network and broadcast addresses
    /// included.
    pub fn of_net(net: &Ipv4Net) -> IpRange {
        let net = net.trunc();
        IpRange {
            first: net.network().into(),
            last: net.broadcast().into(),
        }
    }

    pub fn first(&self) -> Ipv4Addr {
        self.first.into()
    }

    pub fn last(&self) -> Ipv4Addr {
        self.last.into()
    }

    pub fn first_u32(&self) -> u32 {
        self.first
    }

    pub fn last_u32(&self) -> u32 {
        self.last
    }

    /// How many addresses it holds.
    pub fn len(&self) -> u64 {
        u64::from(self.last - self.first) + 1
    }

    /// Never: a range holds at least its first address.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn contains(&self, ip: Ipv4Addr) -> bool {
        self.contains_u32(ip.into())
    }

    pub fn contains_u32(&self, ip: u32) -> bool {
        self.first <= ip && ip <= self.last
    }

    pub fn intersects(&self, other: &IpRange) -> bool {
        self.first <= other.last && other.first <= self.last
    }

    /// Whether it lies wholly inside `outer`.
    pub fn within(&self, outer: &IpRange) -> bool {
        outer.first <= self.first && self.last <= outer.last
    }
}

/// Written as netaddr writes ranges in Fuel's messages: `first-last`.
impl fmt::Display for IpRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first(), self.last())
    }
}

/// The usable addresses of `ranges` less `excluded`: the ranges split
/// around each excluded address, in order.
pub fn without(ranges: &[IpRange], excluded: &[Ipv4Addr]) -> Vec<IpRange> {
    let mut out: Vec<IpRange> = ranges.to_vec();
    for ip in excluded {
        let ip = u32::from(*ip);
        out = out
            .into_iter()
            .flat_map(|r| {
                if !r.contains_u32(ip) {
                    return vec![r];
                }
                let below = (ip > r.first).then(|| IpRange::from_u32(r.first, ip - 1));
                let above = (ip < r.last).then(|| IpRange::from_u32(ip + 1, r.last));
                below.into_iter().chain(above).flatten().collect()
            })
            .collect();
    }
    out
}

/// The host addresses of `net`: all but its network and broadcast
/// addresses (a /31 and a /32 have no such addresses to spare).
pub fn hosts(net: &Ipv4Net) -> IpRange {
    let all = IpRange::of_net(net);
    if net.prefix_len() >= 31 {
        return all;
    }
    IpRange {
        first: all.first + 1,
        last: all.last - 1,
    }
}

/// Six pairs of hex digits separated by colons (`fa:16:3e:00:00:00`).
pub fn is_mac(text: &str) -> bool {
    let parts: Vec<&str> = text.split(':').collect();
    parts.len() == 6
        && parts
            .iter()
            .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Ipv4Addr {
        text.parse().unwrap()
    }

    fn range(a: &str, b: &str) -> IpRange {
        IpRange::new(ip(a), ip(b)).unwrap()
    }

    #[test]
    fn typed_values_keep_what_was_typed() {
        let good: Addr = serde_json::from_str("\"10.0.0.1\"").unwrap();
        assert_eq!(good.valid(), Some(&ip("10.0.0.1")));
        let bad: Cidr = serde_json::from_str("\"10.0.0.0/33\"").unwrap();
        assert_eq!(bad.valid(), None);
        assert_eq!(serde_json::to_string(&bad).unwrap(), "\"10.0.0.0/33\"");
        let Typed::Invalid { reason, .. } = bad else {
            panic!("a /33 parsed")
        };
        assert!(
            reason.starts_with("'10.0.0.0/33' is not a CIDR"),
            "{reason}"
        );
        let host_bits: Cidr = Typed::parse("10.0.0.5/24");
        assert_eq!(host_bits.to_string(), "10.0.0.5/24");
    }

    #[test]
    fn ranges_measure_and_meet() {
        let r = range("10.0.0.2", "10.0.0.126");
        assert_eq!(r.len(), 125);
        assert_eq!(r.to_string(), "10.0.0.2-10.0.0.126");
        assert!(r.intersects(&range("10.0.0.126", "10.0.0.200")));
        assert!(!r.intersects(&range("10.0.0.127", "10.0.0.200")));
        assert_eq!(IpRange::new(ip("10.0.0.2"), ip("10.0.0.1")), None);
        assert_eq!(
            RangeField::new(ip("10.0.0.9"), ip("10.0.0.1")).range(),
            None
        );
    }

    #[test]
    fn hosts_leave_out_the_network_and_broadcast_addresses() {
        let net: Ipv4Net = "192.168.0.0/24".parse().unwrap();
        assert_eq!(hosts(&net), range("192.168.0.1", "192.168.0.254"));
        let tiny: Ipv4Net = "192.168.0.4/31".parse().unwrap();
        assert_eq!(hosts(&tiny).len(), 2);
    }

    #[test]
    fn excluding_an_address_splits_its_range() {
        let split = without(
            &[range("10.0.0.1", "10.0.0.10")],
            &[ip("10.0.0.1"), ip("10.0.0.5")],
        );
        assert_eq!(
            split,
            vec![
                range("10.0.0.2", "10.0.0.4"),
                range("10.0.0.6", "10.0.0.10")
            ]
        );
        assert_eq!(
            without(&[range("10.0.0.1", "10.0.0.1")], &[ip("10.0.0.1")]),
            vec![]
        );
    }
}
