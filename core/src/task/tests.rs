//! Relations as SEMANTICS §6.1 states them, rule by rule, and a property
//! test against a brute-force model of the task@node graph.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::expr::JsonModels;
use crate::name::TagName;

fn node(id: i64, tags: &[&str]) -> PlanNode {
    PlanNode {
        id,
        tags: tags.iter().map(|t| TagName::new(*t).unwrap()).collect(),
    }
}

fn run(release: Value, nodes: &[PlanNode]) -> Plan {
    let release: Vec<TaskDef> = serde_json::from_value(release).unwrap();
    plan(PlanInput {
        definitions: Definitions {
            release: &release,
            plugins: &[],
            environment: &[],
        },
        nodes,
        release_tags: &[],
        models: &JsonModels::default(),
        cross: true,
    })
}

fn tasks_of(plan: &Plan, id: i64) -> Vec<&str> {
    let node = plan.nodes.iter().find(|n| n.id == json!(id));
    node.map(|n| n.tasks.iter().map(|t| t.as_str()).collect())
        .unwrap_or_default()
}

/// `task@node` for every cross wait of `task` on `node`.
fn waits(plan: &Plan, task: &str, node: i64) -> Vec<String> {
    let cross = plan.cross.as_deref().unwrap_or_default();
    let wait = cross
        .iter()
        .find(|w| w.task == task && w.node == json!(node));
    wait.map(|w| {
        w.after
            .iter()
            .map(|a| format!("{}@{}", a.task, a.node))
            .collect()
    })
    .unwrap_or_default()
}

#[test]
fn patterns_name_every_task_they_are_found_in() {
    let plan = run(
        json!([
            {"id": "z-db-primary", "type": "puppet", "tags": ["*"]},
            {"id": "db-all", "type": "puppet", "tags": ["*"]},
            {"id": "db", "type": "puppet", "tags": ["*"]},
            {"id": "app", "type": "puppet", "tags": ["*"], "required_for": [], "requires": ["/db(-primary|-all)/"]},
        ]),
        &[node(1, &["x"])],
    );
    assert_eq!(plan.errors, []);
    let edges: Vec<(&str, &str)> = plan
        .edges
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(edges, [("z-db-primary", "app"), ("db-all", "app")]);
}

#[test]
fn same_node_relations_bind_only_where_both_run() {
    // a requires b, b requires a: but never on one node, so no cycle.
    let plan = run(
        json!([
            {"id": "a", "type": "puppet", "tags": ["p"], "requires": ["b"]},
            {"id": "b", "type": "puppet", "tags": ["q"], "requires": ["a"]},
        ]),
        &[node(1, &["p"]), node(2, &["q"])],
    );
    assert_eq!(plan.errors, []);
    assert_eq!(
        (tasks_of(&plan, 1), tasks_of(&plan, 2)),
        (vec!["a"], vec!["b"])
    );
}

/// Tasks for the cross-node role forms: `w` on every node waits for `t`.
fn cross_release(entry: Value) -> Value {
    json!([
        {"id": "t", "type": "puppet", "tags": ["*"]},
        {"id": "w", "type": "puppet", "tags": ["*"], "cross-depends": [entry]},
    ])
}

#[test]
fn each_role_form_picks_its_nodes() {
    let nodes = [
        node(3, &["db"]),
        node(1, &["web", "db-replica"]),
        node(2, &["web"]),
    ];
    let cases: [(Value, Vec<&str>); 6] = [
        (json!({"name": "t"}), vec!["t@1", "t@2"]),
        (json!({"name": "t", "role": "*"}), vec!["t@1", "t@2"]),
        (json!({"name": "t", "role": "self"}), vec![]),
        (json!({"name": "t", "role": "db"}), vec![]),
        (json!({"name": "t", "role": "/db.*/"}), vec!["t@1"]),
        (
            json!({"name": "t", "role": ["web", "db"]}),
            vec!["t@1", "t@2"],
        ),
    ];
    for (entry, expected) in cases {
        let plan = run(cross_release(entry.clone()), &nodes);
        assert_eq!(plan.errors, [], "{entry}");
        // Node 3 waits for t on the other nodes its role picks.
        assert_eq!(waits(&plan, "w", 3), expected, "{entry}");
    }
    // `self` orders the two on the node itself: no cross wait, but t first.
    let plan = run(cross_release(json!({"name": "t", "role": "self"})), &nodes);
    assert_eq!(tasks_of(&plan, 3), ["t", "w"]);
    assert_eq!(plan.edges, []);
}

