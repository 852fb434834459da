use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::{Read, from_str};
use crate::api::{
    Attributes, Cluster, ErrorBody, NodeView, PluginSummary, ReleaseSummary, RoleView, TagView,
    TemplateResolution, TemplateSet,
};
use crate::name::NodeStatus;
use crate::task::Plan;

/// `text` reads as serde_json reads it, and writes back the same.
fn same<T>(text: &str) -> T
where
    T: Read + DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let ours: T = from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let theirs: T = serde_json::from_str(text).unwrap();
    assert_eq!(ours, theirs);
    let again: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&ours).unwrap()).unwrap();
    let given: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(again, given, "{text}");
    ours
}

#[test]
fn structs_options_lists_and_unit_variants_read_as_serde_json_reads_them() {
    let node: NodeView = same(
        &json!({
            "id": 7, "cluster_id": 1, "name": "rack1-7", "status": "ready",
            "roles": ["controller"], "pending_roles": [], "tags": ["controller", "mysql:1"],
            "role_tags": ["controller"], "tags_added": ["mysql:1"], "tags_removed": [],
            "primary_tags": [], "pending_deletion": false, "version": 3
        })
        .to_string(),
    );
    assert_eq!(node.status, NodeStatus::Ready);
    same::<Vec<PluginSummary>>(
        &json!([{
            "id": 1, "name": "openstack", "title": "OpenStack", "version": "1.0.0",
            "package_version": "5.0.0", "description": "d", "kind": "release",
            "releases": [{"id": 1, "name": "Fuel", "version": "9.0", "operating_system": "ubuntu"}],
            "used_by": ["lab"],
            "warnings": [{"severity": "warning", "file": "metadata.yaml", "line": 3, "path": "title", "message": "long"}]
        }])
        .to_string(),
    );
}

#[test]
fn untagged_enums_any_value_and_numbered_keys_read_too() {
    // `problems` is an untagged enum: a setting's problem or a node's.
    let body: ErrorBody = same(
        &json!({"error": {"code": "invalid_nodes", "message": "m", "problems": [
            {"path": "a.b", "message": "bad"}, {"node": 3, "message": "gone"}
        ]}})
        .to_string(),
    );
    assert_eq!(body.error.problems.len(), 2);
    same::<Attributes>(
        &json!({"editable": {"a": {"metadata": {"label": "A"}, "b": {"value": [1, 2.5, "x", null]}}}, "version": 4,
            "context": {"cluster": {"id": 1}, "release": {"name": "r"}, "version": "9.0", "networking_parameters": null}})
            .to_string(),
    );
    let instances: BTreeMap<String, BTreeMap<u64, Vec<i64>>> =
        same(&json!({"mysql": {"1": [3, 4], "2": [5]}}).to_string());
    assert_eq!(instances["mysql"][&2], [5]);
    same::<TemplateResolution>(
        &json!({"resource_registry": {"OS::A": "a.yaml"}, "errors": [], "choices": [], "options": [], "environment": null})
            .to_string(),
    );
}

#[test]
fn an_empty_plan_reads_the_same() {
    // Real plans: environment::tests, the_plan_follows_the_settings….
    same::<Plan>(&serde_json::to_string(&Plan::default()).unwrap());
}

