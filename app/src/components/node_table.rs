//! An environment's nodes as a table that stays fast with a thousand of
//! them: filtered by name, role, tag, status and node group, sorted, fifty
//! to a page, many selected at once, with bulk actions (one all-or-nothing
//! request: tags, roles, a node group, networks on a port); adding a node,
//! and the editor of the node being edited in the row under it, with its
//! interfaces. Filtering, sorting and what the count line says are core's
//! (`mosaic_core::nodes`).
//!
//! Rows are keyed by node id and read their node through a memo, so an
//! answer loaded again after a change (a bulk tag change over a rack)
//! changes the rows in place: the control in use stays the same element
//! and keeps the focus. What the admin chose (`TableState`) is the page's
//! and outlives the table.

use leptos::prelude::*;
use mosaic_core::api::{CreateNode, NodeView, RoleView, UpdateNode};
use mosaic_core::environment::{BulkAction, BulkInput, LISTED_PROBLEMS};
use mosaic_core::name::{NodeStatus, RoleName, TagName};
use mosaic_core::nodes::{
    NodeFilter, NodeSort, TagOrigin, count_line, page_count, page_of, role_title,
    unavailable_summary,
};

use crate::api::{self, ApiFailure};
use crate::components::action::{ActionError, Request, on_success};
use crate::components::interfaces_editor::InterfacesEditor;
use crate::components::pager::Pager;

/// What the admin chose in the table: kept while the page reloads its data
/// after a change, so a filtered, selected rack stays as it was.
#[derive(Debug, Clone, Copy)]
pub struct TableState {
    pub name: RwSignal<String>,
    pub role: RwSignal<String>,
    pub tag: RwSignal<String>,
    pub status: RwSignal<String>,
    /// A node group, by name; empty: any.
    pub group: RwSignal<String>,
    /// Only these nodes (from a pre-deployment check); empty: all.
    pub only: RwSignal<Vec<i64>>,
    pub sort: RwSignal<(NodeSort, bool)>,
    pub page: RwSignal<usize>,
    pub selected: RwSignal<Selection>,
    pub editing: RwSignal<Option<i64>>,
}

impl TableState {
    pub fn new() -> TableState {
        TableState {
            name: RwSignal::new(String::new()),
            role: RwSignal::new(String::new()),
            tag: RwSignal::new(String::new()),
            status: RwSignal::new(String::new()),
            group: RwSignal::new(String::new()),
            only: RwSignal::new(Vec::new()),
            sort: RwSignal::new((NodeSort::Name, false)),
            page: RwSignal::new(0),
            selected: RwSignal::new(Selection::default()),
            editing: RwSignal::new(None),
        }
    }

    fn filter(&self) -> NodeFilter {
        NodeFilter {
            name: self.name.get(),
            role: self.role.with(|r| RoleName::new(r).ok()),
            tag: self.tag.with(|t| TagName::new(t).ok()),
            status: self.status.with(|s| NodeStatus::parse(s).ok()),
            node_group: self.group.with(|g| (!g.is_empty()).then(|| g.clone())),
            only: self.only.get(),
        }
    }

    /// Sets a filter to what was typed or chosen, from the first page.
    fn filter_by(&self, filter: RwSignal<String>, value: String) {
        filter.set(value);
        self.page.set(0);
    }

    /// Shows only `nodes` (a check's), from the first page.
    pub fn show_only(&self, nodes: Vec<i64>) {
        self.name.set(String::new());
        self.role.set(String::new());
        self.tag.set(String::new());
        self.status.set(String::new());
        self.group.set(String::new());
        self.only.set(nodes);
        self.page.set(0);
    }
}

impl Default for TableState {
    fn default() -> Self {
        TableState::new()
    }
}

/// The nodes selected, by id: a sorted list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection(Vec<i64>);

impl Selection {
    pub fn contains(&self, id: i64) -> bool {
        self.0.binary_search(&id).is_ok()
    }