#[test]
fn policy_any_keeps_the_node_with_the_smallest_id() {
    let nodes = [node(7, &["db"]), node(5, &["db"]), node(9, &["web"])];
    let entry = json!({"name": "t", "role": "db", "policy": "any"});
    let plan = run(cross_release(entry), &nodes);
    assert_eq!(waits(&plan, "w", 9), ["t@5"]);
    // The node kept may be the task's own: then it is no cross wait.
    assert_eq!(waits(&plan, "w", 5), Vec::<String>::new());
    assert_eq!(tasks_of(&plan, 5), ["t", "w"]);
    // A task never waits for itself on its own node: t on 5 waits for t
    // on 7 and t on 7 for t on 5, a cycle.
    let own = json!({"name": "t", "role": "db", "policy": "any"});
    let plan = run(
        json!([{"id": "t", "type": "puppet", "tags": ["db"], "cross-depends": [own]}]),
        &nodes,
    );
    let messages: Vec<&str> = plan.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["dependency cycle: t@7 -> t@5 -> t@7"]);
}

#[test]
fn cross_depended_by_filters_the_waiting_tasks_nodes() {
    let plan = run(
        json!([
            {"id": "t", "type": "puppet", "tags": ["db"], "cross-depended-by": [{"name": "w", "role": "web"}]},
            {"id": "w", "type": "puppet", "tags": ["*"]},
        ]),
        &[node(1, &["db"]), node(2, &["web"]), node(3, &["cache"])],
    );
    assert_eq!(waits(&plan, "w", 2), ["t@1"]);
    assert_eq!(waits(&plan, "w", 3), Vec::<String>::new());
}

#[test]
fn a_task_never_relates_to_itself_on_its_node() {
    let plan = run(
        json!([{"id": "a", "type": "puppet", "tags": ["*"], "requires": ["/a/"]}]),
        &[node(1, &["x"])],
    );
    assert_eq!(plan.errors, []);
    assert_eq!(plan.unresolved.len(), 1);
    assert_eq!(tasks_of(&plan, 1), ["a"]);
}

#[test]
fn a_two_node_cycle_through_cross_depends_is_one_error() {
    let plan = run(
        json!([
            {"id": "a", "type": "puppet", "tags": ["p"], "cross-depends": [{"name": "b", "role": "q"}]},
            {"id": "b", "type": "puppet", "tags": ["q"], "cross-depends": [{"name": "a", "role": "p"}]},
            {"id": "c", "type": "puppet", "tags": ["*"]},
        ]),
        &[node(1, &["p"]), node(2, &["q"])],
    );
    assert_eq!(plan.errors.len(), 1, "{:?}", plan.errors);
    let error = &plan.errors[0];
    assert_eq!(error.kind, PlanErrorKind::Cycle);
    assert_eq!(error.message, "dependency cycle: a@1 -> b@2 -> a@1");
    assert_eq!(error.nodes, [1, 2]);
    assert_eq!(
        (tasks_of(&plan, 1), tasks_of(&plan, 2)),
        (vec!["c"], vec!["c"])
    );
}

#[test]
fn the_same_cycle_on_many_nodes_is_one_error() {
    let plan = run(
        json!([
            {"id": "a", "type": "puppet", "tags": ["*"], "requires": ["b"]},
            {"id": "b", "type": "puppet", "tags": ["*"], "requires": ["a"]},
        ]),
        &[node(1, &["x"]), node(2, &["x"]), node(3, &["x"])],
    );
    assert_eq!(plan.errors.len(), 1);
    assert_eq!(
        plan.errors[0].message,
        "dependency cycle: a@1 -> b@1 -> a@1, and the same on nodes 2, 3"
    );
    assert_eq!(plan.errors[0].nodes, [1, 2, 3]);
}