#[test]
fn a_struct_is_read_from_an_object_only_and_errors_say_what_was_found() {
    let as_array = json!([1, "a"]).to_string();
    let e = from_str::<crate::api::NodeProblem>(&as_array).unwrap_err();
    assert!(e.to_string().contains("invalid type: sequence"), "{e}");
    let e = from_str::<NodeView>(r#"{"id": "seven"}"#).unwrap_err();
    assert!(
        e.to_string()
            .contains(r#"invalid type: string "seven", expected i64"#),
        "{e}"
    );
    let e = from_str::<i64>("1.5").unwrap_err();
    assert_eq!(e.to_string(), "invalid type: a number, expected i64");
    // A visitor's own refusal of a float does not write the float out.
    let e = from_str::<String>("1.5").unwrap_err();
    assert_eq!(e.to_string(), "invalid type: a number, expected a string");
    let e = from_str::<Vec<i64>>("{}").unwrap_err();
    assert_eq!(e.to_string(), "invalid type: map, expected a sequence");
    let e = from_str::<NodeView>("{").unwrap_err();
    assert!(e.to_string().contains("EOF"), "{e}");
    let e = from_str::<BTreeMap<u64, i64>>(r#"{"x": 1}"#).unwrap_err();
    assert!(e.to_string().contains("expected a number as key"), "{e}");
}

#[test]
fn answers_read_field_by_field_as_derived_serde_read_them() {
    same::<ReleaseSummary>(
        &json!({"id": 1, "name": "Caracal", "version": "2024.1", "operating_system": "ubuntu",
            "state": "available", "description": "d", "required_component_types": ["hypervisor", "network"]})
        .to_string(),
    );
    same::<Vec<Cluster>>(
        &json!([{"id": 2, "name": "lab", "release_id": 1, "components": ["hypervisor:libvirt:kvm"], "mode": "ha_compact"}])
            .to_string(),
    );
    same::<TagView>(
        &json!({"name": "mysql", "has_primary": true, "source": "role", "deletable": false, "nodes": 3})
            .to_string(),
    );
    same::<RoleView>(
        &json!({"id": "compute", "name": "Compute", "description": "d", "tags": ["compute"], "unavailable": "no KVM"})
            .to_string(),
    );
    same::<TemplateSet>(
        &json!({"id": 1, "name": "tripleo", "templates": ["a.yaml"],
            "summary": {"capabilities": {"deployment": ["puppet"]}, "resource_types": {"OS::A": ["a.yaml"]}}})
        .to_string(),
    );
    same::<Plan>(
        &json!({"nodes": [{"id": 1, "tags": ["controller"], "tasks": ["netconfig"]}],
            "errors": [{"kind": "cycle", "message": "a cycle", "cycle": ["a", "b"]}],
            "warnings": ["w"], "skipped": [{"id": "ceph", "reason": "off"}],
            "edges": [["netconfig", "deploy"]], "instances": {"mysql": {"1": [1]}}})
        .to_string(),
    );
}

#[test]
fn refusals_reports_checks_and_resolutions_read_the_same() {
    same::<ErrorBody>(
        &json!({"error": {"code": "invalid_plugin", "message": "m",
            "violations": [{"kind": "incompatible", "components": ["a:b", "c:d"], "message": "no"}],
            "report": {"plugin": null, "releases": [], "errors": 1, "warnings": 0,
                "diagnostics": [{"severity": "error", "file": "metadata.yaml", "line": 2, "path": "name", "message": "bad"},
                                {"severity": "warning", "file": "tasks.yaml", "line": null, "path": null, "message": "w"}]}}})
        .to_string(),
    );
    same::<Vec<crate::environment::Check>>(
        &json!([{"severity": "error", "kind": "no_controller", "message": "m", "nodes": [1, 2]}])
            .to_string(),
    );
    same::<TemplateResolution>(
        &json!({"resource_registry": {}, "choices": [{"resource_type": "OS::A", "candidates": ["a.yaml", "b.yaml"]}],
            "errors": [{"resource_type": "OS::B", "message": "none", "candidates": [{"file": "b.yaml", "matched": false, "reasons": ["r"]}]}],
            "options": [], "environment": "x: 1"})
        .to_string(),
    );
}

#[test]
fn component_views_read_the_same() {
    let registry = crate::component::test_registry(
        "- {name: 'hypervisor:vmware', label: vCenter, weight: 20}\n\
         - {name: 'network:neutron:core:nsx', requires: [{name: 'hypervisor:vmware'}], \
            incompatible: [{name: 'hypervisor:libvirt:*', message: 'not with KVM'}]}\n",
    );
    let views = crate::api::component_views(&registry, &[]);
    let read: Vec<crate::api::ComponentView> = same(&serde_json::to_string(&views).unwrap());
    assert_eq!(read, views);
}

#[test]
fn a_missing_field_is_refused_unless_it_has_a_default_and_errors_name_the_field() {
    // Without the fields that have a default, and with one it does not know.
    let tag: TagView = from_str(
        r#"{"name": "t", "has_primary": false, "source": "user", "deletable": true, "extra": 1}"#,
    )
    .unwrap();
    assert_eq!(tag.nodes, 0);
    let e = from_str::<TagView>(r#"{"name": "t", "has_primary": false, "source": "user"}"#)
        .unwrap_err();
    assert_eq!(e.to_string(), "missing field `deletable`");
    let e = from_str::<TagView>(
        r#"{"name": "t", "has_primary": "yes", "source": "user", "deletable": true}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"has_primary: invalid type: string "yes", expected a boolean"#
    );
    let e = from_str::<TagView>("[]").unwrap_err();
    assert_eq!(e.to_string(), "invalid type: sequence, expected an object");
    // serde_json reads them the same way, through the same impls.
    let e = serde_json::from_str::<TagView>(r#"{"name": "t"}"#).unwrap_err();
    assert!(
        e.to_string().starts_with("missing field `has_primary`"),
        "{e}"
    );
}

#[test]
fn numbers_out_of_range_pairs_and_unknown_problems_are_refused_as_serde_refuses_them() {
    let e = from_str::<u16>("70000").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value: integer `70000`, expected u16"
    );
    let e = from_str::<u64>("-1").unwrap_err();
    assert_eq!(e.to_string(), "invalid value: integer `-1`, expected u64");
    let e = from_str::<i64>("18446744073709551615").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value: integer `18446744073709551615`, expected i64"
    );
    assert_eq!(from_str::<usize>("7"), Ok(7));
    let e = from_str::<(i64, i64)>("[1, 2, 3]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid length 3, expected a tuple of size 2"
    );
    assert_eq!(
        from_str::<(i64, String)>(r#"[1, "a"]"#),
        Ok((1, "a".into()))
    );
    let e = from_str::<crate::api::ErrorProblem>(r#"{"message": "m"}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "data did not match any variant of untagged enum ErrorProblem"
    );
    // A name read from an answer is checked as its constructor checks it.
    let e = from_str::<crate::name::TagName>(r#""Not A Tag""#).unwrap_err();
    assert!(e.to_string().contains("tag name"), "{e}");
}

/// Every enum read by `as_str` reads and writes the names serde does.
fn names_as_serde<T>(variants: &[T], name: fn(T) -> &'static str)
where
    T: Copy + Read + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for &v in variants {
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(text, format!("\"{}\"", name(v)));
        assert_eq!(from_str::<T>(&text), Ok(v));
        assert_eq!(serde_json::from_str::<T>(&text).unwrap(), v);
    }
}

#[test]
fn enums_read_by_their_names_use_serde_names() {
    use crate::component::{ComponentType, Quantifier, Severity, ViolationKind};
    names_as_serde(ViolationKind::VARIANTS, ViolationKind::as_str);
    names_as_serde(Severity::VARIANTS, Severity::as_str);
    names_as_serde(
        crate::environment::CheckSeverity::VARIANTS,
        crate::environment::CheckSeverity::as_str,
    );
    names_as_serde(
        crate::api::PluginKind::VARIANTS,
        crate::api::PluginKind::as_str,
    );
    names_as_serde(ComponentType::VARIANTS, ComponentType::as_str);
    names_as_serde(crate::access::Role::VARIANTS, crate::access::Role::as_str);
    names_as_serde(
        crate::task::PlanErrorKind::VARIANTS,
        crate::task::PlanErrorKind::as_str,
    );
    names_as_serde(Quantifier::VARIANTS, Quantifier::as_str);
    let e = from_str::<crate::access::Role>(r#""root""#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown variant `root`, expected one of `viewer`, `operator`, `admin`"
    );
}

#[test]
fn requirements_read_from_an_answer_as_from_a_plugin() {
    use crate::component::Requires;
    for text in [
        "[]",
        "null",
        r#"[{"name": "network:a:*", "message": "m"}, {"name": "storage:b"}]"#,
        r#"[{"one_of": {"items": ["network:a", "network:b"], "message": "m"}}, {"none_of": {"items": ["storage:*"]}}]"#,
    ] {
        let ours: Requires = from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let theirs: Requires = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs, "{text}");
    }
    let mixed = r#"[{"name": "network:a"}, {"one_of": {"items": ["network:b"]}}]"#;
    let ours = from_str::<Requires>(mixed).unwrap_err().to_string();
    let theirs = serde_json::from_str::<Requires>(mixed)
        .unwrap_err()
        .to_string();
    assert!(theirs.starts_with(&ours), "{ours} / {theirs}");
    assert!(ours.contains("mixes"), "{ours}");
}
