//! The order of a plan's tasks, node by node (SEMANTICS §6.1).
//!
//! Relations are resolved to pairs of tasks. Every pair, projected onto
//! tasks, is an edge of one task graph; a topological order of that graph
//! respects every relation on every node, through tasks elsewhere. Where
//! the task graph has a cycle, the tasks on it are expanded to task@node
//! vertices and only the relations that really hold between those nodes
//! are drawn: a cycle that survives is reported with its nodes, and the
//! rest is ordered node by node. Real plans rarely have such cycles, so
//! the cost stays that of the task graph.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet};

use super::graph::{cycle_path, strongly_connected};
use super::relation::Policy;

/// A task on a node, or a stage or group (which run on no node: `None`).
pub(super) type Vertex = (usize, Option<usize>);

/// Which nodes a cross-node entry looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Look {
    Any,
    SameNode,
    /// A row of the plan's placement: the nodes the entry's tags pick.
    Row(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum PairScope {
    SameNode,
    /// `named_first`: the entry names the task that comes first.
    Cross {
        look: Look,
        policy: Policy,
        named_first: bool,
    },
}

/// One resolved relation: `before` comes before `after` (task indices).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pair {
    pub before: usize,
    pub after: usize,
    pub scope: PairScope,
}

/// Where tasks run, as the order needs it. Node indices are the plan's
/// nodes, then the Fuel master at index `master()`.
pub(super) trait Nodes {
    /// The nodes task `t` runs on, in increasing order.
    fn runs(&self, t: usize) -> Vec<usize>;
    /// Whether placement row `row` picks node `n`.
    fn picks(&self, row: usize, n: usize) -> bool;
    /// The master's index (one past the last node).
    fn master(&self) -> usize;
    /// Orders nodes for `policy: any`: the smallest wins.
    fn rank(&self, n: usize) -> (bool, i64);
}

/// The node-level edges of one pair (`virtual_[t]`: `t` runs on no node).
pub(super) fn node_edges(
    pair: &Pair,
    virtual_: &[bool],
    nodes: &dyn Nodes,
    edge: &mut dyn FnMut(Vertex, Vertex),
) {
    let (b, a) = (pair.before, pair.after);
    match (virtual_[b], virtual_[a], &pair.scope) {
        (true, true, _) => edge((b, None), (a, None)),
        (true, false, _) => nodes
            .runs(a)
            .into_iter()
            .for_each(|n| edge((b, None), (a, Some(n)))),
        (false, true, _) => nodes
            .runs(b)
            .into_iter()
            .for_each(|m| edge((b, Some(m)), (a, None))),
        (false, false, PairScope::SameNode) => {
            let after: BTreeSet<usize> = nodes.runs(a).into_iter().collect();
            for n in nodes.runs(b).into_iter().filter(|n| after.contains(n)) {
                edge((b, Some(n)), (a, Some(n)));
            }
        }
        (
            false,
            false,
            PairScope::Cross {
                look,
                policy,
                named_first,
            },
        ) => {
            let (named, anchor) = if *named_first { (b, a) } else { (a, b) };
            let candidates = nodes.runs(named);
            for at in nodes.runs(anchor) {
                let looked = candidates
                    .iter()
                    .copied()
                    .filter(|&x| !(named == anchor && x == at) && looks_at(look, x, at, nodes));
                let kept: Vec<usize> = match policy {
                    Policy::All => looked.collect(),
                    Policy::Any => looked.min_by_key(|&x| nodes.rank(x)).into_iter().collect(),
                };
                for x in kept {
                    let (from, to) = if *named_first { (x, at) } else { (at, x) };
                    edge((b, Some(from)), (a, Some(to)));
                }
            }
        }
    }
}

fn looks_at(look: &Look, x: usize, at: usize, nodes: &dyn Nodes) -> bool {
    match look {
        Look::Any => x != nodes.master(),
        Look::SameNode => x == at,
        Look::Row(row) => nodes.picks(*row, x),
    }
}

