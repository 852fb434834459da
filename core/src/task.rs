//! Deployment tasks and plans (SEMANTICS §6): which definition of each task
//! id counts (environment > plugins > release), which nodes each task runs
//! on (the tag resolver of [`crate::tag`]), and every node's tasks in an
//! order that respects the dependency edges of the whole graph — with task
//! conflicts between plugins, unknown dependencies and cycles reported.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::tag::{Matcher, Selector};

/// Where a task definition comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum Origin {
    Release,
    Plugin(String),
    Environment,
}

/// The task definitions of an environment, by source.
#[derive(Debug, Clone, Copy)]
pub struct Definitions<'a> {
    pub release: &'a [Value],
    /// Each enabled plugin's name and tasks.
    pub plugins: &'a [(String, Vec<Value>)],
    pub environment: &'a [Value],
}

/// A node to plan for, with its effective tags (`primary-*` included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanNode {
    pub id: i64,
    pub tags: Vec<String>,
}

/// One node's plan. `id` is the node id, or `"master"` for the Fuel
/// master pseudo-node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodePlan {
    pub id: Value,
    pub tags: Vec<String>,
    pub tasks: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanErrorKind {
    /// Two plugins' definitions of one task would run on one node.
    TaskConflict,
    Cycle,
    UnknownDependency,
    /// A selector entry that does not compile (a bad regular expression).
    BadSelector,
    /// A task definition without an `id`.
    BadTask,
    /// An enabled extension plugin that does not extend the release.
    IncompatiblePlugin,
    /// A node role defined by neither the release nor an enabled plugin.
    UnknownRole,
    /// A tag added to a node that nothing declares.
    UnknownTag,
    /// Tags metadata that cannot be read.
    BadTags,
    /// The release has no graph of the requested type.
    UnknownGraph,
    /// The release cannot be chosen (several and no `release_name`, …).
    Release,
}

/// A problem of the plan as a whole; the fields that apply are set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanError {
    pub kind: PlanErrorKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<i64>,
    /// For cycles: the path, first task repeated at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycle: Vec<String>,
}

impl PlanError {
    /// An error with only its kind and message set.
    pub fn new(kind: PlanErrorKind, message: String) -> PlanError {
        PlanError {
            kind,
            message,
            task: None,
            plugins: Vec::new(),
            nodes: Vec::new(),
            cycle: Vec::new(),
        }
    }
}

/// The deployment plan: per node, its tasks in execution order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub nodes: Vec<NodePlan>,
    pub errors: Vec<PlanError>,
    pub warnings: Vec<String>,
    /// The direct dependency edges `[before, after]` between planned tasks,
    /// for drawing (an extension of the contract).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<(String, String)>,
    /// Instance tags `name:N` grouped: name → instance → node ids (an
    /// extension of the contract, present when nodes carry such tags).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub instances: BTreeMap<String, BTreeMap<u64, Vec<i64>>>,
}

/// One task id after overriding: the definitions that count for it.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: String,
    pub kind: String,
    /// Each counting definition's origin and selector (several only when
    /// several plugins define the id).
    pub definitions: Vec<(Origin, Selector)>,
    /// Ids this task comes after / before (requires and cross-depends; and
    /// required_for and cross-depended-by).
    pub after: Vec<String>,
    pub before: Vec<String>,
}

