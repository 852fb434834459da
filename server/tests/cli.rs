//! The `mosaic` command line, run as a process: arguments, exit codes,
//! stdout JSON and stderr messages are the contract.

mod support;

use std::process::Command;

use serde_json::{Value, json};
use support::serve::{Server, start};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `mosaic ARGS`, returning (exit code, stdout, stderr).
fn mosaic(args: &[&str]) -> (i32, String, String) {
    mosaic_in(env!("CARGO_MANIFEST_DIR"), args)
}

fn check_json(extra: &[&str]) -> (i32, Value) {
    let dvs = fixture("dvs.yaml");
    let plugin = fixture("plugin.yaml");
    let mut args = vec![
        "components",
        "check",
        "--registry",
        &dvs,
        "--registry",
        &plugin,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = mosaic(&args);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

fn component<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("{name} missing"))
}

#[test]
fn defaults_are_the_selection_without_select() {
    let (code, json) = check_json(&[]);
    assert_eq!(code, 0);
    assert_eq!(json["valid"], true);
    assert_eq!(json["completable"], true);
    assert_eq!(json["violations"], json!([]));
    let names: Vec<&str> = json["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    // Registry order: sources in the order given, then file order.
    assert_eq!(names.last(), Some(&"network:neutron:core:contrail"));
    let kvm = component(&json, "hypervisor:libvirt:kvm");
    assert_eq!(
        *kvm,
        json!({"name": "hypervisor:libvirt:kvm", "source": "dvs", "state": "selected", "reasons": [],
               "repair": null, "compatibility": null, "untested_with": []})
    );
    assert_eq!(
        component(&json, "network:neutron:core:contrail")["source"],
        "plugin"
    );
    assert_eq!(
        component(&json, "network:neutron:ml2:dvs")["state"],
        "available"
    );
}

#[test]
fn blocked_components_carry_reasons_and_a_repair() {
    let (code, json) = check_json(&[
        "--select",
        "hypervisor:vmware,network:neutron:core:ml2,storage:block:lvm",
    ]);
    assert_eq!(code, 0);
    let contrail = component(&json, "network:neutron:core:contrail");
    assert_eq!(contrail["state"], "blocked");
    assert_eq!(
        contrail["reasons"],
        json!([{"kind": "incompatible", "components": ["network:neutron:core:contrail", "hypervisor:vmware"],
                "message": "Contrail is not compatible with vCenter."}])
    );
    assert_eq!(
        contrail["repair"],
        json!({"select": [], "deselect": ["hypervisor:vmware"]})
    );
    assert_eq!(
        component(&json, "network:neutron:ml2:dvs")["compatibility"],
        "untested"
    );
}

#[test]
fn an_invalid_selection_exits_1_with_every_violation() {
    let (code, json) = check_json(&["--select", "network:neutron:ml2:dvs,nope"]);
    assert_eq!(code, 1);
    assert_eq!(json["valid"], false);
    assert_eq!(json["completable"], false);
    let kinds: Vec<&str> = json["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "unknown",
            "requires",
            "requires",
            "required_type",
            "required_type"
        ]
    );
    assert_eq!(
        json["violations"][2]["components"],
        json!(["network:neutron:ml2:dvs", "hypervisor:vmware"])
    );
    // An empty selection is not the defaults.
    let (code, json) = check_json(&["--select", ""]);
    assert_eq!((code, json["completable"].clone()), (1, json!(true)));
}

