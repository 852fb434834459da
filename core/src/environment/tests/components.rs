//! Changing an environment's components later (SEMANTICS §9.1).

use serde_json::json;

use super::*;
use crate::name::TaskId;

fn names(components: &[&str]) -> Vec<String> {
    components.iter().map(|c| (*c).to_owned()).collect()
}

/// The spec `spec` becomes with `components`, then `check` of the
/// environment before and after.
fn changed<R>(
    f: &Fixture,
    spec: &Spec,
    components: &[&str],
    check: impl FnOnce(&Environment<'_>, &Environment<'_>) -> R,
) -> R {
    let next = with(f, spec, |env| env.with_components(&names(components))).unwrap();
    with(f, spec, |before| {
        with(f, &next, |after| check(before, after))
    })
}

#[test]
fn moving_from_lvm_to_ceph_lists_settings_roles_and_tasks() {
    let f = fixture();
    let nodes = vec![
        node(1, "ctl", &["controller"]),
        node(2, "block-a", &["cinder"]),
        node(3, "block-b", &["cinder"]),
    ];
    let from = spec(&LVM, json!({}), nodes);
    changed(&f, &from, &CEPH, |before, after| {
        let seen = before.consequences(after);
        assert_eq!(
            seen.settings,
            [
                SettingChange {
                    path: "storage.volumes_lvm".into(),
                    before: json!(true),
                    after: json!(false),
                },
                SettingChange {
                    path: "storage.volumes_ceph".into(),
                    before: json!(false),
                    after: json!(true),
                },
            ]
        );
        assert_eq!(
            seen.roles,
            [RoleLoss {
                role: RoleName::new("cinder").unwrap(),
                nodes: vec!["block-a".into(), "block-b".into()],
            }]
        );
        assert_eq!(
            seen.tasks,
            [TaskChange {
                nodes: vec![json!(2), json!(3)],
                added: vec![],
                removed: vec![TaskId::new("cinder-volume").unwrap()],
            }]
        );
        assert!(seen.refused());
        let in_use = before.components_in_use(after);
        let held: Vec<(i64, &str, &str)> = in_use
            .iter()
            .map(|u| (u.node, u.name.as_str(), u.role.as_str()))
            .collect();
        assert_eq!(held, [(2, "block-a", "cinder"), (3, "block-b", "cinder")]);
        assert!(
            in_use[0]
                .message
                .ends_with("Cinder LVM should be enabled in the environment settings."),
            "{}",
            in_use[0].message
        );
    });
}

#[test]
fn a_change_without_nodes_holding_lost_roles_is_not_refused() {
    let f = fixture();
    let from = spec(&LVM, json!({}), vec![node(1, "ctl", &["controller"])]);
    changed(&f, &from, &CEPH, |before, after| {
        let seen = before.consequences(after);
        assert_eq!(seen.roles.len(), 1);
        assert!(seen.roles[0].nodes.is_empty());
        assert!(!seen.refused());
        assert!(before.components_in_use(after).is_empty());
    });
}

#[test]
fn edits_of_bound_settings_are_dropped_and_the_others_kept() {
    let f = fixture();
    let edits = json!({
        "storage": {"volumes_lvm": false},
        "common": {"libvirt": "qemu"},
        "additional": {"ceilometer": true},
    });
    let from = spec(&LVM, edits, vec![]);
    let next = with(&f, &from, |env| env.with_components(&names(&CEPH))).unwrap();
    assert_eq!(
        serde_json::Value::Object(next.edits.clone()),
        json!({"additional": {"ceilometer": true}})
    );
    assert_eq!(next.components, spec(&CEPH, json!({}), vec![]).components);
    with(&f, &next, |env| {
        assert_eq!(
            env.settings().value("common", "libvirt"),
            Some(&json!("kvm"))
        );
        assert_eq!(
            env.settings().value("additional", "ceilometer"),
            Some(&json!(true))
        );
    });
}

#[test]
fn plugins_follow_their_components_unless_switched_on_by_hand() {
    let f = fixture();
    let nodes = vec![node(1, "c", &["contrail-controller"])];
    let from = spec(&CONTRAIL, json!({}), nodes);
    changed(&f, &from, &LVM, |before, after| {
        let seen = before.consequences(after);
        assert_eq!(
            seen.plugins.disabled,
            std::slice::from_ref(&f.contrail.name)
        );
        assert!(seen.plugins.enabled.is_empty());
        let roles: Vec<&str> = seen.roles.iter().map(|r| r.role.as_str()).collect();
        assert_eq!(roles, ["contrail-controller"]);
        assert_eq!(before.components_in_use(after)[0].name, "c");
    });
    let by_hand = spec(&LVM, json!({"extras": {"enabled": true}}), vec![]);
    changed(&f, &by_hand, &CEPH, |before, after| {
        let seen = before.consequences(after);
        assert_eq!(seen.plugins, Default::default());
        assert_eq!(after.enabled_plugins().count(), 1);
    });
    changed(
        &f,
        &spec(&LVM, json!({}), vec![]),
        &CONTRAIL,
        |before, after| {
            assert_eq!(
                before.consequences(after).plugins.enabled,
                std::slice::from_ref(&f.contrail.name)
            );
        },
    );
}

#[test]
fn an_invalid_selection_is_refused_with_every_violation() {
    let f = fixture();
    let from = spec(&LVM, json!({}), vec![]);
    let wanted = names(&[
        "hypervisor:kvm",
        "storage:block:lvm",
        "storage:block:ceph",
        "x:y",
    ]);
    let refused = with(&f, &from, |env| env.with_components(&wanted)).unwrap_err();
    let expected = with(&f, &from, |env| {
        validate_selection(env.registry(), &f.release.required_component_types, &wanted)
    });
    assert_eq!(refused, expected);
    let kinds: Vec<_> = refused.iter().map(|v| v.kind).collect();
    assert!(kinds.contains(&crate::component::ViolationKind::Unknown));
    assert!(kinds.contains(&crate::component::ViolationKind::Incompatible));
}
