//! Deployment plans (SEMANTICS §6, §9): which definition of each task id
//! counts (environment > plugins > release), whether its condition lets it
//! run, which nodes it runs on (the tag resolver of [`crate::tag`]), and
//! every node's tasks in an order that respects the dependency edges of the
//! whole graph — with task conflicts between plugins, unknown dependencies,
//! cycles and broken conditions reported.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::condition::Outcome;
use super::def::TaskDef;
use super::order::{self, Ordered, Pair, PairScope, Step, Vertex};
use super::pairs;
use super::planned::{
    CrossWait, NodePlan, NodeTask, Origin, Plan, PlanError, PlanErrorKind, Skipped, Task,
    Unresolved,
};
use crate::expr::Models;
use crate::name::{PluginName, TagName, TaskId};
use crate::tag::{Matcher, MatcherId, Matchers};

/// The task definitions of an environment, by source.
#[derive(Debug, Clone, Copy)]
pub struct Definitions<'a> {
    pub release: &'a [TaskDef],
    /// Each enabled plugin's name and tasks.
    pub plugins: &'a [(PluginName, &'a [TaskDef])],
    pub environment: &'a [TaskDef],
}

/// A node to plan for, with its effective tags (`primary-*` included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanNode {
    pub id: i64,
    pub tags: Vec<TagName>,
}

/// What a plan is made from.
#[derive(Clone, Copy)]
pub struct PlanInput<'a> {
    pub definitions: Definitions<'a>,
    pub nodes: &'a [PlanNode],
    /// The release's tags, for the warning about tags no node carries.
    pub release_tags: &'a [TagName],
    /// The environment's models, for task conditions.
    pub models: &'a dyn Models,
    /// Whether to list the cross-node waits ([`Plan::cross`]).
    pub cross: bool,
}

/// What the plan collects besides node lists.
#[derive(Default)]
struct Findings {
    errors: Vec<PlanError>,
    warnings: Vec<String>,
    skipped: Vec<Skipped>,
}

/// The definitions that count, per id: the environment's; else every
/// enabled plugin's (each with its own selector); else the release's —
/// with conditions decided. Ids keep the order in which they are first
/// defined (release, plugins, environment). Selectors are compiled into
/// `matchers`, each distinct entry once.
fn resolve<'a>(
    input: &PlanInput<'a>,
    matchers: &mut Matchers,
    found: &mut Findings,
) -> Vec<Task<'a>> {
    let definitions = input.definitions;
    let mut order: Vec<&'a TaskId> = Vec::new();
    let mut by_id: HashMap<&'a TaskId, [Vec<(Origin, &'a TaskDef)>; 3]> = HashMap::new();
    let mut all: Vec<(Origin, usize, &'a TaskDef)> = Vec::new();
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
        let slot = by_id.entry(&task.id).or_insert_with(|| {
            order.push(&task.id);
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
            let slots = by_id.remove(id).expect("every id has its slot");
            let chosen = slots
                .into_iter()
                .rev()
                .find(|s| !s.is_empty())
                .unwrap_or_default();
            counting(chosen, input.models, matchers, found)
        })
        .collect()
}

/// One id's counting definitions with their selectors, conditions decided.
fn counting<'a>(
    chosen: Vec<(Origin, &'a TaskDef)>,
    models: &dyn Models,
    matchers: &mut Matchers,
    found: &mut Findings,
) -> Task<'a> {
    let def = chosen[0].1;
    let mut skipped: Vec<String> = Vec::new();
    let mut definitions = Vec::with_capacity(chosen.len());
    for (origin, value) in &chosen {
        let outcome = value
            .condition
            .as_ref()
            .map_or(Outcome::Run, |c| c.evaluate(models));
        let runs = match outcome {
            Outcome::Run => true,
            Outcome::Skip(reason) => {
                skipped.push(reason);
                false
            }
            Outcome::Undecided(warning) => {
                found.warnings.push(format!(
                    "task '{}' of {}: {warning}",
                    value.id,
                    origin.describe()
                ));
                true
            }
            Outcome::Error(message) => {
                let message = format!("task '{}' of {}: {message}", value.id, origin.describe());
                found.errors.push(PlanError::of_task(
                    PlanErrorKind::BadCondition,
                    &value.id,
                    message,
                ));
                false
            }
        };
        let selector = match matchers.selector(&value.selector) {
            Ok(selector) if runs => selector,
            Ok(_) => Vec::new(),
            Err(e) => {
                let message = format!(
                    "task '{}' of {}: {e}; it runs nowhere",
                    value.id,
                    origin.describe()
                );
                found.errors.push(PlanError::of_task(
                    PlanErrorKind::BadSelector,
                    &value.id,
                    message,
                ));
                Vec::new()
            }
        };
        definitions.push((origin.clone(), selector));
    }
    if skipped.len() == chosen.len() {
        found.skipped.push(Skipped {
            id: def.id.clone(),
            reason: skipped.join("; "),
        });
    }
    Task { def, definitions }
}

