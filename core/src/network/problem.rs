//! A network problem as data: its kind, its message, and the networks,
//! fields and nodes it concerns (SEMANTICS §11.2).

use serde::{Deserialize, Serialize};

/// What a problem is about (tests assert on it; the message renders it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ProblemKind {
    /// A value that does not parse, or a value a network needs is missing.
    InvalidValue,
    /// A save names a network the environment does not have.
    UnknownNetwork,
    /// A save changes what is not the operator's (a network that is not
    /// configurable, the segmentation).
    NotConfigurable,
    CidrHostBits,
    AddressSpaceIntersection,
    NotAbcClass,
    Loopback,
    GatewayIsNetworkOrBroadcast,
    RangeTouchesNetworkOrBroadcast,
    RangeOrder,
    RangeOutsideCidr,
    RangesIntersect,
    NoRange,
    GatewayInRange,
    GatewayOutsideCidr,
    GatewayMissing,
    PublicRanges,
    FloatingOutsidePublic,
    FloatingTouchesNetworkOrBroadcast,
    Internal,
    VlanInL2Range,
    VlanOutOfRange,
    SegmentationRange,
    Ironic,
    DnsDuplicates,
    BaseMac,
    Capacity,
    UntaggedOnOneInterface,
    SameVlanOnOneInterface,
    /// A node's interface or bond name that is not 1–15 letters, digits,
    /// `-`, `_` or `.`.
    InterfaceName,
    /// An interface or bond name a node declares twice.
    DuplicateInterface,
    /// An interface's MAC that is not a MAC address.
    InvalidMac,
    /// A MAC address declared more than once (on several nodes).
    DuplicateMac,
    /// A bond of fewer than two slaves.
    BondTooFewSlaves,
    /// A bond's slave that is no interface of the node.
    UnknownSlave,
    /// An interface that is a slave of two bonds.
    SlaveOfTwoBonds,
    /// Networks put on a bond's slave, which carries none itself.
    NetworksOnSlave,
    /// Networks put on a port the node does not have.
    UnknownPort,
    /// A network on a port that is no network of the node's group.
    NetworkNotInGroup,
    /// A network on two ports of one node.
    NetworkOnTwoPorts,
    /// A network the node needs on none of its ports.
    NetworkOnNoPort,
    VipGroups,
    /// The release's or a plugin's networking data cannot be used (its
    /// networking parameters do not read, a network role two of them
    /// declare): no change to the environment fixes it.
    ReleaseData,
}

/// One failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NetworkProblem {
    pub kind: ProblemKind,
    pub message: String,
    /// The networks it concerns (ids).
    #[serde(default)]
    pub networks: Vec<i64>,
    /// The fields it concerns (`cidr`, `gateway`, `ip_ranges`,
    /// `vlan_start`, `floating_ranges`, …).
    #[serde(default)]
    pub fields: Vec<String>,
    /// The nodes it concerns (ids).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<i64>,
}

impl NetworkProblem {
    pub fn new(kind: ProblemKind, message: impl Into<String>) -> NetworkProblem {
        NetworkProblem {
            kind,
            message: message.into(),
            networks: Vec::new(),
            fields: Vec::new(),
            nodes: Vec::new(),
        }
    }

    pub fn networks(mut self, ids: impl IntoIterator<Item = i64>) -> NetworkProblem {
        self.networks.extend(ids);
        self
    }

    pub fn fields(mut self, fields: &[&str]) -> NetworkProblem {
        self.fields.extend(fields.iter().map(|f| (*f).to_owned()));
        self
    }

    pub fn nodes(mut self, ids: impl IntoIterator<Item = i64>) -> NetworkProblem {
        self.nodes.extend(ids);
        self
    }

    /// Whether it concerns `field` of network `id`.
    pub fn concerns(&self, id: i64, field: &str) -> bool {
        self.networks.contains(&id) && self.fields.iter().any(|f| f == field)
    }
}
