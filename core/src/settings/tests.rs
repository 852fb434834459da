use serde_json::{Value, json};

use super::*;

/// A release's `editable` groups, in the shapes Fuel writes them.
fn tree() -> SettingsTree {
    SettingsTree::from_json(
        "editable",
        &json!({
            "access": {
                "metadata": {"label": "Access", "weight": 10},
                "user": {"type": "text", "value": "admin", "weight": 10,
                         "regex": {"source": "^(?!services$)(?!nova$).+", "error": "Invalid username"}},
                "password": {"type": "password", "value": {"generator": "password"},
                             "regex": {"source": "\\S", "error": "Empty password"}}
            },
            "storage": {
                "metadata": {"label": "Storage", "weight": 20},
                "volumes_lvm": {"type": "checkbox", "value": false,
                    "restrictions": [{"condition": "settings:storage.volumes_ceph.value == true",
                                      "message": "LVM and Ceph cannot both serve volumes."}]},
                "volumes_ceph": {"type": "checkbox", "value": false},
                "replicas": {"type": "number", "value": 3, "min": 1, "max": 5},
                "backend": {"type": "select", "value": "swift", "values": [
                    {"data": "swift", "label": "Swift"},
                    {"data": "ceph", "label": "Ceph",
                     "restrictions": ["settings:storage.volumes_ceph.value == false"]}
                ]},
                "dns": {"type": "text_list", "value": ["8.8.8.8"], "max": 2,
                        "regex": {"source": "^[0-9.]+$", "error": "Not an address"}}
            },
            "murano_settings": {
                "metadata": {"label": "Murano", "weight": 30,
                             "restrictions": [{"condition": "true", "action": "hide"}]},
                "repo": {"type": "text", "value": "", "regex": {"source": "\\S", "error": "Empty"}}
            },
            "syslog": {
                "metadata": {"label": "Syslog", "toggleable": true, "enabled": false},
                "server": {"type": "text", "value": "", "regex": {"source": "\\S", "error": "Empty server"}}
            }
        }),
    )
    .unwrap()
}

fn plugin_group() -> Group {
    Group::from_json(
        "attributes",
        "attributes",
        &json!({"asn": {"type": "text", "label": "AS number", "value": "64512", "weight": 10,
                        "regex": {"source": "^[0-9]+$", "error": "Invalid AS number"}}}),
    )
    .unwrap()
}

fn settings() -> Settings {
    let group = plugin_group();
    Settings::defaults(
        &tree(),
        &[PluginGroup {
            name: "contrail",
            title: "Contrail",
            version: "4.0.1",
            attributes: &group,
        }],
    )
}

fn problems(settings: &Settings) -> Vec<String> {
    settings
        .check(&Context::default())
        .problems
        .into_iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect()
}

fn edit(settings: &mut Settings, edits: Value) -> Vec<Problem> {
    settings.apply_edits(edits.as_object().unwrap())
}

#[test]
fn defaults_are_valid_and_plugin_groups_start_off() {
    let s = settings();
    assert_eq!(problems(&s), Vec::<String>::new());
    assert_eq!(s.enabled("contrail"), Some(false));
    let meta = &s.to_editable()["contrail"]["metadata"];
    assert_eq!(meta["label"], "Contrail");
    assert_eq!(meta["class"], "plugin");
    assert_eq!(
        s.values()["contrail"],
        json!({"enabled": false, "asn": "64512"})
    );
}

#[test]
fn every_value_problem_is_reported_by_group_and_attribute() {
    let mut s = settings();
    let none = edit(
        &mut s,
        json!({
            "access": {"user": "nova"},
            "storage": {"replicas": 9, "backend": "nfs", "dns": ["1.1.1.1", "x", "2.2.2.2"], "volumes_ceph": "yes"},
            "contrail": {"enabled": true, "asn": "AS1"}
        }),
    );
    assert_eq!(none, []);
    assert_eq!(
        problems(&s),
        [
            "access.user: Invalid username",
            "storage.volumes_ceph: must be true or false, not \"yes\"",
            "storage.replicas: must be at most 5",
            "storage.backend: \"nfs\" is not one of \"swift\", \"ceph\"",
            "storage.dns: must be at most 2 entries",
            "storage.dns: Not an address",
            "contrail.asn: Invalid AS number",
        ]
    );
}

#[test]
fn a_checkbox_cannot_be_on_while_it_is_disabled() {
    let mut s = settings();
    edit(
        &mut s,
        json!({"storage": {"volumes_lvm": true, "volumes_ceph": true}}),
    );
    assert_eq!(
        problems(&s),
        ["storage.volumes_lvm: LVM and Ceph cannot both serve volumes."]
    );
    // A choice whose restriction holds cannot be chosen either; without a
    // message, the condition says why.
    let mut s = settings();
    edit(&mut s, json!({"storage": {"backend": "ceph"}}));
    assert_eq!(
        problems(&s),
        [
            "storage.backend: \"ceph\" cannot be chosen: 'settings:storage.volumes_ceph.value == false' holds."
        ]
    );
}

#[test]
fn hidden_and_switched_off_groups_are_not_checked() {
    let mut s = settings();
    // murano_settings is hidden, syslog and contrail are off: nothing to say.
    edit(&mut s, json!({"contrail": {"asn": "AS1"}}));
    assert_eq!(problems(&s), Vec::<String>::new());
    edit(&mut s, json!({"syslog": {"enabled": true}}));
    assert_eq!(problems(&s), ["syslog.server: Empty server"]);
    let states = s.check(&Context::default());
    assert!(states.groups[2].restricted.hidden);
    assert!(states.groups[0].attributes[1].generated);
}