/// Sets of node indices as bits, one row per set, in one allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rows {
    words: usize,
    bits: Vec<u64>,
}

impl Rows {
    fn new(rows: usize, nodes: usize) -> Rows {
        let words = nodes.div_ceil(64);
        Rows {
            words,
            bits: vec![0; rows * words],
        }
    }

    fn row(&self, r: usize) -> &[u64] {
        self.bits
            .get(r * self.words..(r + 1) * self.words)
            .unwrap_or_default()
    }

    fn row_mut(&mut self, r: usize) -> &mut [u64] {
        self.bits
            .get_mut(r * self.words..(r + 1) * self.words)
            .unwrap_or_default()
    }

    fn get(&self, r: usize, i: usize) -> bool {
        self.row(r)
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

fn set(row: &mut [u64], i: usize) {
    if let Some(word) = row.get_mut(i / 64) {
        *word |= 1 << (i % 64);
    }
}

fn or_into(row: &mut [u64], other: &[u64]) {
    for (word, more) in row.iter_mut().zip(other) {
        *word |= more;
    }
}

/// The indices whose bits are set, in increasing order.
fn ones(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
    row.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest.wrapping_sub(1);
            (bit < 64).then_some(w * 64 + bit)
        })
    })
}

/// The nodes one distinct selector entry picks: exact tags through the
/// tag → nodes index, a regular expression tried once per distinct tag.
fn picked(matcher: &Matcher, by_tag: &HashMap<&str, Vec<usize>>, n: usize) -> Vec<u64> {
    let mut row = vec![0; n.div_ceil(64)];
    match matcher {
        Matcher::Any => (0..n).for_each(|i| set(&mut row, i)),
        Matcher::Master => {}
        Matcher::Exact(tag) => {
            for &i in by_tag.get(tag.as_str()).into_iter().flatten() {
                set(&mut row, i);
            }
        }
        Matcher::Regex(re) => {
            for (_, holders) in by_tag.iter().filter(|(tag, _)| re.is_match(tag)) {
                holders.iter().for_each(|&i| set(&mut row, i));
            }
        }
    }
    row
}

/// Which nodes each selector picks, by index: each distinct entry is
/// matched against the nodes once, a selector's nodes are the union of its
/// entries'.
pub struct Placement {
    /// Row `s`: the nodes selector `s` picks.
    sets: Rows,
    master: Vec<bool>,
}

impl Placement {
    /// `selectors` are ids of entries in `matchers` (others pick nothing).
    pub fn new(matchers: &Matchers, selectors: &[&[MatcherId]], nodes: &[PlanNode]) -> Placement {
        let n = nodes.len();
        let mut by_tag: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, node) in nodes.iter().enumerate() {
            for tag in &node.tags {
                by_tag.entry(tag.as_str()).or_default().push(i);
            }
        }
        let picks: Vec<Vec<u64>> = matchers
            .all()
            .iter()
            .map(|m| picked(m, &by_tag, n))
            .collect();
        let mut sets = Rows::new(selectors.len(), n);
        for (s, ids) in selectors.iter().enumerate() {
            for id in *ids {
                or_into(
                    sets.row_mut(s),
                    picks.get(id.index()).map_or(&[], Vec::as_slice),
                );
            }
        }
        let is_master = |id: &MatcherId| matches!(matchers.get(*id), Some(Matcher::Master));
        let master = selectors
            .iter()
            .map(|ids| ids.iter().any(is_master))
            .collect();
        Placement { sets, master }
    }

    pub fn runs_on(&self, selector: usize, node: usize) -> bool {
        self.sets.get(selector, node)
    }

    /// Whether the selector picks the Fuel master.
    pub fn on_master(&self, selector: usize) -> bool {
        self.master.get(selector).copied().unwrap_or(false)
    }

    /// The nodes any of the selectors `defs` picks, into `row`.
    fn union(&self, defs: Range<usize>, row: &mut [u64]) {
        row.fill(0);
        for d in defs {
            or_into(row, self.sets.row(d));
        }
    }
}

