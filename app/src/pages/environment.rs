//! One environment: its nodes as a table (filters, pages, bulk changes),
//! the pre-deployment checks, and the deployment preview — nodes with the
//! same tasks grouped, each group's tasks in order and, on demand, as a
//! graph; deleting the environment.

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView, TagView};
use mosaic_core::environment::Check;
use mosaic_core::markup::{self, Markup, environment};
use mosaic_core::name::TaskId;
use mosaic_core::nodes::PlanGroup;
use mosaic_core::task::Plan;
use web_sys::{Element, Event};

use crate::api::{self, ApiFailure, TagOwner};
use crate::components::environment_tabs::{Tab, environment_tabs};
use crate::components::html::closest;
use crate::components::loaded::followed;
use crate::components::node_table::{TableState, node_table};
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::components::watch::on_change;
use crate::dom::{View, el, fragment};
use crate::pages::tags::create_tag_form;
use crate::route::Route;

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

pub fn environment_page(cluster_id: i64) -> View {
    let refresh = Var::new(0u32);
    let data = api::fetch(move || {
        refresh.get();
        paths(cluster_id)
    });
    let changed = Callback::new(move |()| refresh.update(|n| *n += 1));
    // Outside the reloading part: filters and the selection survive a change.
    let table = TableState::new();
    el("section")
        .class("card environment")
        .attr("data-page", "environment")
        .child(environment_tabs(cluster_id, Tab::Nodes))
        .child(followed(
            data,
            "Loading the environment…",
            snapshot,
            move |s| environment_body(cluster_id, s, changed, table),
            move |failure| retry_notice(failure, changed, true),
        ))
        .into()
}

/// The page once loaded, following `snapshot` as it is loaded again after
/// each change.
fn environment_body(
    cluster_id: i64,
    snapshot: Var<Option<Snapshot>>,
    changed: Callback<()>,
    table: TableState,
) -> View {
    // A viewer sees the nodes and the plan; an operator changes them.
    let editable = crate::session::session().can(mosaic_core::access::Role::Operator);
    let (nodes, roles) = snapshot.with_untracked(|s| {
        let s = s.as_ref();
        let nodes = s.map(|s| s.nodes.clone()).unwrap_or_default();
        (
            Var::new(nodes),
            Var::new(s.map(|s| s.roles.clone()).unwrap_or_default()),
        )
    });
    // The table's data follows the page's (after its first answers, which
    // the table starts from).
    on_change(
        move || snapshot.track(),
        move || {
            snapshot.with_untracked(|s| {
                if let Some(s) = s {
                    nodes.set(s.nodes.clone());
                    roles.set(s.roles.clone());
                }
            })
        },
    );
    let mut parts = vec![
        head(cluster_id, snapshot, editable, table),
        el("h2").text("Nodes").into(),
        node_table(cluster_id, nodes, roles, table, editable, changed),
    ];
    if editable {
        parts.push(create_tag_form(TagOwner::Environment(cluster_id), changed));
    }
    parts.push(el("h2").text("Deployment preview").into());
    parts.push(preview(snapshot));
    fragment(parts)
}

/// The page's head (`markup::environment::head`): the tags inputs offer,
/// the environment file, deleting the environment — after a confirmation
/// that names what goes —, and the checks, whose buttons show only their
/// nodes in the table.
fn head(
    cluster_id: i64,
    snapshot: Var<Option<Snapshot>>,
    editable: bool,
    table: TableState,
) -> View {
    let error = Var::new(None::<String>);
    let navigate = leptos_router::hooks::use_navigate();
    let download = api::path::of_cluster(cluster_id, "environment");
    let render = move || {
        let error = error.get();
        snapshot.with(|s| {
            let Some(s) = s else {
                return Markup::new();
            };
            environment::head(&environment::Head {
                tags: &s.tags,
                instances: &s.plan.instances,
                download: &download,
                editable,
                error: error.as_deref(),
                checks: &s.checks,
            })
        })
    };
    let clicked = move |ev: Event| {
        if let Some(button) = closest(&ev, "button.show-nodes") {
            let ids = button.get_attribute("data-nodes").unwrap_or_default();
            table.show_only(markup::checks::node_ids(&ids));
        } else if closest(&ev, "button.delete-environment").is_some() {
            let question = snapshot.with_untracked(|s| {
                s.as_ref()
                    .map(|s| environment::delete_question(s.nodes.len(), &s.tags))
            });
            if let Some(question) = question {
                delete(cluster_id, &question, navigate.clone(), error);
            }
        }
    };
    el("div").merged(render).on("click", clicked).into()
}

/// Deletes the environment once the user confirms `question`, then goes
/// to the environments.
fn delete(
    cluster_id: i64,
    question: &str,
    navigate: impl Fn(&str, leptos_router::NavigateOptions) + 'static,
    error: Var<Option<String>>,
) {
    if !window().confirm_with_message(question).unwrap_or(false) {
        return;
    }
    leptos::task::spawn_local(async move {
        match api::delete_cluster(cluster_id).await {
            // Gone with the page if the operator left it meanwhile.
            Ok(()) if error.try_set(None).is_none() => {
                navigate(&Route::Environments.path(), Default::default());
            }
            Ok(()) => {}
            Err(e) => {
                error.try_set(Some(e.message));
            }
        }
    });
}

/// The deployment preview (`markup::preview`); a group's graph is drawn
/// when its button is pressed, and removed when pressed again.
fn preview(snapshot: Var<Option<Snapshot>>) -> View {
    let render = move || {
        snapshot.with(|s| {
            let Some(s) = s else {
                return Markup::new();
            };
            let names: Vec<(i64, String)> =
                s.nodes.iter().map(|n| (n.id, n.name.clone())).collect();
            markup::preview::preview(&s.plan, &s.plan.groups(), &names)
        })
    };
    let toggle = move |ev: Event| {
        if let Some(button) = closest(&ev, "button.show-graph") {
            snapshot.with_untracked(|s| {
                if let Some(s) = s {
                    toggle_graph(&button, &s.plan.groups(), &s.plan.edges);
                }
            });
        }
    };
    el("div").merged(render).on("click", toggle).into()
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
