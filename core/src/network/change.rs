//! A save of the Networks tab made to a configuration: the fields of the
//! networks it names (by id), and the networking parameters it sets. What
//! is not the operator's — a network's name, group and metadata, the
//! segmentation, a network that is not configurable — is not taken from
//! it; a change of the latter two is a problem, as an unknown network id
//! is (Fuel's "Invalid network ID").

use serde_json::Value;

use super::config::{
    ConfigurationChange, NetworkChange, NetworkConfiguration, NetworkingParameters,
};
use super::metadata::Metas;
use super::problem::{NetworkProblem, ProblemKind};

impl NetworkConfiguration {
    /// `change` made to this configuration, with the problems of the
    /// change itself (those of the result are [`super::check`]'s).
    pub fn with_change(
        &self,
        change: &ConfigurationChange,
        metas: &Metas<'_>,
    ) -> (NetworkConfiguration, Vec<NetworkProblem>) {
        let mut next = self.clone();
        let mut problems = Vec::new();
        for item in &change.networks {
            if let Err(problem) = next.change_network(item, metas) {
                problems.push(problem);
            }
        }
        if let Some(params) = &change.networking_parameters {
            match self.networking_parameters.with_change(params) {
                Ok(p) => next.networking_parameters = p,
                Err(mut found) => problems.append(&mut found),
            }
        }
        (next, problems)
    }

    fn change_network(
        &mut self,
        item: &NetworkChange,
        metas: &Metas<'_>,
    ) -> Result<(), NetworkProblem> {
        let Some(network) = self.networks.iter_mut().find(|n| n.id == item.id) else {
            return Err(NetworkProblem::new(
                ProblemKind::UnknownNetwork,
                format!("Invalid network ID: {}", item.id),
            )
            .networks([item.id]));
        };
        let before = network.clone();
        if let Some(cidr) = &item.cidr {
            network.cidr = cidr.clone();
        }
        if let Some(gateway) = &item.gateway {
            network.gateway = gateway.clone();
        }
        if let Some(vlan) = item.vlan_start {
            network.vlan_start = vlan;
        }
        if let Some(ranges) = &item.ip_ranges {
            network.ip_ranges = ranges.clone();
        }
        let Some(meta) = metas.get(&network.name) else {
            return Ok(());
        };
        network.derive_ranges(meta);
        if !meta.configurable && *network != before {
            let name = network.name.clone();
            *network = before;
            return Err(NetworkProblem::new(
                ProblemKind::NotConfigurable,
                format!("Network '{name}' is not configurable: its values come from the release."),
            )
            .networks([item.id])
            .fields(&["cidr", "gateway", "vlan_start", "ip_ranges"]));
        }
        Ok(())
    }
}

impl NetworkingParameters {
    /// These parameters with `changes` (field → value) set; the
    /// segmentation cannot be set (SEMANTICS §11.2: only a components
    /// change moves it).
    pub fn with_change(
        &self,
        changes: &serde_json::Map<String, Value>,
    ) -> Result<NetworkingParameters, Vec<NetworkProblem>> {
        let mut map = match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        for (key, value) in changes {
            map.insert(key.clone(), value.clone());
        }
        let segmentation = map.get("segmentation_type").cloned();
        if segmentation.as_ref() != Some(&Value::from(self.segmentation_type.as_str())) {
            return Err(vec![NetworkProblem::new(
                ProblemKind::NotConfigurable,
                format!(
                    "segmentation_type is '{}' and follows the environment's components; change the components to change it.",
                    self.segmentation_type.as_str()
                ),
            )
            .fields(&["segmentation_type"])]);
        }
        if let Ok(next) = serde_json::from_value(Value::Object(map.clone())) {
            return Ok(next);
        }
        // Name each field that does not read, each tried alone.
        let base = serde_json::to_value(self).unwrap_or(Value::Null);
        let problems: Vec<NetworkProblem> = changes
            .iter()
            .filter_map(|(key, value)| {
                let mut alone = base.clone();
                alone[key.as_str()] = value.clone();
                let e = serde_json::from_value::<NetworkingParameters>(alone).err()?;
                Some(
                    NetworkProblem::new(ProblemKind::InvalidValue, format!("{key}: {e}."))
                        .fields(&[key.as_str()]),
                )
            })
            .collect();
        Err(problems)
    }
}