#[test]
fn waits_on_other_nodes_order_a_nodes_own_tasks() {
    // On node 1, x was defined first, but x waits for z on node 2, which
    // waits for y on node 1: y comes first.
    let plan = run(
        json!([
            {"id": "x", "type": "puppet", "tags": ["p"], "cross-depends": [{"name": "z"}]},
            {"id": "y", "type": "puppet", "tags": ["p"]},
            {"id": "z", "type": "puppet", "tags": ["q"], "cross-depends": [{"name": "y", "role": "p"}]},
        ]),
        &[node(1, &["p"]), node(2, &["q"])],
    );
    assert_eq!(plan.errors, []);
    assert_eq!(tasks_of(&plan, 1), ["y", "x"]);
    assert_eq!(waits(&plan, "x", 1), ["z@2"]);
    assert_eq!(waits(&plan, "z", 2), ["y@1"]);
}

#[test]
fn a_groups_tasks_run_on_the_groups_nodes() {
    let plan = run(
        json!([
            {"id": "g", "type": "group", "role": ["contrail"], "tasks": ["hiera", "nowhere"]},
            {"id": "hiera", "type": "puppet", "role": ["controller"]},
        ]),
        &[
            node(1, &["controller"]),
            node(2, &["contrail"]),
            node(3, &["compute"]),
        ],
    );
    assert_eq!(
        (tasks_of(&plan, 1), tasks_of(&plan, 2), tasks_of(&plan, 3)),
        (vec!["hiera"], vec!["hiera"], vec![])
    );
    assert_eq!(plan.errors.len(), 1);
    assert_eq!(plan.errors[0].kind, PlanErrorKind::UnknownDependency);
    assert_eq!(
        plan.errors[0].message,
        "group 'g' lists task 'nowhere' in its tasks, which no release, plugin or environment defines"
    );
}

#[test]
fn stages_order_tasks_across_nodes() {
    // b (node 2) comes after the stage, which comes after a (node 1);
    // a waiting for b is then a cycle through the stage.
    let plan = run(
        json!([
            {"id": "a", "type": "puppet", "tags": ["p"], "required_for": ["end"], "cross-depends": [{"name": "b"}]},
            {"id": "end", "type": "stage"},
            {"id": "b", "type": "puppet", "tags": ["q"], "requires": ["end"]},
        ]),
        &[node(1, &["p"]), node(2, &["q"])],
    );
    assert_eq!(plan.errors.len(), 1);
    assert_eq!(
        plan.errors[0].message,
        "dependency cycle: a@1 -> end -> b@2 -> a@1"
    );
}

#[test]
fn without_asking_there_are_no_cross_waits() {
    let release: Vec<TaskDef> =
        serde_json::from_value(cross_release(json!({"name": "t"}))).unwrap();
    let nodes = [node(1, &["x"]), node(2, &["x"])];
    let plan = plan(PlanInput {
        definitions: Definitions {
            release: &release,
            plugins: &[],
            environment: &[],
        },
        nodes: &nodes,
        release_tags: &[],
        models: &JsonModels::default(),
        cross: false,
    });
    assert_eq!(plan.cross, None);
    assert!(serde_json::to_value(&plan).unwrap().get("cross").is_none());
}

// --- A brute-force model of the task@node graph -------------------------

/// A random task: its tags, whether it is a stage, and its relations as
/// (key, named task or pattern, role, policy).
#[derive(Debug, Clone)]
struct Random {
    stage: bool,
    tag: usize,
    relations: Vec<(usize, String, Option<Value>, bool)>,
}

const KEYS: [&str; 4] = [
    "requires",
    "required_for",
    "cross-depends",
    "cross-depended-by",
];
const TAGS: [&str; 3] = ["p", "q", "r"];

fn random_task(tasks: usize) -> impl Strategy<Value = Random> {
    let name = prop_oneof![
        (0..tasks).prop_map(|t| format!("t{t}")),
        (0..tasks).prop_map(|t| format!("/t{t}/")),
        Just("/t[01]/".to_owned()),
    ];
    let role = prop_oneof![
        Just(None),
        Just(Some(json!("*"))),
        Just(Some(json!("self"))),
        (0..3usize).prop_map(|t| Some(json!(TAGS[t]))),
        Just(Some(json!(["p", "/q/"]))),
    ];
    let relation = (0..4usize, name, role, any::<bool>());
    (
        prop::bool::weighted(0.15),
        0..4usize,
        prop::collection::vec(relation, 0..3),
    )
        .prop_map(|(stage, tag, relations)| Random {
            stage,
            tag,
            relations,
        })
}

