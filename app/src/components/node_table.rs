//! An environment's nodes as a table that stays fast with a thousand of
//! them: filtered by name, role, tag and status, sorted, fifty to a page,
//! many selected at once, with bulk actions (one all-or-nothing request).
//! Filtering and sorting are core's (`mosaic_core::nodes`).

use leptos::prelude::*;
use mosaic_core::api::{BulkNodes, NodeView, RoleView};
use mosaic_core::name::{NodeStatus, RoleName, TagName};
use mosaic_core::nodes::{NodeFilter, NodeSort, select};

use leptos::ev::{Event, MouseEvent};
use mosaic_core::markup::{self, nodes::RowState};
use web_sys::{Element, HtmlDivElement};

use crate::api::{self, ApiFailure};
use crate::components::html::closest;
use crate::components::morph::morph;
use crate::components::notice::ErrorNotice;

/// Rows on one page of the table.
pub const PAGE: usize = 50;

/// What the admin chose in the table: kept while the page reloads its data
/// after a change, so a filtered, selected rack stays as it was.
#[derive(Debug, Clone, Copy)]
pub struct TableState {
    pub name: RwSignal<String>,
    pub role: RwSignal<String>,
    pub tag: RwSignal<String>,
    pub status: RwSignal<String>,
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
            role: RoleName::new(self.role.get()).ok(),
            tag: TagName::new(self.tag.get()).ok(),
            status: NodeStatus::parse(&self.status.get()).ok(),
            only: self.only.get(),
        }
    }

    /// Shows only `nodes` (a check's), from the first page.
    pub fn show_only(&self, nodes: Vec<i64>) {
        self.name.set(String::new());
        self.role.set(String::new());
        self.tag.set(String::new());
        self.status.set(String::new());
        self.only.set(nodes);
        self.page.set(0);
    }
}

/// The nodes selected, by id: a sorted list (one collection type fewer in
/// the download than a `BTreeSet`, docs/benchmarks.md "App size").
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

impl Default for TableState {
    fn default() -> Self {
        TableState::new()
    }
}

#[component]
pub fn NodeTable(
    cluster_id: i64,
    nodes: Vec<NodeView>,
    roles: Vec<RoleView>,
    state: TableState,
    editable: bool,
    changed: Callback<()>,
    /// The editor of one node, shown under its row.
    editor: Callback<NodeView, AnyView>,
) -> impl IntoView {
    let all = StoredValue::new(nodes);
    let total = all.with_value(Vec::len);
    // The ids shown, in order: recomputed when a filter or the sort changes.
    let shown = Memo::new(move |_| {
        let filter = state.filter();
        let (sort, descending) = state.sort.get();
        all.with_value(|nodes| {
            select(nodes, &filter, sort, descending)
                .iter()
                .map(|n| n.id)
                .collect::<Vec<i64>>()
        })
    });
    let node = move |id: i64| all.with_value(|nodes| nodes.iter().find(|n| n.id == id).cloned());
    let body = NodeRef::<leptos::html::Tbody>::new();
    let holder = NodeRef::<leptos::html::Div>::new();
    Effect::new(move || {
        if let Some(body) = body.get() {
            rows(&body, state, shown, all, editable);
            place_editor(&body, holder.get_untracked());
        }
    });
    let error = RwSignal::new(None::<String>);
    let select = move |ev: Event| {
        if let Some(id) = row_of(&ev, "input.select-node") {
            state.selected.update(|s| s.toggle(id));
        }
    };
    let act = move |ev: MouseEvent| {
        if let Some(id) = row_of(&ev, "button.edit-node") {
            state
                .editing
                .update(|e| *e = if *e == Some(id) { None } else { Some(id) });
        } else if let Some(id) = row_of(&ev, "button.delete-node") {
            delete(
                id,
                node(id).map(|n| n.name).unwrap_or_default(),
                state,
                error,
                changed,
            );
        }
    };
    let role_names: Vec<(String, String)> = roles
        .iter()
        .map(|r| (r.id.to_string(), r.name.clone()))
        .collect();
    view! {
        <div class="node-table">
            <Filters state role_names=role_names.clone() />
            {editable.then(|| view! { <BulkBar cluster_id state role_names changed /> })}
            <Summary state shown total />
            <table class="nodes-table">
                <caption class="visually-hidden">"The environment's nodes"</caption>
                <thead>
                    <tr>
                        <th scope="col"><SelectAll state shown /></th>
                        <SortHeader state sort=NodeSort::Name label="Name" />
                        <SortHeader state sort=NodeSort::Status label="Status" />
                        <SortHeader state sort=NodeSort::Roles label="Roles" />
                        <th scope="col">"Tags"</th>
                        <th scope="col">"Actions"</th>
                    </tr>
                </thead>
                <tbody node_ref=body on:change=select on:click=act></tbody>
            </table>
            <Pages state shown />
            {move || error.get().map(|message| view! { <ErrorNotice message /> })}
            // Moved into the row under the node edited (`rows` below).
            <div class="node-editor-holder" node_ref=holder>
                {move || state.editing.get().and_then(node).map(|node| editor.run(node))}
            </div>
        </div>
    }
}