/// Two plugins' versions of one task on one node: one error per task id.
fn task_conflicts(tasks: &[Task<'_>], nodes: &[PlanNode], placement: &Placement) -> Vec<PlanError> {
    let mut errors = Vec::new();
    let mut first_def = 0;
    for task in tasks {
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
                errors.push(conflict_error(
                    task,
                    clash_plugins.into_iter().collect(),
                    clash_nodes,
                ));
            }
        }
        first_def += defs;
    }
    errors
}

fn conflict_error(task: &Task<'_>, plugins: Vec<PluginName>, nodes: Vec<i64>) -> PlanError {
    let quoted: Vec<String> = plugins.iter().map(|p| format!("'{p}'")).collect();
    let ids: Vec<String> = nodes.iter().map(i64::to_string).collect();
    let message = format!(
        "task '{}' is defined by plugins {} and both definitions would run on node{} {}",
        task.def.id,
        quoted.join(" and "),
        crate::text::plural(nodes.len()),
        ids.join(", ")
    );
    PlanError {
        plugins,
        nodes,
        ..PlanError::of_task(PlanErrorKind::TaskConflict, &task.def.id, message)
    }
}

/// Plans an environment.
pub fn plan(input: PlanInput<'_>) -> Plan {
    let mut found = Findings::default();
    let mut matchers = Matchers::default();
    let tasks = resolve(&input, &mut matchers, &mut found);
    let nodes = input.nodes;
    let definitions: usize = tasks.iter().map(|t| t.definitions.len()).sum();
    let mut relations = pairs::resolve(&tasks, &mut matchers, definitions);
    found.errors.append(&mut relations.errors);
    let (placement, defs_of) = place(&tasks, &matchers, &relations.role_rows, nodes);
    found
        .errors
        .extend(task_conflicts(&tasks, nodes, &placement));
    let placed = Placed {
        tasks: &tasks,
        defs_of: &defs_of,
        groups_of: &relations.groups_of,
        placement: &placement,
        nodes,
    };
    let virtual_: Vec<bool> = tasks.iter().map(|t| !t.def.is_listed()).collect();
    let ordered = order::order(tasks.len(), &relations.pairs, &virtual_, &placed);
    found.errors.extend(cycle_errors(&ordered, &tasks, nodes));
    found
        .warnings
        .extend(relations.unresolved.iter().map(Unresolved::message));
    found.warnings.extend(untagged(input.release_tags, nodes));
    let id = |t: usize| tasks[t].def.id.clone();
    let cross = input.cross.then(|| {
        let lists = placed.node_lists(&ordered.steps, |t| t);
        placed.cross_waits(&relations.pairs, &virtual_, &ordered, &lists)
    });
    Plan {
        nodes: placed.node_plans(placed.node_lists(&ordered.steps, id)),
        errors: found.errors,
        warnings: found.warnings,
        skipped: found.skipped,
        edges: edges(&tasks, &relations.pairs, &ordered.on_cycle),
        instances: crate::tag::instances(nodes.iter().map(|n| (n.id, n.tags.as_slice()))),
        unresolved: relations.unresolved,
        cross,
    }
}

/// A node index as the API writes it: its id, or `"master"`.
fn node_label(nodes: &[PlanNode], n: usize) -> Value {
    nodes
        .get(n)
        .map_or(Value::from("master"), |node| Value::from(node.id))
}

