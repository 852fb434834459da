//! An environment's nodes as a table that stays fast with a thousand of
//! them: filtered by name, role, tag, status, node group and switch, sorted, fifty
//! to a page, many selected at once, with bulk actions (one all-or-nothing
//! request: tags, roles, a node group, networks on a port) and Configure
//! disks for them; adding a node, importing nodes' hardware, and the editor
//! of the node being edited in the row under it, with its disks and its
//! interfaces. Filtering, sorting and what the count line says are core's
//! (`mosaic_core::nodes`).
//!
//! The nodes are the page's `Records`: rows are keyed by node id and read
//! their own node, so a bulk change's answer (the nodes it changed, a
//! rack's) changes those rows in place and no other: the control in use
//! stays the same element and keeps the focus. What the admin chose
//! (`TableState`) is the page's and outlives the table.

mod add_node;
mod bulk;
pub mod disks;
mod editor;
mod filters;
mod hardware;
mod import;
mod role_boxes;
mod row;

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView};
use mosaic_core::name::{NodeStatus, RoleName, TagName};
use mosaic_core::nodes::{NodeFilter, NodeSort, count_line, page_count, page_of};

use crate::components::pager::Pager;
use crate::records::{Record, Records};
use add_node::AddNode;
use bulk::BulkBar;
use filters::Filters;
use import::ImportHardware;
use row::NodeRow;

impl Record for NodeView {
    type Key = i64;

    fn key(&self) -> i64 {
        self.id
    }
}

/// What a change made in the table did to the nodes.
#[derive(Debug, Clone)]
pub enum NodesChanged {
    /// These nodes, as the server now has them (a bulk change's answer);
    /// the others are as they were.
    These(Vec<NodeView>),
    /// A node added, deleted or edited: the list is asked for again.
    Unknown,
}

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
    /// A switch (LLDP), by name; empty: any.
    pub switch: RwSignal<String>,
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
            switch: RwSignal::new(String::new()),
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
            switch: self.switch.with(|s| (!s.is_empty()).then(|| s.clone())),
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
        self.switch.set(String::new());
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
/// answers or patches them after each change), with `roles` to give them,
/// its node `groups` to move them to and its `networks` to put on their
/// interfaces; `changed` tells the page what a change did.
#[component]
pub fn NodeTable(
    cluster_id: i64,
    nodes: Records<NodeView>,
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
    changed: Callback<NodesChanged>,
) -> impl IntoView {
    let all = nodes.all();
    // The ids shown, in order: recomputed when the nodes, a filter or the
    // sort change.
    let shown = Memo::new(move |_| {
        let filter = state.filter();
        let (sort, descending) = state.sort.get();
        all.with(|nodes| {
            mosaic_core::nodes::select(nodes, &filter, sort, descending)
                .iter()
                .map(|n| n.id)
                .collect::<Vec<i64>>()
        })
    });
    let on_page = Memo::new(move |_| shown.with(|ids| page_of(ids, state.page.get()).to_vec()));
    let selected = Memo::new(move |_| state.selected.with(Selection::len));
    let pages = Memo::new(move |_| shown.with(|ids| page_count(ids.len())));
    let count = move || {
        let total = all.with(Vec::len);
        count_line(
            state.page.get(),
            shown.with(Vec::len),
            total,
            selected.get(),
        )
    };
    // A node that could not be deleted.
    let error = RwSignal::new(None::<String>);
    // A change to one node: the list is asked for again.
    let reload = Callback::new(move |()| changed.run(NodesChanged::Unknown));
    let switches = Memo::new(move |_| all.with(|nodes| mosaic_core::nodes::all_switches(nodes)));
    let row = move |id: i64| {
        view! { <NodeRow id nodes roles networks state editable changed=reload error /> }
    };
    view! {
        <div class="node-table">
            {editable.then(|| view! {
                <div class="node-actions">
                    <AddNode cluster_id roles changed=reload />
                    <ImportHardware cluster_id changed=reload />
                </div>
            })}
            <Filters state roles groups switches />
            {editable.then(|| view! { <BulkBar cluster_id nodes=all state roles groups networks changed /> })}
            <datalist id="known-networks">
                <For each=move || networks.get() key=|n| n.clone() children=|n| view! { <option value=n></option> } />
            </datalist>
            <p class="node-count" aria-live="polite">{count}</p>
            <table class="nodes-table">
                <caption class="visually-hidden">"The environment's nodes"</caption>
                <TableHead state shown />
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

/// The table's head: the box selecting every node the filter shows (`shown`,
/// on every page), and the column headers, those that sort as buttons.
#[component]
fn TableHead(state: TableState, shown: Memo<Vec<i64>>) -> impl IntoView {
    let all_selected = Memo::new(move |_| {
        shown.with(|ids| {
            state
                .selected
                .with(|sel| !ids.is_empty() && ids.iter().all(|id| sel.contains(*id)))
        })
    });
    let select_all = move |_| {
        let select = !all_selected.get_untracked();
        shown.with_untracked(|ids| {
            state
                .selected
                .update(|sel| ids.iter().for_each(|id| sel.set(*id, select)))
        });
    };
    view! {
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
                <th scope="col">"Switch"</th>
                <th scope="col">"Tags"</th>
                <th scope="col">"Actions"</th>
            </tr>
        </thead>
    }
}

/// A column header that sorts by `column`: ascending, then descending.
#[component]
fn SortHeader(state: TableState, column: NodeSort, label: &'static str) -> impl IntoView {
    // This column's `aria-sort` and the arrow after its label.
    let mark = Memo::new(move |_| match state.sort.get() {
        (sort, _) if sort != column => (false, ("none", "")),
        (_, true) => (true, ("descending", " ▼")),
        (_, false) => (true, ("ascending", " ▲")),
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