fn to_json(i: usize, task: &Random) -> Value {
    let mut map =
        json!({"id": format!("t{i}"), "type": if task.stage { "stage" } else { "puppet" }});
    if !task.stage {
        // Tag 3 is "every node".
        map["tags"] = json!([TAGS.get(task.tag).copied().unwrap_or("*")]);
    }
    for (key, name, role, any) in &task.relations {
        let key = KEYS[*key];
        let mut entry = json!({"name": name});
        if key.starts_with("cross") {
            if let Some(role) = role {
                entry["role"] = role.clone();
            }
            if *any {
                entry["policy"] = json!("any");
            }
        }
        match map.get_mut(key).and_then(Value::as_array_mut) {
            Some(list) => list.push(entry),
            None => map[key] = json!([entry]),
        }
    }
    map
}

type V = (usize, Option<i64>);

/// The brute-force model of SEMANTICS §6.1 over random tasks and nodes.
struct Model<'a> {
    tasks: &'a [Random],
    nodes: &'a [PlanNode],
}

impl Model<'_> {
    /// The nodes task `t` runs on (a stage: none).
    fn runs(&self, t: usize) -> Vec<i64> {
        let task = &self.tasks[t];
        let tag = TAGS.get(task.tag).copied();
        let picked = |n: &&PlanNode| tag.is_none_or(|tag| n.tags.iter().any(|x| x == tag));
        match task.stage {
            true => vec![],
            false => self.nodes.iter().filter(picked).map(|n| n.id).collect(),
        }
    }

    /// Whether a `role` looks at `node` from the declaring task's node `at`.
    fn looks_at(&self, role: &Option<Value>, node: i64, at: i64) -> bool {
        let tags = &self.nodes.iter().find(|n| n.id == node).unwrap().tags;
        let one = |r: &str| match r {
            "*" => true,
            "self" => node == at,
            r if r.starts_with('/') => tags
                .iter()
                .any(|t| t.as_str().starts_with(&r[1..r.len() - 1])),
            r => tags.iter().any(|t| t == r),
        };
        match role {
            None => true,
            Some(Value::String(r)) => one(r),
            Some(Value::Array(rs)) => rs.iter().any(|r| one(r.as_str().unwrap())),
            _ => unreachable!(),
        }
    }

    /// The tasks an entry of task `t` names (never `t` on its own node).
    fn named(&self, t: usize, name: &str, cross: bool) -> Vec<usize> {
        let hit = |id: &str| match name.strip_prefix('/') {
            Some("t[01]/") => id == "t0" || id == "t1",
            Some(p) => id.contains(&p[..p.len() - 1]),
            None => id == name,
        };
        (0..self.tasks.len())
            .filter(|&d| hit(&format!("t{d}")) && (cross || d != t))
            .collect()
    }

    /// Every task@node edge.
    fn edges(&self) -> BTreeSet<(V, V)> {
        let mut edges = BTreeSet::new();
        for (t, task) in self.tasks.iter().enumerate() {
            for (key, name, role, any) in &task.relations {
                let (named_first, cross) = (key % 2 == 0, *key >= 2);
                for d in self.named(t, name, cross) {
                    let entry = (t, d, named_first, cross, role, *any);
                    self.entry_edges(entry, &mut |x, y| {
                        edges.insert((x, y));
                    });
                }
            }
        }
        edges
    }

    /// The edges of one entry of task `t` naming task `d`.
    #[allow(clippy::type_complexity)]
    fn entry_edges(
        &self,
        (t, d, named_first, cross, role, any): (usize, usize, bool, bool, &Option<Value>, bool),
        add: &mut dyn FnMut(V, V),
    ) {
        let (b, a) = if named_first { (d, t) } else { (t, d) };
        match (self.tasks[b].stage, self.tasks[a].stage) {
            (true, true) => add((b, None), (a, None)),
            (true, false) => self
                .runs(a)
                .into_iter()
                .for_each(|n| add((b, None), (a, Some(n)))),
            (false, true) => self
                .runs(b)
                .into_iter()
                .for_each(|m| add((b, Some(m)), (a, None))),
            (false, false) if !cross => {
                for n in self
                    .runs(b)
                    .into_iter()
                    .filter(|n| self.runs(a).contains(n))
                {
                    add((b, Some(n)), (a, Some(n)));
                }
            }
            (false, false) => {
                for at in self.runs(t) {
                    let looked = self.runs(d).into_iter();
                    let mut xs: Vec<i64> = looked
                        .filter(|&x| (d != t || x != at) && self.looks_at(role, x, at))
                        .collect();
                    if any {
                        xs = xs.into_iter().min().into_iter().collect();
                    }
                    for x in xs {
                        let (from, to) = if named_first { (x, at) } else { (at, x) };
                        add((b, Some(from)), (a, Some(to)));
                    }
                }
            }
        }
    }
}