/// One step of the order: a task on all its nodes at once, or the
/// vertices of an expanded part of the graph in their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Task(usize),
    Vertices(Vec<Vertex>),
}

/// A cycle between task@node vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Cycle {
    /// From a vertex back to it.
    pub path: Vec<Vertex>,
    /// The vertices on cycles together with it.
    pub members: Vec<Vertex>,
    /// The other nodes where the same tasks are on cycles the same way.
    pub repeats: BTreeSet<usize>,
    /// Every node of every such cycle.
    pub nodes: BTreeSet<usize>,
}

/// The order of a plan's tasks, with the cycles found.
#[derive(Debug, Default)]
pub(super) struct Ordered {
    pub steps: Vec<Step>,
    pub cycles: Vec<Cycle>,
    /// Tasks on a cycle on some node.
    pub on_cycle: Vec<bool>,
    /// The vertices left out because they are on a cycle.
    pub excluded: HashSet<Vertex>,
}

/// Orders `tasks` tasks under `pairs`: components of the task graph in
/// topological order (ties: the task defined first), each cyclic one
/// expanded to task@node vertices.
pub(super) fn order(tasks: usize, pairs: &[Pair], virtual_: &[bool], nodes: &dyn Nodes) -> Ordered {
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); tasks];
    for p in pairs {
        if !successors[p.before].contains(&p.after) {
            successors[p.before].push(p.after);
        }
    }
    let components = strongly_connected(&successors);
    let mut out = Ordered {
        on_cycle: vec![false; tasks],
        ..Ordered::default()
    };
    // Only a cyclic component needs the pairs indexed: most plans have none.
    let mut expander: Option<Expander<'_>> = None;
    for c in condensed_order(&components, &successors) {
        let component = &components[c];
        let cyclic = component.len() > 1 || successors[component[0]].contains(&component[0]);
        if cyclic {
            let expander = expander.get_or_insert_with(|| Expander::new(pairs, virtual_, nodes));
            let step = expander.expand(component, &mut out);
            out.steps.push(Step::Vertices(step));
        } else {
            out.steps.push(Step::Task(component[0]));
        }
    }
    out
}

/// The components in a topological order of the condensed graph, ties
/// broken by their first task.
fn condensed_order(components: &[Vec<usize>], successors: &[Vec<usize>]) -> Vec<usize> {
    let mut of = vec![0; successors.len()];
    for (c, members) in components.iter().enumerate() {
        members.iter().for_each(|&t| of[t] = c);
    }
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); components.len()];
    let mut indegree = vec![0usize; components.len()];
    for (t, succ) in successors.iter().enumerate() {
        for &s in succ.iter().filter(|&&s| of[s] != of[t]) {
            next[of[t]].push(of[s]);
            indegree[of[s]] += 1;
        }
    }
    kahn(&next, &mut indegree, |c| components[c][0])
}

/// Kahn's algorithm; among ready vertices the smallest `key` goes first.
fn kahn(next: &[Vec<usize>], indegree: &mut [usize], key: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut ready: BinaryHeap<Reverse<(usize, usize)>> = (0..next.len())
        .filter(|&v| indegree[v] == 0)
        .map(|v| Reverse((key(v), v)))
        .collect();
    let mut order = Vec::with_capacity(next.len());
    while let Some(Reverse((_, v))) = ready.pop() {
        order.push(v);
        for &w in &next[v] {
            indegree[w] -= 1;
            if indegree[w] == 0 {
                ready.push(Reverse((key(w), w)));
            }
        }
    }
    order
}

/// Expands cyclic components of the task graph to task@node vertices.
struct Expander<'a> {
    pairs: &'a [Pair],
    virtual_: &'a [bool],
    nodes: &'a dyn Nodes,
    /// The pairs each task comes first in.
    by_before: HashMap<usize, Vec<usize>>,
    /// Cycles by their tasks in order (rotated to start at the smallest).
    seen: HashMap<Vec<usize>, usize>,
}

