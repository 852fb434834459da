//! The deployment preview: the plan's errors, skipped tasks and warnings,
//! then one entry per group of nodes with the same tasks ("12 nodes:
//! compute"), its tasks in order, and a button that shows them as a graph
//! ([`graph`]).

use serde_json::Value;

use super::{Markup, plural};
use crate::name::TaskId;
use crate::nodes::PlanGroup;
use crate::task::{Plan, drawing};

/// How many node names a group's summary lists before "and N more".
const NAMED: usize = 6;

/// The preview of `plan`, whose nodes are grouped as `groups`
/// ([`Plan::groups`]); `names` are the environment's nodes, id and name.
/// Group `k` carries `data-group="k"`, and its graph goes into its
/// `.graph-slot` when its `button.show-graph` is pressed.
pub fn preview(plan: &Plan, groups: &[PlanGroup], names: &[(i64, String)]) -> Markup {
    let mut m = Markup::new();
    m.open("div").attr("class", "preview");
    if !plan.errors.is_empty() {
        m.open("ul").attr("class", "plan-errors");
        for e in &plan.errors {
            let kind = e.kind.as_str();
            m.open("li").attr("class", "notice notice-error");
            m.attr("data-kind", kind).text(kind).text(": ");
            m.text(&e.message).close("li");
        }
        m.close("ul");
    }
    if !plan.skipped.is_empty() {
        m.open("details")
            .attr("class", "plan-skipped")
            .open("summary");
        let count = plan.skipped.len().to_string();
        m.text(&count).text(" tasks skipped by their conditions");
        m.close("summary").open("ul");
        for s in &plan.skipped {
            m.open("li").attr("data-task", s.id.as_str());
            m.leaf("code", s.id.as_str()).text(": ").text(&s.reason);
            m.close("li");
        }
        m.close("ul").close("details");
    }
    if !plan.warnings.is_empty() {
        m.open("div").attr("class", "notice notice-warn");
        m.leaf("p", "Warnings (they do not block the deployment):");
        m.open("ul").attr("class", "plan-warnings");
        for w in &plan.warnings {
            m.leaf("li", w);
        }
        m.close("ul").close("div");
    }
    for (k, group) in groups.iter().enumerate() {
        group_entry(&mut m, k, group, names);
    }
    m.close("div");
    m
}

/// One group: a summary naming its nodes, its tasks, the graph's button.
fn group_entry(m: &mut Markup, k: usize, group: &PlanGroup, names: &[(i64, String)]) {
    let ids: Vec<String> = group.nodes.iter().map(node_id).collect();
    let count = ids.len();
    m.open("details").attr("class", "node-plan plan-group");
    m.num("data-group", k).attr("data-nodes", &ids.join(" "));
    m.flag("open", count <= 3).open("summary");
    m.open("strong").text(&count.to_string()).text(" node");
    m.text(plural(count)).text(": ");
    if group.tags.is_empty() {
        m.text("no common tag");
    }
    for (i, tag) in group.tags.iter().enumerate() {
        m.text(if i == 0 { "" } else { ", " }).text(tag.as_str());
    }
    m.close("strong").text(" — ");
    m.text(&group.tasks.len().to_string()).text(" tasks");
    m.open("span").attr("class", "muted").text(" (");
    let shown: Vec<String> = ids
        .iter()
        .take(NAMED)
        .map(|id| name_of(id, names))
        .collect();
    m.text(&shown.join(", "));
    if count > NAMED {
        m.text(" and ")
            .text(&(count - NAMED).to_string())
            .text(" more");
    }
    m.text(")").close("span").close("summary");
    m.open("ol").attr("class", "tasks");
    for t in &group.tasks {
        m.leaf("li", t.as_str());
    }
    m.close("ol");
    m.open("button").attr("class", "show-graph");
    m.attr("aria-expanded", "false")
        .text(SHOW_GRAPH)
        .close("button");
    m.open("div").attr("class", "graph-slot").close("div");
    m.close("details");
}

/// The label of a group's graph button while the graph is hidden.
pub const SHOW_GRAPH: &str = "Show the graph";
/// The label while it is shown.
pub const HIDE_GRAPH: &str = "Hide the graph";

