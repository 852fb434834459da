//! Networks (SEMANTICS §11, Fuel's Networks tab): what a release declares
//! ([`metadata`]), an environment's configuration of node groups, networks
//! and Neutron's parameters ([`config`]), the addresses nodes and VIPs get
//! ([`address`]), interfaces and bonds and which networks ride on them
//! ([`interfaces`]), and every check before deployment ([`check`]). Which
//! of these an environment has is worked out by
//! [`crate::environment::Environment`]; the answers the API gives are in
//! [`view`].

pub mod address;
pub mod change;
pub mod check;
pub mod config;
pub mod file;
pub mod form;
pub mod interfaces;
pub mod ip;
pub mod metadata;
pub mod problem;
pub mod view;

pub use address::{
    Addresses, Demand, Holder, HolderKey, Next, allocate, capacity, lowest_free, next_address,
    pool, span,
};
pub use check::{Input, NetworkProblem, ProblemKind, check, render};
pub use config::{
    ConfigurationChange, DEFAULT_GROUP, GroupRef, InvalidGroupName, Network, NetworkChange,
    NetworkConfiguration, NetworkingParameters, NodeGroup, Rebuilt, UnknownGroup,
    UnreadableParameters, VipAddress,
};
pub use form::{Edit, Edits, Field, FieldKey, FormCheck, Kind, NetworksForm, Section, Text};
pub use interfaces::{Bond, BondMode, Layout, Nic, NodeInterfaces, NodeLayout};
pub use ip::{IpRange, RangeField, Typed};
pub use metadata::{
    ADMIN, DuplicateNetworkRole, Metas, NetworkMeta, NetworkRole, NetworksMetadata, Notation,
    Segmentation, VipMeta,
};
pub use view::{
    ConfigurationView, GroupView, IncompleteBond, InterfacesView, NetworkMetaView, NetworkView,
    NewGroup, PortRow, PortView, Verification, VipView,
};
