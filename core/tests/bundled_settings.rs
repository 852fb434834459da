//! The bundled release keeps its promise: every selection the engine calls
//! valid yields valid settings once the components' binds are applied, and
//! its plan then has no environment error. Selections are drawn the way
//! the wizard makes them (one network core, at most one member of each
//! radio storage section), then filtered to the valid ones.
//!
//! `PROPTEST_CASES` sets the number of valid selections checked (default 1,000).

use std::path::Path;

use mosaic_core::component::{ComponentName, Registry, validate_selection};
use mosaic_core::environment::{Base, Environment, Spec, registry};
use mosaic_core::plugin::{MemoryFiles, load};
use mosaic_core::release::Release;
use mosaic_core::task::PlanErrorKind;
use mosaic_core::wizard::Layout;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn read_dir(root: &Path, dir: &Path, files: &mut MemoryFiles) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let relative = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            files.insert_dir(&relative);
            read_dir(root, &path, files);
        } else {
            files.insert(&relative, std::fs::read_to_string(&path).unwrap());
        }
    }
}

fn bundled_release() -> Release {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../releases/openstack");
    let mut files = MemoryFiles::new();
    read_dir(&root, &root, &mut files);
    let loaded = load(&files);
    let package = loaded
        .package
        .unwrap_or_else(|| panic!("{}", loaded.report));
    package.releases().next().unwrap().clone()
}

/// A selection as the wizard can make it: `choice[i]` picks the member of
/// each radio group (or none), the rest are independent checkboxes.
fn selection(
    registry: &Registry,
    layout: &Layout,
    bits: &[bool],
    choices: &[usize],
) -> Vec<ComponentName> {
    let mut chosen = vec![false; registry.len()];
    let mut groups: Vec<Vec<usize>> = vec![layout.network.cores.clone()];
    groups.extend(
        layout
            .storage
            .iter()
            .filter(|s| s.radio)
            .map(|s| s.members.clone()),
    );
    for (group, &choice) in groups.iter().zip(choices) {
        if let Some(&i) = group.get(choice % (group.len() + 1)) {
            chosen[i] = true;
        }
    }
    let in_groups: Vec<usize> = groups.concat();
    for i in (0..registry.len()).filter(|i| !in_groups.contains(i)) {
        chosen[i] = bits[i % bits.len()];
    }
    (0..registry.len())
        .filter(|&i| chosen[i])
        .map(|i| registry.get(i).name.clone())
        .collect()
}

#[test]
fn every_valid_selection_of_the_bundled_release_yields_valid_settings() {
    let release = bundled_release();
    let registry = registry(&release, &[]).unwrap();
    let layout = Layout::new(&registry);
    let wanted: u32 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000);
    let mut runner = TestRunner::new(Config {
        cases: wanted,
        max_global_rejects: wanted * 100,
        ..Config::default()
    });
    let strategy = (
        // Few checkboxes each: most large random sets break some requirement.
        prop::collection::vec(prop::bool::weighted(0.2), registry.len()),
        prop::collection::vec(0usize..8, 4),
    );
    let valid = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |(bits, choices)| {
        let names = selection(&registry, &layout, &bits, &choices);
        let texts: Vec<String> = names.iter().map(ToString::to_string).collect();
        prop_assume!(
            validate_selection(&registry, &release.required_component_types, &texts).is_empty()
        );
        valid.set(valid.get() + 1);
        let spec = Spec {
            name: "env".to_owned(),
            components: Some(names),
            ..Spec::default()
        };
        let tags = Default::default();
        let env = Environment::new(
            Base {
                release: &release,
                plugins: &[],
                release_tags: &tags,
            },
            &spec,
        )
        .unwrap();
        let problems = env.evaluation().problems;
        prop_assert!(problems.is_empty(), "{:?} gives {:?}", texts, problems);
        let plan = env.plan("default");
        let broken: Vec<_> = plan
            .errors
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    PlanErrorKind::InvalidEnvironment | PlanErrorKind::BadCondition
                )
            })
            .collect();
        prop_assert!(broken.is_empty(), "{:?}: {:?}", texts, broken);
        Ok(())
    });
    result.unwrap();
    assert!(
        valid.get() >= wanted,
        "only {} valid selections were checked",
        valid.get()
    );
}
