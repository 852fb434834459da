//! The bundled release keeps its promise: every selection the engine calls
//! valid yields valid settings once the components' binds are applied, and
//! its plan then has no environment error. Selections are drawn the way
//! the wizard makes them (one network core, ML2 drivers only under the ML2
//! core, at most one member of each radio storage section), then filtered
//! to the valid ones. Every one of them has a segmentation type.
//!
//! `PROPTEST_CASES` sets the number of valid selections checked (default 1,000).

mod common;

use mosaic_core::component::validate_selection;
use mosaic_core::environment::{Base, Environment, Spec, registry};
use mosaic_core::task::PlanErrorKind;
use mosaic_core::wizard::Layout;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[test]
fn every_valid_selection_of_the_bundled_release_yields_valid_settings() {
    let release = common::bundled::release();
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
        prop::collection::vec(0usize..8, 5),
    );
    let valid = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |(bits, choices)| {
        let names = common::bundled::selection(&registry, &layout, &bits, &choices);
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
                release_roles: mosaic_core::role_layer::RoleLayer::none(),
            },
            &spec,
        )
        .unwrap();
        let problems = env.evaluation().problems;
        prop_assert!(problems.is_empty(), "{:?} gives {:?}", texts, problems);
        let segmentation = &env.context().networking_parameters["segmentation_type"];
        prop_assert!(
            segmentation == "vlan" || segmentation == "tun",
            "{:?} has the segmentation type {}",
            texts,
            segmentation
        );
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