impl Task {
    /// Stages and groups order tasks but run nothing themselves.
    pub fn is_listed(&self) -> bool {
        !matches!(self.kind.as_str(), "stage" | "group")
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|v| match v {
                Value::String(s) => Some(s.clone()),
                // cross-depends entries: {name, role?}
                Value::Object(m) => m.get("name").and_then(Value::as_str).map(str::to_owned),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The definitions that count, per id: the environment's; else every
/// enabled plugin's (each with its own selector); else the release's.
/// Ids keep the order in which they are first defined (release, plugins,
/// environment).
pub fn resolve(definitions: Definitions<'_>, errors: &mut Vec<PlanError>) -> Vec<Task> {
    let mut order: Vec<String> = Vec::new();
    let mut by_id: HashMap<String, [Vec<(Origin, &Value)>; 3]> = HashMap::new();
    let mut all: Vec<(Origin, usize, &Value)> = Vec::new();
    all.extend(definitions.release.iter().map(|t| (Origin::Release, 0, t)));
    for (name, tasks) in definitions.plugins {
        all.extend(tasks.iter().map(|t| (Origin::Plugin(name.clone()), 1, t)));
    }
    all.extend(
        definitions
            .environment
            .iter()
            .map(|t| (Origin::Environment, 2, t)),
    );
    for (origin, rank, task) in all {
        let Some(id) = task.get("id").and_then(Value::as_str) else {
            errors.push(PlanError::new(
                PlanErrorKind::BadTask,
                format!("a task of {} has no id: {task}", describe(&origin)),
            ));
            continue;
        };
        let slot = by_id.entry(id.to_owned()).or_insert_with(|| {
            order.push(id.to_owned());
            Default::default()
        });
        // Within one source a later definition of an id replaces an earlier one.
        let list = &mut slot[rank];
        list.retain(|(o, _)| *o != origin);
        list.push((origin, task));
    }
    order
        .into_iter()
        .map(|id| {
            let slots = by_id.remove(&id).expect("every id has its slot");
            let chosen = slots
                .into_iter()
                .rev()
                .find(|s| !s.is_empty())
                .unwrap_or_default();
            let mut task = Task {
                id: id.clone(),
                kind: String::new(),
                definitions: Vec::new(),
                after: Vec::new(),
                before: Vec::new(),
            };
            for (origin, value) in chosen {
                if task.kind.is_empty() {
                    task.kind = value
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                }
                let selector = Selector::of_task(value).unwrap_or_else(|e| {
                    let mut error = PlanError::new(
                        PlanErrorKind::BadSelector,
                        format!("task '{id}' of {}: {e}; it runs nowhere", describe(&origin)),
                    );
                    error.task = Some(id.clone());
                    errors.push(error);
                    Selector::default()
                });
                for dep in strings(value.get("requires"))
                    .into_iter()
                    .chain(strings(value.get("cross-depends")))
                {
                    if !task.after.contains(&dep) {
                        task.after.push(dep);
                    }
                }
                for dep in strings(value.get("required_for"))
                    .into_iter()
                    .chain(strings(value.get("cross-depended-by")))
                {
                    if !task.before.contains(&dep) {
                        task.before.push(dep);
                    }
                }
                task.definitions.push((origin, selector));
            }
            task
        })
        .collect()
}

fn describe(origin: &Origin) -> String {
    match origin {
        Origin::Release => "the release".to_owned(),
        Origin::Plugin(name) => format!("plugin '{name}'"),
        Origin::Environment => "the environment".to_owned(),
    }
}

/// A set of node indices as bits.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
    fn fill(&mut self, n: usize) {
        for i in 0..n {
            self.set(i);
        }
    }
}

/// Which nodes each selector picks, by index. Exact tags go through an
/// index; each regular expression is tried once per distinct tag.
pub struct Placement {
    /// `nodes[t]`: the nodes selector `t` picks.
    sets: Vec<Bits>,
    master: Vec<bool>,
}

impl Placement {
    pub fn new(selectors: &[&Selector], nodes: &[PlanNode]) -> Placement {
        let n = nodes.len();
        let mut by_tag: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, node) in nodes.iter().enumerate() {
            for tag in &node.tags {
                by_tag.entry(tag.as_str()).or_default().push(i);
            }
        }
        let mut sets = Vec::with_capacity(selectors.len());
        let mut master = Vec::with_capacity(selectors.len());
        for selector in selectors {
            let mut bits = Bits::new(n);
            for matcher in &selector.entries {
                match matcher {
                    Matcher::Any => bits.fill(n),
                    Matcher::Master => {}
                    Matcher::Exact(tag) => {
                        for &i in by_tag.get(tag.as_str()).into_iter().flatten() {
                            bits.set(i);
                        }
                    }
                    Matcher::Regex(re) => {
                        for (tag, holders) in &by_tag {
                            if re.is_match(tag) {
                                for &i in holders {
                                    bits.set(i);
                                }
                            }
                        }
                    }
                }
            }
            master.push(selector.selects_master());
            sets.push(bits);
        }
        Placement { sets, master }
    }

    pub fn runs_on(&self, selector: usize, node: usize) -> bool {
        self.sets[selector].get(node)
    }
}

/// Plans an environment: `nodes` with their effective tags, the task
/// definitions of its sources, and the release tags (for the warning about
/// tags no node carries).
pub fn plan(definitions: Definitions<'_>, nodes: &[PlanNode], release_tags: &[String]) -> Plan {
    let mut errors = Vec::new();
    let tasks = resolve(definitions, &mut errors);
    let index: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();

    // Placement of every counting definition.
    let mut selectors: Vec<&Selector> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    for (t, task) in tasks.iter().enumerate() {
        for (_, selector) in &task.definitions {
            selectors.push(selector);
            owner.push(t);
        }
    }
    let placement = Placement::new(&selectors, nodes);

    // Two plugins' versions of one task on one node.
    let mut first_def = 0;
    for task in &tasks {
        let defs = task.definitions.len();
        if defs > 1 {
            let mut clash_nodes = Vec::new();
            let mut clash_plugins = BTreeSet::new();
            for (n, node) in nodes.iter().enumerate() {
                let here: Vec<usize> = (0..defs)
                    .filter(|&d| placement.runs_on(first_def + d, n))
                    .collect();
                if here.len() > 1 {
                    clash_nodes.push(node.id);
                    for d in here {
                        if let Origin::Plugin(name) = &task.definitions[d].0 {
                            clash_plugins.insert(name.clone());
                        }
                    }
                }
            }
            if !clash_nodes.is_empty() {
                let plugins: Vec<String> = clash_plugins.into_iter().collect();
                let mut error = PlanError::new(
                    PlanErrorKind::TaskConflict,
                    format!(
                        "task '{}' is defined by plugins {} and both definitions would run on node{} {}",
                        task.id,
                        plugins
                            .iter()
                            .map(|p| format!("'{p}'"))
                            .collect::<Vec<_>>()
                            .join(" and "),
                        if clash_nodes.len() == 1 { "" } else { "s" },
                        clash_nodes
                            .iter()
                            .map(i64::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                error.task = Some(task.id.clone());
                error.plugins = plugins;
                error.nodes = clash_nodes;
                errors.push(error);
            }
        }
        first_def += defs;
    }

    // Edges, with dependencies on ids that exist nowhere reported.
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); tasks.len()];
    for (t, task) in tasks.iter().enumerate() {
        let mut link =
            |dep: &str, dep_first: bool, errors: &mut Vec<PlanError>| match index.get(dep) {
                Some(&d) => {
                    let (from, to) = if dep_first { (d, t) } else { (t, d) };
                    if !successors[from].contains(&to) {
                        successors[from].push(to);
                    }
                }
                None => {
                    let mut error = PlanError::new(
                        PlanErrorKind::UnknownDependency,
                        format!(
                            "task '{}' {} '{dep}', which no release, plugin or environment defines",
                            task.id,
                            if dep_first {
                                "requires"
                            } else {
                                "is required for"
                            }
                        ),
                    );
                    error.task = Some(task.id.clone());
                    errors.push(error);
                }
            };
        for dep in &task.after {
            link(dep, true, &mut errors);
        }
        for dep in &task.before {
            link(dep, false, &mut errors);
        }
    }

    // Cycles: each strongly connected component of more than one task (or
    // a task that depends on itself) is one error; its tasks are left out.
    let mut excluded = vec![false; tasks.len()];
    for component in strongly_connected(&successors) {
        let looped = component.len() > 1 || successors[component[0]].contains(&component[0]);
        if !looped {
            continue;
        }
        let path = cycle_path(&component, &successors);
        let names: Vec<String> = path.iter().map(|&i| tasks[i].id.clone()).collect();
        let mut message = format!("dependency cycle: {}", names.join(" -> "));
        if component.len() + 1 > path.len() {
            // More tasks depend on each other than this one loop shows.
            let members: Vec<&str> = component.iter().map(|&i| tasks[i].id.as_str()).collect();
            message.push_str(&format!(
                " (tasks on cycles together: {})",
                members.join(", ")
            ));
        }
        let mut error = PlanError::new(PlanErrorKind::Cycle, message);
        error.cycle = names;
        errors.push(error);
        for &i in &component {
            excluded[i] = true;
        }
    }

    // One order for the whole graph: Kahn's algorithm, ties broken by the
    // order tasks were first defined.
    let mut indegree = vec![0usize; tasks.len()];
    for (from, next) in successors.iter().enumerate() {
        if excluded[from] {
            continue;
        }
        for &to in next {
            if !excluded[to] {
                indegree[to] += 1;
            }
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> = (0..tasks.len())
        .filter(|&t| !excluded[t] && indegree[t] == 0)
        .map(Reverse)
        .collect();
    let mut order = Vec::with_capacity(tasks.len());
    while let Some(Reverse(t)) = ready.pop() {
        order.push(t);
        for &to in &successors[t] {
            if excluded[to] {
                continue;
            }
            indegree[to] -= 1;
            if indegree[to] == 0 {
                ready.push(Reverse(to));
            }
        }
    }

    // A task runs on a node when any counting definition picks it.
    let mut defs_of: Vec<std::ops::Range<usize>> = Vec::with_capacity(tasks.len());
    let mut at = 0;
    for task in &tasks {
        defs_of.push(at..at + task.definitions.len());
        at += task.definitions.len();
    }
    let listed: Vec<usize> = order
        .into_iter()
        .filter(|&t| tasks[t].is_listed())
        .collect();
    let mut plans: Vec<NodePlan> = nodes
        .iter()
        .enumerate()
        .map(|(n, node)| NodePlan {
            id: Value::from(node.id),
            tags: node.tags.clone(),
            tasks: listed
                .iter()
                .filter(|&&t| defs_of[t].clone().any(|d| placement.runs_on(d, n)))
                .map(|&t| tasks[t].id.clone())
                .collect(),
        })
        .collect();
    let master: Vec<String> = listed
        .iter()
        .filter(|&&t| defs_of[t].clone().any(|d| placement.master[d]))
        .map(|&t| tasks[t].id.clone())
        .collect();
    if !master.is_empty() {
        plans.push(NodePlan {
            id: Value::from("master"),
            tags: vec!["master".to_owned()],
            tasks: master,
        });
    }
    let _ = owner;

    let carried: BTreeSet<&str> = nodes
        .iter()
        .flat_map(|n| n.tags.iter().map(String::as_str))
        .collect();
    let warnings = release_tags
        .iter()
        .filter(|t| !carried.contains(t.as_str()))
        .map(|t| format!("no node carries the release tag '{t}'; its tasks will not run"))
        .collect();
    let edges = successors
        .iter()
        .enumerate()
        .filter(|(from, _)| !excluded[*from])
        .flat_map(|(from, next)| next.iter().map(move |&to| (from, to)))
        .filter(|&(_, to)| !excluded[to])
        .map(|(from, to)| (tasks[from].id.clone(), tasks[to].id.clone()))
        .collect();
    Plan {
        nodes: plans,
        errors,
        warnings,
        edges,
        instances: crate::tag::instances(nodes.iter().map(|n| (n.id, n.tags.as_slice()))),
    }
}

/// How to draw one node's `tasks` (in order): each task's column — 0 for a
/// task none of whose dependencies runs on the node, else one more than
/// its latest dependency's — and the links `(from, to)` between a task and
/// its nearest dependencies on the node, transitively reduced. `edges` are the `[before, after]`
/// pairs of the whole graph; dependencies through tasks that run elsewhere
/// are followed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drawing {
    pub columns: Vec<usize>,
    pub links: Vec<(usize, usize)>,
}

pub fn drawing(tasks: &[String], edges: &[(String, String)]) -> Drawing {
    let mut predecessors: HashMap<&str, Vec<&str>> = HashMap::new();
    for (before, after) in edges {
        predecessors
            .entry(after.as_str())
            .or_default()
            .push(before.as_str());
    }
    let position: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    let mut out = Drawing {
        columns: vec![0; tasks.len()],
        links: Vec::new(),
    };
    let mut ancestors: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); tasks.len()];
    for (i, task) in tasks.iter().enumerate() {
        let mut stack: Vec<&str> = predecessors.get(task.as_str()).cloned().unwrap_or_default();
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut nearest: BTreeSet<usize> = BTreeSet::new();
        while let Some(p) = stack.pop() {
            if !seen.insert(p) {
                continue;
            }
            match position.get(p) {
                Some(&j) if j < i => {
                    nearest.insert(j);
                }
                Some(_) => {}
                None => stack.extend(predecessors.get(p).into_iter().flatten().copied()),
            }
        }
        for &j in &nearest {
            out.columns[i] = out.columns[i].max(out.columns[j] + 1);
            let reached: BTreeSet<usize> = ancestors[j].iter().copied().chain([j]).collect();
            ancestors[i].extend(reached);
        }
        // Only the links a drawing needs: none to a task another dependency
        // already waits for (transitive reduction).
        for &j in &nearest {
            if !nearest.iter().any(|&k| k != j && ancestors[k].contains(&j)) {
                out.links.push((j, i));
            }
        }
    }
    out
}

/// Tarjan's strongly connected components, iteratively (graphs of
/// thousands of tasks must not exhaust the stack).
fn strongly_connected(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = successors.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if let Some(&w) = successors[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                components.push(component);
            }
        }
    }
    components.sort();
    components
}