#[test]
fn required_types_can_be_chosen() {
    let (code, json) = check_json(&[
        "--select",
        "hypervisor:vmware",
        "--required-types",
        "hypervisor",
    ]);
    assert_eq!((code, json["valid"].clone()), (0, json!(true)));
    let (code, _, stderr) = mosaic(&[
        "components",
        "check",
        "--registry",
        &fixture("dvs.yaml"),
        "--required-types",
        "compute",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("'compute' is not a component type"),
        "{stderr}"
    );
}

#[test]
fn malformed_input_exits_2_naming_file_and_line() {
    let bad = fixture("bad-name.yaml");
    let (code, stdout, stderr) = mosaic(&[
        "components",
        "check",
        "--registry",
        &bad,
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.starts_with(&format!("{bad}:2:")), "{stderr}");
    assert!(stderr.contains("hypervisor:Xen"), "{stderr}");

    let dvs = fixture("dvs.yaml");
    let dup = fixture("duplicate.yaml");
    let (code, _, stderr) = mosaic(&[
        "components",
        "check",
        "--registry",
        &dvs,
        "--registry",
        &dup,
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr.trim(),
        format!("{dup}:2: component 'storage:block:lvm' is declared by both dvs and duplicate")
    );

    let (code, _, stderr) = mosaic(&["components", "check", "--registry", "/nonexistent.yaml"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read /nonexistent.yaml"), "{stderr}");
}

#[test]
fn check_registry_reports_load_time_problems() {
    let problems = fixture("problems.yaml");
    let (code, stdout, _) = mosaic(&[
        "components",
        "check-registry",
        "--registry",
        &problems,
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let kinds: Vec<&str> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["unmatched_pattern", "unmatched_pattern", "dead"]);
    assert_eq!(json["problems"][2]["line"], 5);
    let (code, stdout, _) = mosaic(&["components", "check-registry", "--registry", &problems]);
    assert_eq!(code, 1);
    assert!(stdout.ends_with("1 error, 2 warnings\n"), "{stdout}");

    let (code, stdout, _) = mosaic(&[
        "components",
        "check-registry",
        "--registry",
        &fixture("dvs.yaml"),
    ]);
    assert_eq!((code, stdout.as_str()), (0, "0 errors, 0 warnings\n"));
}

fn expr_json(expr: &str, extra: &[&str]) -> (i32, Value) {
    let models = fixture("models.yaml");
    let mut args = vec![
        "expr", "eval", expr, "--models", &models, "--format", "json",
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = mosaic(&args);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

#[test]
fn expr_eval_prints_the_value() {
    assert_eq!(
        expr_json(
            "settings:storage.volumes_ceph.value == false and cluster:mode",
            &[]
        ),
        (0, json!({"value": "multinode"}))
    );
    assert_eq!(
        expr_json("'experimental' in version:feature_groups", &[]),
        (0, json!({"value": true}))
    );
    assert_eq!(
        expr_json("cluster:nokey", &["--non-strict"]),
        (0, json!({"value": null}))
    );
}

#[test]
fn expr_eval_errors_exit_2_with_kind_and_span() {
    let cases = [
        ("cluster:nokey == 1", "undefined", json!([0, 13])),
        ("(true", "parse", json!([0, 1])),
        ("setings:x", "unknown_model", json!([0, 7])),
        ("1 in 2", "type", json!([5, 6])),
    ];
    for (expr, kind, span) in cases {
        let (code, json) = expr_json(expr, &[]);
        assert_eq!(code, 2, "{expr}");
        assert_eq!(json["error"]["kind"], kind, "{expr}");
        assert_eq!(json["error"]["span"], span, "{expr}");
    }
    let deep = "(".repeat(10_000);
    assert_eq!(expr_json(&deep, &[]).1["error"]["kind"], "too_deep");
    let (code, _, stderr) = mosaic(&["expr", "eval", "a = b", "--models", &fixture("models.yaml")]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "parse error:\na = b\n  ^ unexpected '=' (did you mean '==')\n"
    );
}

#[test]
fn roles_check_reports_nodes_and_every_role_limit() {
    let (roles, models, nodes) = (
        fixture("roles.yaml"),
        fixture("models.yaml"),
        fixture("nodes.yaml"),
    );
    let (code, stdout, stderr) = mosaic(&[
        "roles", "check", "--roles", &roles, "--models", &models, "--nodes", &nodes, "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        json["nodes"][0],
        json!({"id": 1, "errors": [{"kind": "conflict", "roles": ["controller", "compute"],
                                    "message": "Role 'controller' in conflict with role 'compute'."}]})
    );
    assert_eq!(
        json["nodes"][1]["errors"],
        json!([{"kind": "restriction", "roles": ["ceph-osd"], "message": "Ceph should be enabled in the environment settings."}])
    );
    let limits: Vec<(&str, i64, bool)> = json["limits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["role"].as_str().unwrap(),
                l["count"].as_i64().unwrap(),
                l["valid"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        limits,
        [
            ("controller", 1, true),
            ("compute", 1, true),
            ("ceph-osd", 1, false),
            ("mongo", 2, false)
        ]
    );
    assert_eq!(
        json["limits"][2]["errors"],
        json!(["At least 3 Ceph OSD nodes are required (1 selected currently)."])
    );
    assert_eq!(
        json["limits"][3]["errors"],
        json!(["At most 1 MongoDB node can be added for non-HA deployment"])
    );
    assert_eq!(json["hidden_roles"], json!([]));
}

#[test]
fn roles_check_rejects_malformed_roles_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let roles = dir.path().join("roles.yaml");
    std::fs::write(&roles, "x:\n  restrictions:\n    - condition: 'a =='\n").unwrap();
    let (code, _, stderr) = mosaic(&[
        "roles",
        "check",
        "--roles",
        roles.to_str().unwrap(),
        "--models",
        &fixture("models.yaml"),
        "--nodes",
        &fixture("nodes.yaml"),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("x.restrictions[0].condition"), "{stderr}");
}

fn plugin_fixture(name: &str) -> String {
    fixture(&format!("plugins/{name}"))
}

fn validate_json(path: &str) -> (i32, Value) {
    let (code, stdout, stderr) = mosaic(&["plugin", "validate", path, "--format", "json"]);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

#[test]
fn plugin_validate_accepts_a_v5_example_package() {
    let (code, report) = validate_json(&plugin_fixture("v5-example"));
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(
        report["plugin"],
        json!({"name": "storage_demo", "version": "1.0.0", "package_version": "5.0.0"})
    );
    assert_eq!(report["errors"], 0);
    assert_eq!(
        report["releases"][0],
        json!({"name": "", "version": "2024.1", "operating_system": "ubuntu", "is_release": false})
    );
    // The one warning: fuel_version is deprecated.
    assert_eq!(report["warnings"], 1);
    assert_eq!(report["diagnostics"][0]["path"], "fuel_version");
}

#[test]
fn plugin_validate_reports_five_mistakes_with_file_and_line() {
    let (code, report) = validate_json(&plugin_fixture("five-mistakes"));
    assert_eq!(code, 1);
    let found: Vec<(String, i64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["line"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("metadata.yaml", 13),
        ("node_roles.yaml", 5),
        ("volumes.yaml", 3),
        ("deployment_tasks.yaml", 6),
        ("components.yaml", 2),
    ];
    assert_eq!(
        found,
        expected.map(|(f, l)| (f.to_owned(), l)),
        "{report:#}"
    );
    assert_eq!(report["errors"], 5);
    let (code, text, _) = mosaic(&["plugin", "validate", &plugin_fixture("five-mistakes")]);
    assert_eq!(code, 1);
    assert!(text.trim_end().ends_with("5 errors, 0 warnings"), "{text}");
}

#[test]
fn plugin_validate_exits_2_when_the_path_cannot_be_read() {
    let (code, stdout, stderr) = mosaic(&["plugin", "validate", "/no/such/package"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("/no/such/package"), "{stderr}");
    // A directory without metadata.yaml is read, and is a package without a plugin.
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = validate_json(dir.path().to_str().unwrap());
    assert_eq!((code, &report["plugin"]), (1, &Value::Null));
}

#[test]
fn a_symlink_leading_out_of_the_package_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("pkg");
    let (code, _, stderr) = mosaic(&[
        "plugin",
        "create",
        "linked",
        "--dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let root = root.with_file_name("linked");
    std::fs::remove_dir_all(root.join("deployment_scripts")).unwrap();
    std::os::unix::fs::symlink("/etc", root.join("deployment_scripts")).unwrap();
    let (code, report) = validate_json(root.to_str().unwrap());
    assert_eq!(code, 1);
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("'deployment_scripts/' leaves the package"),
        "{message}"
    );
}

#[test]
fn plugin_create_scaffolds_packages_that_validate_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().to_str().unwrap();
    for (name, release) in [("ext_demo", false), ("rel_demo", true)] {
        let mut args = vec!["plugin", "create", name, "--dir", at];
        if release {
            args.push("--release");
        }
        let (code, _, stderr) = mosaic(&args);
        assert_eq!(code, 0, "{stderr}");
        let (code, report) = validate_json(&format!("{at}/{name}"));
        assert_eq!(
            (code, &report["errors"], &report["warnings"]),
            (0, &json!(0), &json!(0)),
            "{report:#}"
        );
        assert_eq!(report["releases"][0]["is_release"], release);
    }
    let (code, _, stderr) = mosaic(&["plugin", "create", "ext_demo", "--dir", at]);
    assert_eq!(code, 2);
    assert!(stderr.contains("already exists"), "{stderr}");
    let (code, _, stderr) = mosaic(&["plugin", "create", "Bad Name", "--dir", at]);
    assert_eq!(code, 2);
    assert!(stderr.contains("must match"), "{stderr}");
}

#[test]
fn plugin_build_writes_a_reproducible_archive_that_validates() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.tar.gz");
    let second = dir.path().join("second.tar.gz");
    for out in [&first, &second] {
        let (code, stdout, stderr) = mosaic(&[
            "plugin",
            "build",
            &plugin_fixture("v5-example"),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("wrote"), "{stdout}");
    }
    assert_eq!(
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap()
    );
    let (code, report) = validate_json(first.to_str().unwrap());
    assert_eq!(
        (code, &report["plugin"]["name"]),
        (0, &json!("storage_demo")),
        "{report:#}"
    );
    // Building refuses an invalid package and writes nothing.
    let bad = dir.path().join("bad.tar.gz");
    let (code, _, stderr) = mosaic(&[
        "plugin",
        "build",
        &plugin_fixture("five-mistakes"),
        "-o",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("5 errors"), "{stderr}");
    assert!(!bad.exists());
}

#[test]
fn plugin_show_prints_the_loaded_tree() {
    let (code, stdout, stderr) = mosaic(&[
        "plugin",
        "show",
        &plugin_fixture("v5-example"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let tree: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        tree["roles_metadata"]["storage_demo"]["name"],
        "Storage demo"
    );
    assert_eq!(
        tree["components_metadata"][0]["name"],
        "additional_service:storage_demo"
    );
    assert_eq!(tree["tags_metadata"]["storage_demo"]["has_primary"], false);
    assert_eq!(tree["releases"][0]["operating_system"], "ubuntu");
    let bundled = format!("{}/../releases/openstack", env!("CARGO_MANIFEST_DIR"));
    let (code, stdout, stderr) = mosaic(&["plugin", "show", &bundled]);
    assert_eq!(code, 0, "{stderr}");
    let tree: Value = serde_json::from_str(&stdout).unwrap();
    let release = &tree["releases"][0];
    assert_eq!(release["is_release"], true);
    assert!(release["components_metadata"].as_array().unwrap().len() > 20);
    assert!(release["roles_metadata"]["controller"].is_object());
    let (code, _, stderr) = mosaic(&["plugin", "show", &plugin_fixture("five-mistakes")]);
    assert_eq!(code, 1);
    assert!(stderr.contains("5 errors"), "{stderr}");
}

#[test]
fn plugin_install_list_and_uninstall_use_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let db = ["--data-dir", data];
    let with_db = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&db);
        mosaic(&all)
    };
    let (code, stdout, stderr) = with_db(&["plugin", "install", &plugin_fixture("v5-example")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("installed plugin storage_demo 1.0.0"),
        "{stdout}"
    );
    let (code, report) = {
        let (code, stdout, _) = with_db(&[
            "plugin",
            "install",
            &plugin_fixture("v5-example"),
            "--format",
            "json",
        ]);
        (code, serde_json::from_str::<Value>(&stdout).unwrap())
    };
    assert_eq!(code, 1);
    assert_eq!(
        report["diagnostics"][0]["message"],
        "plugin storage_demo 1.0.0 is already installed"
    );
    let (_, stdout, _) = with_db(&["plugin", "list", "--format", "json"]);
    let list: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(list[0]["name"], "storage_demo");
    let (code, stdout, stderr) = with_db(&["plugin", "uninstall", "storage_demo"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("uninstalled"), "{stdout}");
    let (_, stdout, _) = with_db(&["plugin", "list", "--format", "json"]);
    assert_eq!(stdout.trim(), "[]");
}

fn plan_json(env: &str) -> (i32, Value) {
    let (code, stdout, stderr) = mosaic(&[
        "plan",
        &fixture(&format!("plans/{env}")),
        "--format",
        "json",
    ]);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

fn node_tasks(plan: &Value, id: i64) -> Vec<String> {
    let node = plan["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == id)
        .unwrap();
    serde_json::from_value(node["tasks"].clone()).unwrap()
}

#[test]
fn tags_resolve_follows_the_semantics_vector() {
    let nodes = fixture("plans/vector-nodes.yaml");
    for (selector, expected) in [
        ("/.*controller/", json!([0, 2, 3])),
        ("controller", json!([2, 3])),
        ("/c.+/", json!([1, 2, 3, 4])),
        ("*", json!([0, 1, 2, 3, 4])),
    ] {
        let (code, stdout, stderr) = mosaic(&[
            "tags",
            "resolve",
            "--nodes",
            &nodes,
            "--selector",
            selector,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let got: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(got, json!({"nodes": expected}), "{selector}");
    }
    let (code, _, stderr) = mosaic(&["tags", "resolve", "--nodes", &nodes, "--selector", "/(/"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("selector entry '/(/'"), "{stderr}");
}

#[test]
fn a_controller_stripped_to_rabbitmq_runs_only_rabbitmq_tasks() {
    let (code, plan) = plan_json("controller.yaml");
    assert_eq!(code, 0, "{plan:#}");
    let first = &plan["nodes"][0]["tags"];
    assert_eq!(
        first,
        &json!([
            "controller",
            "rabbitmq",
            "database",
            "keystone",
            "neutron",
            "primary-controller",
            "primary-database",
            "primary-rabbitmq"
        ])
    );
    assert_eq!(
        node_tasks(&plan, 1),
        [
            "hiera",
            "globals",
            "database",
            "primary-database",
            "rabbitmq",
            "keystone",
            "neutron-server",
            "openstack-controller"
        ]
    );
    assert_eq!(plan["nodes"][1]["tags"], json!(["rabbitmq"]));
    assert_eq!(node_tasks(&plan, 2), ["hiera", "globals", "rabbitmq"]);
    // An instance tag of a known tag is accepted, and selects nothing by itself.
    assert_eq!(node_tasks(&plan, 3), ["hiera", "globals", "nova-compute"]);
    assert_eq!(plan["instances"], json!({"database": {"2": [3]}}));
}

#[test]
fn two_plugins_overriding_one_task_conflict_only_on_a_shared_node() {
    let (code, plan) = plan_json("apart.yaml");
    assert_eq!(code, 0, "{plan:#}");
    assert_eq!(node_tasks(&plan, 2), ["hiera", "globals", "rabbitmq"]);
    assert_eq!(node_tasks(&plan, 3), ["hiera", "globals", "rabbitmq"]);
    assert!(!node_tasks(&plan, 1).contains(&"rabbitmq".to_owned()));
    let (code, plan) = plan_json("together.yaml");
    assert_eq!(code, 1);
    assert_eq!(
        plan["errors"],
        json!([{
            "kind": "task_conflict",
            "message": "task 'rabbitmq' is defined by plugins 'rabbit-a' and 'rabbit-b' and both definitions would run on node 2",
            "task": "rabbitmq",
            "plugins": ["rabbit-a", "rabbit-b"],
            "nodes": [2]
        }])
    );
}

#[test]
fn cycles_unknown_dependencies_and_unknown_tags_are_reported() {
    // An unknown dependency is a warning (SEMANTICS §6.1): the plan is made.
    let (code, plan) = plan_json("cycle.yaml");
    assert_eq!(code, 1);
    let kinds: Vec<&str> = plan["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["unknown_tag", "cycle"]);
    assert_eq!(
        plan["unresolved"],
        json!([{"kind": "unresolved_dependency", "task": "extra", "relation": "requires", "entry": "nowhere"}])
    );
    let cycle = &plan["errors"][1];
    assert_eq!(
        cycle["cycle"],
        json!(["globals", "database", "keystone", "globals"])
    );
    let message = cycle["message"].as_str().unwrap();
    assert!(
        message.starts_with("dependency cycle: globals@1 -> "),
        "{cycle}"
    );
    assert!(message.contains("rabbitmq@1"), "{cycle}");
    assert_eq!(cycle["nodes"], json!([1]));
    // Tasks on the cycle are left out; the others keep their order.
    assert_eq!(
        node_tasks(&plan, 1),
        [
            "hiera",
            "primary-database",
            "neutron-server",
            "openstack-controller"
        ]
    );
    let (code, text, _) = mosaic(&["plan", &fixture("plans/cycle.yaml")]);
    assert_eq!(code, 1);
    // The cycle is on node 1 only: node 2 keeps globals.
    assert!(text.contains("node 2: 4 tasks"), "{text}");
    assert!(
        text.trim_end().ends_with("2 nodes, 2 errors, 1 warning"),
        "{text}"
    );
}

#[test]
fn plan_cross_lists_each_task_that_waits_for_other_nodes() {
    let (code, stdout, stderr) = mosaic(&[
        "plan",
        &fixture("plans/cross.yaml"),
        "--cross",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stdout} {stderr}");
    let plan: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        plan["cross"],
        json!([
            {"task": "controller-check", "node": 1, "after": [{"task": "compute-join", "node": 2}]},
            {"task": "compute-join", "node": 2, "after": [{"task": "rabbitmq", "node": 1}]},
            {"task": "compute-join", "node": 3, "after": [{"task": "rabbitmq", "node": 1}]},
        ])
    );
    // Without the flag there is no list, so large plans stay small.
    let (_, plan) = plan_json("cross.yaml");
    assert!(plan.get("cross").is_none(), "{plan:#}");
    let (_, text, _) = mosaic(&["plan", &fixture("plans/cross.yaml"), "--cross"]);
    assert!(
        text.contains("cross-node wait: compute-join@3 after rabbitmq@1"),
        "{text}"
    );
}

/// The position of `task` in node `id`'s list.
fn at(plan: &Value, id: i64, task: &str) -> usize {
    let tasks = node_tasks(plan, id);
    let found = tasks.iter().position(|t| t == task);
    found.unwrap_or_else(|| panic!("{task} is not on node {id}: {tasks:?}"))
}

#[test]
fn plugins_written_like_fuels_plan_against_the_bundled_release() {
    let (code, stdout, stderr) = mosaic(&[
        "plan",
        &fixture("plans/relations.yaml"),
        "--cross",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stdout} {stderr}");
    let plan: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(plan["errors"], json!([]));
    // A release task the plugin expected is a warning, not an error.
    assert_eq!(
        plan["unresolved"],
        json!([{"kind": "unresolved_dependency", "task": "overlay-vrouter", "relation": "requires", "entry": "lbaas-agent"}])
    );
    // Groups' tasks lists run the release's common tasks on the plugin's nodes.
    for node in [2, 3, 4, 5] {
        assert!(at(&plan, node, "hiera") < at(&plan, node, "setup_repositories"));
    }
    // role ['/.*/'] is every node; release tasks redefined by id move.
    for node in 1..=7 {
        let override_at = at(&plan, node, "queue-hiera-override");
        assert!(
            at(&plan, node, "globals") < override_at && override_at < at(&plan, node, "logging")
        );
    }
    assert!(!node_tasks(&plan, 1).iter().any(|t| t.ends_with("rabbitmq")));
    assert!(at(&plan, 7, "primary-rabbitmq") < at(&plan, 7, "rabbitmq"));
    // self: on the node itself, no cross wait.
    assert!(at(&plan, 2, "overlay-config") < at(&plan, 2, "overlay-control"));
    let waits: Vec<String> = plan["cross"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let after: Vec<String> = w["after"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| format!("{}@{}", a["task"].as_str().unwrap(), a["node"]))
                .collect();
            format!(
                "{}@{} after {}",
                w["task"].as_str().unwrap(),
                w["node"],
                after.join(", ")
            )
        })
        .collect();
    assert_eq!(
        waits,
        [
            // policy any: one overlay controller, the smallest id.
            "overlay-keystone@1 after overlay-control@2",
            // A pattern by role: both database tasks of the analytics-db node.
            "overlay-config@2 after overlay-db@5, overlay-db-provision@5",
            "overlay-config@3 after overlay-db@5, overlay-db-provision@5",
            // A role pattern, and cross-depended-by on every node.
            "overlay-analytics-service@4 after overlay-config@2, overlay-config@3, overlay-vrouter@6",
            "overlay-vrouter@6 after overlay-control@2, overlay-control@3",
        ]
    );
    // The plugin's graphs: record adds to the release's provisioning graph.
    let (code, stdout, _) = mosaic(&[
        "graphs",
        &fixture("plans/relations.yaml"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let graphs: Value = serde_json::from_str(&stdout).unwrap();
    let provisioning = graphs
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["type"] == "provisioning");
    assert_eq!(
        provisioning.unwrap()["sources"],
        json!(["release", "plugin:overlay"])
    );
}

/// Runs `mosaic ARGS` in `dir`.
fn mosaic_in(dir: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mosaic"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("mosaic runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn heat_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["heat"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let (code, stdout, stderr) = mosaic_in(&fixture("heat"), &all);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

#[test]
fn heat_requires_picks_the_puppet_controller() {
    let (code, out) = heat_json(&["resolve", "-e", "puppet-env.yaml"]);
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(
        out,
        json!({
            "resource_registry": {
                "OS::TripleO::Controller": "puppet/controller.yaml",
                "OS::TripleO::Controller::Ports::ExternalPort": "network/noop.yaml",
                "OS::TripleO::NoOp": "OS::Heat::None"
            },
            "errors": []
        })
    );
}

#[test]
fn heat_an_empty_requires_on_a_list_is_an_error_naming_both_candidates() {
    let (code, out) = heat_json(&["resolve", "-e", "open-env.yaml"]);
    assert_eq!(code, 1);
    let error = &out["errors"][0];
    assert_eq!(error["resource_type"], "OS::TripleO::Controller");
    assert_eq!(error["candidates"][0]["file"], "puppet/controller.yaml");
    assert_eq!(error["candidates"][1]["file"], "docker/controller.yaml");
    assert_eq!(error["candidates"][1]["matched"], true);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("puppet/controller.yaml, docker/controller.yaml")
    );
    // As a choice, it is what the user still has to pick; no error.
    let (code, out) = heat_json(&["choices", "-e", "open-env.yaml"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        json!({"choices": [{"resource_type": "OS::TripleO::Controller", "candidates": ["puppet/controller.yaml", "docker/controller.yaml"]}], "errors": []})
    );
    // A requirement nothing satisfies is an error for choices too.
    let (code, out) = heat_json(&["choices", "-e", "unsatisfiable-env.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(
        out["errors"][0]["candidates"][0]["reasons"][1],
        "deployment is puppet, not ansible"
    );
}

#[test]
fn heat_capabilities_find_and_summary() {
    let (code, out) = heat_json(&[
        "capabilities-find",
        "-r",
        "-c",
        "resource_type=OS::TripleO::Controller",
        ".",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        json!({"templates": ["./docker/controller.yaml", "./puppet/controller.yaml"]})
    );
    // Without -r a directory contributes its direct children only.
    let (_, out) = heat_json(&["capabilities-find", "-c", "deployment=puppet", "."]);
    assert_eq!(out, json!({"templates": []}));
    let (_, out) = heat_json(&["capabilities-find", "-c", "deployment=puppet", "puppet"]);
    assert_eq!(out, json!({"templates": ["puppet/controller.yaml"]}));
    let (code, out) = heat_json(&[
        "template-capabilities",
        "-f",
        "puppet/controller.yaml",
        "-f",
        "docker/controller.yaml",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out["capabilities"],
        json!({"deployment": ["docker", "puppet"]})
    );
    assert_eq!(
        out["resource_types"]["OS::TripleO::Controller"],
        json!(["docker/controller.yaml", "puppet/controller.yaml"])
    );
}

#[test]
fn heat_invalid_templates_and_escaping_paths() {
    let broken = fixture("heat-broken");
    let (code, stdout, stderr) = mosaic(&["heat", "capabilities-find", "-c", "a=b", &broken]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("broken.yaml:3:1:"), "{stderr}");
    let (code, out) = heat_json(&["resolve", "-e", "escaping-env.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(
        out["errors"][0]["candidates"][0]["reasons"],
        json!(["the path leaves the template root"])
    );
}

fn settings_json(env: &str) -> (i32, Value) {
    let path = fixture(&format!("settings/{env}"));
    let (code, stdout, stderr) = mosaic(&["settings", "check", &path, "--format", "json"]);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

#[test]
fn settings_check_reports_effective_settings_problems_and_node_roles() {
    let (code, report) = settings_json("ceph.yaml");
    assert_eq!(code, 1, "{report:#}");
    // Defaults, then the binds of the file's components.
    assert_eq!(report["settings"]["storage"]["volumes_ceph"], true);
    assert_eq!(report["settings"]["storage"]["objects"], "ceph");
    assert_eq!(report["settings"]["common"]["libvirt_type"], "kvm");
    assert_eq!(report["plugins"], json!({}));
    assert_eq!(report["problems"].as_array().unwrap().len(), 1);
    assert_eq!(report["problems"][0]["path"], "access.user");
    assert_eq!(
        report["nodes"],
        json!([
            {"id": 1, "problems": []},
            {"id": 2, "problems": []},
            {"id": 3, "problems": ["Cinder LVM needs to be enabled on the Settings tab."]}
        ])
    );
    let (code, stdout, _) = mosaic(&["settings", "check", &fixture("settings/ceph.yaml")]);
    assert_eq!(code, 1);
    assert!(stdout.contains("access.user: "), "{stdout}");
    assert!(stdout.ends_with("2 problems\n"), "{stdout}");
}

#[test]
fn settings_check_switches_listed_plugins_on_unless_the_file_says_otherwise() {
    let (code, report) = settings_json("defaults.yaml");
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["plugins"], json!({"storage_demo": true}));
    assert_eq!(report["settings"]["common"]["debug"], true);
    assert_eq!(report["settings"]["storage"]["volumes_lvm"], true);
    assert_eq!(report["settings"]["storage_demo"]["enabled"], true);
    let (code, report) = settings_json("plugin-off.yaml");
    assert_eq!(code, 1);
    assert_eq!(report["plugins"], json!({"storage_demo": false}));
    assert_eq!(
        report["nodes"][1],
        json!({"id": 7, "problems": [
            "The plugin 'storage_demo' is disabled in this environment. Enable the storage demo plugin first."
        ]})
    );
}

#[test]
fn settings_check_exits_2_when_the_file_cannot_be_read() {
    let (code, stdout, stderr) = mosaic(&["settings", "check", &fixture("settings/broken.yaml")]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("broken.yaml:"), "{stderr}");
    let (code, _, stderr) = mosaic(&["settings", "check", &fixture("settings/none.yaml")]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("mosaic: cannot read"), "{stderr}");
}

#[test]
fn plans_skip_what_the_settings_turn_off() {
    let (code, plan) = plan_json("../settings/ceph.yaml");
    // The settings problem is an error of the plan too.
    assert_eq!(code, 1);
    let kinds: Vec<&str> = plan["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["invalid_environment"], "{plan:#}");
    let skipped: Vec<&str> = plan["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert!(
        skipped.contains(&"swift") && skipped.contains(&"top-role-cinder"),
        "{skipped:?}"
    );
    assert!(node_tasks(&plan, 2).contains(&"top-role-ceph-osd".to_owned()));
    let (code, plan) = plan_json("../settings/defaults.yaml");
    assert_eq!(code, 0, "{plan:#}");
    assert!(
        node_tasks(&plan, 3).contains(&"storage_demo-deployment".to_owned()),
        "{plan:#}"
    );
    let (_, plan) = plan_json("../settings/plugin-off.yaml");
    assert!(
        !node_tasks(&plan, 7).contains(&"storage_demo-deployment".to_owned()),
        "{plan:#}"
    );
}

fn pane_json(registry: &str, select: &str, pane: &str) -> (i32, Value) {
    let (code, stdout, stderr) = mosaic(&[
        "components",
        "check",
        "--registry",
        registry,
        "--select",
        select,
        "--pane",
        pane,
        "--format",
        "json",
    ]);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    (code, json)
}

#[test]
fn a_pane_judges_with_earlier_panes_fixed_and_repairs_may_select() {
    let bundled = format!(
        "{}/../releases/openstack/components.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let (_, json) = pane_json(
        &bundled,
        "hypervisor:libvirt:kvm,network:neutron:core:ml2",
        "network",
    );
    let nsx = component(&json, "network:neutron:core:nsx");
    assert_eq!(nsx["state"], "blocked");
    assert_eq!(nsx["reasons"][0]["kind"], "earlier_pane");
    assert_eq!(nsx["reasons"][0]["pane"], "hypervisor");
    assert_eq!(
        nsx["reasons"][0]["components"],
        json!(["network:neutron:core:nsx", "hypervisor:vmware"])
    );
    assert_eq!(
        nsx["repair"],
        json!({"select": ["hypervisor:vmware"], "deselect": []})
    );
    assert_eq!(
        component(&json, "network:neutron:ml2:dvs")["state"],
        "blocked"
    );
    // When vCenter and KVM exclude each other, the repair replaces KVM.
    let (_, json) = pane_json(
        &fixture("vcenter-alone.yaml"),
        "hypervisor:libvirt:kvm,network:neutron:core:ml2,storage:block:lvm",
        "network",
    );
    assert_eq!(
        component(&json, "network:neutron:core:nsx")["repair"],
        json!({"select": ["hypervisor:vmware"], "deselect": ["hypervisor:libvirt:kvm"]})
    );
    // Without --pane, as before: NSX looks available (vCenter can be added),
    // and repairs only deselect, with an empty select.
    let (_, json) = check_json(&["--select", "hypervisor:vmware,network:neutron:core:ml2"]);
    let blocked = json["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["state"] == "blocked")
        .unwrap();
    assert_eq!(blocked["repair"]["select"], json!([]));
    let (code, _, stderr) = mosaic(&[
        "components",
        "check",
        "--registry",
        &bundled,
        "--pane",
        "compute",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("'compute' is not a component type"),
        "{stderr}"
    );
}

#[test]
fn the_matrix_shows_the_seed_pattern() {
    let (code, stdout, stderr) = mosaic(&[
        "components",
        "matrix",
        "--registry",
        &fixture("seed-matrix.yaml"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let m: Value = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = m["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let at = |a: &str, b: &str| {
        let (i, j) = (
            names.iter().position(|n| *n == a).unwrap(),
            names.iter().position(|n| *n == b).unwrap(),
        );
        m["cells"][i][j].as_str().unwrap().to_owned()
    };
    assert_eq!(at("hypervisor:libvirt:kvm", "hypervisor:libvirt:qemu"), "X");
    assert_eq!(at("hypervisor:libvirt:qemu", "hypervisor:libvirt:kvm"), "X");
    assert_eq!(at("network:neutron:core:test_net", "hypervisor:xen"), "C");
    assert_eq!(at("hypervisor:xen", "network:neutron:core:test_net"), "C");
    assert_eq!(
        at("network:neutron:core:test_net", "hypervisor:libvirt:qemu"),
        "X"
    );
    assert_eq!(
        at("network:neutron:core:contrail", "hypervisor:vmware"),
        "X"
    );
    assert_eq!(
        at("network:neutron:core:contrail", "network:neutron:core:ml2"),
        "X"
    );
    assert_eq!(at("network:neutron:ml2:dvs", "hypervisor:vmware"), "R");
    assert_eq!(at("hypervisor:vmware", "network:neutron:ml2:dvs"), "");
    assert_eq!(at("storage:block:ceph", "storage:block:lvm"), "X");
    assert_eq!(at("storage:block:ceph", "storage:block:ceph"), "");
    assert_eq!(m["dead"], json!([]));
    let (code, svg, _) = mosaic(&[
        "components",
        "matrix",
        "--registry",
        &fixture("seed-matrix.yaml"),
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0);
    assert!(
        svg.contains("<title>Contrail not compatible with VMware for now</title>"),
        "{svg}"
    );
    let (code, _, stderr) = mosaic(&[
        "components",
        "matrix",
        "--registry",
        &fixture("bad-name.yaml"),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bad-name.yaml:"), "{stderr}");
}

/// Runs `mosaic ARGS` with `input` on stdin.
fn mosaic_with_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mosaic"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("mosaic runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn users_tokens_and_the_audit_log_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    fn with<'a>(args: &[&'a str], data: &'a str) -> Vec<&'a str> {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--data-dir", data]);
        all
    }
    let with_db = |args: &[&'static str]| with(args, data);
    let create = with_db(&["user", "create", "alice", "--role", "operator"]);
    let (code, stdout, stderr) = mosaic_with_stdin(&create, "a long enough secret\n");
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let (code, _, stderr) = mosaic_with_stdin(&create, "a long enough secret\n");
    assert_eq!(code, 1);
    assert!(stderr.contains("'alice' exists already"), "{stderr}");
    let weak = with_db(&["user", "create", "bob", "--role", "viewer"]);
    let (code, _, stderr) = mosaic_with_stdin(&weak, "short\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("too short"), "{stderr}");
    let (code, _, stderr) = mosaic_with_stdin(
        &with_db(&["user", "create", "bad name", "--role", "viewer"]),
        "a long enough secret\n",
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("invalid user name 'bad name'"), "{stderr}");
    let (code, _, stderr) = mosaic(&with_db(&["user", "create", "carol", "--role", "root"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown role 'root'"), "{stderr}");

    let (_, stdout, _) = mosaic(&with_db(&["user", "list", "--format", "json"]));
    let users: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(users[0]["username"], "alice");
    assert_eq!(users[0]["role"], "operator");

    let (code, stdout, stderr) = mosaic(&with_db(&[
        "token", "create", "--role", "viewer", "--name", "ci",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let token = stdout.trim_end_matches('\n');
    assert!(
        token.starts_with("mosaic_") && !token.contains('\n'),
        "{stdout}"
    );
    assert!(stderr.contains("'ci'"), "{stderr}");
    let (code, _, _) = mosaic(&with_db(&[
        "token", "create", "--role", "viewer", "--name", "ci",
    ]));
    assert_eq!(code, 1);
    let (_, stdout, _) = mosaic(&with_db(&["token", "list"]));
    assert!(
        stdout.contains("ci") && stdout.contains("viewer") && !stdout.contains(token),
        "{stdout}"
    );
    assert_eq!(mosaic(&with_db(&["token", "revoke", "ci"])).0, 0);
    let (code, _, stderr) = mosaic(&with_db(&["token", "revoke", "ci"]));
    assert_eq!(code, 1);
    assert!(stderr.contains("no token labelled 'ci'"), "{stderr}");

    let (code, stdout, _) = mosaic(&with_db(&["audit", "--format", "json"]));
    assert_eq!((code, stdout.trim()), (0, "[]"));
}

#[test]
fn graphs_lists_an_environment_files_graph_types_as_the_route_does() {
    let env = fixture("plans/graphs.yaml");
    let (code, stdout, stderr) = mosaic(&["graphs", &env, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        listed[0]["sources"],
        json!(["release", "plugin:burnin", "environment"])
    );
    assert_eq!(listed[0]["name"], "default deployment graph");
    assert_eq!(
        listed.as_array().unwrap()[1..],
        [
            json!({"type": "burn_in", "name": "hardware burn-in", "tasks": 2, "sources": ["plugin:burnin"]}),
            json!({"type": "deletion", "name": "deletion", "tasks": 2, "sources": ["release"]}),
            json!({"type": "provisioning", "name": "provisioning", "tasks": 4, "sources": ["release", "plugin:burnin"]}),
        ]
    );
    let (code, text, _) = mosaic(&["graphs", &env]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "TYPE          NAME                      TASKS  SOURCES"
    );
    assert!(
        lines[1].starts_with("default       default deployment graph  ")
            && lines[1].ends_with("release,plugin:burnin,environment"),
        "{text}"
    );
    assert_eq!(
        lines[2],
        "burn_in       hardware burn-in          2      plugin:burnin"
    );
    let (code, _, stderr) = mosaic(&["graphs", &fixture("plans/missing.yaml")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.yaml"), "{stderr}");
}

#[test]
fn plan_graph_plans_a_plugins_type_and_exits_1_for_a_type_nobody_defines() {
    let env = fixture("plans/graphs.yaml");
    let (code, plan) = plan_json("graphs.yaml");
    assert_eq!(code, 0, "{plan:#}");
    assert!(node_tasks(&plan, 2).contains(&"burnin-sensors".to_owned()));
    assert!(node_tasks(&plan, 2).contains(&"audit-log".to_owned()));
    let (code, stdout, stderr) = mosaic(&["plan", &env, "--graph", "burn_in", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let plan: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(node_tasks(&plan, 1), ["burnin-stress", "burnin-report"]);
    let (code, stdout, _) = mosaic(&["plan", &env, "--graph", "provisioning", "--format", "json"]);
    assert_eq!(code, 0);
    let plan: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        node_tasks(&plan, 2),
        [
            "upload_provision_data",
            "burnin-firmware-check",
            "provision",
            "reboot_provisioned_nodes"
        ]
    );

    let (code, stdout, _) = mosaic(&["plan", &env, "--graph", "nothing", "--format", "json"]);
    assert_eq!(code, 1);
    let plan: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(plan["nodes"], json!([]));
    assert_eq!(plan["errors"][0]["kind"], "unknown_graph");
    assert_eq!(
        plan["errors"][0]["message"],
        "no graph of type 'nothing': neither the release nor an enabled plugin nor the environment defines one (defined: default, burn_in, deletion, provisioning)"
    );
    let (code, text, _) = mosaic(&["plan", &env, "--graph", "nothing"]);
    assert_eq!(code, 1);
    assert!(
        text.contains("error (unknown_graph): no graph of type 'nothing'"),
        "{text}"
    );
}

/// Runs `mosaic ARGS` with stdout a pipe whose reader is closed before the
/// command writes anything, as `mosaic … | head -0` would; returns (exit
/// code, stderr).
fn mosaic_into_closed_pipe(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mosaic"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("mosaic runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("mosaic ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_ends_quietly_when_its_reader_closes() {
    let (settings, relations) = (
        fixture("settings/ceph.yaml"),
        fixture("plans/relations.yaml"),
    );
    let (roles, models, nodes) = (
        fixture("roles.yaml"),
        fixture("models.yaml"),
        fixture("nodes.yaml"),
    );
    let dvs = fixture("dvs.yaml");
    let v5 = plugin_fixture("v5-example");
    let data = tempfile::tempdir().unwrap();
    let data = data.path().to_str().unwrap();
    let commands: [&[&str]; 12] = [
        &["settings", "check", &settings, "--format", "json"],
        &["settings", "check", &settings],
        &["plan", &relations, "--cross"],
        &["plan", &relations, "--format", "json"],
        &["graphs", &relations],
        &[
            "components",
            "check",
            "--registry",
            &dvs,
            "--format",
            "json",
        ],
        &["components", "matrix", "--registry", &dvs],
        &[
            "roles", "check", "--roles", &roles, "--models", &models, "--nodes", &nodes,
        ],
        &["plugin", "show", &v5],
        &["user", "list", "--data-dir", data],
        &["audit", "--data-dir", data],
        &["--help"],
    ];
    for args in commands {
        let (code, stderr) = mosaic_into_closed_pipe(args);
        assert!(stderr.is_empty(), "{args:?} wrote {stderr}");
        // `--help` is clap's, which ends with 0 however its write went.
        let expected = if args == ["--help"] { 0 } else { 141 };
        assert_eq!(code, expected, "{args:?}");
    }
}

/// An environment of the bundled release on `server` choosing
/// `components`, with a node named after each of `nodes` (name, role):
/// its id.
fn served_environment(
    server: &Server,
    name: &str,
    components: &[&str],
    nodes: &[(&str, &str)],
) -> i64 {
    let release = server.api("/api/v1/releases")[0]["id"].clone();
    let body = json!({"name": name, "release_id": release, "components": components});
    let env = server.expect("POST", "/api/v1/clusters", Some(&body))["id"]
        .as_i64()
        .unwrap();
    for (node, role) in nodes {
        let body = json!({"name": node, "roles": [role]});
        server.expect(
            "POST",
            &format!("/api/v1/clusters/{env}/nodes"),
            Some(&body),
        );
    }
    env
}

#[test]
fn a_refused_export_names_every_problem_and_writes_nothing() {
    let server = start();
    served_environment(
        &server,
        "overlay",
        &[
            "hypervisor:libvirt:kvm",
            "network:neutron:core:contrail",
            "storage:block:backend:lvm",
            "storage:object:backend:swift",
            "storage:image:swift",
        ],
        &[("bad name", "controller"), ("cmp-1", "compute")],
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("overlay-kolla");
    let target = out.to_str().unwrap();
    let (code, stdout, stderr) = server.run(&[
        "env",
        "export",
        "overlay",
        "--to",
        "kolla-ansible",
        "-o",
        target,
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("409 not_exportable"), "{stderr}");
    assert!(
        stderr.contains("component network:neutron:core:contrail: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("\n  node 1: node 'bad name': its name is not a valid host name"),
        "{stderr}"
    );
    assert_eq!(stdout, "");
    assert!(!out.exists(), "the refused export created {target}");
}

#[test]
fn an_export_writes_its_files_under_the_directory_and_prints_them() {
    let server = start();
    let env = served_environment(
        &server,
        "prod",
        &[
            "hypervisor:libvirt:kvm",
            "network:neutron:core:ml2",
            "network:neutron:ml2:vlan",
            "network:neutron:ml2:ovs",
            "storage:block:backend:lvm",
            "storage:object:backend:swift",
            "storage:image:swift",
        ],
        &[("ctl-1", "controller"), ("cmp-1", "compute")],
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("prod-kolla");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("globals.yml"), "stale\n").unwrap();
    std::fs::write(out.join("passwords.yml"), "mine\n").unwrap();
    let target = out.to_str().unwrap();
    let (code, stdout, stderr) = server.run(&[
        "env",
        "export",
        "prod",
        "--to",
        "kolla-ansible",
        "-o",
        target,
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let export = server.api(&format!("/api/v1/clusters/{env}/deployers/kolla-ansible"));
    let files = export["files"].as_object().unwrap();
    let printed: Vec<&str> = stdout.lines().collect();
    let expected: Vec<String> = files
        .keys()
        .map(|name| format!("wrote {}", out.join(name).display()))
        .collect();
    assert_eq!(printed, expected);
    for (name, text) in files {
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            text.as_str().unwrap(),
            "{name}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(out.join("passwords.yml")).unwrap(),
        "mine\n",
        "files the export does not write are left"
    );
    assert!(
        stderr.contains("mosaic: warning: 2 nodes declare no interfaces"),
        "{stderr}"
    );
}
