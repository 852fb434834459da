//! The release plugin compiled into the binary and installed on first start
//! (`releases/openstack` in the repository; `build.rs` embeds every file).

use mosaic_core::plugin::{Loaded, MemoryFiles, load};

/// Relative path and text of every file of `releases/openstack`.
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled_files.rs"));

/// The bundled package's files.
pub fn files() -> MemoryFiles {
    FILES.iter().copied().collect()
}

/// The bundled release plugin, loaded and validated by core like any other.
pub fn load_bundled() -> Loaded {
    load(&files())
}

#[cfg(test)]
mod tests {
    use mosaic_core::component::{Registry, Source};
    use mosaic_core::wizard::{Layout, defaults};

    fn release() -> mosaic_core::release::Release {
        let loaded = super::load_bundled();
        assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
        loaded.package.unwrap().releases().next().unwrap().clone()
    }

    #[test]
    fn the_bundled_release_loads_and_its_defaults_are_valid() {
        let release = &release();
        let registry = Registry::new([(
            Source("bundled".into()),
            release.components_metadata.clone(),
        )])
        .unwrap();
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
    fn the_bundled_roles_evaluate_against_the_settings_of_the_default_components() {
        use mosaic_core::environment::{Base, Environment, Spec};
        use mosaic_core::role::check_roles;
        let release = release();
        let spec = Spec::default();
        let tags = Default::default();
        let env = Environment::new(
            Base {
                release: &release,
                plugins: &[],
                release_tags: &tags,
                release_roles: mosaic_core::role_layer::RoleLayer::none(),
            },
            &spec,
        )
        .unwrap();
        assert_eq!(env.evaluation().problems, []);
        let roles = release.roles_metadata.0.clone();
        assert_eq!(roles[0].id, "controller");
        assert_eq!(
            roles[0].tags,
            ["controller", "rabbitmq", "database", "keystone", "neutron"]
        );
        let report = check_roles(&roles, env.models(), &[]);
        // Every limit evaluates (no expression error), and the defaults hide virt.
        let errors: Vec<&String> = report.limits.iter().flat_map(|l| &l.errors).collect();
        assert!(
            errors.iter().all(|e| !e.contains("Limits of role")),
            "{errors:?}"
        );
        assert_eq!(report.hidden_roles, ["virt", "compute-vmware"]);
        // An empty environment with the default components (LVM, Swift, no
        // Ceph, no Ceilometer) needs a controller and a Cinder node; the
        // roles the settings disable need none.
        let failing: Vec<&str> = report
            .limits
            .iter()
            .filter(|l| !l.errors.is_empty())
            .map(|l| l.role.as_str())
            .collect();
        assert_eq!(failing, ["controller", "cinder"]);
        let warned: Vec<&str> = report
            .limits
            .iter()
            .filter(|l| !l.warnings.is_empty())
            .map(|l| l.role.as_str())
            .collect();
        assert_eq!(warned, ["controller", "compute"]);
    }
}