/// A cycle through the component's first task, as a path that ends where
/// it starts (breadth-first, so the shortest one).
fn cycle_path(component: &[usize], successors: &[Vec<usize>]) -> Vec<usize> {
    let start = component[0];
    let inside: BTreeSet<usize> = component.iter().copied().collect();
    let mut parent: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &successors[v] {
            if w == start {
                let mut path = vec![start];
                let mut at = v;
                while at != start {
                    path.push(at);
                    at = parent[&at];
                }
                path.push(start);
                let last = path.len() - 1;
                path[1..last].reverse();
                return path;
            }
            if inside.contains(&w) && !parent.contains_key(&w) && w != start {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    vec![start, start]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(id: i64, tags: &[&str]) -> PlanNode {
        PlanNode {
            id,
            tags: tags.iter().map(|t| t.to_string()).collect(),
        }
    }

    fn tasks_of(plan: &Plan, id: i64) -> Vec<&str> {
        plan.nodes
            .iter()
            .find(|n| n.id == json!(id))
            .map(|n| n.tasks.iter().map(String::as_str).collect())
            .unwrap_or_default()
    }

    #[test]
    fn columns_follow_dependencies_through_tasks_elsewhere() {
        let release = release();
        let nodes = [node(1, &["controller", "rabbitmq", "database", "keystone"])];
        let plan = plan(definitions(&release, &[]), &nodes, &[]);
        let tasks = &plan.nodes[0].tasks;
        assert_eq!(
            tasks,
            &["globals", "database", "rabbitmq", "keystone", "controller"]
        );
        // globals comes after deploy_start, a stage: still column 0.
        let d = drawing(tasks, &plan.edges);
        assert_eq!(d.columns, [0, 1, 1, 2, 3]);
        assert_eq!(d.links, [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]);
        // A link another path already implies is left out.
        let tasks: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let edges = [("a", "b"), ("b", "c"), ("a", "c")].map(|(x, y)| (x.to_owned(), y.to_owned()));
        assert_eq!(drawing(&tasks, &edges).links, [(0, 1), (1, 2)]);
    }

    fn release() -> Vec<Value> {
        serde_json::from_value(json!([
            {"id": "deploy_start", "type": "stage"},
            {"id": "deploy_end", "type": "stage", "requires": ["deploy_start"]},
            {"id": "globals", "type": "puppet", "tags": ["*"], "requires": ["deploy_start"]},
            {"id": "database", "type": "puppet", "tags": ["database"], "requires": ["globals"], "required_for": ["deploy_end"]},
            {"id": "rabbitmq", "type": "puppet", "tags": ["rabbitmq"], "requires": ["globals"], "required_for": ["deploy_end"]},
            {"id": "keystone", "type": "puppet", "tags": ["keystone"], "requires": ["database", "rabbitmq"]},
            {"id": "controller", "type": "puppet", "tags": ["controller"], "requires": ["keystone"]},
            {"id": "compute", "type": "puppet", "tags": ["compute"], "requires": ["globals"]}
        ]))
        .unwrap()
    }

    fn definitions<'a>(
        release: &'a [Value],
        plugins: &'a [(String, Vec<Value>)],
    ) -> Definitions<'a> {
        Definitions {
            release,
            plugins,
            environment: &[],
        }
    }

    #[test]
    fn nodes_get_their_tasks_in_dependency_order() {
        let release = release();
        let nodes = [
            node(
                1,
                &["controller", "rabbitmq", "database", "keystone", "neutron"],
            ),
            node(2, &["rabbitmq"]),
            node(3, &["compute"]),
        ];
        let plan = plan(definitions(&release, &[]), &nodes, &[]);
        assert_eq!(plan.errors, []);
        assert_eq!(
            tasks_of(&plan, 1),
            ["globals", "database", "rabbitmq", "keystone", "controller"]
        );
        assert_eq!(tasks_of(&plan, 2), ["globals", "rabbitmq"]);
        assert_eq!(tasks_of(&plan, 3), ["globals", "compute"]);
    }

    #[test]
    fn plugins_override_the_release_and_clash_only_on_shared_nodes() {
        let release = release();
        let rabbit = |plugin: &str, role: &str| {
            (
                plugin.to_owned(),
                vec![
                    json!({"id": "rabbitmq", "type": "puppet", "role": [role], "requires": ["globals"]}),
                ],
            )
        };
        let plugins = [
            rabbit("detach-rabbitmq", "standalone-rabbitmq"),
            rabbit("other-rabbit", "rabbit-two"),
        ];
        let apart = [
            node(1, &["standalone-rabbitmq"]),
            node(2, &["rabbit-two"]),
            node(3, &["rabbitmq"]),
        ];
        let plan = plan(definitions(&release, &plugins), &apart, &[]);
        assert_eq!(plan.errors, []);
        assert_eq!(tasks_of(&plan, 1), ["globals", "rabbitmq"]);
        assert_eq!(tasks_of(&plan, 2), ["globals", "rabbitmq"]);
        // The release's definition no longer counts.
        assert_eq!(tasks_of(&plan, 3), ["globals"]);

        let together = [
            node(1, &["standalone-rabbitmq", "rabbit-two"]),
            node(2, &["rabbit-two"]),
        ];
        let plan = super::plan(definitions(&release, &plugins), &together, &[]);
        assert_eq!(plan.errors.len(), 1);
        let error = &plan.errors[0];
        assert_eq!(error.kind, PlanErrorKind::TaskConflict);
        assert_eq!(
            (error.task.as_deref(), error.nodes.as_slice()),
            (Some("rabbitmq"), &[1][..])
        );
        assert_eq!(error.plugins, ["detach-rabbitmq", "other-rabbit"]);
        assert!(
            error
                .message
                .contains("'detach-rabbitmq' and 'other-rabbit'"),
            "{}",
            error.message
        );
    }

    #[test]
    fn the_environment_overrides_everything() {
        let release = release();
        let plugins = [(
            "p".to_owned(),
            vec![json!({"id": "compute", "type": "puppet", "tags": ["compute"]})],
        )];
        let environment = [json!({"id": "compute", "type": "skipped", "tags": ["nothing"]})];
        let defs = Definitions {
            release: &release,
            plugins: &plugins,
            environment: &environment,
        };
        let plan = plan(defs, &[node(3, &["compute"])], &[]);
        assert_eq!(tasks_of(&plan, 3), ["globals"]);
    }

    #[test]
    fn cycles_and_unknown_dependencies_are_errors() {
        let release: Vec<Value> = serde_json::from_value(json!([
            {"id": "a", "type": "puppet", "tags": ["*"], "requires": ["c"]},
            {"id": "b", "type": "puppet", "tags": ["*"], "requires": ["a"]},
            {"id": "c", "type": "puppet", "tags": ["*"], "requires": ["b"]},
            {"id": "d", "type": "puppet", "tags": ["*"], "requires": ["nowhere"], "required_for": ["d"]},
            {"id": "e", "type": "puppet", "tags": ["*"]}
        ]))
        .unwrap();
        let plan = plan(definitions(&release, &[]), &[node(1, &["x"])], &[]);
        let kinds: Vec<_> = plan
            .errors
            .iter()
            .map(|e| (e.kind, e.cycle.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                (PlanErrorKind::UnknownDependency, vec![]),
                (
                    PlanErrorKind::Cycle,
                    vec!["a".to_owned(), "b".into(), "c".into(), "a".into()]
                ),
                (PlanErrorKind::Cycle, vec!["d".to_owned(), "d".into()]),
            ]
        );
        assert_eq!(plan.errors[1].message, "dependency cycle: a -> b -> c -> a");
        assert_eq!(tasks_of(&plan, 1), ["e"]);
    }

    #[test]
    fn master_tasks_and_untagged_release_tags() {
        let release: Vec<Value> = serde_json::from_value(
            json!([{"id": "upload", "type": "upload_file", "role": "master"}]),
        )
        .unwrap();
        let plan = plan(
            definitions(&release, &[]),
            &[node(1, &["compute"])],
            &["compute".into(), "mongo".into()],
        );
        assert_eq!(plan.nodes[1].id, json!("master"));
        assert_eq!(plan.nodes[1].tasks, ["upload"]);
        assert_eq!(
            plan.warnings,
            ["no node carries the release tag 'mongo'; its tasks will not run"]
        );
    }
}