#[test]
fn edits_name_what_does_not_exist() {
    let mut s = settings();
    let got = edit(
        &mut s,
        json!({"nowhere": {"x": 1}, "storage": {"nothing": 1, "enabled": true}, "contrail": {"enabled": "yes"}}),
    );
    let paths: Vec<&str> = got.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "nowhere",
            "storage.nothing",
            "storage.enabled",
            "contrail.enabled"
        ]
    );
}

#[test]
fn binds_set_values_and_switches() {
    let mut s = settings();
    assert!(s.apply_bind("storage.volumes_ceph.value", &json!(true)));
    assert!(s.apply_bind("contrail.metadata.enabled", &json!(true)));
    assert!(!s.apply_bind("storage.missing.value", &json!(true)));
    assert!(!s.apply_bind("storage.volumes_ceph.label", &json!("x")));
    assert_eq!(s.value("storage", "volumes_ceph"), Some(&json!(true)));
    assert_eq!(s.enabled("contrail"), Some(true));
}

#[test]
fn edits_are_what_differs_from_the_base() {
    let base = settings();
    let mut s = base.clone();
    edit(
        &mut s,
        json!({"storage": {"replicas": 4, "volumes_ceph": false}, "contrail": {"enabled": true}}),
    );
    assert_eq!(
        Value::Object(s.edits_from(&base)),
        json!({"storage": {"replicas": 4}, "contrail": {"enabled": true}})
    );
}

#[test]
fn the_document_reads_back_with_its_values() {
    let mut s = settings();
    edit(
        &mut s,
        json!({"storage": {"replicas": 4}, "contrail": {"enabled": true}}),
    );
    let again = Settings::from_editable(&s.to_editable()).unwrap();
    assert_eq!(again.value("storage", "replicas"), Some(&json!(4)));
    assert_eq!(again.enabled("contrail"), Some(true));
    assert_eq!(problems(&again), problems(&s));
}

#[test]
fn restrictions_that_cannot_be_evaluated_are_problems() {
    let tree = SettingsTree::from_json(
        "editable",
        &json!({"net": {"vlan": {"type": "checkbox", "value": false,
                                 "restrictions": ["networking_parameters:segmentation_type == 'vlan'"]}}}),
    )
    .unwrap();
    let s = Settings::defaults(&tree, &[]);
    let got = problems(&s);
    assert_eq!(got.len(), 1);
    assert!(
        got[0].starts_with("net.vlan: a restriction cannot be evaluated"),
        "{got:?}"
    );
    let context = Context {
        networking_parameters: json!({"segmentation_type": "vlan"}),
        ..Context::default()
    };
    assert!(s.check(&context).is_valid());
}

#[test]
fn bad_declarations_name_their_place() {
    let err = SettingsTree::from_json(
        "editable",
        &json!({"g": {"a": {"type": "text", "value": "", "regex": {"source": "(", "error": "e"}}}}),
    )
    .unwrap_err();
    assert_eq!(err.path, "editable.g.a.regex.source");
    let err = SettingsTree::from_json("editable", &json!({"g": {"a": {"value": 1}}})).unwrap_err();
    assert_eq!(err.message, "missing required key 'type'");
    let err = Group::from_json(
        "attributes",
        "p",
        &json!({"metadata": {"toggleable": true}, "enabled": {"type": "checkbox", "value": true}}),
    )
    .unwrap_err();
    assert_eq!(err.path, "attributes.enabled");
}

#[test]
fn hostile_patterns_are_refused_or_bounded() {
    let tree = SettingsTree::from_json(
        "editable",
        &json!({"g": {"a": {"type": "text", "value": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
                            "regex": {"source": "^(a+)+(?=c)", "error": "no"}}}}),
    )
    .unwrap();
    let got = problems(&Settings::defaults(&tree, &[]));
    assert_eq!(got.len(), 1);
    assert!(got[0].contains("cannot be checked"), "{got:?}");
}

#[test]
fn the_patch_between_two_drafts_reads_back_as_their_edits() {
    let saved = settings();
    let mut draft = saved.clone();
    edit(
        &mut draft,
        json!({"storage": {"replicas": 2}, "contrail": {"enabled": true}}),
    );
    let patch = PatchAttributes::between(&saved, &draft);
    assert_eq!(
        serde_json::to_value(&patch).unwrap(),
        json!({"editable": {"storage": {"replicas": {"value": 2}}, "contrail": {"metadata": {"enabled": true}}}})
    );
    assert_eq!(patch.edits().unwrap(), draft.edits_from(&saved));
}

#[test]
fn patches_become_edits() {
    let patch: PatchAttributes = serde_json::from_value(json!({"editable": {
        "storage": {"replicas": {"value": 2}},
        "contrail": {"metadata": {"enabled": true}}
    }}))
    .unwrap();
    assert_eq!(
        Value::Object(patch.edits().unwrap()),
        json!({"storage": {"replicas": 2}, "contrail": {"enabled": true}})
    );
    let bad: PatchAttributes = serde_json::from_value(
        json!({"editable": {"storage": {"replicas": 2, "x": {"label": "y"}}}}),
    )
    .unwrap();
    let problems = bad.edits().unwrap_err();
    assert_eq!(problems[0].path, "storage.replicas");
    assert_eq!(problems[1].path, "storage.x");
}
