//! Changing an environment's components later (SEMANTICS §9.1) gives what
//! creating it with the new components gives: for random valid selections
//! A and B of the bundled release (drawn as the wizard makes them), an
//! environment created with A — with edits of the settings A binds and of
//! one setting nothing binds — changed to B has the settings and context of
//! the environment created with B, that one unbound edit kept.
//!
//! `PROPTEST_CASES` sets the number of pairs checked (default 100).

mod common;

use mosaic_core::component::{BindModel, ComponentName, Registry, validate_selection};
use mosaic_core::environment::{Base, Environment, Foundation, Spec, registry};
use mosaic_core::release::Release;
use mosaic_core::settings::{AttrType, Edits, bind_key};
use mosaic_core::wizard::Layout;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

static NO_TAGS: std::sync::LazyLock<mosaic_core::tag::TagsMetadata> =
    std::sync::LazyLock::new(Default::default);

/// The environment `spec` on the bundled release (its foundation made once).
fn env<'a>(release: &'a Release, foundation: &'a Foundation, spec: &'a Spec) -> Environment<'a> {
    let base = Base {
        release,
        plugins: &[],
        release_tags: &NO_TAGS,
        release_roles: mosaic_core::role_layer::RoleLayer::none(),
    };
    Environment::on(base, foundation, spec)
}

fn spec(components: Vec<ComponentName>, edits: Edits) -> Spec {
    Spec {
        name: "env".to_owned(),
        components: Some(components),
        edits,
        ..Spec::default()
    }
}

/// The `(group, attr)` every component of the registry may bind.
fn bindable(registry: &Registry) -> Vec<(String, String)> {
    (0..registry.len())
        .flat_map(|i| &registry.get(i).bind)
        .filter(|b| b.model == BindModel::Settings)
        .filter_map(|b| bind_key(b.target.split_once(':').map_or("", |(_, p)| p)))
        .map(|(g, a)| (g.to_owned(), a.to_owned()))
        .collect()
}

/// A checkbox no component binds, and its default.
fn unbound_checkbox(release: &Release, registry: &Registry) -> (String, String, bool) {
    let bound = bindable(registry);
    let tree = &release.attributes_metadata.editable;
    tree.groups
        .iter()
        .flat_map(|g| g.attributes.iter().map(move |a| (g, a)))
        .filter(|(_, a)| a.kind == AttrType::Checkbox)
        .find(|(g, a)| !bound.contains(&(g.name.clone(), a.name.clone())))
        .map(|(g, a)| (g.name.clone(), a.name.clone(), a.value == json!(true)))
        .expect("the bundled release has a checkbox no component binds")
}

/// Edits giving every boolean setting `names` bind the other value.
fn edits_of_bound(registry: &Registry, names: &[ComponentName]) -> Edits {
    let mut edits = Edits::new();
    for c in (0..registry.len()).map(|i| registry.get(i)) {
        if !names.contains(&c.name) {
            continue;
        }
        for bind in c.bind.iter().filter(|b| b.model == BindModel::Settings) {
            let path = bind.target.split_once(':').map_or("", |(_, p)| p);
            if let (Some((group, attr)), Some(on)) = (bind_key(path), bind.value.as_bool()) {
                let group = edits.entry(group).or_insert_with(|| json!({}));
                group[attr] = Value::Bool(!on);
            }
        }
    }
    edits
}

#[test]
fn changing_the_components_gives_the_settings_of_creating_with_them() {
    let release = common::bundled::release();
    let registry = registry(&release, &[]).unwrap();
    let layout = Layout::new(&registry);
    let foundation = Foundation::new(&release, &[]).unwrap();
    let wanted: u32 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut runner = TestRunner::new(Config {
        cases: wanted,
        max_global_rejects: wanted * 1000,
        ..Config::default()
    });
    let one = || {
        (
            prop::collection::vec(prop::bool::weighted(0.2), registry.len()),
            prop::collection::vec(0usize..8, 5),
        )
    };
    let (group, attr, default) = unbound_checkbox(&release, &registry);
    let valid = |names: &[ComponentName]| {
        let texts: Vec<String> = names.iter().map(ToString::to_string).collect();
        validate_selection(&registry, &release.required_component_types, &texts).is_empty()
    };
    let result = runner.run(
        &(one(), one()),
        |((bits_a, choices_a), (bits_b, choices_b))| {
            let a = common::bundled::selection(&registry, &layout, &bits_a, &choices_a);
            let b = common::bundled::selection(&registry, &layout, &bits_b, &choices_b);
            prop_assume!(valid(&a) && valid(&b));
            let mut edits = edits_of_bound(&registry, &a);
            edits
                .entry(group.clone())
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .unwrap()
                .insert(attr.clone(), Value::Bool(!default));
            let from = spec(a.clone(), edits);
            let texts: Vec<String> = b.iter().map(ToString::to_string).collect();
            let changed = env(&release, &foundation, &from)
                .with_components(&texts)
                .unwrap();
            let mut unbound = Edits::new();
            unbound.insert(group.clone(), json!({ attr.clone(): !default }));
            let direct = spec(b.clone(), unbound);
            prop_assert_eq!(&changed, &direct, "{:?} → {:?}", a, b);
            let (after, created) = (
                env(&release, &foundation, &changed),
                env(&release, &foundation, &direct),
            );
            prop_assert!(after.settings() == created.settings(), "{:?} → {:?}", a, b);
            prop_assert_eq!(after.context(), created.context());
            let plain = spec(b.clone(), Edits::new());
            let none = spec(a.clone(), Edits::new());
            let moved = env(&release, &foundation, &none)
                .with_components(&texts)
                .unwrap();
            prop_assert!(
                env(&release, &foundation, &moved).settings()
                    == env(&release, &foundation, &plain).settings()
            );
            Ok(())
        },
    );
    result.unwrap();
}
