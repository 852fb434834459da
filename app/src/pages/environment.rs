//! One environment: its nodes as a table (filters, pages, bulk changes),
//! the pre-deployment checks, and the deployment preview — nodes with the
//! same tasks grouped, each group's tasks in order and, on demand, as a
//! graph; deleting the environment.

use leptos::ev::MouseEvent;
use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView, TagView};
use mosaic_core::environment::Check;
use mosaic_core::markup;
use mosaic_core::name::TaskId;
use mosaic_core::nodes::PlanGroup;
use mosaic_core::task::Plan;
use web_sys::Element;

use crate::api::{self, ApiFailure, TagOwner};
use crate::components::environment_tabs::{EnvironmentTabs, Tab};
use crate::components::html::closest;
use crate::components::loaded::loaded;
use crate::components::node_table::{NodeTable, TableState};
use crate::components::notice::ErrorNotice;
use crate::components::retry::RetryNotice;
use crate::pages::tags::CreateTagForm;
use crate::route::{Route, Router};

/// Everything the page shows, fetched together.
#[derive(Debug, Clone)]
struct Snapshot {
    nodes: Vec<NodeView>,
    roles: Vec<RoleView>,
    tags: Vec<TagView>,
    plan: Plan,
    checks: Vec<Check>,
}

/// What the page asks for, in the order [`snapshot`] reads the answers.
fn paths(cluster: i64) -> Vec<String> {
    use api::path::of_cluster;
    vec![
        of_cluster(cluster, "nodes"),
        of_cluster(cluster, "roles"),
        TagOwner::Environment(cluster).path(),
        of_cluster(cluster, "plan"),
        of_cluster(cluster, "checks"),
    ]
}

fn snapshot(bodies: &api::Bodies) -> Result<Snapshot, ApiFailure> {
    Ok(Snapshot {
        nodes: api::answer(bodies, 0)?,
        roles: api::answer(bodies, 1)?,
        tags: api::answer(bodies, 2)?,
        plan: api::answer(bodies, 3)?,
        checks: api::answer(bodies, 4)?,
    })
}

#[component]
pub fn EnvironmentPage(cluster_id: i64) -> impl IntoView {
    let refresh = RwSignal::new(0u32);
    let data = api::fetch(move || {
        refresh.get();
        paths(cluster_id)
    });
    let changed = Callback::new(move |()| refresh.update(|n| *n += 1));
    // Outside the reloading part: filters and the selection survive a change.
    let table = TableState::new();
    view! {
        <section class="card environment" data-page="environment">
            <EnvironmentTabs cluster_id current=Tab::Nodes />
            {loaded(data, "Loading the environment…", move |bodies| {
                match snapshot(&bodies) {
                    Ok(s) => view! { <EnvironmentBody cluster_id snapshot=s changed table /> }.into_any(),
                    Err(failure) => {
                        view! { <RetryNotice failure on_retry=changed auto=true /> }.into_any()
                    }
                }
            })}
        </section>
    }
}

#[component]
fn EnvironmentBody(
    cluster_id: i64,
    snapshot: Snapshot,
    changed: Callback<()>,
    table: TableState,
) -> impl IntoView {
    let Snapshot {
        nodes,
        roles,
        tags,
        plan,
        checks,
    } = snapshot;
    let names: Vec<(i64, String)> = nodes.iter().map(|n| (n.id, n.name.clone())).collect();
    let node_count = nodes.len();
    // Known tags, and the next instance (`mysql:3`) of each created one.
    let mut known: Vec<String> = tags.iter().map(|t| t.name.clone()).collect();
    known.extend(
        tags.iter()
            .filter(|t| t.source == "user" || t.source == "environment")
            .map(|t| mosaic_core::tag::next_instance(&plan.instances, &t.name)),
    );
    // A viewer sees the nodes and the plan; an operator changes them.
    let editable = crate::session::session().can(mosaic_core::access::Role::Operator);
    view! {
        <datalist id="known-tags">
            {known.iter().map(|t| view! { <option value=t.clone() /> }).collect_view()}
        </datalist>
        <p class="environment-actions">
            <a class="button export" href=api::path::of_cluster(cluster_id, "environment") download="">
                "Download the environment file"
            </a>
            {editable.then(|| view! { <DeleteEnvironment cluster_id nodes=node_count tags=tags.clone() /> })}
        </p>
        <Checks checks table />
        <h2>"Nodes"</h2>
        <NodeTable cluster_id nodes roles state=table editable changed />
        {editable.then(|| view! { <CreateTagForm owner=TagOwner::Environment(cluster_id) changed /> })}
        <h2>"Deployment preview"</h2>
        <Preview plan names />
    }
}