    /// Selects `id` (`on`) or deselects it.
    pub fn set(&mut self, id: i64, on: bool) {
        match (self.0.binary_search(&id), on) {
            (Err(at), true) => self.0.insert(at, id),
            (Ok(at), false) => {
                self.0.remove(at);
            }
            _ => {}
        }
    }

    pub fn toggle(&mut self, id: i64) {
        self.set(id, !self.contains(id));
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The ids, in order.
    pub fn ids(&self) -> &[i64] {
        &self.0
    }
}

/// Ticks `role` in `chosen` if it is not, unticks it if it is.
fn toggle(chosen: &mut Vec<RoleName>, role: &RoleName) {
    match chosen.iter().position(|r| r == role) {
        Some(at) => {
            chosen.remove(at);
        }
        None => chosen.push(role.clone()),
    }
}

/// The table of the environment's `nodes` (following them as the page
/// loads them again after each change), with `roles` to give them, its
/// node `groups` to move them to and its `networks` to put on their
/// interfaces; `changed` asks the page to load what a change affected.
#[component]
pub fn NodeTable(
    cluster_id: i64,
    #[prop(into)] nodes: Signal<Vec<NodeView>>,
    #[prop(into)] roles: Signal<Vec<RoleView>>,
    /// The environment's node groups, by name.
    #[prop(into)]
    groups: Signal<Vec<String>>,
    /// The environment's networks, by name.
    #[prop(into)]
    networks: Signal<Vec<String>>,
    state: TableState,
    /// An operator may change nodes; a viewer only looks.
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    // The ids shown, in order: recomputed when the nodes, a filter or the
    // sort change.
    let shown = Memo::new(move |_| {
        let filter = state.filter();
        let (sort, descending) = state.sort.get();
        nodes.with(|nodes| {
            mosaic_core::nodes::select(nodes, &filter, sort, descending)
                .iter()
                .map(|n| n.id)
                .collect::<Vec<i64>>()
        })
    });
    let on_page = Memo::new(move |_| shown.with(|ids| page_of(ids, state.page.get()).to_vec()));
    let selected = Memo::new(move |_| state.selected.with(Selection::len));
    let all_selected = Memo::new(move |_| {
        shown.with(|ids| {
            state
                .selected
                .with(|sel| !ids.is_empty() && ids.iter().all(|id| sel.contains(*id)))
        })
    });
    let pages = Memo::new(move |_| shown.with(|ids| page_count(ids.len())));
    let count = move || {
        let total = nodes.with(Vec::len);
        count_line(
            state.page.get(),
            shown.with(Vec::len),
            total,
            selected.get(),
        )
    };
    let select_all = move |_| {
        let select = !all_selected.get_untracked();
        shown.with_untracked(|ids| {
            state
                .selected
                .update(|sel| ids.iter().for_each(|id| sel.set(*id, select)))
        });
    };
    // A node that could not be deleted.
    let error = RwSignal::new(None::<String>);
    let row =
        move |id: i64| view! { <NodeRow id nodes roles networks state editable changed error /> };
    view! {
        <div class="node-table">
            {editable.then(|| view! { <AddNode cluster_id roles changed /> })}
            <Filters state roles groups />
            {editable.then(|| view! { <BulkBar cluster_id state roles groups networks changed /> })}
            <datalist id="known-networks">
                <For each=move || networks.get() key=|n| n.clone() children=|n| view! { <option value=n></option> } />
            </datalist>
            <p class="node-count" aria-live="polite">{count}</p>
            <table class="nodes-table">
                <caption class="visually-hidden">"The environment's nodes"</caption>
                <thead>
                    <tr>
                        <th scope="col">
                            <input
                                type="checkbox"
                                class="select-all"
                                aria-label="Select every node the filter shows"
                                prop:checked=all_selected
                                on:change=select_all
                            />
                        </th>
                        {NodeSort::COLUMNS
                            .into_iter()
                            .map(|(column, label)| view! { <SortHeader state column label /> })
                            .collect_view()}
                        <th scope="col">"Tags"</th>
                        <th scope="col">"Actions"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || on_page.get() key=|id| *id children=row />
                </tbody>
            </table>
            <Pager page=state.page pages label="Pages of nodes" />
            {move || {
                error.get().map(|message| view! { <div class="notice notice-error" role="alert">{message}</div> })
            }}
        </div>
    }
}

/// A column header that sorts by `column`: ascending, then descending.
#[component]
fn SortHeader(state: TableState, column: NodeSort, label: &'static str) -> impl IntoView {
    let mark = Memo::new(move |_| {
        let (sort, descending) = state.sort.get();
        (sort == column, sort.mark(descending, column))
    });
    let clicked = move |_| {
        state
            .sort
            .update(|(sort, descending)| (*sort, *descending) = sort.clicked(*descending, column))
    };
    view! {
        <th scope="col" aria-sort=move || mark.get().1.0>
            <button class="sort" class:current=move || mark.get().0 data-sort=label on:click=clicked>
                {label}
                {move || mark.get().1.1}
            </button>
        </th>
    }
}

/// "any", then a role per option, by id.
fn role_options(roles: Signal<Vec<RoleView>>, chosen: RwSignal<String>) -> impl IntoView {
    view! {
        <For
            each=move || roles.get()
            key=|r| r.id.clone()
            children=move |r| {
                let id = r.id.to_string();
                let value = id.clone();
                view! {
                    <option value=value prop:selected=move || chosen.with(|c| *c == id)>
                        {r.name}
                    </option>
                }
            }
        />
    }
}

/// "any" or "choose" (`none`), then a node group per option, by name.
fn group_options(
    groups: Signal<Vec<String>>,
    chosen: RwSignal<String>,
    none: &'static str,
) -> impl IntoView {
    view! {
        <option value="" prop:selected=move || chosen.with(String::is_empty)>{none}</option>
        <For
            each=move || groups.get()
            key=|g| g.clone()
            children=move |g| {
                let (value, label) = (g.clone(), g.clone());
                view! { <option value=value prop:selected=move || chosen.with(|c| *c == g)>{label}</option> }
            }
        />
    }
}

/// The filters: name, role, tag (from the page's `known-tags` list),
/// status and node group; and, while a check narrowed the table, the way
/// back to all.
#[component]
fn Filters(
    state: TableState,
    roles: Signal<Vec<RoleView>>,
    groups: Signal<Vec<String>>,
) -> impl IntoView {
    let s = state;
    let only = Memo::new(move |_| s.only.with(Vec::len));
    view! {
        <div class="node-filters" role="search">
            <label>
                "Name "
                <input
                    class="filter-name"
                    type="search"
                    placeholder="e.g. rack3"
                    prop:value=s.name
                    on:input=move |ev| s.filter_by(s.name, event_target_value(&ev))
                />
            </label>
            <label>
                "Role "
                <select class="filter-role" on:change=move |ev| s.filter_by(s.role, event_target_value(&ev))>
                    <option value="" prop:selected=move || s.role.with(String::is_empty)>
                        "any"
                    </option>
                    {role_options(roles, s.role)}
                </select>
            </label>
            <label>
                "Tag "
                <input
                    class="filter-tag"
                    list="known-tags"
                    placeholder="any"
                    prop:value=s.tag
                    on:input=move |ev| s.filter_by(s.tag, event_target_value(&ev))
                />
            </label>
            <label>
                "Status "
                <select class="filter-status" on:change=move |ev| s.filter_by(s.status, event_target_value(&ev))>
                    <option value="" prop:selected=move || s.status.with(String::is_empty)>
                        "any"
                    </option>
                    {NodeStatus::ALL
                        .iter()
                        .map(|status| {
                            let value = status.as_str();
                            view! {
                                <option value=value prop:selected=move || s.status.with(|c| c == value)>
                                    {value}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Node group "
                <select class="filter-group" on:change=move |ev| s.filter_by(s.group, event_target_value(&ev))>
                    {group_options(groups, s.group, "any")}
                </select>
            </label>
            <Show when=move || { only.get() > 0 }>
                <button class="show-all" on:click=move |_| s.only.set(Vec::new())>
                    "Showing the "
                    {only}
                    " nodes of a check — show all"
                </button>
            </Show>
        </div>
    }
}

/// The changes to every node selected — assign or unassign tags, add or
/// remove a role, move them to a node group, put networks on a port of
/// theirs, clear the selection —, shown while nodes are selected; then a
/// refused change's problems, by node. What was typed stays while the bar
/// is hidden.
#[component]
fn BulkBar(
    cluster_id: i64,
    state: TableState,
    roles: Signal<Vec<RoleView>>,
    groups: Signal<Vec<String>>,
    networks: Signal<Vec<String>>,
    changed: Callback<()>,
) -> impl IntoView {
    let tags = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    let group = RwSignal::new(String::new());
    let port = RwSignal::new(String::new());
    let nets = RwSignal::new(String::new());
    // The change of the selected nodes with what the bar holds: all or
    // nothing.
    let run = Action::new_unsync(move |action: &BulkAction| {
        let nodes = state.selected.with_untracked(|s| s.ids().to_vec());
        let input = BulkInput {
            tags: tags.get_untracked(),
            role: role.get_untracked(),
            node_group: group.get_untracked(),
            port: port.get_untracked(),
            networks: nets.get_untracked(),
        };
        let change = action.change(nodes, &input);
        async move {
            let change = change.map_err(ApiFailure::message)?;
            api::bulk_nodes(cluster_id, &change).await?;
            tags.try_set(String::new());
            changed.try_run(());
            Ok::<(), ApiFailure>(())
        }
    });
    let busy = run.pending();
    let failure = move || {
        run.value()
            .with(|v| v.as_ref().and_then(|r| r.clone().err()))
    };
    let button = move |class: &'static str, label: &'static str, action: BulkAction| {
        view! {
            <button class=class data-bulk=class disabled=busy on:click=move |_| {
                run.dispatch(action);
            }>{label}</button>
        }
    };
    let selected = Memo::new(move |_| state.selected.with(Selection::len));
    let hint =
        move || networks.with(|n| format!("The port carries exactly these, e.g. {}", n.join(" ")));
    view! {
        <Show when=move || { selected.get() > 0 }>
            <div class="bulk-bar" role="group" aria-label="Change the selected nodes">
                <strong>{selected}" selected:"</strong>
                <label>
                    "Tags "
                    <input class="bulk-tags" list="known-tags" placeholder="rabbitmq mysql:1" bind:value=tags />
                </label>
                {button("bulk-assign", "Assign", BulkAction::AssignTags)}
                {button("bulk-unassign", "Unassign", BulkAction::UnassignTags)}
                <label>
                    "Role "
                    <select class="bulk-role" on:change=move |ev| role.set(event_target_value(&ev))>
                        <option value="" prop:selected=move || role.with(String::is_empty)>
                            "choose"
                        </option>
                        {role_options(roles, role)}
                    </select>
                </label>
                {button("bulk-add-role", "Add role", BulkAction::AddRole)}
                {button("bulk-remove-role", "Remove role", BulkAction::RemoveRole)}
                <label>
                    "Node group "
                    <select class="bulk-group" on:change=move |ev| group.set(event_target_value(&ev))>
                        {group_options(groups, group, "choose")}
                    </select>
                </label>
                {button("bulk-move-group", "Move", BulkAction::MoveToGroup)}
                <label>
                    "Port "
                    <input class="bulk-port" placeholder="eth1" size="8" bind:value=port />
                </label>
                <label>
                    "Networks "
                    <input class="bulk-networks" list="known-networks" placeholder="storage private" title=hint bind:value=nets />
                </label>
                {button("bulk-put-networks", "Put on port", BulkAction::PutNetworks)}
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

/// One node's row, and under it its editor while it is being edited.
#[component]
fn NodeRow(
    id: i64,
    nodes: Signal<Vec<NodeView>>,
    roles: Signal<Vec<RoleView>>,
    networks: Signal<Vec<String>>,
    state: TableState,
    editable: bool,
    changed: Callback<()>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    // The node as last loaded: only what changed in it changes the row.
    let node = Memo::new(move |_| nodes.with(|all| all.iter().find(|n| n.id == id).cloned()));
    let read = move |f: fn(&NodeView) -> String| {
        move || node.with(|n| n.as_ref().map(f).unwrap_or_default())
    };
    let name = read(|n| n.name.clone());
    let selected = Memo::new(move |_| state.selected.with(|s| s.contains(id)));
    let editing = Memo::new(move |_| state.editing.get() == Some(id));
    let chips = Memo::new(move |_| {
        node.with(|n| {
            n.as_ref().map_or_else(Vec::new, |n| {
                n.tags
                    .iter()
                    .map(|t| (t.clone(), n.role_tags.contains(t)))
                    .collect::<Vec<_>>()
            })
        })
    });
    let delete = Action::new_unsync(move |name: &String| {
        let name = name.clone();
        async move {
            match api::delete_node(id).await {
                Ok(()) => {
                    state.selected.try_update(|s| s.set(id, false));
                    error.try_set(None);
                    changed.try_run(());
                }
                Err(e) => {
                    error.try_set(Some(format!("Node {name} was not deleted: {}", e.message)));
                }
            }
        }
    });
    let ask_delete = move |_| {
        let name = name();
        let question = format!("Delete node {name}? Its roles and tags go with it.");
        if window().confirm_with_message(&question).unwrap_or(false) {
            delete.dispatch(name);
        }
    };
    let edit = move |_| {
        state
            .editing
            .update(|e| *e = (*e != Some(id)).then_some(id))
    };
    view! {
        <tr class="node-row" class:selected=selected data-node=id>
            <td>
                <input
                    type="checkbox"
                    class="select-node"
                    aria-label=move || format!("Select {}", name())
                    prop:checked=selected
                    on:change=move |_| state.selected.update(|s| s.toggle(id))
                />
            </td>
            <th scope="row" class="node-name">{name}</th>
            <td>{read(|n| n.status.as_str().to_owned())}</td>
            <td class="node-group">{read(|n| n.node_group.clone())}</td>
            <td class="node-roles">
                {read(|n| n.roles.iter().map(RoleName::as_str).collect::<Vec<_>>().join(", "))}
            </td>
            <td>
                <div class="chips">
                    <For
                        each=move || chips.get()
                        key=|chip| chip.clone()
                        children=|(tag, from_role)| {
                            view! {
                                <span class="chip" class:from-role=from_role data-tag=tag.to_string()>
                                    {tag.to_string()}
                                </span>
                            }
                        }
                    />
                </div>
            </td>
            <td class="actions">
                <button
                    class="edit-node"
                    aria-expanded=move || if editing.get() { "true" } else { "false" }
                    on:click=edit
                >
                    {move || match (editing.get(), editable) {
                        (true, _) => "Close",
                        (false, true) => "Edit",
                        (false, false) => "Details",
                    }}
                </button>
                {editable.then(|| view! { <button class="delete-node danger" on:click=ask_delete>"Delete"</button> })}
            </td>
        </tr>
        <Show when=move || editing.get()>
            <tr class="node-editor">
                <td colspan="7">
                    <NodeEditor id node roles networks editable changed />
                </td>
            </tr>
        </Show>
    }
}

/// The role checkboxes, `chosen` ticked; `toggle` ticks or unticks one. A
/// role not available is disabled with the reason as its title, unless it
/// is ticked: a role the node has can always be taken away. Keyed by the
/// role's id: a new answer (a role becoming unavailable, say) updates the
/// boxes in place, and the one in use keeps its focus.
#[component]
fn RoleBoxes(
    roles: Signal<Vec<RoleView>>,
    #[prop(into)] chosen: Signal<Vec<RoleName>>,
    toggle: Callback<RoleName>,
) -> impl IntoView {
    view! {
        <For
            each=move || roles.with(|roles| roles.iter().map(|r| r.id.clone()).collect::<Vec<_>>())
            key=|id| id.clone()
            children=move |id| view! { <RoleBox roles id chosen toggle /> }
        />
    }
}

/// One role's checkbox, following the role's latest answer.
#[component]
fn RoleBox(
    roles: Signal<Vec<RoleView>>,
    id: RoleName,
    chosen: Signal<Vec<RoleName>>,
    toggle: Callback<RoleName>,
) -> impl IntoView {
    let role = {
        let id = id.clone();
        Memo::new(move |_| roles.with(|rs| rs.iter().find(|r| r.id == id).cloned()))
    };
    let read = move |f: fn(&RoleView) -> String| {
        move || role.with(|r| r.as_ref().map(f).unwrap_or_default())
    };
    let unavailable = move || role.with(|r| r.as_ref().is_some_and(|r| r.unavailable.is_some()));
    let checked = {
        let id = id.clone();
        Memo::new(move |_| chosen.with(|c| c.contains(&id)))
    };
    let plugin = move || {
        role.with(|r| r.as_ref().and_then(|r| r.plugin.clone()))
            .map(|p| view! { <span class="muted">{format!(" ({p})")}</span> })
    };
    let value = id.to_string();
    view! {
        <label class="role" class:unavailable=unavailable title=read(role_title)>
            <input
                type="checkbox"
                data-role=value
                prop:checked=checked
                disabled=move || unavailable() && !checked.get()
                on:change=move |_| toggle.run(id.clone())
            />
            {read(|r| r.name.clone())}
            {plugin}
        </label>
    }
}

/// The roles the environment's settings rule out, each with why (nothing
/// when every role is available).
fn unavailable_roles(roles: Signal<Vec<RoleView>>) -> impl IntoView {
    let out = Memo::new(move |_| {
        roles.with(|roles| {
            roles
                .iter()
                .filter_map(|r| Some((r.id.to_string(), r.name.clone(), r.unavailable.clone()?)))
                .collect::<Vec<_>>()
        })
    });
    move || {
        let out = out.get();
        (!out.is_empty()).then(|| {
            view! {
                <details class="role-reasons">
                    <summary>{unavailable_summary(out.len())}</summary>
                    <ul>
                        {out
                            .into_iter()
                            .map(|(id, name, why)| {
                                view! {
                                    <li data-role=id>
                                        <strong>{name}</strong>
                                        ": "
                                        {why}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </details>
            }
        })
    }
}

/// Adding a node: its roles, its status, the button, a refusal, and why
/// the roles not available here are not.
#[component]
fn AddNode(cluster_id: i64, roles: Signal<Vec<RoleView>>, changed: Callback<()>) -> impl IntoView {
    let chosen = RwSignal::new(Vec::<RoleName>::new());
    let status = RwSignal::new(NodeStatus::Discover);
    let add: Request<CreateNode, ()> = Action::new_unsync(move |request: &CreateNode| {
        let request = request.clone();
        async move { api::create_node(cluster_id, &request).await.map(drop) }
    });
    on_success(add, move |()| {
        chosen.set(Vec::new());
        changed.run(());
    });
    let submit = move |_| {
        add.dispatch(CreateNode {
            name: None,
            status: Some(status.get_untracked()),
            roles: chosen.get_untracked(),
            ..CreateNode::default()
        });
    };
    let toggle = Callback::new(move |role: RoleName| chosen.update(|c| toggle(c, &role)));
    view! {
        <div class="add-node">
            <div class="roles">
                <RoleBoxes roles chosen toggle />
            </div>
            <label>
                "Status "
                <select
                    class="new-node-status"
                    on:change=move |ev| status.set(NodeStatus::parse(&event_target_value(&ev)).unwrap_or_default())
                >
                    {NodeStatus::ALL
                        .iter()
                        .map(|s| {
                            let s = *s;
                            view! {
                                <option value=s.as_str() prop:selected=move || status.get() == s>
                                    {s.as_str()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <button class="add-node-button" on:click=submit>"Add node"</button>
            <ActionError action=add />
            {unavailable_roles(roles)}
        </div>
    }
}

/// A change the editor sends for the node being edited.
#[derive(Debug, Clone)]
enum NodeChange {
    Roles(Vec<RoleName>),
    Tag(String),
    Untag(String),
}

/// One node's editor: its roles to save, its tags — each saying where it
/// comes from, the ones added by hand or by a role removable —, a tag
/// to add, and its interfaces with the networks on them. The roles ticked
/// are the node's until the admin ticks others, and again once the node
/// changed (its version moved on).
#[component]
fn NodeEditor(
    id: i64,
    node: Memo<Option<NodeView>>,
    roles: Signal<Vec<RoleView>>,
    networks: Signal<Vec<String>>,
    editable: bool,
    changed: Callback<()>,
) -> impl IntoView {
    let version = move || node.with(|n| n.as_ref().map_or(0, |n| n.version));
    // The roles ticked, against the node's version they were ticked on.
    let ticked = RwSignal::new(None::<(i64, Vec<RoleName>)>);
    let chosen = Memo::new(move |_| match ticked.get() {
        Some((v, roles)) if v == version() => roles,
        _ => node.with(|n| n.as_ref().map(|n| n.roles.clone()).unwrap_or_default()),
    });
    let toggle = Callback::new(move |role: RoleName| {
        let mut now = chosen.get_untracked();
        toggle(&mut now, &role);
        ticked.set(Some((version(), now)));
    });
    let typed = RwSignal::new(String::new());
    let send: Request<NodeChange, ()> = Action::new_unsync(move |change: &NodeChange| {
        let change = change.clone();
        async move {
            match change {
                NodeChange::Roles(roles) => {
                    let change = UpdateNode {
                        roles: Some(roles),
                        ..UpdateNode::default()
                    };
                    api::update_node(id, &change).await
                }
                NodeChange::Tag(tag) => api::assign_tags(id, vec![tag]).await,
                NodeChange::Untag(tag) => api::unassign_tags(id, vec![tag]).await,
            }
            .map(drop)
        }
    });
    on_success(send, move |()| changed.run(()));
    let add_tag = move |_| {
        let tag = typed.get_untracked().trim().to_owned();
        if !tag.is_empty() {
            typed.set(String::new());
            send.dispatch(NodeChange::Tag(tag));
        }
    };
    let chips = Memo::new(move |_| {
        node.with(|n| {
            n.as_ref().map_or_else(Vec::new, |n| {
                n.tags
                    .iter()
                    .map(|t| (t.clone(), TagOrigin::of(n, t)))
                    .collect::<Vec<_>>()
            })
        })
    });
    let chip = move |(tag, origin): (TagName, TagOrigin)| {
        let name = tag.to_string();
        let remove = (editable && origin.removable()).then(|| {
            let name = name.clone();
            view! {
                <button class="remove-tag" aria-label="Remove the tag" on:click=move |_| {
                    send.dispatch(NodeChange::Untag(name.clone()));
                }>"×"</button>
            }
        });
        view! {
            <span
                class="chip"
                class:from-role=origin == TagOrigin::Role
                class:primary=origin == TagOrigin::Primary
                data-tag=name.clone()
                title=origin.title()
            >
                {name.clone()}
                {remove}
            </span>
        }
    };
    let text = move |f: fn(&NodeView) -> String| {
        move || node.with(|n| n.as_ref().map(f).unwrap_or_default())
    };
    view! {
        <div class="node" data-node=id>
            <h3>
                {text(|n| n.name.clone())}
                <span class="muted">{text(|n| format!(" — {}", n.status.as_str()))}</span>
            </h3>
            <fieldset class="roles plain" disabled=!editable>
                <RoleBoxes roles chosen toggle />
            </fieldset>
            {editable.then(|| view! {
                <button class="save-roles" on:click=move |_| {
                    send.dispatch(NodeChange::Roles(chosen.get_untracked()));
                }>"Save roles"</button>
            })}
            <div class="chips">
                <For each=move || chips.get() key=|chip| chip.clone() children=chip />
            </div>
            {editable.then(|| view! {
                <div class="add-tag-row">
                    <input class="add-tag" list="known-tags" placeholder="tag or name:N" bind:value=typed />
                    <button class="add-tag-button" on:click=add_tag>"Add tag"</button>
                </div>
            })}
            <ActionError action=send />
            <InterfacesEditor id node networks editable changed />
        </div>
    }
}