/// A plan's node id as written in `data-nodes`: a number, or `master`.
fn node_id(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn name_of(id: &str, names: &[(i64, String)]) -> String {
    match names.iter().find(|(n, _)| n.to_string() == id) {
        Some((_, name)) => name.clone(),
        None if id == "master" => "Fuel master".to_owned(),
        None => format!("node {id}"),
    }
}

const COLUMN: usize = 170;
const ROW: usize = 44;
const BOX: usize = 150;
const BOX_HEIGHT: usize = 22;
/// The longest task name drawn whole in a box; longer ones are cut with "…"
/// (the box's `<title>` has the whole name).
const LABEL: usize = 22;

/// One node's tasks as an SVG graph: a row per dependency depth, tasks of
/// one depth side by side, an arrow from each task to the tasks that wait
/// for it on the node (`edges` are the whole plan's, as [`drawing`] takes).
pub fn graph(tasks: &[TaskId], edges: &[(TaskId, TaskId)]) -> Markup {
    let layout = drawing(tasks, edges);
    let at = positions(&layout.columns);
    let width = at.iter().map(|p| p.0 + BOX + 10).max().unwrap_or(10);
    let height = at.iter().map(|p| p.1 + BOX_HEIGHT + 10).max().unwrap_or(10);
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "graph-scroll")
        .attr("tabindex", "0");
    m.attr("role", "region").attr("aria-label", "Task graph");
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
    m.close("svg").close("div");
    m
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::TagName;
    use crate::task::{PlanError, PlanErrorKind};

    fn task(id: &str) -> TaskId {
        TaskId::new(id).unwrap()
    }

    fn group(nodes: &[Value], tags: &[&str], tasks: &[&str]) -> PlanGroup {
        PlanGroup {
            nodes: nodes.to_vec(),
            tags: tags.iter().map(|t| TagName::new(*t).unwrap()).collect(),
            tasks: tasks.iter().map(|t| task(t)).collect(),
        }
    }

    #[test]
    fn depths_are_rows_and_siblings_sit_side_by_side() {
        assert_eq!(
            positions(&[0, 1, 1, 2]),
            [(10, 10), (10, 54), (180, 54), (10, 98)]
        );
    }

    #[test]
    fn a_group_names_its_nodes_tags_and_tasks() {
        let ids: Vec<Value> = (1..=8).map(Value::from).collect();
        let g = group(&ids, &["compute", "ceph-osd"], &["netconfig", "nova"]);
        let names = [(1, "rack1-n1".to_owned()), (2, "rack1-n2".to_owned())];
        let html = preview(&Plan::default(), &[g], &names).into_string();
        assert!(
            html.contains(r#"data-group="0" data-nodes="1 2 3 4 5 6 7 8">"#),
            "{html}"
        );
        assert!(html.contains("<strong>8 nodes: compute, ceph-osd</strong> — 2 tasks"));
        assert!(html.contains("(rack1-n1, rack1-n2, node 3, node 4, node 5, node 6 and 2 more)"));
        assert!(html.contains(r#"<ol class="tasks"><li>netconfig</li><li>nova</li></ol>"#));
    }

    #[test]
    fn small_groups_start_open_and_the_master_is_named() {
        let g = group(&[Value::from("master")], &[], &["upload"]);
        let html = preview(&Plan::default(), &[g], &[]).into_string();
        assert!(html.contains(r#"data-nodes="master" open="">"#), "{html}");
        assert!(html.contains("1 node: no common tag"));
        assert!(html.contains("(Fuel master)"));
    }

    #[test]
    fn errors_and_messages_are_escaped() {
        let plan = Plan::failed(PlanError::new(
            PlanErrorKind::Cycle,
            "a <b> & \"c\"".to_owned(),
        ));
        let html = preview(&plan, &[], &[]).into_string();
        assert!(
            html.contains(r#"data-kind="cycle">cycle: a &lt;b&gt; &amp; &quot;c&quot;</li>"#),
            "{html}"
        );
    }

    #[test]
    fn the_graph_draws_a_box_per_task_and_an_arrow_per_link() {
        let tasks = [task("a"), task("b"), task("a-task-with-a-long-name-x")];
        let edges = [(task("a"), task("b"))];
        let svg = graph(&tasks, &edges).into_string();
        assert_eq!(svg.matches("<rect").count(), 3);
        assert_eq!(svg.matches("<line").count(), 1);
        assert!(svg.contains(r#"x1="85" y1="32" x2="85" y2="54""#), "{svg}");
        assert!(svg.contains(">a-task-with-a-long-na…</text>"));
        assert!(svg.contains("<title>a-task-with-a-long-name-x</title>"));
    }
}
