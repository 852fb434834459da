//! The task graph's shape: a drawing of one node's tasks (and the drawing
//! as an SVG document, [`graph_svg`]), strongly connected components (cycles),
//! and a shortest cycle path for messages.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::name::TaskId;
use crate::svg::Markup;

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

const COLUMN: usize = 170;
const ROW: usize = 44;
const BOX: usize = 150;
const BOX_HEIGHT: usize = 22;
/// The longest task name drawn whole in a box; longer ones are cut with "…"
/// (the box's `<title>` has the whole name).
const LABEL: usize = 22;

/// One node's tasks as an SVG graph (`svg.plan-graph`): a row per
/// dependency depth, tasks of one depth side by side, an arrow from each
/// task to the tasks that wait for it on the node (`edges` are the whole
/// plan's, as [`drawing`] takes). Task names are escaped.
pub fn graph_svg(tasks: &[TaskId], edges: &[(TaskId, TaskId)]) -> String {
    let layout = drawing(tasks, edges);
    let at = positions(&layout.columns);
    let width = at.iter().map(|p| p.0 + BOX + 10).max().unwrap_or(10);
    let height = at.iter().map(|p| p.1 + BOX_HEIGHT + 10).max().unwrap_or(10);
    let mut m = Markup::new();
    m.open("svg")
        .attr("class", "plan-graph")
        .num("width", width);
    m.num("height", height);
    m.attr("viewBox", &format!("0 0 {width} {height}"))
        .attr("role", "img");
    m.attr("aria-label", "The node's tasks and their dependencies");
    m.open("defs").open("marker").attr("id", "arrow");
    m.attr("viewBox", "0 0 10 10")
        .attr("refX", "10")
        .attr("refY", "5");
    m.attr("markerWidth", "6").attr("markerHeight", "6");
    m.attr("orient", "auto-start-reverse").open("path");
    m.attr("d", "M 0 0 L 10 5 L 0 10 z").close("path");
    m.close("marker").close("defs");
    for &(from, to) in &layout.links {
        m.open("line").attr("class", "link");
        m.num("x1", at[from].0 + BOX / 2)
            .num("y1", at[from].1 + BOX_HEIGHT);
        m.num("x2", at[to].0 + BOX / 2).num("y2", at[to].1);
        m.attr("marker-end", "url(#arrow)").close("line");
    }
    for (task, &(x, y)) in tasks.iter().zip(&at) {
        m.open("g")
            .attr("class", "task")
            .attr("data-task", task.as_str());
        m.leaf("title", task.as_str());
        m.open("rect").num("x", x).num("y", y).num("width", BOX);
        m.num("height", BOX_HEIGHT).attr("rx", "4").close("rect");
        m.open("text").num("x", x + 6).num("y", y + 15);
        m.text(&short(task.as_str())).close("text").close("g");
    }
    m.close("svg");
    m.into_string()
}

/// Where each task's box goes, (x, y): its depth is its row; tasks of one
/// depth sit side by side in the order given.
fn positions(depths: &[usize]) -> Vec<(usize, usize)> {
    let mut placed = vec![0usize; depths.iter().max().map_or(0, |m| m + 1)];
    depths
        .iter()
        .map(|&d| {
            let slot = placed[d];
            placed[d] += 1;
            (10 + slot * COLUMN, 10 + d * ROW)
        })
        .collect()
}

fn short(name: &str) -> String {
    if name.chars().count() <= LABEL {
        name.to_owned()
    } else {
        let mut cut: String = name.chars().take(LABEL - 1).collect();
        cut.push('…');
        cut
    }
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

#[cfg(test)]
mod svg_tests {
    use super::*;

    fn task(id: &str) -> TaskId {
        TaskId::new(id).unwrap()
    }

    #[test]
    fn depths_are_rows_and_siblings_sit_side_by_side() {
        assert_eq!(
            positions(&[0, 1, 1, 2]),
            [(10, 10), (10, 54), (180, 54), (10, 98)]
        );
    }

    #[test]
    fn the_graph_draws_a_box_per_task_and_an_arrow_per_link() {
        let tasks = [task("a"), task("b"), task("a-task-with-a-long-name-x")];
        let edges = [(task("a"), task("b"))];
        let svg = graph_svg(&tasks, &edges);
        assert!(
            svg.starts_with(r#"<svg class="plan-graph" width="#),
            "{svg}"
        );
        assert_eq!(svg.matches("<rect").count(), 3);
        assert_eq!(svg.matches("<line").count(), 1);
        assert!(svg.contains(r#"x1="85" y1="32" x2="85" y2="54""#), "{svg}");
        assert!(svg.contains(">a-task-with-a-long-na…</text>"));
        assert!(svg.contains("<title>a-task-with-a-long-name-x</title>"));
    }
}
