//! Graph types (SEMANTICS §6.2): which sources' tasks each type's plan
//! uses, and the list of an environment's types.

use serde_json::json;

use super::*;
use crate::name::GraphType;
use crate::release::Graph;
use crate::task::Plan;

const BURNIN: &str = "name: burnin
title: Burn-in
version: '1.0.0'
package_version: '5.0.0'
description: d
licenses: [Apache]
authors: [Me]
homepage: https://example.org
releases:
  - {os: ubuntu, version: '2024.1', deployment_scripts_path: deployment_scripts/, repository_path: repositories/ubuntu}
graphs:
  - {type: provisioning, name: provisioning with firmware checks, tasks_path: provisioning.yaml}
  - {type: burn_in, name: burn-in, tasks_path: burn-in.yaml}
";

/// The fixture's release with a provisioning graph, and a plugin with
/// deployment tasks and two graph records.
fn release_and_plugin() -> (Release, Package) {
    let mut release = fixture().release;
    release.graphs.push(
        serde_json::from_value::<Graph>(json!({
            "type": "provisioning",
            "name": "provisioning",
            "tasks": [{"id": "provision", "type": "shell", "tags": ["*"], "parameters": {"cmd": "x"}}]
        }))
        .unwrap(),
    );
    let plugin = extension(
        "burnin",
        &[
            ("metadata.yaml", BURNIN),
            ("components.yaml", "- name: additional_service:burnin\n"),
            (
                "deployment_tasks.yaml",
                "- {id: burnin-agent, type: shell, tags: ['*'], requires: [globals], parameters: {cmd: x}}\n",
            ),
            (
                "provisioning.yaml",
                "- {id: burnin-firmware, type: shell, tags: ['*'], required_for: [provision], parameters: {cmd: x}}\n",
            ),
            (
                "burn-in.yaml",
                "- {id: stress, type: shell, tags: ['*'], parameters: {cmd: x}}\n\
                 - {id: report, type: shell, tags: ['*'], requires: [stress], parameters: {cmd: x}}\n",
            ),
        ],
    );
    (release, plugin)
}

/// An environment with one controller, its own `globals` and `env-task`,
/// and the plugin enabled when `burnin` is.
fn graph_spec(burnin: bool) -> Spec {
    let mut components = LVM.to_vec();
    if burnin {
        components.push("additional_service:burnin");
    }
    let mut spec = spec(
        &components,
        json!({}),
        vec![node(1, "ctl", &["controller"])],
    );
    spec.deployment_tasks = serde_json::from_value(json!([
        {"id": "globals", "type": "shell", "tags": ["*"], "parameters": {"cmd": "y"}},
        {"id": "env-task", "type": "shell", "tags": ["*"], "requires": ["globals"], "parameters": {"cmd": "x"}}
    ]))
    .unwrap();
    spec
}

fn on<R>(burnin: bool, check: impl FnOnce(&Environment<'_>) -> R) -> R {
    let (release, plugin) = release_and_plugin();
    let plugins = [plugin];
    let tags = TagsMetadata::new();
    let spec = graph_spec(burnin);
    let base = Base {
        release: &release,
        plugins: &plugins,
        release_tags: &tags,
        release_roles: crate::role_layer::RoleLayer::none(),
    };
    check(&Environment::new(base, &spec).unwrap())
}

fn tasks_of_node_1(plan: &Plan) -> Vec<&str> {
    assert_eq!(plan.errors, [], "{plan:#?}");
    let node = plan.nodes.iter().find(|n| n.id == json!(1)).unwrap();
    node.tasks.iter().map(|t| t.as_str()).collect()
}

#[test]
fn deployment_tasks_of_plugins_and_the_environment_join_only_the_default_graph() {
    on(true, |env| {
        assert_eq!(
            tasks_of_node_1(&env.plan("default")),
            ["globals", "burnin-agent", "env-task"]
        );
        assert_eq!(
            tasks_of_node_1(&env.plan("provisioning")),
            ["burnin-firmware", "provision"]
        );
    });
}

#[test]
fn a_type_only_a_plugin_defines_plans_and_one_nobody_defines_is_unknown() {
    on(true, |env| {
        assert_eq!(tasks_of_node_1(&env.plan("burn_in")), ["stress", "report"]);
        assert_eq!(env.unknown_graph("burn_in"), None);
        let plan = env.plan("deletion");
        let kinds: Vec<PlanErrorKind> = plan.errors.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [PlanErrorKind::UnknownGraph]);
        assert!(plan.nodes.is_empty());
        assert_eq!(
            plan.errors[0].message,
            "no graph of type 'deletion': neither the release nor an enabled plugin nor the environment defines one (defined: default, burn_in, provisioning)"
        );
        assert_eq!(env.unknown_graph("deletion"), Some(plan.errors[0].clone()));
    });
    // The plugin switched off: its own type is gone with it.
    on(false, |env| {
        assert!(env.unknown_graph("burn_in").is_some());
        assert_eq!(tasks_of_node_1(&env.plan("provisioning")), ["provision"]);
        assert_eq!(
            tasks_of_node_1(&env.plan("default")),
            ["globals", "env-task"]
        );
    });
}