impl<'a> Expander<'a> {
    fn new(pairs: &'a [Pair], virtual_: &'a [bool], nodes: &'a dyn Nodes) -> Expander<'a> {
        let mut by_before: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, p) in pairs.iter().enumerate() {
            by_before.entry(p.before).or_default().push(i);
        }
        Expander {
            pairs,
            virtual_,
            nodes,
            by_before,
            seen: HashMap::new(),
        }
    }

    /// The component's vertices in order, its cycles recorded in `out`.
    /// The vertices on a cycle are left out, but the order still respects
    /// what passes through them: it is a topological order of the local
    /// graph's condensation, each cycle one vertex of it.
    fn expand(&mut self, component: &[usize], out: &mut Ordered) -> Vec<Vertex> {
        let (vertices, successors) = self.local_graph(component);
        let sccs = strongly_connected(&successors);
        let cyclic: Vec<bool> = sccs
            .iter()
            .map(|scc| scc.len() > 1 || successors[scc[0]].contains(&scc[0]))
            .collect();
        for (scc, _) in sccs.iter().zip(&cyclic).filter(|(_, c)| **c) {
            let path: Vec<Vertex> = cycle_path(scc, &successors)
                .into_iter()
                .map(|v| vertices[v])
                .collect();
            let members: Vec<Vertex> = scc.iter().map(|&v| vertices[v]).collect();
            for v in &members {
                out.excluded.insert(*v);
                out.on_cycle[v.0] = true;
            }
            self.record(path, members, out);
        }
        // Vertices are created task by task, node by node: index order
        // breaks ties.
        condensed_order(&sccs, &successors)
            .into_iter()
            .filter(|&c| !cyclic[c])
            .map(|c| vertices[sccs[c][0]])
            .collect()
    }

    /// The component's vertices and the node-level edges between them.
    fn local_graph(&self, component: &[usize]) -> (Vec<Vertex>, Vec<Vec<usize>>) {
        let members: HashSet<usize> = component.iter().copied().collect();
        let mut vertices: Vec<Vertex> = Vec::new();
        for &t in component {
            if self.virtual_[t] {
                vertices.push((t, None));
            } else {
                vertices.extend(self.nodes.runs(t).into_iter().map(|n| (t, Some(n))));
            }
        }
        let index: HashMap<Vertex, usize> =
            vertices.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); vertices.len()];
        for &t in component {
            for &p in self.by_before.get(&t).into_iter().flatten() {
                let pair = &self.pairs[p];
                if !members.contains(&pair.after) {
                    continue;
                }
                node_edges(pair, self.virtual_, self.nodes, &mut |from, to| {
                    if let (Some(&f), Some(&t)) = (index.get(&from), index.get(&to))
                        && !successors[f].contains(&t)
                    {
                        successors[f].push(t);
                    }
                });
            }
        }
        (vertices, successors)
    }

    /// One error per distinct cycle: the same tasks on cycles together, in
    /// the same order, on other nodes add their nodes to the first found.
    fn record(&mut self, path: Vec<Vertex>, members: Vec<Vertex>, out: &mut Ordered) {
        let mut tasks: Vec<usize> = path[..path.len() - 1].iter().map(|v| v.0).collect();
        let start = (0..tasks.len()).min_by_key(|&i| tasks[i]).unwrap_or(0);
        tasks.rotate_left(start);
        let mut together: Vec<usize> = members.iter().map(|v| v.0).collect();
        together.sort_unstable();
        together.dedup();
        tasks.push(usize::MAX);
        tasks.extend(together);
        let nodes: BTreeSet<usize> = members.iter().filter_map(|v| v.1).collect();
        match self.seen.get(&tasks) {
            Some(&i) => {
                let first = &mut out.cycles[i];
                let new: Vec<usize> = nodes.difference(&first.nodes).copied().collect();
                first.repeats.extend(new.iter().copied());
                first.nodes.extend(new);
            }
            None => {
                self.seen.insert(tasks, out.cycles.len());
                out.cycles.push(Cycle {
                    path,
                    members,
                    repeats: BTreeSet::new(),
                    nodes,
                });
            }
        }
    }
}
