//! One environment: its nodes as a table (filters, pages, bulk changes),
//! the pre-deployment checks, and the deployment preview — nodes with the
//! same tasks grouped, each group's tasks in order and, on demand, as a
//! graph; deleting the environment.

use leptos::ev::MouseEvent;
use leptos::prelude::*;
use mosaic_core::api::{CreateNode, NodeView, RoleView, TagView, UpdateNode};
use mosaic_core::environment::Check;
use mosaic_core::markup;
use mosaic_core::name::{NodeStatus, RoleName, TaskId};
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
        {editable.then(|| view! { <AddNode cluster_id roles=roles.clone() changed /> })}
        <NodeTable
            cluster_id
            nodes
            roles=roles.clone()
            state=table
            editable
            changed
            editor=Callback::new(move |node: NodeView| {
                view! { <NodeCard node roles=roles.clone() changed editable /> }.into_any()
            })
        />
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

/// Role checkboxes; `chosen` holds the ticked role ids.
#[component]
fn RolePicker(roles: Vec<RoleView>, chosen: RwSignal<Vec<RoleName>>) -> impl IntoView {
    roles
        .into_iter()
        .map(|role| {
            let id = role.id.clone();
            let checked = {
                let id = id.clone();
                move || chosen.with(|c| c.contains(&id))
            };
            let toggle = move |_| {
                chosen.update(|c| match c.iter().position(|r| r == &id) {
                    Some(at) => {
                        c.remove(at);
                    }
                    None => c.push(id.clone()),
                })
            };
            let tags = role.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
            let title = match &role.unavailable {
                Some(why) => format!("Not available: {why}"),
                None => format!("{} — tags: {tags}", role.description),
            };
            let unavailable = role.unavailable.is_some();
            // A role a node already has stays ticked so it can be removed.
            let locked = {
                let checked = checked.clone();
                move || unavailable && !checked()
            };
            view! {
                <label class="role" class:unavailable=unavailable title=title>
                    <input
                        type="checkbox"
                        data-role=role.id.to_string()
                        prop:checked=checked
                        prop:disabled=locked
                        on:change=toggle
                    />
                    {role.name.clone()}
                    {role.plugin.clone().map(|p| view! { <span class="muted">{format!(" ({p})")}</span> })}
                </label>
            }
        })
        .collect_view()
}

#[component]
fn AddNode(cluster_id: i64, roles: Vec<RoleView>, changed: Callback<()>) -> impl IntoView {
    let reasons = markup::lists::unavailable_roles(&roles).into_string();
    let chosen = RwSignal::new(Vec::<RoleName>::new());
    let status = RwSignal::new(NodeStatus::Discover);
    let error = RwSignal::new(None::<String>);
    let add = move |_| {
        let request = CreateNode {
            name: None,
            status: Some(status.get_untracked()),
            roles: chosen.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            match api::create_node(cluster_id, &request).await {
                Ok(_) => {
                    error.set(None);
                    chosen.set(Vec::new());
                    changed.run(());
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    view! {
        <div class="add-node">
            <div class="roles"><RolePicker roles chosen /></div>
            <label>
                "Status "
                <select on:change=move |ev| status.set(NodeStatus::parse(&event_target_value(&ev)).unwrap_or_default())>
                    {NodeStatus::ALL
                        .iter()
                        .map(|s| view! { <option value=s.as_str() selected=*s == NodeStatus::Discover>{s.as_str()}</option> })
                        .collect_view()}
                </select>
            </label>
            <button class="add-node-button" on:click=add>"Add node"</button>
            {move || error.get().map(|message| view! { <ErrorNotice message /> })}
            <div inner_html=reasons />
        </div>
    }
}

#[component]
fn NodeCard(
    node: NodeView,
    roles: Vec<RoleView>,
    changed: Callback<()>,
    editable: bool,
) -> impl IntoView {
    let id = node.id;
    let chosen = RwSignal::new(node.roles.clone());
    let error = RwSignal::new(None::<String>);
    let new_tag = RwSignal::new(String::new());
    let report = move |result: Result<NodeView, ApiFailure>| match result {
        Ok(_) => {
            error.set(None);
            changed.run(());
        }
        Err(e) => error.set(Some(e.message)),
    };
    let save_roles = move |_| {
        let change = UpdateNode {
            roles: Some(chosen.get_untracked()),
            ..UpdateNode::default()
        };
        leptos::task::spawn_local(async move { report(api::update_node(id, &change).await) });
    };
    let add_tag = move |_| {
        let tag = new_tag.get_untracked().trim().to_owned();
        if tag.is_empty() {
            return;
        }
        new_tag.set(String::new());
        leptos::task::spawn_local(async move { report(api::assign_tags(id, vec![tag]).await) });
    };
    let chips = node
        .tags
        .iter()
        .map(|tag| {
            let from_role = node.role_tags.contains(tag);
            let primary = tag.as_str().starts_with("primary-");
            let removable = !primary && editable;
            let name = tag.to_string();
            let remove = move |_| {
                let name = name.clone();
                leptos::task::spawn_local(async move { report(api::unassign_tags(id, vec![name]).await) });
            };
            let title = if primary {
                "primary: chosen by Mosaic in HA environments"
            } else if from_role {
                "brought by a role"
            } else {
                "added by hand"
            };
            view! {
                <span class="chip" class:from-role=from_role class:primary=primary data-tag=tag.to_string() title=title>
                    {tag.to_string()}
                    {removable.then(|| view! {
                        <button class="remove-tag" aria-label="Remove the tag" on:click=remove.clone()>"×"</button>
                    })}
                </span>
            }
        })
        .collect_view();
    view! {
        <div class="node" data-node=id>
            <h3>{node.name.clone()} <span class="muted">{format!(" — {}", node.status)}</span></h3>
            <fieldset class="roles plain" disabled=!editable><RolePicker roles chosen /></fieldset>
            <button class="save-roles" class:hidden=!editable on:click=save_roles>"Save roles"</button>
            <div class="chips">{chips}</div>
            <div class="add-tag-row" class:hidden=!editable>
                <input
                    class="add-tag"
                    list="known-tags"
                    placeholder="tag or name:N"
                    prop:value=move || new_tag.get()
                    on:input=move |ev| new_tag.set(event_target_value(&ev))
                />
                <button class="add-tag-button" on:click=add_tag>"Add tag"</button>
            </div>
            {move || error.get().map(|message| view! { <ErrorNotice message /> })}
        </div>
    }
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
