//! The task graph's shape: a drawing of one node's tasks, strongly
//! connected components (cycles), and a shortest cycle path for messages.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::name::TaskId;

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

pub fn drawing(tasks: &[TaskId], edges: &[(TaskId, TaskId)]) -> Drawing {
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
pub(super) fn strongly_connected(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
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
pub(super) fn cycle_path(component: &[usize], successors: &[Vec<usize>]) -> Vec<usize> {
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
