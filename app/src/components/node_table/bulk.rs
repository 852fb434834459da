//! The bulk bar: one all-or-nothing change to every node selected, and a
//! refused change's problems by node.

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView};
use mosaic_core::environment::{BulkAction, BulkInput, LISTED_PROBLEMS};

use super::disks::{BulkDisks, ResetWarning, reset_notice};
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
/// theirs, configure their disks, clear the selection —, shown while nodes
/// are selected; then a refused change's problems, by node. What was typed
/// stays while the bar is hidden. A role chosen warns that it resets the
/// layouts of nodes that have one; the nodes a change reset are named.
#[component]
pub(super) fn BulkBar(
    cluster_id: i64,
    /// The environment's nodes (`nodes`' whole list).
    nodes: Signal<Vec<NodeView>>,
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
    // The nodes whose layout the last change reset, by name.
    let reset = RwSignal::new(None::<String>);
    on_success(run, move |answer| {
        typed.tags.set(String::new());
        let names: Vec<String> = answer
            .iter()
            .filter(|n| n.disks_reset)
            .map(|n| n.name.clone())
            .collect();
        reset.set(reset_notice(&names));
        changed.run(NodesChanged::These(answer.clone()));
    });
    let selected = Memo::new(move |_| state.selected.with(Selection::len));
    let ids = Memo::new(move |_| state.selected.with(|s| s.ids().to_vec()));
    let disks = RwSignal::new(None::<Vec<i64>>);
    let warn = Signal::derive(move || {
        !typed.role.with(String::is_empty)
            && ids.with(|ids| {
                nodes.with(|all| {
                    all.iter()
                        .any(|n| ids.contains(&n.id) && n.has_disk_layout())
                })
            })
    });
    let reload = Callback::new(move |()| changed.run(NodesChanged::Unknown));
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
                    class="bulk-configure-disks"
                    data-bulk="bulk-configure-disks"
                    on:click=move |_| disks.set(Some(ids.get_untracked()))
                >
                    "Configure disks"
                </button>
                <button
                    class="bulk-clear"
                    data-bulk="bulk-clear"
                    on:click=move |_| state.selected.set(Selection::default())
                >
                    "Clear selection"
                </button>
            </div>
            <ResetWarning shown=warn />
        </Show>
        {move || reset.get().map(|m| view! { <p class="notice notice-warn disks-reset" role="status">{m}</p> })}
        {move || failure().map(|f| view! { <BulkProblems failure=f /> })}
        <BulkDisks cluster_id nodes selected=ids open=disks changed=reload />
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