/// Which vertices reach which (Floyd–Warshall over a small graph).
fn reach(edges: &BTreeSet<(V, V)>) -> BTreeMap<V, BTreeSet<V>> {
    let mut reach: BTreeMap<V, BTreeSet<V>> = BTreeMap::new();
    for (a, b) in edges {
        reach.entry(*a).or_default().insert(*b);
    }
    let vertices: Vec<V> = edges
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    for k in &vertices {
        for i in &vertices {
            if reach.get(i).is_some_and(|r| r.contains(k)) {
                let more = reach.get(k).cloned().unwrap_or_default();
                reach.entry(*i).or_default().extend(more);
            }
        }
    }
    reach
}

fn graphs() -> impl Strategy<Value = (Vec<Random>, Vec<Vec<usize>>)> {
    (2..7usize).prop_flat_map(|n| {
        (
            prop::collection::vec(random_task(n), n),
            prop::collection::vec(prop::collection::vec(0..3usize, 1..3), 1..4),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lists_respect_every_relation_and_cycles_are_real((tasks, tag_sets) in graphs()) {
        let nodes: Vec<PlanNode> = tag_sets
            .iter()
            .enumerate()
            .map(|(i, tags)| node(i as i64 + 1, &tags.iter().map(|&t| TAGS[t]).collect::<Vec<_>>()))
            .collect();
        let release: Vec<Value> = tasks.iter().enumerate().map(|(i, t)| to_json(i, t)).collect();
        let plan = run(Value::Array(release), &nodes);
        let edges = Model { tasks: &tasks, nodes: &nodes }.edges();
        let reach = reach(&edges);
        let reaches = |a: &V, b: &V| reach.get(a).is_some_and(|r| r.contains(b));
        let index = |id: &str| id[1..].parse::<usize>().unwrap();
        for listed in &plan.nodes {
            let n = listed.id.as_i64().unwrap();
            let here: Vec<V> = listed.tasks.iter().map(|t| (index(t.as_str()), Some(n))).collect();
            for (i, early) in here.iter().enumerate() {
                // Nothing listed is on a cycle, nothing comes before what it follows.
                prop_assert!(!reaches(early, early), "{early:?} is on a cycle but listed");
                for late in &here[i + 1..] {
                    prop_assert!(!reaches(late, early), "{late:?} must come before {early:?} on {n}");
                }
            }
        }
        for error in plan.errors.iter().filter(|e| e.kind == PlanErrorKind::Cycle) {
            let path = error.message.trim_start_matches("dependency cycle: ");
            let path = path.split(" (").next().unwrap().split(", and").next().unwrap();
            let vertices: Vec<V> = path
                .split(" -> ")
                .map(|v| match v.split_once('@') {
                    Some((t, n)) => (index(t), Some(n.parse().unwrap())),
                    None => (index(v), None),
                })
                .collect();
            for step in vertices.windows(2) {
                prop_assert!(edges.contains(&(step[0], step[1])), "{step:?} of {path} is no edge");
            }
        }
        // Every vertex on a real cycle is reported on some cycle error.
        let cyclic = reach.keys().filter(|v| reaches(v, v)).count();
        prop_assert_eq!(cyclic > 0, plan.errors.iter().any(|e| e.kind == PlanErrorKind::Cycle));
    }
}
