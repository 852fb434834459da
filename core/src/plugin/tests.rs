use super::*;

const EXTENSION: &str = "name: demo
title: Demo
version: '1.0.0'
package_version: '5.0.0'
description: A demo.
licenses: [Apache]
authors: [Me]
homepage: https://example.org
releases:
  - os: ubuntu
    version: '2024.1'
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
";

const RELEASE: &str = "name: stack
title: Stack
version: '1.0.0'
package_version: '5.0.0'
description: Two releases.
licenses: [Apache]
authors: [Me]
homepage: https://example.org
releases:
  - is_release: true
    release_name: stack
    description: First.
    operating_system: Ubuntu
    version: '1.0'
    components_path: components.yaml
    roles_path: roles.yaml
    graphs:
      - {type: default, tasks_path: graphs/*.yaml}
  - is_release: true
    release_name: stack
    description: Second.
    os: CentOS
    version: '2.0'
    base_release_path: base.yaml
    roles_path: roles.yaml
";

fn package(files: &[(&str, &str)]) -> MemoryFiles {
    files.iter().copied().collect()
}

fn extension(extra: &[(&str, &str)]) -> MemoryFiles {
    let mut files = package(&[
        ("metadata.yaml", EXTENSION),
        ("deployment_scripts/", ""),
        ("repositories/ubuntu/", ""),
    ]);
    for (path, text) in extra {
        files.insert(path, *text);
    }
    files
}

/// The diagnostics as `file:line: severity: path: message` lines.
fn lines(loaded: &Loaded) -> Vec<String> {
    loaded
        .report
        .diagnostics
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn assert_has(loaded: &Loaded, needle: &str) {
    assert!(
        lines(loaded).iter().any(|l| l.contains(needle)),
        "no diagnostic contains {needle:?}:\n{}",
        lines(loaded).join("\n")
    );
}

#[test]
fn a_minimal_extension_loads_without_diagnostics() {
    let loaded = load(&extension(&[(
        "components.yaml",
        "- name: additional_service:demo\n",
    )]));
    assert_eq!(lines(&loaded), Vec::<String>::new());
    let package = loaded.package.unwrap();
    assert_eq!(
        package.components_metadata[0].name.as_str(),
        "additional_service:demo"
    );
    let compat: Vec<_> = package.compatibility().collect();
    assert_eq!(compat[0].operating_system, "ubuntu");
    assert_eq!(
        compat[0].deployment_scripts_path.as_deref(),
        Some("deployment_scripts/")
    );
    assert_eq!(
        loaded.report.releases,
        [ReleaseId {
            name: String::new(),
            version: "2024.1".into(),
            operating_system: "ubuntu".into(),
            is_release: false
        }]
    );
}

#[test]
fn two_release_records_and_glob_merged_graphs_load_into_two_releases() {
    let files = package(&[
        ("metadata.yaml", RELEASE),
        ("components.yaml", "- name: hypervisor:kvm\n"),
        (
            "roles.yaml",
            "controller: {name: Controller, description: Runs the APIs.}\n",
        ),
        (
            "graphs/10-b.yaml",
            "- {id: b, type: stage, requires: [a]}\n",
        ),
        ("graphs/00-a.yaml", "- {id: a, type: stage}\n"),
        (
            "base.yaml",
            "description: Base.\ntags_metadata: {controller: {has_primary: true}}\nattributes: {editable: {common: {debug: {type: checkbox, value: false}}}}\n",
        ),
    ]);
    let loaded = load(&files);
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    // Two release records in one plugin is allowed, with a warning.
    assert_has(&loaded, "2 release records in one plugin");
    let package = loaded.package.unwrap();
    let releases: Vec<&Release> = package.releases().collect();
    assert_eq!(releases.len(), 2);
    let ids: Vec<&str> = releases[0].graphs[0]
        .tasks
        .iter()
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(
        ids,
        ["a", "b"],
        "glob matches are concatenated in path order"
    );
    assert_eq!(releases[0].components_metadata.len(), 1);
    let roles: Vec<&str> = releases[0]
        .roles_metadata
        .names()
        .map(|r| r.as_str())
        .collect();
    assert_eq!(roles, ["controller"]);
    // The second record: `os` stored as operating_system, the base release
    // as a template its own keys override.
    assert_eq!(releases[1].operating_system, "CentOS");
    assert_eq!(releases[1].description, "Second.");
    assert!(releases[1].tags_metadata["controller"].has_primary);
    let editable = &releases[1].attributes_metadata.editable;
    assert_eq!(editable.groups[0].attributes[0].name, "debug");
}

#[test]
fn globbed_maps_merge_key_by_key_and_mixed_roots_are_an_error() {
    let meta = RELEASE.replace(
        "roles_path: roles.yaml\n    graphs",
        "roles_path: roles/*.yaml\n    graphs",
    );
    let files = package(&[
        ("metadata.yaml", &meta),
        ("components.yaml", ""),
        ("roles.yaml", "{}\n"),
        (
            "roles/a.yaml",
            "x: {name: X, description: first}\ny: {name: Y, description: y}\n",
        ),
        ("roles/b.yaml", "x: {name: X2, description: second}\n"),
        ("graphs/a.yaml", "- {id: a, type: stage}\n"),
        ("base.yaml", "{}\n"),
    ]);
    let loaded = load(&files);
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    let package = loaded.package.unwrap();
    let roles = &package.releases().next().unwrap().roles_metadata;
    assert_eq!(roles.get("x").unwrap().name, "X2");
    assert_eq!(roles.get("y").unwrap().name, "Y");

    let mut files = files;
    files.insert("graphs/b.yaml", "{c: 1}\n");
    let loaded = load(&files);
    assert_has(
        &loaded,
        "cannot be merged: lists in graphs/a.yaml; maps in graphs/b.yaml",
    );
}

#[test]
fn release_and_extension_records_together_are_an_error() {
    let meta = RELEASE.replace(
        "  - is_release: true\n    release_name: stack\n    description: Second.",
        "  - os: ubuntu\n    version: '1'\n    deployment_scripts_path: d/\n    repository_path: d/\n  - is_release: true\n    release_name: stack\n    description: Second.",
    );
    let files = package(&[("metadata.yaml", &meta), ("d/", "")]);
    let loaded = load(&files);
    assert_has(&loaded, "either a release plugin or an extension");
    assert!(loaded.package.is_none());
}

#[test]
fn paths_that_leave_the_package_are_errors() {
    let meta = EXTENSION.replace("deployment_scripts/", "../../etc/passwd");
    let loaded = load(&package(&[
        ("metadata.yaml", &meta),
        ("repositories/ubuntu/", ""),
    ]));
    assert_has(
        &loaded,
        "metadata.yaml:12: error: releases[0].deployment_scripts_path: deployment_scripts_path: '../../etc/passwd' leaves the package",
    );
    let meta = EXTENSION.replace("deployment_scripts/", "/etc");
    let loaded = load(&package(&[
        ("metadata.yaml", &meta),
        ("repositories/ubuntu/", ""),
    ]));
    assert_has(&loaded, "'/etc' leaves the package: it is an absolute path");

    let mut files = extension(&[]);
    files.insert_outside("scripts");
    let meta = EXTENSION.replace("deployment_scripts/", "scripts");
    files.insert("metadata.yaml", meta);
    assert_has(
        &load(&files),
        "'scripts' leaves the package: it is (or goes through) a link",
    );

    // A glob that matches a link leading out.
    let mut files = package(&[
        ("metadata.yaml", RELEASE),
        ("components.yaml", ""),
        ("roles.yaml", "{}"),
        ("base.yaml", "{}"),
    ]);
    files.insert("graphs/a.yaml", "[]");
    files.insert_outside("graphs/evil.yaml");
    assert_has(
        &load(&files),
        "graphs/evil.yaml is a link that leads out of the package",
    );
}

#[test]
fn duplicate_keys_are_reported_with_both_lines_and_checking_goes_on() {
    let roles = "rabbit:\n  name: RabbitMQ\n  description: d\n  limits:\n  conflicts: [controller]\n  limits:\n    min: 1\n  weight: heavy\n";
    let loaded = load(&extension(&[("node_roles.yaml", roles)]));
    assert_has(
        &loaded,
        "node_roles.yaml:6: error: rabbit.limits: key 'limits' is given twice (lines 4 and 6); the later value is used",
    );
    // The later value (`min: 1`) is used, so only `weight` is left to fault.
    assert_has(
        &loaded,
        "node_roles.yaml:8: error: rabbit.weight: must be a whole number",
    );
    assert_eq!(loaded.report.errors, 2, "{}", loaded.report);
}

#[test]
fn every_mistake_is_reported_with_its_file_and_line() {
    let meta = EXTENSION
        .replace("name: demo", "name: Demo Plugin")
        .replace("version: '1.0.0'", "version: 1.0.0.0");
    let files = extension(&[
        ("metadata.yaml", &meta),
        (
            "components.yaml",
            "- name: hypervisor:kvm\n- name: 'network:Neutron'\n",
        ),
        (
            "deployment_tasks.yaml",
            "- id: a\n  type: puppet\n  parameters: {puppet_manifest: a.pp, timeout: 10}\n- id: b\n  type: ansible\n",
        ),
        (
            "node_roles.yaml",
            "r:\n  name: R\n  description: d\n  restrictions:\n    - condition: \"settings:a.b == \"\n",
        ),
    ]);
    let loaded = load(&files);
    let got = lines(&loaded);
    for expected in [
        "metadata.yaml:1: error: name: plugin name 'Demo Plugin' must match",
        "metadata.yaml:3: error: version: version '1.0.0.0' must look like 1.0 or 1.0.0",
        "components.yaml:2: error: [1]: component 'network:Neutron'",
        "deployment_tasks.yaml:3: error: [0].parameters: puppet task 'a' is missing parameter 'puppet_modules'",
        "deployment_tasks.yaml:5: error: [1].type: task 'b' has unknown type 'ansible'",
        "node_roles.yaml:5: error: r.restrictions[0].condition:",
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in\n{}",
            got.join("\n")
        );
    }
    assert_eq!(loaded.report.errors, 6, "{}", loaded.report);
}

#[test]
fn missing_or_broken_metadata_gives_no_plugin() {
    let loaded = load(&package(&[("components.yaml", "[]")]));
    assert_eq!(loaded.report.plugin, None);
    assert_has(&loaded, "metadata.yaml is missing");
    let loaded = load(&package(&[("metadata.yaml", "name: [\n")]));
    assert_eq!(loaded.report.plugin, None);
    assert_eq!(loaded.report.errors, 1);
}

#[test]
fn deprecated_and_unknown_keys_are_warnings() {
    let meta = format!("{EXTENSION}fuel_version: ['9.0']\nflavour: spicy\n");
    let loaded = load(&extension(&[
        ("metadata.yaml", &meta),
        ("tasks.yaml", "[]"),
    ]));
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    assert_has(&loaded, "'fuel_version' is deprecated");
    assert_has(&loaded, "unknown key 'flavour'");
    assert_has(
        &loaded,
        "tasks.yaml is not supported from package version 5.0.0",
    );
    assert_eq!(loaded.report.summary(), "0 errors, 3 warnings");
}

#[test]
fn duplicate_task_ids_are_errors_within_a_graph() {
    let loaded = load(&extension(&[(
        "deployment_tasks.yaml",
        "- {id: a, type: stage}\n- {id: a, type: stage}\n",
    )]));
    assert_has(
        &loaded,
        "deployment_tasks.yaml:2: error: [1].id: task id 'a' is defined twice (first in deployment_tasks.yaml line 1)",
    );
}

#[test]
fn relations_are_checked_where_they_are_written() {
    let tasks = "- id: a\n  type: stage\n  cross-depends:\n    - {name: b, policy: some}\n\
- id: b\n  type: stage\n  requires: ['/(/']\n\
- id: g\n  type: group\n  role: [x]\n  cross-depended-by:\n    - {name: a, role: [self, x]}\n";
    let loaded = load(&extension(&[("deployment_tasks.yaml", tasks)]));
    assert_has(
        &loaded,
        "deployment_tasks.yaml:4: error: [0].cross-depends: task 'a': policy must be 'all' or 'any', not \"some\"",
    );
    let report = loaded.report.to_string();
    assert!(
        report.contains(
            "deployment_tasks.yaml:7: error: [1].requires: task 'b': entry '/(/': regex parse error"
        ),
        "{report}"
    );
    assert!(
        report.contains("deployment_tasks.yaml:12: error: [2].cross-depended-by: task 'g': role 'self' cannot be combined with other roles"),
        "{report}"
    );
}

#[test]
fn yaml_anchors_merges_and_pairs_are_understood() {
    let components = "- &base\n  name: hypervisor:kvm\n  bind: !!pairs\n    - 'settings:common.libvirt_type.value': kvm\n- <<: *base\n  name: hypervisor:qemu\n";
    let loaded = load(&extension(&[("components.yaml", components)]));
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    let package = loaded.package.unwrap();
    assert_eq!(
        package.components_metadata[1].name.as_str(),
        "hypervisor:qemu"
    );
    assert_eq!(package.components_metadata[1].bind.len(), 1);
}

fn installed(files: MemoryFiles) -> Package {
    let loaded = load(&files);
    loaded
        .package
        .unwrap_or_else(|| panic!("{}", loaded.report))
}

#[test]
fn installs_refuse_what_collides_with_the_release_or_other_plugins() {
    let release = installed(package(&[
        (
            "metadata.yaml",
            &RELEASE
                .replace("os: CentOS", "os: ubuntu")
                .replace("version: '2.0'", "version: '2024.1-x'"),
        ),
        ("components.yaml", "- name: hypervisor:kvm\n"),
        ("roles.yaml", "controller: {name: C, description: d}\n"),
        ("graphs/a.yaml", "[]"),
        (
            "base.yaml",
            "volumes_metadata: {volumes: [{id: os, type: vg}]}\ncomponents: [{name: 'hypervisor:kvm'}]\n",
        ),
    ]));
    let demo = installed(extension(&[
        (
            "components.yaml",
            "- name: hypervisor:kvm\n- name: additional_service:demo\n",
        ),
        (
            "node_roles.yaml",
            "controller: {name: C, description: d}\nmine: {name: M, description: d}\n",
        ),
        (
            "volumes.yaml",
            "volumes: [{id: os, type: vg}]\nvolumes_roles_mapping: {mine: [{id: nope, allocate_size: min}]}\n",
        ),
    ]));
    let problems = check_install(
        &demo,
        Installed {
            plugins: std::slice::from_ref(&release),
        },
    );
    let messages: Vec<&str> = problems.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "component 'hypervisor:kvm' is defined by both release 'stack (2024.1-x)' (plugin stack 1.0.0) and plugin demo 1.0.0",
            "roles already defined by release 'stack (2024.1-x)' (plugin stack 1.0.0): controller",
            "volumes already defined by release 'stack (2024.1-x)' (plugin stack 1.0.0): os",
            "volumes_roles_mapping.mine: volume 'nope' is defined neither by the plugin nor by release 'stack (2024.1-x)'",
        ]
    );
    // Installing the same version twice, and a second plugin with a clashing component.
    let plain = installed(extension(&[(
        "components.yaml",
        "- name: additional_service:demo\n",
    )]));
    let again = check_install(
        &plain,
        Installed {
            plugins: &[release.clone(), plain.clone()],
        },
    );
    assert_eq!(again[0].message, "plugin demo 1.0.0 is already installed");
    let mut other = plain.clone();
    other.name = crate::name::PluginName::new("other").unwrap();
    let clash = check_install(
        &other,
        Installed {
            plugins: &[release, plain],
        },
    );
    assert_eq!(
        clash[0].message,
        "component 'additional_service:demo' is defined by both plugin demo 1.0.0 and plugin other 1.0.0 (both extend release 'stack (2024.1-x)')"
    );
}

#[test]
fn relations_to_components_nobody_declares_are_warnings_with_the_closest_names() {
    let release = installed(package(&[
        (
            "metadata.yaml",
            &RELEASE
                .replace("os: CentOS", "os: ubuntu")
                .replace("version: '2.0'", "version: '2024.1-x'"),
        ),
        ("components.yaml", "[]\n"),
        ("roles.yaml", "{}\n"),
        ("graphs/a.yaml", "[]"),
        (
            "base.yaml",
            "components: [{name: 'hypervisor:libvirt:kvm'}, {name: 'hypervisor:vmware'}, {name: 'storage:block:lvm'}]\n",
        ),
    ]));
    let demo = installed(extension(&[(
        "components.yaml",
        "- name: additional_service:demo\n  requires: [{name: 'hypervisor:kvm'}]\n  \
         incompatible: [{name: 'storage:block:*'}, {name: 'network:nothing'}]\n",
    )]));
    let problems = check_install(
        &demo,
        Installed {
            plugins: std::slice::from_ref(&release),
        },
    );
    let messages: Vec<&str> = problems.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "component 'additional_service:demo' names 'network:nothing' in incompatible, but no component of release 'stack (2024.1-x)' or its plugins is called that",
            "component 'additional_service:demo' names 'hypervisor:kvm' in requires, but no component of release 'stack (2024.1-x)' or its plugins is called that; did you mean 'hypervisor:libvirt:kvm'?",
        ]
    );
    assert!(problems.iter().all(|d| d.severity == Severity::Warning));
}

#[test]
fn binds_that_set_nothing_are_warnings() {
    let files = package(&[
        ("metadata.yaml", RELEASE),
        (
            "components.yaml",
            "- name: hypervisor:kvm\n  bind: ['settings:common.nothing.value', 'settings:common.debug.value', 'network:x']\n",
        ),
        ("roles.yaml", "{}\n"),
        ("graphs/a.yaml", "- {id: a, type: stage}\n"),
        (
            "base.yaml",
            "attributes: {editable: {common: {debug: {type: checkbox, value: false}}}}\n",
        ),
    ]);
    let loaded = load(&files);
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    assert_has(
        &loaded,
        "components.yaml:2: warning: [0].bind: component 'hypervisor:kvm' binds 'network:x'",
    );
    // The first release has no attributes: both settings binds do nothing there.
    assert_has(
        &loaded,
        "binds 'settings:common.nothing.value', which is not one of its settings",
    );
    assert_has(
        &loaded,
        "binds 'settings:common.debug.value', which is not one of its settings",
    );
}

/// `EXTENSION` with `graphs:` records appended.
fn with_graphs(records: &str) -> String {
    format!("{EXTENSION}graphs:\n{records}")
}

#[test]
fn an_extensions_graph_records_load_and_survive_being_stored() {
    let meta = with_graphs(
        "  - type: provisioning\n    name: provisioning with checks\n    tasks_path: graphs/provisioning.yaml\n  - {type: burn_in, tasks_path: graphs/burn-in/*.yaml}\n",
    );
    let loaded = load(&extension(&[
        ("metadata.yaml", &meta),
        (
            "graphs/provisioning.yaml",
            "- {id: check, type: shell, tags: ['*'], parameters: {cmd: x}}\n",
        ),
        ("graphs/burn-in/a.yaml", "- {id: stress, type: stage}\n"),
        ("graphs/burn-in/b.yaml", "- {id: report, type: stage}\n"),
    ]));
    assert_eq!(lines(&loaded), Vec::<String>::new());
    let package = loaded.package.unwrap();
    let graphs: Vec<(&str, Option<&str>, Vec<&str>)> = package
        .graphs
        .iter()
        .map(|g| {
            let ids = g.tasks.iter().map(|t| t.id.as_str()).collect();
            (g.kind.as_str(), g.name.as_deref(), ids)
        })
        .collect();
    assert_eq!(
        graphs,
        [
            (
                "provisioning",
                Some("provisioning with checks"),
                vec!["check"]
            ),
            ("burn_in", None, vec!["stress", "report"]),
        ]
    );
    assert_eq!(package.graph("burn_in").unwrap().tasks.len(), 2);
    // Stored as JSON and read back (a server restart), and a plugin stored
    // before graphs were read has none.
    let stored = serde_json::to_value(&package).unwrap();
    assert_eq!(
        serde_json::from_value::<Package>(stored.clone()).unwrap(),
        package
    );
    let mut old = stored;
    old.as_object_mut().unwrap().remove("graphs");
    assert!(
        serde_json::from_value::<Package>(old)
            .unwrap()
            .graphs
            .is_empty()
    );
}

#[test]
fn every_mistake_in_an_extensions_graph_records_has_its_file_and_line() {
    let meta = with_graphs(
        "  - {type: provisioning, tasks_path: graphs/provisioning.yaml}\n  - {type: provisioning, tasks_path: graphs/other.yaml}\n  - {type: Burn In, tasks_path: graphs/other.yaml}\n  - {type: deletion}\n  - {type: broken, tasks_path: graphs/broken.yaml}\n  - {type: missing, tasks_path: graphs/missing.yaml}\n",
    );
    let loaded = load(&extension(&[
        ("metadata.yaml", &meta),
        (
            "graphs/provisioning.yaml",
            "- {id: a, type: stage}\n- {id: b, type: ansible}\n- {id: a, type: stage}\n",
        ),
        ("graphs/other.yaml", "[]\n"),
        ("graphs/broken.yaml", "- id: [\n"),
    ]));
    let got = lines(&loaded);
    for expected in [
        "graphs/provisioning.yaml:2: error: [1].type: task 'b' has unknown type 'ansible'",
        "graphs/provisioning.yaml:3: error: [2].id: task id 'a' is defined twice (first in graphs/provisioning.yaml line 1)",
        "metadata.yaml:16: error: graphs[1]: a second graph of type 'provisioning' (first on line 15): give each type once",
        "metadata.yaml:17: error: graphs[2].type: 'Burn In' is not a valid graph type",
        "metadata.yaml:18: error: graphs[3]: missing required key 'tasks_path'",
        "graphs/broken.yaml:2: error: while parsing a node",
        "metadata.yaml:20: error: graphs[5].tasks_path: tasks_path: 'graphs/missing.yaml' does not exist in the package",
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in\n{}",
            got.join("\n")
        );
    }
    assert_eq!(loaded.report.errors, 7, "{}", loaded.report);
    assert!(loaded.package.is_none());
}

#[test]
fn a_default_record_and_deployment_tasks_are_one_graph() {
    let meta = with_graphs("  - {type: default, tasks_path: graphs/default.yaml}\n");
    let files = extension(&[
        ("metadata.yaml", &meta),
        ("deployment_tasks.yaml", "- {id: a, type: stage}\n"),
        (
            "graphs/default.yaml",
            "- {id: b, type: stage}\n- {id: a, type: stage}\n",
        ),
    ]);
    assert_has(
        &load(&files),
        "graphs/default.yaml:2: error: [1].id: task id 'a' is defined twice (first in deployment_tasks.yaml line 1)",
    );
    // Another type may reuse an id of the default graph.
    let mut files = files;
    files.insert(
        "metadata.yaml",
        with_graphs("  - {type: provisioning, tasks_path: graphs/default.yaml}\n"),
    );
    let loaded = load(&files);
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
}

#[test]
fn graph_records_are_ignored_before_package_version_5_and_in_release_plugins() {
    let meta = with_graphs("  - {type: provisioning, tasks_path: nowhere.yaml}\n")
        .replace("'5.0.0'", "'4.0.0'");
    let loaded = load(&extension(&[("metadata.yaml", &meta)]));
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    assert_has(
        &loaded,
        "metadata.yaml:14: warning: graphs: graphs are read from package version 5.0.0 on; they are ignored in 4.0.0",
    );
    assert!(loaded.package.unwrap().graphs.is_empty());

    let meta = format!("{RELEASE}graphs:\n  - {{type: provisioning, tasks_path: nowhere.yaml}}\n");
    let loaded = load(&package(&[
        ("metadata.yaml", &meta),
        ("components.yaml", "[]\n"),
        ("roles.yaml", "{}\n"),
        ("graphs/a.yaml", "[]\n"),
        ("base.yaml", "{}\n"),
    ]));
    assert_eq!(loaded.report.errors, 0, "{}", loaded.report);
    assert_has(
        &loaded,
        "warning: graphs: a release plugin gives its graphs in its release records; these are ignored",
    );
}

/// `metadata` (a package's `metadata.yaml`) as plugin version `version`.
fn as_version(metadata: &str, version: &str) -> String {
    metadata.replace("version: '1.0.0'", &format!("version: '{version}'"))
}

fn stack(version: &str) -> Package {
    installed(package(&[
        ("metadata.yaml", &as_version(RELEASE, version)),
        ("components.yaml", "- name: hypervisor:kvm\n"),
        ("roles.yaml", "controller: {name: C, description: d}\n"),
        ("graphs/a.yaml", "[]"),
        ("base.yaml", "components: [{name: 'hypervisor:kvm'}]\n"),
    ]))
}

fn demo(version: &str, compatible_with: &str) -> Package {
    let metadata = as_version(EXTENSION, version).replace("'2024.1'", compatible_with);
    installed(extension(&[("metadata.yaml", &metadata)]))
}

#[test]
fn environments_are_built_from_their_pins_and_offered_the_newer_versions() {
    let all = [
        stack("1.0.0"),
        stack("1.1.0"),
        demo("1.0.0", "'1.0'"),
        demo("2.0.0", "'1.0'"),
        demo("3.0.0", "'9.9'"),
    ];
    let release = all[0].releases().next().unwrap();
    let versions = |pins: &Pins| -> Vec<String> {
        pinned_or_newest(release, &all, pins)
            .iter()
            .map(|p| p.source())
            .collect()
    };
    let pin = |version: &str| -> Pins {
        [(
            PluginName::new("demo").unwrap(),
            Version::new(version).unwrap(),
        )]
        .into_iter()
        .collect()
    };
    // Pinned: that version; not pinned, or pinned to one not installed:
    // the newest compatible (3.0.0 extends another release).
    assert_eq!(versions(&pin("1.0.0")), ["plugin demo 1.0.0"]);
    assert_eq!(versions(&Pins::new()), ["plugin demo 2.0.0"]);
    assert_eq!(versions(&pin("9.0.0")), ["plugin demo 2.0.0"]);

    let offers = upgrades(&all[0], release, &pin("1.0.0"), &all);
    let offered: Vec<(String, String, Vec<String>)> = offers
        .into_iter()
        .map(|o| (o.plugin.to_string(), o.from, o.to))
        .collect();
    assert_eq!(
        offered,
        [
            (
                "stack".to_owned(),
                "1.0.0".to_owned(),
                vec!["1.1.0".to_owned()]
            ),
            (
                "demo".to_owned(),
                "1.0.0".to_owned(),
                vec!["2.0.0".to_owned()]
            ),
        ]
    );
    assert!(upgrades(&all[1], release, &pin("2.0.0"), &all).is_empty());
    let next = same_release(&all[1], release).unwrap();
    assert_eq!(
        (next.name.as_str(), next.version.as_str()),
        ("stack", "1.0")
    );
}

/// The release plugin whose second release (`stack 2024.1-x` on Ubuntu)
/// the `extension` plugin extends, with `file` (`text`) named by its
/// record's key `key` (`deployers_path`).
fn extended_release(key: &str, file: &str, text: &str) -> MemoryFiles {
    let record = format!("    base_release_path: base.yaml\n    {key}: {file}\n");
    package(&[
        (
            "metadata.yaml",
            &RELEASE
                .replace("os: CentOS", "os: ubuntu")
                .replace("version: '2.0'", "version: '2024.1-x'")
                .replace("    base_release_path: base.yaml\n", &record),
        ),
        ("components.yaml", "[]\n"),
        ("roles.yaml", "{}\n"),
        ("graphs/a.yaml", "[]"),
        ("base.yaml", "components: []\n"),
        (file, text),
    ])
}

#[test]
fn a_network_role_the_release_declares_is_refused_naming_both_places() {
    let release = installed(extended_release(
        "network_roles_path",
        "net.yaml",
        "# The release's.\n- id: keystone/api\n  default_mapping: management\n  properties: {subnet: true, gateway: false, vip: []}\n- id: mgmt/vip\n  default_mapping: management\n  properties: {subnet: true, gateway: false, vip: [{name: management}]}\n",
    ));
    let plugin = installed(extension(&[(
        "network_roles.yaml",
        "- id: mine\n  default_mapping: private\n  properties: {vip: []}\n- id: mgmt/vip\n  default_mapping: management\n  properties: {subnet: true, gateway: false, vip: []}\n",
    )]));
    let problems = check_install(
        &plugin,
        Installed {
            plugins: std::slice::from_ref(&release),
        },
    );
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "network_roles.yaml:4: error: mgmt/vip: network role 'mgmt/vip' is declared by both release 'stack (2024.1-x)' (plugin stack 1.0.0) (net.yaml:5) and plugin demo 1.0.0 (network_roles.yaml:4)"
        ]
    );
}

#[test]
fn network_files_are_read_with_lines() {
    let loaded = load(&extension(&[(
        "network_roles.yaml",
        "- id: a\n  default_mapping: management\n  properties:\n    subnet: yes-please\n    vip:\n      - {name: v, node_roles: ['Not A Role']}\n      - {namespace: haproxy}\n",
    )]));
    let lines = lines(&loaded);
    assert!(
        lines.iter().any(|l| l.starts_with(
            "network_roles.yaml:4: error: [0].properties.subnet: must be true or false"
        )),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(
            |l| l.contains("[0].properties.vip[0].node_roles: 'Not A Role' is not a role name")
        ),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("[0].properties.vip[1]: missing required key 'name'")),
        "{lines:#?}"
    );
}

#[test]
fn a_deployers_tag_places_groups_always_or_under_a_condition() {
    let good = "kolla-ansible:\n  tags:\n    demo: [demo, {group: demo-volume, when: \"settings:demo.on.value\"}]\n";
    let loaded = load(&extension(&[("deployers.yaml", good)]));
    assert_eq!(lines(&loaded), Vec::<String>::new());
    let package = loaded.package.unwrap();
    let deployer = package.deployers_metadata.get("kolla-ansible").unwrap();
    assert_eq!(
        deployer.tags["demo"],
        [
            crate::deployer::Placement {
                group: "demo".into(),
                when: None
            },
            crate::deployer::Placement {
                group: "demo-volume".into(),
                when: Some(crate::deployer::Expression::parse("settings:demo.on.value").unwrap())
            },
        ]
    );

    let bad = "kolla-ansible:\n  tags:\n    demo:\n      - 7\n      - {group: a, when: \"settings:demo.on.value ==\"}\n      - {when: 'true'}\n      - {group: b, if: 'true'}\n";
    let loaded = load(&extension(&[("deployers.yaml", bad)]));
    let got = lines(&loaded);
    for expected in [
        "deployers.yaml:4: error: kolla-ansible.tags.demo[0]: must be a group's name or {group, when}",
        "deployers.yaml:5: error: kolla-ansible.tags.demo[1].when:",
        "deployers.yaml:6: error: kolla-ansible.tags.demo[2]: missing required key 'group'",
        "deployers.yaml:7: error: kolla-ansible.tags.demo[3].if: unknown key 'if' (expected group or when)",
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in\n{}",
            got.join("\n")
        );
    }
}

#[test]
fn a_deployers_services_name_their_groups_and_conditions() {
    let good = "kolla-ansible:\n  services:\n    - {service: demo-api, groups: [demo-api]}\n    - {service: demo-agent, groups: ['compute:&demo'], when: \"settings:demo.on.value\"}\n";
    let loaded = load(&extension(&[("deployers.yaml", good)]));
    assert_eq!(lines(&loaded), Vec::<String>::new());
    let package = loaded.package.unwrap();
    let deployer = package.deployers_metadata.get("kolla-ansible").unwrap();
    let agent = &deployer.services[1];
    assert!(agent.maps_to(&["compute".into(), "demo".into()]));
    assert!(!agent.maps_to(&["compute".into()]));

    let bad = "kolla-ansible:\n  services:\n    - {groups: [a]}\n    - {service: b, groups: ['a:&']}\n    - {service: c, groups: [c], when: \"settings:x ==\"}\n    - {service: d, groups: [d], if: x}\n";
    let loaded = load(&extension(&[("deployers.yaml", bad)]));
    let got = lines(&loaded);
    for expected in [
        "deployers.yaml:3: error: kolla-ansible.services[0]: missing required key 'service'",
        "deployers.yaml:4: error: kolla-ansible.services[1].groups: a group pattern names an empty group",
        "deployers.yaml:5: error: kolla-ansible.services[2].when:",
        "deployers.yaml:6: error: kolla-ansible.services[3].if: unknown key 'if' (expected service, groups, enabled_by or when)",
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in\n{}",
            got.join("\n")
        );
    }
}

/// Issue 53: deployer data is loaded once, at install, and every mistake
/// is the plugin's, with its line — an unknown group (of its own inventory
/// for a release, of the release's for a plugin), an expression that does
/// not parse, an unclosed template.
#[test]
fn deployer_data_mistakes_refuse_the_install_with_their_lines() {
    let inventory = "kolla-ansible:\n  inventory:\n    - {group: control}\n    - {group: compute}\n    - {group: baremetal, children: [control, storage]}\n  own_roles_under: [baremetal]\n  globals:\n    - {name: enable_demo, value: 'true'}\n  services:\n    - {service: demo, groups: [control], enabled_by: enable_dmeo}\n";
    let release_files =
        |deployers: &str| extended_release("deployers_path", "kolla.yaml", deployers);
    let errors = |deployers: &str| -> Vec<String> {
        lines(&load(&release_files(deployers)))
            .into_iter()
            .filter(|l| l.contains("error"))
            .collect()
    };
    assert_eq!(
        errors(inventory),
        [
            "kolla.yaml:5: error: kolla-ansible.inventory[2].children[1]: group 'storage' is no group of the inventory",
            "kolla.yaml:10: error: kolla-ansible.services[0].enabled_by: global 'enable_dmeo' is no global of the deployer's globals",
        ]
    );
    let inventory = inventory.replace(", storage", "").replace("dmeo", "demo");
    assert_eq!(
        errors(&inventory.replace("kolla-ansible:", "salt:")),
        [
            "kolla.yaml:1: error: salt: Mosaic knows the particulars of no deployer 'salt' (it knows kolla-ansible)"
        ]
    );
    let release = installed(release_files(&inventory));

    let broken = "kolla-ansible:\n  globals:\n    - {name: a, value: \"cluster:mode ==\"}\n    - {name: b, template: [ok, \"x {cluster:mode\"]}\n";
    let got = lines(&load(&extension(&[("deployers.yaml", broken)])));
    for expected in [
        "deployers.yaml:3: error: kolla-ansible.globals[0].value: ",
        "deployers.yaml:4: error: kolla-ansible.globals[1].template[1]: a '{' without its '}'",
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in {got:#?}"
        );
    }

    let groups = "kolla-ansible:\n  tags:\n    demo: [compute, {group: demo-api, when: 'true'}]\n  services:\n    - {service: demo, groups: ['compute:&nowhere']}\n    - {service: a, groups: [compute], enabled_by: enable_demo}\n    - {service: b, groups: [compute], enabled_by: enable_own}\n    - {service: c, groups: [compute], enabled_by: enable_none}\n  globals:\n    - {name: enable_own, value: 'true'}\n";
    let plugin = installed(extension(&[("deployers.yaml", groups)]));
    let problems = check_install(
        &plugin,
        Installed {
            plugins: std::slice::from_ref(&release),
        },
    );
    let got: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let inventory_of = "no group of release 'stack (2024.1-x)''s kolla-ansible inventory";
    assert_eq!(
        got,
        [
            format!(
                "deployers.yaml:3: error: kolla-ansible.tags.demo[1]: group 'demo-api' is {inventory_of}"
            ),
            format!(
                "deployers.yaml:5: error: kolla-ansible.services[0].groups[0]: group 'nowhere' is {inventory_of}"
            ),
            "deployers.yaml:8: error: kolla-ansible.services[3].enabled_by: global 'enable_none' is no global of release 'stack (2024.1-x)''s kolla-ansible globals".to_owned(),
        ]
    );
}

/// SEMANTICS §14, the hand-off: a plugin's volume the deployer uses, and
/// how it is prepared; what each way needs, and its condition parsed.
#[test]
fn a_deployers_disks_say_how_each_volume_is_prepared() {
    let good = "kolla-ansible:\n  disks:\n    - {volume: swift, prepare: swift_partitions, name: KOLLA_SWIFT_DATA}\n    - {volume: db, prepare: mounted, variable: db_dir, when: \"settings:demo.on.value\", reason: not shared}\n";
    let loaded = load(&extension(&[("deployers.yaml", good)]));
    assert_eq!(lines(&loaded), Vec::<String>::new());
    let package = loaded.package.unwrap();
    let deployer = package.deployers_metadata.get("kolla-ansible").unwrap();
    assert_eq!(
        deployer.disks[0].prepare,
        crate::deployer::Prepare::SwiftPartitions
    );
    assert_eq!(deployer.disks[1].variable.as_deref(), Some("db_dir"));

    let bad = "kolla-ansible:\n  disks:\n    - {volume: a, prepare: volume_group, variable: v}\n    - {volume: b, prepare: formatted}\n    - {volume: c, prepare: mounted, variable: v, when: \"settings:x ==\"}\n    - {prepare: mounted, variable: v}\n";
    let loaded = load(&extension(&[("deployers.yaml", bad)]));
    let got = lines(&loaded);
    for expected in [
        "deployers.yaml:3: error: kolla-ansible.disks[0]: missing required key 'name'",
        "deployers.yaml:4: error: kolla-ansible.disks[1].prepare: 'formatted' is none of volume_group, mounted and swift_partitions",
        "deployers.yaml:5: error: kolla-ansible.disks[2].when:",
        "deployers.yaml:5: error: kolla-ansible.disks[2]: missing required key 'reason'",
        "deployers.yaml:6: error: kolla-ansible.disks[3]: missing required key 'volume'",
    ] {
        assert!(
            got.iter().any(|l| l.starts_with(expected)),
            "missing {expected:?} in\n{}",
            got.join("\n")
        );
    }
}

/// SEMANTICS §14: a volume's sizes name generators the volume manager
/// knows, with their arguments, and a role's `allocate_size` is one of
/// Fuel's three — refused at the line, before the package is installed.
#[test]
fn volume_sizes_and_allocations_are_checked_at_their_line() {
    let volumes = "\
volumes:
  - id: db
    type: vg
    min_size: {generator: calc_gb_to_tb, generator_args: [1]}
    volumes:
      - {mount: /db, type: lv, name: db, size: {generator: calc_total_vg}}
volumes_roles_mapping:
  mine:
    - {id: os, allocate_size: most}
";
    let loaded = load(&extension(&[("volumes.yaml", volumes)]));
    let got = lines(&loaded);
    assert_eq!(
        got,
        [
            "volumes.yaml:4: error: volumes[0].min_size: unknown generator 'calc_gb_to_tb'",
            "volumes.yaml:6: error: volumes[0].volumes[0].size: calc_total_vg: unexpected generator_args []",
            "volumes.yaml:9: error: volumes_roles_mapping.mine[0].allocate_size: 'most' is none of min, all, full-disk",
        ]
    );
}

/// A global's `booleans` say how true and false are written where the
/// series documents other words than yes and no: two strings, at its line.
#[test]
fn a_globals_boolean_forms_are_two_strings() {
    let good = "kolla-ansible:\n  globals:\n    - {name: debug, value: 'true', booleans: ['True', 'False']}\n";
    let loaded = load(&extension(&[("deployers.yaml", good)]));
    assert_eq!(lines(&loaded), Vec::<String>::new());
    let bad =
        "kolla-ansible:\n  globals:\n    - {name: debug, value: 'true', booleans: ['True']}\n";
    let loaded = load(&extension(&[("deployers.yaml", bad)]));
    assert_eq!(
        lines(&loaded),
        [
            "deployers.yaml:3: error: kolla-ansible.globals[0].booleans: how true and false are written: a list of two strings, such as [\"True\", \"False\"]"
        ]
    );
}