/// Deletes the environment after a confirmation that names what goes.
#[component]
fn DeleteEnvironment(cluster_id: i64, nodes: usize, tags: Vec<TagView>) -> impl IntoView {
    let own = tags.iter().filter(|t| t.source == "environment").count();
    let error = RwSignal::new(None::<String>);
    let router = use_context::<Router>();
    let delete = move |_| {
        let question = format!(
            "Delete this environment with its {nodes} node{} and its {own} own tag{}? This cannot be undone.",
            if nodes == 1 { "" } else { "s" },
            if own == 1 { "" } else { "s" },
        );
        if !window().confirm_with_message(&question).unwrap_or(false) {
            return;
        }
        leptos::task::spawn_local(async move {
            match api::delete_cluster(cluster_id).await {
                Ok(()) => {
                    if let Some(router) = router {
                        router.go(Route::Environments);
                    }
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    view! {
        <button class="delete-environment danger" on:click=delete>"Delete the environment"</button>
        {move || error.get().map(|message| view! { <ErrorNotice message /> })}
    }
}

/// The pre-deployment checks (`markup::checks`); a check's button shows
/// only its nodes in the table.
#[component]
fn Checks(checks: Vec<Check>, table: TableState) -> impl IntoView {
    let html = markup::checks::checks(&checks).into_string();
    let show_nodes = move |ev: MouseEvent| {
        if let Some(button) = closest(&ev, "button.show-nodes") {
            let ids = button.get_attribute("data-nodes").unwrap_or_default();
            table.show_only(markup::checks::node_ids(&ids));
        }
    };
    view! { <div inner_html=html on:click=show_nodes /> }
}

/// The deployment preview (`markup::preview`); a group's graph is drawn
/// when its button is pressed, and removed when pressed again.
#[component]
fn Preview(plan: Plan, names: Vec<(i64, String)>) -> impl IntoView {
    let groups = plan.groups();
    let html = markup::preview::preview(&plan, &groups, &names).into_string();
    let edges = plan.edges;
    let toggle = move |ev: MouseEvent| {
        if let Some(button) = closest(&ev, "button.show-graph") {
            toggle_graph(&button, &groups, &edges);
        }
    };
    view! { <div inner_html=html on:click=toggle /> }
}

fn toggle_graph(button: &Element, groups: &[PlanGroup], edges: &[(TaskId, TaskId)]) {
    use markup::preview::{HIDE_GRAPH, SHOW_GRAPH, graph};
    let Some(entry) = button.closest(".plan-group").ok().flatten() else {
        return;
    };
    let Some(slot) = entry.query_selector(".graph-slot").ok().flatten() else {
        return;
    };
    let shown = button.get_attribute("aria-expanded").as_deref() == Some("true");
    if shown {
        slot.set_inner_html("");
    } else {
        let k = entry
            .get_attribute("data-group")
            .and_then(|k| k.parse::<usize>().ok());
        let Some(group) = k.and_then(|k| groups.get(k)) else {
            return;
        };
        slot.set_inner_html(&graph(&group.tasks, edges).into_string());
    }
    let _ = button.set_attribute("aria-expanded", if shown { "false" } else { "true" });
    button.set_text_content(Some(if shown { SHOW_GRAPH } else { HIDE_GRAPH }));
}
