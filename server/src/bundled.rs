//! The release plugin compiled into the binary and installed on first start
//! (`releases/openstack` in the repository).

use std::collections::BTreeMap;

use mosaic_core::release::{ReleasePlugin, load_release_plugin};
use mosaic_core::yaml::LoadError;

const FILES: &[(&str, &str)] = &[
    (
        "metadata.yaml",
        include_str!("../../releases/openstack/metadata.yaml"),
    ),
    (
        "components.yaml",
        include_str!("../../releases/openstack/components.yaml"),
    ),
    (
        "node_roles.yaml",
        include_str!("../../releases/openstack/node_roles.yaml"),
    ),
    (
        "attributes.yaml",
        include_str!("../../releases/openstack/attributes.yaml"),
    ),
];

/// The bundled release plugin, read by core like any other.
pub fn release_plugin() -> Result<ReleasePlugin, LoadError> {
    let files: BTreeMap<String, String> = FILES
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect();
    load_release_plugin(&files)
}

#[cfg(test)]
mod tests {
    use mosaic_core::component::{Registry, Source};
    use mosaic_core::wizard::{Layout, defaults};

    #[test]
    fn the_bundled_release_loads_and_its_defaults_are_valid() {
        let plugin = super::release_plugin().unwrap();
        let release = &plugin.releases[0];
        let registry =
            Registry::new([(Source("bundled".into()), release.components.clone())]).unwrap();
        let layout = Layout::new(&registry);
        let selection = defaults(&registry, &layout);
        let names: Vec<String> = (0..registry.len())
            .filter(|&i| selection[i])
            .map(|i| registry.get(i).name.to_string())
            .collect();
        let violations = mosaic_core::component::validate_selection(
            &registry,
            &release.required_component_types,
            &names,
        );
        assert_eq!(violations, []);
        // The storage sections the spec describes, with object and image as radio groups.
        let sections: Vec<(&str, bool)> = layout
            .storage
            .iter()
            .map(|s| (s.name.as_str(), s.radio))
            .collect();
        assert_eq!(
            sections,
            [
                ("block", false),
                ("object", true),
                ("image", true),
                ("ephemeral", false)
            ]
        );
    }

    #[test]
    fn the_bundled_roles_parse_and_their_expressions_evaluate_against_the_defaults() {
        use mosaic_core::expr::JsonModels;
        use mosaic_core::role::{check_roles, parse_roles};
        let release = super::release_plugin().unwrap().releases.remove(0);
        let yaml = serde_yaml::to_value(&release.roles_metadata).unwrap();
        let roles = parse_roles(&yaml, None).unwrap();
        assert_eq!(roles[0].id, "controller");
        assert_eq!(
            roles[0].tags,
            ["controller", "rabbitmq", "database", "keystone", "neutron"]
        );
        let models = JsonModels {
            settings: release.attributes_metadata["editable"].clone(),
            cluster: serde_json::json!({"mode": "ha_compact"}),
            version: serde_json::json!({"feature_groups": []}),
            ..JsonModels::default()
        };
        let report = check_roles(&roles, &models, &[]);
        // Every limit evaluates (no expression error), and the defaults hide virt.
        let errors: Vec<&String> = report.limits.iter().flat_map(|l| &l.errors).collect();
        assert!(
            errors.iter().all(|e| !e.contains("Limits of role")),
            "{errors:?}"
        );
        assert_eq!(report.hidden_roles, ["virt", "compute-vmware"]);
    }
}
