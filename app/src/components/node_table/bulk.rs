//! The bulk bar: one all-or-nothing change to every node selected, and a
//! refused change's problems by node.

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView};
use mosaic_core::environment::{BulkAction, BulkInput, LISTED_PROBLEMS};

use super::filters::{group_options, role_options};
use super::{NodesChanged, Selection, TableState};
use crate::api::{self, ApiFailure};
use crate::components::action::{Request, on_success};

/// What the bar holds, kept while it is hidden.
#[derive(Debug, Clone, Copy, Default)]
struct Typed {
    tags: RwSignal<String>,
    role: RwSignal<String>,
    group: RwSignal<String>,
    port: RwSignal<String>,
    nets: RwSignal<String>,
}

impl Typed {
    fn input(&self) -> BulkInput {
        BulkInput {
            tags: self.tags.get_untracked(),
            role: self.role.get_untracked(),
            node_group: self.group.get_untracked(),
            port: self.port.get_untracked(),
            networks: self.nets.get_untracked(),
        }
    }
}

/// The changes to every node selected — assign or unassign tags, add or
/// remove a role, move them to a node group, put networks on a port of
/// theirs, clear the selection —, shown while nodes are selected; then a
/// refused change's problems, by node. What was typed stays while the bar
/// is hidden.
#[component]
pub(super) fn BulkBar(
    cluster_id: i64,
    state: TableState,
    roles: Signal<Vec<RoleView>>,
    groups: Signal<Vec<String>>,
    networks: Signal<Vec<String>>,
    changed: Callback<NodesChanged>,
) -> impl IntoView {
    let typed = Typed::default();
    // The change of the selected nodes with what the bar holds: all or
    // nothing. Its answer, the nodes it changed, goes to the page.
    let run: Request<BulkAction, Vec<NodeView>> = Action::new_unsync(move |action: &BulkAction| {
        let nodes = state.selected.with_untracked(|s| s.ids().to_vec());
        let change = action.change(nodes, &typed.input());
        async move {
            let change = change.map_err(ApiFailure::message)?;
            api::bulk_nodes(cluster_id, &change).await
        }
    });
    on_success(run, move |nodes| {
        typed.tags.set(String::new());
        changed.run(NodesChanged::These(nodes.clone()));
    });
    let selected = Memo::new(move |_| state.selected.with(Selection::len));
    let failure = move || {
        run.value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().err().cloned()))
    };
    view! {
        <Show when=move || { selected.get() > 0 }>
            <div class="bulk-bar" role="group" aria-label="Change the selected nodes">
                <strong>{selected}" selected:"</strong>
                {fields(typed, roles, groups, networks, run)}
                <button
                    class="bulk-clear"
                    data-bulk="bulk-clear"
                    on:click=move |_| state.selected.set(Selection::default())
                >
                    "Clear selection"
                </button>
            </div>
        </Show>
        {move || failure().map(|f| view! { <BulkProblems failure=f /> })}
    }
}

/// The bar's fields, each with the buttons that send what it holds.
fn fields(
    typed: Typed,
    roles: Signal<Vec<RoleView>>,
    groups: Signal<Vec<String>>,
    networks: Signal<Vec<String>>,
    run: Request<BulkAction, Vec<NodeView>>,
) -> impl IntoView {
    let busy = run.pending();
    let button = move |class: &'static str, label: &'static str, action: BulkAction| {
        view! {
            <button class=class data-bulk=class disabled=busy on:click=move |_| {
                run.dispatch(action);
            }>{label}</button>
        }
    };
    let hint =
        move || networks.with(|n| format!("The port carries exactly these, e.g. {}", n.join(" ")));
    view! {
        <label>
            "Tags "
            <input class="bulk-tags" list="known-tags" placeholder="rabbitmq mysql:1" bind:value=typed.tags />
        </label>
        {button("bulk-assign", "Assign", BulkAction::AssignTags)}
        {button("bulk-unassign", "Unassign", BulkAction::UnassignTags)}
        <label>
            "Role "
            <select class="bulk-role" on:change=move |ev| typed.role.set(event_target_value(&ev))>
                {role_options(roles, typed.role, "choose")}
            </select>
        </label>
        {button("bulk-add-role", "Add role", BulkAction::AddRole)}
        {button("bulk-remove-role", "Remove role", BulkAction::RemoveRole)}
        <label>
            "Node group "
            <select class="bulk-group" on:change=move |ev| typed.group.set(event_target_value(&ev))>
                {group_options(groups, typed.group, "choose")}
            </select>
        </label>
        {button("bulk-move-group", "Move", BulkAction::MoveToGroup)}
        <label>
            "Port "
            <input class="bulk-port" placeholder="eth1" size="8" bind:value=typed.port />
        </label>
        <label>
            "Networks "
            <input class="bulk-networks" list="known-networks" placeholder="storage private" title=hint bind:value=typed.nets />
        </label>
        {button("bulk-put-networks", "Put on port", BulkAction::PutNetworks)}
    }
}

/// A refused bulk change: its message, then each node's problem (the
/// first `LISTED_PROBLEMS`; how many more).
#[component]
fn BulkProblems(failure: ApiFailure) -> impl IntoView {
    let more = failure.node_problems.len().saturating_sub(LISTED_PROBLEMS);
    let problems = failure
        .node_problems
        .into_iter()
        .take(LISTED_PROBLEMS)
        .map(|p| {
            let name = p.name.unwrap_or_else(|| format!("node {}", p.node));
            view! {
                <li data-node=p.node>
                    <strong>{name}</strong>
                    ": "
                    {p.message}
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="notice notice-error bulk-problems" role="alert">
            <p>{failure.message}</p>
            <ul>{problems}</ul>
            {(more > 0).then(|| view! { <p>"… and "{more}" more."</p> })}
        </div>
    }
}
