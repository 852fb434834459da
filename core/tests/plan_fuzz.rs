//! Deployment plans on arbitrary graphs: nothing panics, every node's list
//! respects every dependency edge between its tasks, no task is listed
//! twice, tasks on cycles or skipped by their condition are never listed,
//! and tasks are placed on the nodes the plain tag resolver picks.
//!
//! `PROPTEST_CASES` sets the number of cases (default 2,000).

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use mosaic_core::expr::JsonModels;
use mosaic_core::name::{PluginName, TagName, TaskId};
use mosaic_core::tag::{Matcher, Selector};
use mosaic_core::task::{Definitions, Plan, PlanErrorKind, PlanInput, PlanNode, TaskDef, plan};
use proptest::prelude::*;
use serde_json::{Value, json};

const TAGS: [&str; 6] = [
    "controller",
    "compute",
    "rabbitmq",
    "primary-controller",
    "cinder",
    "mysql:1",
];
/// Conditions that hold, fail, cannot be decided, or do not parse.
const CONDITIONS: [Option<&str>; 6] = [
    None,
    Some("settings:s.on.value == true"),
    Some("settings:s.off.value"),
    Some("settings:s.off.value =="),
    Some("yaql:$.s.on and not $.s.off"),
    Some("yaql:'x' in $.roles"),
];
const SELECTORS: [&str; 9] = [
    "controller",
    "compute",
    "rabbitmq",
    "*",
    "master",
    "/c.*/",
    "/(/",
    "/primary-.+/",
    "cinder",
];

fn task(
    id: usize,
    kind: u8,
    selector: &[usize],
    requires: &[usize],
    required_for: &[usize],
    n: usize,
) -> Value {
    let name = |i: usize| {
        if i < n {
            format!("t{i}")
        } else {
            format!("missing{i}")
        }
    };
    let type_name = ["puppet", "stage", "group", "shell"][kind as usize % 4];
    let mut task = json!({
        "id": format!("t{id}"),
        "type": type_name,
        "tags": selector.iter().map(|&s| SELECTORS[s % SELECTORS.len()]).collect::<Vec<_>>(),
        "requires": requires.iter().map(|&r| name(r)).collect::<Vec<_>>(),
        "required_for": required_for.iter().map(|&r| name(r)).collect::<Vec<_>>(),
    });
    match CONDITIONS[(kind as usize / 4) % CONDITIONS.len()] {
        None => {}
        Some(c) => {
            task["condition"] = match c.strip_prefix("yaql:") {
                Some(y) => json!({"yaql_exp": y}),
                None => json!(c),
            }
        }
    }
    task
}

fn arb_tasks() -> impl Strategy<Value = Vec<Value>> {
    (1usize..25).prop_flat_map(|n| {
        prop::collection::vec(
            (
                any::<u8>(),
                prop::collection::vec(0usize..9, 0..3),
                prop::collection::vec(0usize..(n + 2), 0..3),
                prop::collection::vec(0usize..(n + 2), 0..2),
            ),
            n,
        )
        .prop_map(move |specs| {
            specs
                .iter()
                .enumerate()
                .map(|(i, (kind, sel, req, req_for))| task(i, *kind, sel, req, req_for, n))
                .collect()
        })
    })
}

fn arb_nodes() -> impl Strategy<Value = Vec<PlanNode>> {
    prop::collection::vec(prop::collection::btree_set(0usize..TAGS.len(), 0..4), 0..6).prop_map(
        |nodes| {
            nodes
                .into_iter()
                .enumerate()
                .map(|(i, tags)| PlanNode {
                    id: i as i64 + 1,
                    tags: tags
                        .into_iter()
                        .map(|t| TagName::new(TAGS[t]).unwrap())
                        .collect(),
                })
                .collect()
        },
    )
}

/// A selector by the plain resolver (`None`: it does not compile), its
/// entries compiled once for every case.
fn resolver(entries: &[Value]) -> Option<Selector> {
    static COMPILED: OnceLock<HashMap<&str, Option<Matcher>>> = OnceLock::new();
    let compiled = COMPILED.get_or_init(|| {
        SELECTORS
            .iter()
            .map(|s| (*s, Matcher::parse(s).ok()))
            .collect()
    });
    let entries = entries
        .iter()
        .map(|e| compiled.get(e.as_str()?).cloned().flatten())
        .collect::<Option<Vec<Matcher>>>()?;
    Some(Selector { entries })
}

