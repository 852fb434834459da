//! An environment's deployment preview, a tab of its own: the graph type
//! to preview, then the plan's errors, skipped tasks and warnings, and one
//! entry per group of nodes with the same tasks ("12 nodes: compute"),
//! its tasks in order and, on demand, as a graph. The plan is asked for
//! only here, when the tab is open (at 10,000 nodes it is megabytes), and
//! again when another graph type is chosen.

use leptos::prelude::*;
use mosaic_core::api::{GraphSummary, NodeView};
use mosaic_core::name::{GraphType, TaskId};
use mosaic_core::nodes::PlanGroup;
use mosaic_core::task::{Plan, graph_svg};

use crate::api;
use crate::components::graph_choice::GraphChoice;
use crate::components::loading::{Answer, Loaded, Loading, latest, outcome};
use crate::environment::{Env, env};

#[component]
pub fn EnvironmentPreview() -> impl IntoView {
    use api::path::of_cluster;
    let Env { id, .. } = env();
    // Asked for together, not one after another; the nodes for their names.
    let nodes: Answer<Vec<NodeView>> =
        LocalResource::new(move || api::get(of_cluster(id, "nodes")));
    let graphs: Answer<Vec<GraphSummary>> =
        LocalResource::new(move || api::get(of_cluster(id, "graphs")));
    // The preview's graph type: its plan is asked for again when it changes.
    let graph = RwSignal::new(GraphType::deployment());
    let plan: Answer<Plan> = LocalResource::new(move || api::plan(id, graph.get()));
    let retry = Callback::new(move |()| {
        nodes.refetch();
        graphs.refetch();
        plan.refetch();
    });
    let choose = Callback::new(move |kind| graph.set(kind));
    let arrived = move || vec![outcome(&nodes), outcome(&graphs), outcome(&plan)];
    let (nodes, graphs, plan) = (latest(nodes), latest(graphs), latest(plan));
    view! {
        <Loading label="Loading the deployment preview…" retry>
            <Loaded arrived=arrived>
                <h2>"Deployment preview"</h2>
                <div>
                    <GraphChoice graphs chosen=graph choose />
                    <Preview plan nodes />
                </div>
            </Loaded>
        </Loading>
    }
}

/// The label of a group's graph button while the graph is hidden.
const SHOW_GRAPH: &str = "Show the graph";
/// The label while it is shown.
const HIDE_GRAPH: &str = "Hide the graph";

/// The deployment preview: the plan's errors, skipped tasks and warnings,
/// then one entry per group of nodes with the same tasks ("12 nodes:
/// compute"), its tasks in order, and a button that shows them as a graph.
#[component]
pub fn Preview(plan: Memo<Plan>, nodes: Memo<Vec<NodeView>>) -> impl IntoView {
    let groups = Memo::new(move |_| plan.with(Plan::groups));
    let names = Memo::new(move |_| {
        nodes.with(|nodes| {
            nodes
                .iter()
                .map(|n| (n.id, n.name.clone()))
                .collect::<Vec<_>>()
        })
    });
    let errors = move || {
        plan.with(|p| {
            (!p.errors.is_empty()).then(|| {
                let items = p
                    .errors
                    .iter()
                    .map(|e| {
                        let kind = e.kind.as_str();
                        view! {
                            <li class="notice notice-error" data-kind=kind>
                                {kind}
                                ": "
                                {e.message.clone()}
                            </li>
                        }
                    })
                    .collect_view();
                view! { <ul class="plan-errors">{items}</ul> }
            })
        })
    };
    let skipped = Memo::new(move |_| plan.with(|p| p.skipped.clone()));
    let warnings = Memo::new(move |_| plan.with(|p| p.warnings.clone()));
    view! {
        <div class="preview">
            {errors}
            // Kept while there are skipped tasks, so that the list opened stays open.
            <Show when=move || !skipped.with(Vec::is_empty)>
                <details class="plan-skipped">
                    <summary>{move || skipped.with(Vec::len)}" tasks skipped by their conditions"</summary>
                    <ul>
                        {move || {
                            skipped
                                .get()
                                .into_iter()
                                .map(|s| {
                                    view! {
                                        <li data-task=s.id.to_string()>
                                            <code>{s.id.to_string()}</code>
                                            ": "
                                            {s.reason}
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ul>
                </details>
            </Show>
            <Show when=move || !warnings.with(Vec::is_empty)>
                <div class="notice notice-warn">
                    <p>"Warnings (they do not block the deployment):"</p>
                    <ul class="plan-warnings">
                        {move || warnings.get().into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                    </ul>
                </div>
            </Show>
            // A group is known by its tasks (no two groups have the same):
            // its entry stays, graph and all, as its nodes change.
            <For
                each=move || { groups.with(|g| g.iter().map(|g| g.tasks.clone()).collect::<Vec<_>>()) }
                key=|tasks| tasks.clone()
                children=move |tasks| view! { <GroupEntry tasks groups names plan /> }
            />
        </div>
    }
}

/// One group: a summary naming its nodes, its tasks, the graph's button
/// and, while it is pressed, the graph.
#[component]
fn GroupEntry(
    tasks: Vec<TaskId>,
    groups: Memo<Vec<PlanGroup>>,
    names: Memo<Vec<(i64, String)>>,
    plan: Memo<Plan>,
) -> impl IntoView {
    let key = tasks.clone();
    // The group's place in the preview and the group as it is now.
    let group = Memo::new(move |_| {
        groups.with(|groups| {
            groups
                .iter()
                .position(|g| g.tasks == key)
                .map(|k| (k, groups[k].clone()))
        })
    });
    let read = move |f: fn(&PlanGroup) -> String| {
        move || group.with(|g| g.as_ref().map(|(_, g)| f(g)).unwrap_or_default())
    };
    let open = group.with_untracked(|g| g.as_ref().is_some_and(|(_, g)| g.open()));
    let names = move || {
        group.with(|g| {
            g.as_ref()
                .map(|(_, g)| names.with(|n| g.names(n)))
                .unwrap_or_default()
        })
    };
    let shown = RwSignal::new(false);
    let graph = {
        let tasks = tasks.clone();
        move || {
            shown.get().then(|| {
                let svg = plan.with(|p| graph_svg(&tasks, &p.edges));
                view! {
                    <div class="graph-scroll" tabindex="0" role="region" aria-label="Task graph" inner_html=svg></div>
                }
            })
        }
    };
    view! {
        <details
            class="node-plan plan-group"
            data-group=move || group.with(|g| g.as_ref().map_or(0, |(k, _)| *k))
            data-nodes=read(|g| g.node_ids().join(" "))
            open=open
        >
            <summary>
                <strong>{read(|g| g.headline().0)}</strong>
                {read(|g| g.headline().1)}
                <span class="muted">{names}</span>
            </summary>
            <ol class="tasks">{tasks.iter().map(|t| view! { <li>{t.to_string()}</li> }).collect_view()}</ol>
            <button
                class="show-graph"
                aria-expanded=move || if shown.get() { "true" } else { "false" }
                on:click=move |_| shown.update(|s| *s = !*s)
            >
                {move || if shown.get() { HIDE_GRAPH } else { SHOW_GRAPH }}
            </button>
            <div class="graph-slot">{graph}</div>
        </details>
    }
}