#[component]
fn Filters(state: TableState, role_names: Vec<(String, String)>) -> impl IntoView {
    let reset_page = move || state.page.set(0);
    view! {
        <div class="node-filters" role="search">
            <label>
                "Name "
                <input
                    class="filter-name"
                    type="search"
                    placeholder="e.g. rack3"
                    prop:value=move || state.name.get()
                    on:input=move |ev| {
                        state.name.set(event_target_value(&ev));
                        reset_page();
                    }
                />
            </label>
            <label>
                "Role "
                <select class="filter-role" on:change=move |ev| { state.role.set(event_target_value(&ev)); reset_page(); }>
                    <option value="" selected=move || state.role.get().is_empty()>"any"</option>
                    {role_names
                        .into_iter()
                        .map(|(id, name)| {
                            let value = id.clone();
                            view! { <option value=id selected=move || state.role.get() == value>{name}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Tag "
                <input
                    class="filter-tag"
                    list="known-tags"
                    placeholder="any"
                    prop:value=move || state.tag.get()
                    on:input=move |ev| { state.tag.set(event_target_value(&ev)); reset_page(); }
                />
            </label>
            <label>
                "Status "
                <select class="filter-status" on:change=move |ev| { state.status.set(event_target_value(&ev)); reset_page(); }>
                    <option value="" selected=move || state.status.get().is_empty()>"any"</option>
                    {NodeStatus::ALL
                        .iter()
                        .map(|s| view! { <option value=s.as_str() selected=move || state.status.get() == s.as_str()>{s.as_str()}</option> })
                        .collect_view()}
                </select>
            </label>
            <Show when=move || !state.only.with(Vec::is_empty)>
                <button class="show-all" on:click=move |_| state.only.set(Vec::new())>
                    {move || format!("Showing the {} nodes of a check — show all", state.only.with(Vec::len))}
                </button>
            </Show>
        </div>
    }
}

#[component]
fn Summary(state: TableState, shown: Memo<Vec<i64>>, total: usize) -> impl IntoView {
    let text = move || {
        let count = shown.with(Vec::len);
        let page = state.page.get();
        let selected = state.selected.with(Selection::len);
        let range = if count == 0 {
            "No node matches".to_owned()
        } else {
            format!(
                "Nodes {}–{} of {count}",
                page * PAGE + 1,
                (page * PAGE + PAGE).min(count)
            )
        };
        let filtered = if count == total {
            String::new()
        } else {
            format!(" (filtered from {total})")
        };
        let chosen = if selected == 0 {
            String::new()
        } else {
            format!("; {selected} selected")
        };
        format!("{range}{filtered}{chosen}")
    };
    view! { <p class="node-count" aria-live="polite">{text}</p> }
}

/// Selects every node the filter shows (on every page), or none.
#[component]
fn SelectAll(state: TableState, shown: Memo<Vec<i64>>) -> impl IntoView {
    let all_selected = move || {
        shown.with(|ids| {
            !ids.is_empty()
                && state
                    .selected
                    .with(|s| ids.iter().all(|id| s.contains(*id)))
        })
    };
    let toggle = move |_| {
        let ids = shown.get_untracked();
        let select = !all_selected();
        state.selected.update(|s| {
            for id in ids {
                s.set(id, select);
            }
        });
    };
    view! {
        <input
            type="checkbox"
            class="select-all"
            aria-label="Select every node the filter shows"
            prop:checked=all_selected
            on:change=toggle
        />
    }
}

#[component]
fn SortHeader(state: TableState, sort: NodeSort, label: &'static str) -> impl IntoView {
    let current = move || state.sort.get().0 == sort;
    let order = move || match state.sort.get() {
        (s, true) if s == sort => "descending",
        (s, false) if s == sort => "ascending",
        _ => "none",
    };
    let click = move |_| {
        state.sort.update(|(s, descending)| {
            *descending = *s == sort && !*descending;
            *s = sort;
        })
    };
    view! {
        <th scope="col" aria-sort=order>
            <button class="sort" class:current=current on:click=click>
                {label}
                {move || match order() { "ascending" => " ▲", "descending" => " ▼", _ => "" }}
            </button>
        </th>
    }
}

/// The rows of the page shown, written by core and merged into the table.
fn rows(
    body: &Element,
    state: TableState,
    shown: Memo<Vec<i64>>,
    all: StoredValue<Vec<NodeView>>,
    editable: bool,
) {
    let page = state.page.get();
    let editing = state.editing.get();
    let html = shown.with(|ids| {
        state.selected.with(|selected| {
            all.with_value(|nodes| {
                let on_page: Vec<&NodeView> = ids
                    .iter()
                    .skip(page * PAGE)
                    .take(PAGE)
                    .filter_map(|id| nodes.iter().find(|n| n.id == *id))
                    .collect();
                let state = RowState {
                    selected: &|id| selected.contains(id),
                    editing,
                    editable,
                };
                markup::nodes::rows(&on_page, state).into_string()
            })
        })
    });
    morph(body, &html);
}

/// Puts the editor (rendered in `holder`) in the row made for it, if any.
fn place_editor(body: &Element, holder: Option<HtmlDivElement>) {
    let slot = body.query_selector("td.editor-slot").ok().flatten();
    if let (Some(slot), Some(holder)) = (slot, holder)
        && holder.parent_element().as_ref() != Some(&slot)
    {
        let _ = slot.append_child(&holder);
    }
}

/// The id of the node whose row holds the control `selector` finds.
fn row_of(ev: &Event, selector: &str) -> Option<i64> {
    closest(ev, selector)?
        .closest("tr[data-node]")
        .ok()
        .flatten()?
        .get_attribute("data-node")?
        .parse()
        .ok()
}

/// Deletes a node after a confirmation that names it.
fn delete(
    id: i64,
    name: String,
    state: TableState,
    error: RwSignal<Option<String>>,
    changed: Callback<()>,
) {
    let question = format!("Delete node {name}? Its roles and tags go with it.");
    if !window().confirm_with_message(&question).unwrap_or(false) {
        return;
    }
    leptos::task::spawn_local(async move {
        match api::delete_node(id).await {
            Ok(()) => {
                state.selected.update(|s| s.set(id, false));
                changed.run(());
            }
            Err(e) => error.set(Some(format!("Node {name} was not deleted: {}", e.message))),
        }
    });
}

#[component]
fn Pages(state: TableState, shown: Memo<Vec<i64>>) -> impl IntoView {
    let pages = move || shown.with(Vec::len).div_ceil(PAGE).max(1);
    view! {
        <Show when=move || { pages() > 1 }>
            <nav class="pages" aria-label="Pages of nodes">
                <button class="previous-page" prop:disabled=move || state.page.get() == 0 on:click=move |_| state.page.update(|p| *p = p.saturating_sub(1))>
                    "Previous"
                </button>
                <span>{move || format!(" Page {} of {} ", state.page.get() + 1, pages())}</span>
                <button class="next-page" prop:disabled=move || { state.page.get() + 1 >= pages() } on:click=move |_| state.page.update(|p| *p += 1)>
                    "Next"
                </button>
            </nav>
        </Show>
    }
}

/// The names typed, split on commas and spaces.
fn names(text: &str) -> Vec<String> {
    text.split([',', ' '])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

#[component]
fn BulkBar(
    cluster_id: i64,
    state: TableState,
    role_names: Vec<(String, String)>,
    changed: Callback<()>,
) -> impl IntoView {
    let tags = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    let failure = RwSignal::new(None::<ApiFailure>);
    let busy = RwSignal::new(false);
    let run = move |what: &'static str| {
        let nodes: Vec<i64> = state.selected.with_untracked(|s| s.ids().to_vec());
        let typed = names(&tags.get_untracked());
        let parse_tags = || {
            typed
                .iter()
                .map(TagName::new)
                .collect::<Result<Vec<_>, _>>()
        };
        let parse_role = || RoleName::new(role.get_untracked()).map(|r| vec![r]);
        let change = match what {
            "assign" => parse_tags().map(|t| BulkNodes {
                nodes,
                add_tags: t,
                ..BulkNodes::default()
            }),
            "unassign" => parse_tags().map(|t| BulkNodes {
                nodes,
                remove_tags: t,
                ..BulkNodes::default()
            }),
            "add-role" => parse_role().map(|r| BulkNodes {
                nodes,
                add_roles: r,
                ..BulkNodes::default()
            }),
            _ => parse_role().map(|r| BulkNodes {
                nodes,
                remove_roles: r,
                ..BulkNodes::default()
            }),
        };
        let change = match change {
            Ok(change) => change,
            Err(e) => return failure.set(Some(ApiFailure::message(e.to_string()))),
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            let result = api::bulk_nodes(cluster_id, &change).await;
            busy.set(false);
            match result {
                Ok(_) => {
                    failure.set(None);
                    changed.run(());
                }
                Err(e) => failure.set(Some(e)),
            }
        });
    };
    view! {
        <Show when=move || !state.selected.with(Selection::is_empty)>
            <div class="bulk-bar" role="group" aria-label="Change the selected nodes">
                <strong>{move || format!("{} selected:", state.selected.with(Selection::len))}</strong>
                <label>
                    "Tags "
                    <input class="bulk-tags" list="known-tags" placeholder="rabbitmq mysql:1"
                        prop:value=move || tags.get() on:input=move |ev| tags.set(event_target_value(&ev)) />
                </label>
                <button class="bulk-assign" prop:disabled=busy on:click=move |_| run("assign")>"Assign"</button>
                <button class="bulk-unassign" prop:disabled=busy on:click=move |_| run("unassign")>"Unassign"</button>
                <label>
                    "Role "
                    <select class="bulk-role" on:change=move |ev| role.set(event_target_value(&ev))>
                        <option value="">"choose"</option>
                        {role_names.iter().map(|(id, name)| view! { <option value=id.clone()>{name.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button class="bulk-add-role" prop:disabled=busy on:click=move |_| run("add-role")>"Add role"</button>
                <button class="bulk-remove-role" prop:disabled=busy on:click=move |_| run("remove-role")>"Remove role"</button>
                <button class="bulk-clear" on:click=move |_| state.selected.set(Selection::default())>"Clear selection"</button>
            </div>
        </Show>
        {move || failure.get().map(|f| view! { <BulkFailure failure=f /> })}
    }
}

/// A refused bulk change (`markup::lists::bulk_problems`).
#[component]
fn BulkFailure(failure: ApiFailure) -> impl IntoView {
    let html = mosaic_core::markup::lists::bulk_problems(&failure.message, &failure.node_problems);
    view! { <div inner_html=html.into_string() /> }
}