/// A node index as people read it: its id, or `master`.
fn node_name(nodes: &[PlanNode], n: usize) -> String {
    nodes
        .get(n)
        .map_or("master".to_owned(), |node| node.id.to_string())
}

/// One `cycle` error per distinct cycle, its path as `task@node -> …`.
fn cycle_errors(ordered: &Ordered, tasks: &[Task<'_>], nodes: &[PlanNode]) -> Vec<PlanError> {
    let label = |&(t, n): &Vertex| {
        let id = &tasks[t].def.id;
        match n {
            Some(n) => format!("{id}@{}", node_name(nodes, n)),
            None => id.to_string(),
        }
    };
    ordered
        .cycles
        .iter()
        .map(|cycle| {
            let shown: Vec<String> = cycle.path.iter().map(label).collect();
            let mut message = format!("dependency cycle: {}", shown.join(" -> "));
            if cycle.members.len() + 1 > cycle.path.len() {
                // More vertices depend on each other than this one loop shows.
                let members: Vec<String> = cycle.members.iter().map(label).collect();
                message.push_str(&format!(
                    " (tasks on cycles together: {})",
                    members.join(", ")
                ));
            }
            let elsewhere: Vec<String> =
                cycle.repeats.iter().map(|&n| node_name(nodes, n)).collect();
            if !elsewhere.is_empty() {
                message.push_str(&format!(", and the same on nodes {}", elsewhere.join(", ")));
            }
            PlanError {
                cycle: cycle
                    .path
                    .iter()
                    .map(|&(t, _)| tasks[t].def.id.clone())
                    .collect(),
                nodes: cycle
                    .nodes
                    .iter()
                    .filter_map(|&n| nodes.get(n).map(|x| x.id))
                    .collect(),
                ..PlanError::new(PlanErrorKind::Cycle, message)
            }
        })
        .collect()
}

/// The placement of every counting definition, and which of them are each
/// task's (`defs_of[t]`).
fn place(
    tasks: &[Task<'_>],
    matchers: &Matchers,
    role_rows: &[Vec<MatcherId>],
    nodes: &[PlanNode],
) -> (Placement, Vec<Range<usize>>) {
    // Rows: every counting definition's selector, then the cross-node roles.
    let selectors: Vec<&[MatcherId]> = tasks
        .iter()
        .flat_map(|t| t.definitions.iter().map(|(_, s)| s.as_slice()))
        .chain(role_rows.iter().map(Vec::as_slice))
        .collect();
    let mut defs_of = Vec::with_capacity(tasks.len());
    let mut at = 0;
    for task in tasks {
        defs_of.push(at..at + task.definitions.len());
        at += task.definitions.len();
    }
    (Placement::new(matchers, &selectors, nodes), defs_of)
}

/// Tasks with their placement: a task runs on a node when any of its
/// counting definitions picks the node.
struct Placed<'p, 'a> {
    tasks: &'p [Task<'a>],
    defs_of: &'p [Range<usize>],
    /// Per task: the groups whose `tasks:` list it (it runs on their nodes too).
    groups_of: &'p [Vec<usize>],
    placement: &'p Placement,
    nodes: &'p [PlanNode],
}

impl Placed<'_, '_> {
    /// The nodes task `t` runs on, into `row`; whether it runs on the master.
    fn union(&self, t: usize, row: &mut [u64]) -> bool {
        self.placement.union(self.defs_of[t].clone(), row);
        let mut master = self.defs_of[t].clone().any(|d| self.placement.on_master(d));
        for &g in &self.groups_of[t] {
            for d in self.defs_of[g].clone() {
                or_into(row, self.placement.sets.row(d));
                master |= self.placement.on_master(d);
            }
        }
        master
    }

    /// Calls `f(node, task)` for every listed task on every node it runs
    /// on, in the order of `steps` (the master is node `nodes.len()`).
    fn each(&self, steps: &[Step], mut f: impl FnMut(usize, usize)) {
        let master = self.nodes.len();
        let mut row = vec![0; master.div_ceil(64)];
        for step in steps {
            match step {
                Step::Task(t) if self.tasks[*t].def.is_listed() => {
                    let on_master = self.union(*t, &mut row);
                    ones(&row).for_each(|i| f(i, *t));
                    if on_master {
                        f(master, *t);
                    }
                }
                Step::Task(_) => {}
                Step::Vertices(vertices) => {
                    for &(t, n) in vertices {
                        if let (Some(n), true) = (n, self.tasks[t].def.is_listed()) {
                            f(n, t);
                        }
                    }
                }
            }
        }
    }

    /// Every node's tasks in order (each as `entry(task)`), the master's
    /// last. Lists are sized first, so they never grow.
    fn node_lists<T>(&self, steps: &[Step], entry: impl Fn(usize) -> T) -> Vec<Vec<T>> {
        let mut counts = vec![0; self.nodes.len() + 1];
        self.each(steps, |n, _| counts[n] += 1);
        let mut lists: Vec<Vec<T>> = counts.into_iter().map(Vec::with_capacity).collect();
        self.each(steps, |n, t| lists[n].push(entry(t)));
        lists
    }

    /// Every node's plan, then the master's when it has tasks.
    fn node_plans(&self, mut lists: Vec<Vec<TaskId>>) -> Vec<NodePlan> {
        let master = lists.pop().unwrap_or_default();
        let mut plans: Vec<NodePlan> = self
            .nodes
            .iter()
            .zip(lists)
            .map(|(node, tasks)| NodePlan {
                id: Value::from(node.id),
                tags: node.tags.clone(),
                tasks,
            })
            .collect();
        if !master.is_empty() {
            plans.push(NodePlan {
                id: Value::from("master"),
                tags: vec![TagName::new("master").expect("a valid tag")],
                tasks: master,
            });
        }
        plans
    }

    /// Each planned task on a node that waits for tasks on other nodes, in
    /// node order and each node's task order.
    fn cross_waits(
        &self,
        pairs: &[Pair],
        virtual_: &[bool],
        ordered: &Ordered,
        lists: &[Vec<usize>],
    ) -> Vec<CrossWait> {
        let mut waits: HashMap<(usize, usize), BTreeSet<(usize, usize)>> = HashMap::new();
        let planned = |v: &Vertex| !ordered.excluded.contains(v) && !virtual_[v.0];
        for pair in pairs.iter().filter(|p| p.scope != PairScope::SameNode) {
            order::node_edges(pair, virtual_, self, &mut |from, to| {
                if let ((d, Some(m)), (t, Some(n))) = (from, to)
                    && m != n
                    && planned(&from)
                    && planned(&to)
                {
                    waits.entry((t, n)).or_default().insert((d, m));
                }
            });
        }
        let label = |n: usize| node_label(self.nodes, n);
        let mut out = Vec::new();
        for (n, list) in lists.iter().enumerate() {
            for &t in list {
                if let Some(after) = waits.remove(&(t, n)) {
                    out.push(CrossWait {
                        task: self.tasks[t].def.id.clone(),
                        node: label(n),
                        after: after
                            .into_iter()
                            .map(|(d, m)| NodeTask {
                                task: self.tasks[d].def.id.clone(),
                                node: label(m),
                            })
                            .collect(),
                    });
                }
            }
        }
        out
    }
}

impl order::Nodes for Placed<'_, '_> {
    fn runs(&self, t: usize) -> Vec<usize> {
        let mut row = vec![0; self.nodes.len().div_ceil(64)];
        let on_master = self.union(t, &mut row);
        let mut nodes: Vec<usize> = ones(&row).collect();
        if on_master {
            nodes.push(self.nodes.len());
        }
        nodes
    }

    fn picks(&self, row: usize, n: usize) -> bool {
        if n == self.nodes.len() {
            self.placement.on_master(row)
        } else {
            self.placement.runs_on(row, n)
        }
    }

    fn master(&self) -> usize {
        self.nodes.len()
    }

    fn rank(&self, n: usize) -> (bool, i64) {
        self.nodes.get(n).map_or((true, 0), |node| (false, node.id))
    }
}

/// A warning for each release tag no node carries.
fn untagged(release_tags: &[TagName], nodes: &[PlanNode]) -> Vec<String> {
    let carried: BTreeSet<&str> = nodes
        .iter()
        .flat_map(|n| n.tags.iter().map(TagName::as_str))
        .collect();
    release_tags
        .iter()
        .filter(|t| !carried.contains(t.as_str()))
        .map(|t| format!("no node carries the release tag '{t}'; its tasks will not run"))
        .collect()
}

/// The same-node dependency edges between tasks on no cycle, in task order.
fn edges(tasks: &[Task<'_>], pairs: &[Pair], on_cycle: &[bool]) -> Vec<(TaskId, TaskId)> {
    let mut kept: Vec<(usize, usize)> = pairs
        .iter()
        .filter(|p| p.scope == PairScope::SameNode && !on_cycle[p.before] && !on_cycle[p.after])
        .map(|p| (p.before, p.after))
        .collect();
    kept.sort_unstable();
    kept.dedup();
    kept.into_iter()
        .map(|(from, to)| (tasks[from].def.id.clone(), tasks[to].def.id.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::JsonModels;
    use crate::task::drawing;
    use serde_json::json;

    #[test]
    fn an_error_kind_reads_as_the_api_writes_it() {
        let names = [
            "task_conflict",
            "cycle",
            "unknown_dependency",
            "bad_selector",
            "bad_condition",
            "incompatible_plugin",
            "unknown_role",
            "unknown_tag",
            "unknown_graph",
            "release",
            "invalid_environment",
        ];
        for name in names {
            let kind: PlanErrorKind = serde_json::from_value(json!(name)).unwrap();
            assert_eq!(kind.as_str(), name);
        }
    }

    fn node(id: i64, tags: &[&str]) -> PlanNode {
        PlanNode {
            id,
            tags: tags.iter().map(|t| TagName::new(*t).unwrap()).collect(),
        }
    }

    fn tasks_of(plan: &Plan, id: i64) -> Vec<&str> {
        plan.nodes
            .iter()
            .find(|n| n.id == json!(id))
            .map(|n| n.tasks.iter().map(TaskId::as_str).collect())
            .unwrap_or_default()
    }

    fn tasks(value: Value) -> Vec<TaskDef> {
        serde_json::from_value(value).unwrap()
    }

    fn run(definitions: Definitions<'_>, nodes: &[PlanNode], release_tags: &[&str]) -> Plan {
        let tags: Vec<TagName> = release_tags
            .iter()
            .map(|t| TagName::new(*t).unwrap())
            .collect();
        let models = JsonModels {
            settings: json!({"storage": {"ceph": {"value": false}}}),
            ..JsonModels::default()
        };
        plan(PlanInput {
            definitions,
            nodes,
            release_tags: &tags,
            models: &models,
            cross: false,
        })
    }

    fn plugin(name: &str) -> PluginName {
        PluginName::new(name).unwrap()
    }

    #[test]
    fn columns_follow_dependencies_through_tasks_elsewhere() {
        let release = release();
        let nodes = [node(1, &["controller", "rabbitmq", "database", "keystone"])];
        let plan = run(definitions(&release, &[]), &nodes, &[]);
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
        let id = |t: &str| TaskId::new(t).unwrap();
        let tasks: Vec<TaskId> = ["a", "b", "c"].map(id).to_vec();
        let edges = [("a", "b"), ("b", "c"), ("a", "c")].map(|(x, y)| (id(x), id(y)));
        assert_eq!(drawing(&tasks, &edges).links, [(0, 1), (1, 2)]);
    }

    fn release() -> Vec<TaskDef> {
        tasks(json!([
            {"id": "deploy_start", "type": "stage"},
            {"id": "deploy_end", "type": "stage", "requires": ["deploy_start"]},
            {"id": "globals", "type": "puppet", "tags": ["*"], "requires": ["deploy_start"]},
            {"id": "database", "type": "puppet", "tags": ["database"], "requires": ["globals"], "required_for": ["deploy_end"]},
            {"id": "rabbitmq", "type": "puppet", "tags": ["rabbitmq"], "requires": ["globals"], "required_for": ["deploy_end"]},
            {"id": "keystone", "type": "puppet", "tags": ["keystone"], "requires": ["database", "rabbitmq"]},
            {"id": "controller", "type": "puppet", "tags": ["controller"], "requires": ["keystone"]},
            {"id": "compute", "type": "puppet", "tags": ["compute"], "requires": ["globals"]}
        ]))
    }

    fn definitions<'a>(
        release: &'a [TaskDef],
        plugins: &'a [(PluginName, &'a [TaskDef])],
    ) -> Definitions<'a> {
        Definitions {
            release,
            plugins,
            environment: &[],
        }
    }

    #[test]
    fn placement_agrees_with_the_resolver() {
        let nodes = [
            node(1, &["primary-controller", "controller"]),
            node(2, &["cinder"]),
            node(3, &["controller", "compute"]),
            node(4, &[]),
        ];
        let selectors: [&[&str]; 7] = [
            &["/.*controller/"],
            &["controller", "cinder"],
            &["/c.+/", "compute"],
            &["*"],
            &["master"],
            &["master", "cinder"],
            &[],
        ];
        let mut matchers = Matchers::default();
        let ids: Vec<Vec<MatcherId>> = selectors
            .iter()
            .map(|s| matchers.selector(s).unwrap())
            .collect();
        // Each distinct entry once.
        assert_eq!(matchers.all().len(), 7);
        let refs: Vec<&[MatcherId]> = ids.iter().map(Vec::as_slice).collect();
        let placement = Placement::new(&matchers, &refs, &nodes);
        for (s, entries) in selectors.iter().enumerate() {
            let selector = crate::tag::Selector::parse(entries).unwrap();
            for (n, node) in nodes.iter().enumerate() {
                assert_eq!(
                    placement.runs_on(s, n),
                    selector.matches(&node.tags),
                    "{entries:?} on node {}",
                    node.id
                );
            }
            assert_eq!(placement.on_master(s), selector.selects_master());
        }
        assert!(!placement.runs_on(0, 64) && !placement.runs_on(7, 0));
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
        let plan = run(definitions(&release, &[]), &nodes, &[]);
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
        let rabbit = |role: &str| {
            tasks(
                json!([{"id": "rabbitmq", "type": "puppet", "role": [role], "requires": ["globals"]}]),
            )
        };
        let (one, two) = (rabbit("standalone-rabbitmq"), rabbit("rabbit-two"));
        let plugins = [
            (plugin("detach-rabbitmq"), one.as_slice()),
            (plugin("other-rabbit"), two.as_slice()),
        ];
        let apart = [
            node(1, &["standalone-rabbitmq"]),
            node(2, &["rabbit-two"]),
            node(3, &["rabbitmq"]),
        ];
        let plan = run(definitions(&release, &plugins), &apart, &[]);
        assert_eq!(plan.errors, []);
        assert_eq!(tasks_of(&plan, 1), ["globals", "rabbitmq"]);
        assert_eq!(tasks_of(&plan, 2), ["globals", "rabbitmq"]);
        // The release's definition no longer counts.
        assert_eq!(tasks_of(&plan, 3), ["globals"]);

        let together = [
            node(1, &["standalone-rabbitmq", "rabbit-two"]),
            node(2, &["rabbit-two"]),
        ];
        let plan = run(definitions(&release, &plugins), &together, &[]);
        assert_eq!(plan.errors.len(), 1);
        let error = &plan.errors[0];
        assert_eq!(error.kind, PlanErrorKind::TaskConflict);
        assert_eq!(
            (
                error.task.as_ref().map(TaskId::as_str),
                error.nodes.as_slice()
            ),
            (Some("rabbitmq"), &[1][..])
        );
        assert_eq!(
            error.plugins,
            [plugin("detach-rabbitmq"), plugin("other-rabbit")]
        );
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
        let theirs = tasks(json!([{"id": "compute", "type": "puppet", "tags": ["compute"]}]));
        let plugins = [(plugin("p"), theirs.as_slice())];
        let environment = tasks(json!([{"id": "compute", "type": "skipped", "tags": ["nothing"]}]));
        let defs = Definitions {
            release: &release,
            plugins: &plugins,
            environment: &environment,
        };
        let plan = run(defs, &[node(3, &["compute"])], &[]);
        assert_eq!(tasks_of(&plan, 3), ["globals"]);
    }

    #[test]
    fn cycles_are_errors_and_unknown_dependencies_warnings() {
        let release = tasks(json!([
            {"id": "a", "type": "puppet", "tags": ["*"], "requires": ["c"]},
            {"id": "b", "type": "puppet", "tags": ["*"], "requires": ["a"]},
            {"id": "c", "type": "puppet", "tags": ["*"], "requires": ["b"]},
            {"id": "d", "type": "puppet", "tags": ["*"], "requires": ["nowhere"], "required_for": ["d"]},
            {"id": "e", "type": "puppet", "tags": ["*"]}
        ]));
        let plan = run(definitions(&release, &[]), &[node(1, &["x"])], &[]);
        let kinds: Vec<_> = plan
            .errors
            .iter()
            .map(|e| {
                (
                    e.kind,
                    e.cycle.iter().map(TaskId::as_str).collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(kinds, [(PlanErrorKind::Cycle, vec!["a", "b", "c", "a"])]);
        assert_eq!(
            plan.errors[0].message,
            "dependency cycle: a@1 -> b@1 -> c@1 -> a@1"
        );
        assert_eq!(plan.errors[0].nodes, [1]);
        // An unknown id, and a relation of a task to itself, name nothing.
        let entries: Vec<(&str, &str)> = plan
            .unresolved
            .iter()
            .map(|u| (u.relation.as_str(), u.entry.as_str()))
            .collect();
        assert_eq!(entries, [("requires", "nowhere"), ("required_for", "d")]);
        assert!(plan.warnings[0].starts_with("unresolved dependency: task 'd' requires 'nowhere'"));
        assert_eq!(tasks_of(&plan, 1), ["d", "e"]);
    }

    #[test]
    fn master_tasks_and_untagged_release_tags() {
        let release = tasks(json!([{"id": "upload", "type": "upload_file", "role": "master"}]));
        let plan = run(
            definitions(&release, &[]),
            &[node(1, &["compute"])],
            &["compute", "mongo"],
        );
        assert_eq!(plan.nodes[1].id, json!("master"));
        assert_eq!(plan.nodes[1].tasks, ["upload"]);
        assert_eq!(
            plan.warnings,
            ["no node carries the release tag 'mongo'; its tasks will not run"]
        );
    }

    #[test]
    fn false_conditions_skip_tasks_and_say_why() {
        let release = tasks(json!([
            {"id": "start", "type": "stage"},
            {"id": "ceph", "type": "puppet", "tags": ["*"], "requires": ["start"],
             "condition": "settings:storage.ceph.value == true"},
            {"id": "after-ceph", "type": "puppet", "tags": ["*"], "requires": ["ceph"]},
            {"id": "tor", "type": "shell", "tags": ["*"], "condition": {"yaql_exp": "'dpdk' in $.roles"}},
            {"id": "broken", "type": "shell", "tags": ["*"], "condition": "settings:storage.ceph.value =="}
        ]));
        let plan = run(definitions(&release, &[]), &[node(1, &["x"])], &[]);
        assert_eq!(tasks_of(&plan, 1), ["after-ceph", "tor"]);
        assert_eq!(plan.skipped.len(), 1);
        assert_eq!(plan.skipped[0].id, "ceph");
        assert_eq!(
            plan.skipped[0].reason,
            "condition 'settings:storage.ceph.value == true' is false"
        );
        assert!(
            plan.warnings[0].starts_with("task 'tor' of the release: its condition (yaql)"),
            "{:?}",
            plan.warnings
        );
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].kind, PlanErrorKind::BadCondition);
        assert!(
            plan.errors[0].message.contains('^'),
            "{}",
            plan.errors[0].message
        );
        // The skipped task still orders the ones that depend on it.
        assert!(
            plan.edges
                .iter()
                .any(|(a, b)| a == "ceph" && b == "after-ceph")
        );
        let json = serde_json::to_value(&plan).unwrap();
        assert_eq!(json["skipped"][0]["id"], "ceph");
    }
}
