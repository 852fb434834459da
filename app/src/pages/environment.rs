//! One environment: its nodes as a table (filters, pages, bulk changes),
//! the pre-deployment checks, and the deployment preview — nodes with the
//! same tasks grouped, each group's tasks in order and, on demand, as a
//! graph; deleting the environment.

use std::collections::BTreeMap;

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView, TagView};
use mosaic_core::environment::Check;
use mosaic_core::markup::{self, environment};
use mosaic_core::name::TaskId;
use mosaic_core::nodes::PlanGroup;
use mosaic_core::task::Plan;
use web_sys::{Element, Event};

use crate::api::{self, ApiFailure, TagOwner};
use crate::components::environment_tabs::{Tab, environment_tabs};
use crate::components::html::closest;
use crate::components::loaded::loaded;
use crate::components::node_table::{TableState, node_table};
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{View, el, fragment};
use crate::pages::tags::create_tag_form;
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
        .child(loaded(
            data,
            "Loading the environment…",
            move |bodies| match snapshot(&bodies) {
                Ok(s) => environment_body(cluster_id, s, changed, table),
                Err(failure) => retry_notice(failure, changed, true),
            },
        ))
        .into()
}

fn environment_body(
    cluster_id: i64,
    snapshot: Snapshot,
    changed: Callback<()>,
    table: TableState,
) -> View {
    let Snapshot {
        nodes,
        roles,
        tags,
        plan,
        checks,
    } = snapshot;
    let names: Vec<(i64, String)> = nodes.iter().map(|n| (n.id, n.name.clone())).collect();
    // A viewer sees the nodes and the plan; an operator changes them.
    let editable = crate::session::session().can(mosaic_core::access::Role::Operator);
    let head = Head {
        cluster_id,
        nodes: nodes.len(),
        tags,
        instances: plan.instances.clone(),
        checks,
        editable,
    };
    let mut parts = vec![
        head.view(table),
        el("h2").text("Nodes").into(),
        node_table(cluster_id, nodes, roles, table, editable, changed),
    ];
    if editable {
        parts.push(create_tag_form(TagOwner::Environment(cluster_id), changed));
    }
    parts.push(el("h2").text("Deployment preview").into());
    parts.push(preview(plan, names));
    fragment(parts)
}

/// The page's head (`markup::environment::head`): the tags inputs offer,
/// the environment file, deleting the environment — after a confirmation
/// that names what goes —, and the checks, whose buttons show only their
/// nodes in the table.
struct Head {
    cluster_id: i64,
    nodes: usize,
    tags: Vec<TagView>,
    instances: BTreeMap<String, BTreeMap<u64, Vec<i64>>>,
    checks: Vec<Check>,
    editable: bool,
}

impl Head {
    fn view(self, table: TableState) -> View {
        let head = Var::new(self);
        let error = Var::new(None::<String>);
        let router = use_context::<Router>();
        let render = move || {
            let error = error.get();
            head.with_untracked(|h| {
                environment::head(&environment::Head {
                    tags: &h.tags,
                    instances: &h.instances,
                    download: &api::path::of_cluster(h.cluster_id, "environment"),
                    editable: h.editable,
                    error: error.as_deref(),
                    checks: &h.checks,
                })
            })
        };
        let clicked = move |ev: Event| {
            if let Some(button) = closest(&ev, "button.show-nodes") {
                let ids = button.get_attribute("data-nodes").unwrap_or_default();
                table.show_only(markup::checks::node_ids(&ids));
            } else if closest(&ev, "button.delete-environment").is_some() {
                let (id, question) = head.with_untracked(|h| {
                    (h.cluster_id, environment::delete_question(h.nodes, &h.tags))
                });
                delete(id, &question, router, error);
            }
        };
        el("div").merged(render).on("click", clicked).into()
    }
}

/// Deletes the environment once the user confirms `question`, then goes
/// to the environments.
fn delete(cluster_id: i64, question: &str, router: Option<Router>, error: Var<Option<String>>) {
    if !window().confirm_with_message(question).unwrap_or(false) {
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
}

/// The deployment preview (`markup::preview`); a group's graph is drawn
/// when its button is pressed, and removed when pressed again.
fn preview(plan: Plan, names: Vec<(i64, String)>) -> View {
    let groups = plan.groups();
    let html = markup::preview::preview(&plan, &groups, &names).into_string();
    let edges = plan.edges;
    let toggle = move |ev: Event| {
        if let Some(button) = closest(&ev, "button.show-graph") {
            toggle_graph(&button, &groups, &edges);
        }
    };
    el("div").html(&html).on("click", toggle).into()
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