/// Placement against the plain resolver: a task is listed only on nodes
/// its selector picks, and one that surely runs on all of them (no
/// condition, not a stage or group, on no cycle: the messages name every
/// task on one, the paths only some).
fn check_placement(
    plan: &Plan,
    nodes: &[PlanNode],
    counting: &HashMap<String, &Value>,
) -> Result<(), TestCaseError> {
    let cyclic: BTreeSet<&str> = plan
        .errors
        .iter()
        .filter(|e| e.kind == PlanErrorKind::Cycle)
        .flat_map(|e| e.message.split([' ', ',', '(', ')', '@']))
        .collect();
    for node in &plan.nodes {
        let master = node.id == json!("master");
        let tags = nodes
            .iter()
            .find(|n| node.id == json!(n.id))
            .map_or(&[][..], |n| &n.tags[..]);
        let listed: BTreeSet<&str> = node.tasks.iter().map(TaskId::as_str).collect();
        for (id, t) in counting {
            let selector = t["tags"].as_array().and_then(|e| resolver(e));
            let picks = selector.is_some_and(|s| match master {
                true => s.selects_master(),
                false => s.matches(tags),
            });
            let runs = t.get("condition").is_none()
                && !matches!(t["type"].as_str(), Some("stage" | "group"))
                && !cyclic.contains(id.as_str());
            let here = listed.contains(id.as_str());
            prop_assert!(
                !here || picks,
                "{} listed on {} but not picked",
                id,
                node.id
            );
            prop_assert!(
                here || !(runs && picks),
                "{} picked on {} but not listed",
                id,
                node.id
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
    ))]

    #[test]
    fn plans_respect_every_edge(release in arb_tasks(), overrides in arb_tasks(), nodes in arb_nodes()) {
        let typed = |tasks: &[Value]| -> Vec<TaskDef> {
            tasks.iter().map(|t| serde_json::from_value(t.clone()).unwrap()).collect()
        };
        let overrides: Vec<Value> = overrides.into_iter().take(3).collect();
        let (release_tasks, plugin_tasks) = (typed(&release), typed(&overrides));
        let plugins = [(PluginName::new("p").unwrap(), plugin_tasks.as_slice())];
        let models = JsonModels {
            settings: json!({"s": {"on": {"value": true}, "off": {"value": false}}}),
            ..JsonModels::default()
        };
        let plan = plan(PlanInput {
            definitions: Definitions { release: &release_tasks, plugins: &plugins, environment: &[] },
            nodes: &nodes,
            release_tags: &[],
            models: &models,
            cross: false,
        });
        // The edges, worked out here from the definitions that count: a
        // plugin's definition replaces the release's.
        let mut counting: HashMap<String, &Value> = HashMap::new();
        for t in release.iter().chain(&overrides) {
            counting.insert(t["id"].as_str().unwrap().to_owned(), t);
        }
        let list = |t: &Value, key: &str| -> Vec<String> {
            t[key].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect()
        };
        let mut edges: Vec<(String, String)> = Vec::new();
        for (id, t) in &counting {
            // A task is never related to itself on its node (SEMANTICS §6.1).
            let known = |d: &String| counting.contains_key(d) && d != id;
            for dep in list(t, "requires").into_iter().filter(known) {
                edges.push((dep, id.clone()));
            }
            for dep in list(t, "required_for").into_iter().filter(known) {
                edges.push((id.clone(), dep));
            }
        }
        // A cycle leaves its tasks out on the nodes it is on: the vertices
        // `task@node` its message names, and its path's tasks on the nodes
        // where the same cycle repeats.
        let on_cycles = |node: &Value| -> BTreeSet<&str> {
            let n = node.as_str().map_or(node.to_string(), str::to_owned);
            let mut out: BTreeSet<&str> = plan.skipped.iter().map(|s| s.id.as_str()).collect();
            for e in plan.errors.iter().filter(|e| e.kind == PlanErrorKind::Cycle) {
                let (named, repeats) = e.message.split_once(", and the same on nodes ").unwrap_or((&e.message, ""));
                let repeated = repeats.split(", ").any(|r| r == n);
                for vertex in named.split([' ', ',', '(', ')']) {
                    if let Some((t, at)) = vertex.split_once('@') && (at == n || repeated) {
                        out.insert(t);
                    }
                }
            }
            out
        };
        for node in &plan.nodes {
            let on_cycles = on_cycles(&node.id);
            let position: HashMap<&str, usize> =
                node.tasks.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
            prop_assert_eq!(position.len(), node.tasks.len(), "a task listed twice: {:?}", node.tasks);
            for (before, after) in &edges {
                if let (Some(a), Some(b)) = (position.get(before.as_str()), position.get(after.as_str())) {
                    prop_assert!(a < b, "{} must come before {} in {:?}", before, after, node.tasks);
                }
            }
            for task in &node.tasks {
                prop_assert!(!on_cycles.contains(task.as_str()), "{} is on a cycle or skipped", task);
            }
        }
        check_placement(&plan, &nodes, &counting)?;
    }
}
