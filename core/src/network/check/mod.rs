//! Every check of a network configuration (SEMANTICS §11.2): Fuel's
//! NetworkCheck with its messages, and what Fuel never checked. Every
//! failure is reported at once, as data: its kind, Fuel's message (or
//! Mosaic's where Fuel had none), the networks (ids) and the fields it
//! concerns, and the nodes when it is about nodes. The same function runs
//! on every save, in the browser as the operator types, and in the
//! environment's checks.

mod fields;
mod neutron;
mod spaces;

pub use super::problem::{NetworkProblem, ProblemKind};

use super::address::Demand;
use super::config::{Network, NetworkConfiguration, NodeGroup};
use super::interfaces::NodeLayout;
use super::metadata::{Metas, NetworkMeta, label};

/// What the checks read: the configuration, the metadata of the networks
/// that exist, the node groups, whether Ironic is chosen, what addresses
/// are needed where, and the nodes' interface layouts (none in the
/// browser, which checks the configuration alone).
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub config: &'a NetworkConfiguration,
    pub metas: &'a Metas<'a>,
    pub groups: &'a [NodeGroup],
    pub ironic: bool,
    pub demand: &'a Demand,
    pub nodes: &'a [NodeLayout],
}

impl<'a> Input<'a> {
    /// The metadata of `network`.
    pub fn meta(&self, network: &Network) -> Option<&'a NetworkMeta> {
        self.metas.get(&network.name)
    }

    /// The networks that exist here, each with its metadata.
    pub fn networks(&self) -> impl Iterator<Item = (&'a Network, &'a NetworkMeta)> + '_ {
        self.config
            .networks
            .iter()
            .filter_map(|n| self.meta(n).map(|m| (n, m)))
    }

    /// Group `id`'s name.
    pub fn group_name(&self, id: Option<i64>) -> Option<&'a str> {
        let id = id?;
        self.groups
            .iter()
            .find(|g| g.id == id)
            .map(|g| g.name.as_str())
    }

    /// How a problem's renderer names `network`: its label, and its node
    /// group when there are several.
    pub fn describe(&self, network: &Network) -> String {
        match self.group_name(network.group_id) {
            Some(group) if self.groups.len() > 1 => {
                format!("{} (node group {group})", label(&network.name))
            }
            _ => label(&network.name).to_owned(),
        }
    }
}

/// Every problem of `input`, in a stable order: the configuration's
/// ([`configuration`]), then the nodes' interfaces.
pub fn check(input: &Input<'_>) -> Vec<NetworkProblem> {
    let mut out = configuration(input);
    out.extend(super::interfaces::problems(
        input.config,
        input.metas,
        input.nodes,
    ));
    out
}

/// The problems of the configuration itself, whatever the nodes'
/// interfaces: the values, the address spaces, Neutron's parameters, then
/// capacity. What the browser checks as the operator types (it holds no
/// interfaces, and its download holds none of their checks).
pub fn configuration(input: &Input<'_>) -> Vec<NetworkProblem> {
    let mut out = Vec::new();
    fields::check(input, &mut out);
    spaces::check(input, &mut out);
    neutron::check(input, &mut out);
    out.extend(super::address::capacity_problems(
        input.config,
        input.metas,
        input.groups,
        input.demand,
    ));
    out
}

/// `problem` rendered for people: the networks it concerns, then its
/// message ("management (node group rack-2): Gateway is not set for
/// network."); a message that starts with those names already keeps them
/// once.
pub fn render(input: &Input<'_>, problem: &NetworkProblem) -> String {
    let names: Vec<String> = problem
        .networks
        .iter()
        .filter_map(|id| input.config.network(*id))
        .map(|n| input.describe(n))
        .collect();
    let prefix = format!("{}: ", names.join(", "));
    if names.is_empty() || problem.message.starts_with(&prefix) {
        problem.message.clone()
    } else {
        format!("{prefix}{}", problem.message)
    }
}

#[cfg(test)]
pub(crate) mod tests;