#[test]
fn graphs_lists_every_type_default_first_with_its_name_count_and_sources() {
    let listed = on(true, |env| serde_json::to_value(env.graphs()).unwrap());
    assert_eq!(
        listed,
        json!([
            // The release's five tasks, the plugin's agent and the
            // environment's task; `globals` overridden counts once.
            {"type": "default", "name": "default", "tasks": 7,
             "sources": ["release", "plugin:burnin", "environment"]},
            {"type": "burn_in", "name": "burn-in", "tasks": 2, "sources": ["plugin:burnin"]},
            {"type": "provisioning", "name": "provisioning", "tasks": 2,
             "sources": ["release", "plugin:burnin"]},
        ])
    );
    // The browser reads what the server wrote.
    let back: Vec<GraphSummary> = serde_json::from_value(listed).unwrap();
    assert_eq!(back, on(true, |env| env.graphs()));
    let listed = on(false, |env| serde_json::to_value(env.graphs()).unwrap());
    assert_eq!(
        listed,
        json!([
            {"type": "default", "name": "default", "tasks": 6, "sources": ["release", "environment"]},
            {"type": "provisioning", "name": "provisioning", "tasks": 1, "sources": ["release"]},
        ])
    );
}

#[test]
fn a_graph_is_named_by_the_release_else_by_the_first_plugin_record() {
    let (mut release, plugin) = release_and_plugin();
    release.graphs[1].name = None;
    let plugins = [plugin];
    let tags = TagsMetadata::new();
    let spec = graph_spec(true);
    let base = Base {
        release: &release,
        plugins: &plugins,
        release_tags: &tags,
        release_roles: crate::role_layer::RoleLayer::none(),
    };
    let env = Environment::new(base, &spec).unwrap();
    let names: Vec<(String, String)> = env
        .graphs()
        .into_iter()
        .map(|g| (g.kind.to_string(), g.name))
        .collect();
    assert_eq!(
        names,
        [
            ("default".to_owned(), "default".to_owned()),
            ("burn_in".to_owned(), "burn-in".to_owned()),
            (
                "provisioning".to_owned(),
                "provisioning with firmware checks".to_owned()
            ),
        ]
    );
}

#[test]
fn a_graph_is_labelled_by_its_name_its_type_when_that_differs_and_its_tasks() {
    let graph = |kind: &str, name: &str, tasks| GraphSummary {
        kind: GraphType::new(kind).unwrap(),
        name: name.to_owned(),
        tasks,
        sources: vec![GraphSource::Release],
    };
    assert_eq!(
        graph("provisioning", "provisioning", 4).label(),
        "provisioning, 4 tasks"
    );
    assert_eq!(
        graph("burn_in", "hardware burn-in", 1).label(),
        "hardware burn-in (burn_in), 1 task"
    );
}

#[test]
fn graph_sources_read_back_as_they_are_written_and_nothing_else() {
    for text in ["release", "plugin:burnin", "environment"] {
        let source: GraphSource = serde_json::from_value(json!(text)).unwrap();
        assert_eq!(serde_json::to_value(&source).unwrap(), json!(text));
    }
    for bad in ["plugin:", "plugin:Burn In", "plugins", ""] {
        assert!(
            serde_json::from_value::<GraphSource>(json!(bad)).is_err(),
            "{bad}"
        );
    }
}
