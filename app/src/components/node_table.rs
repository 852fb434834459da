//! An environment's nodes as a table that stays fast with a thousand of
//! them: filtered by name, role, tag and status, sorted, fifty to a page,
//! many selected at once, with bulk actions (one all-or-nothing request).
//! Filtering and sorting are core's (`mosaic_core::nodes`), and so is what
//! the table shows (`markup::nodes`): it is written again whenever what the
//! admin chose changes and merged into the page (`morph`), and one listener
//! per event type reads what was done. Adding a node and the editor of
//! the node being edited are written with the table (`markup::node_forms`).

use leptos::prelude::*;
use mosaic_core::api::{CreateNode, NodeView, RoleView, UpdateNode};
use mosaic_core::environment::BulkAction;
use mosaic_core::markup::node_forms::{self as forms, Editor, NewNode};
use mosaic_core::markup::nodes::{self as table, Bulk, Controls, PAGE, RowState};
use mosaic_core::markup::{Markup, lists};
use mosaic_core::name::{NodeStatus, RoleName, TagName};
use mosaic_core::nodes::{NodeFilter, NodeSort, select};
use wasm_bindgen::JsCast;
use web_sys::{Event, HtmlInputElement, HtmlSelectElement};

use crate::api::{self, ApiFailure};
use crate::components::html::closest;
use crate::components::var::Var;
use crate::components::watch::on_change;
use crate::dom::{View, el};

/// What the admin chose in the table: kept while the page reloads its data
/// after a change, so a filtered, selected rack stays as it was.
#[derive(Debug, Clone, Copy)]
pub struct TableState {
    pub name: Var<String>,
    pub role: Var<String>,
    pub tag: Var<String>,
    pub status: Var<String>,
    /// Only these nodes (from a pre-deployment check); empty: all.
    pub only: Var<Vec<i64>>,
    pub sort: Var<(NodeSort, bool)>,
    pub page: Var<usize>,
    pub selected: Var<Selection>,
    pub editing: Var<Option<i64>>,
}

impl TableState {
    pub fn new() -> TableState {
        TableState {
            name: Var::new(String::new()),
            role: Var::new(String::new()),
            tag: Var::new(String::new()),
            status: Var::new(String::new()),
            only: Var::new(Vec::new()),
            sort: Var::new((NodeSort::Name, false)),
            page: Var::new(0),
            selected: Var::new(Selection::default()),
            editing: Var::new(None),
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

    /// Sets a filter to what was typed or chosen, from the first page.
    fn filter_by(&self, filter: Var<String>, value: String) {
        filter.set(value);
        self.page.set(0);
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

/// What the bulk bar holds between renders.
#[derive(Clone, Copy)]
struct BulkState {
    tags: Var<String>,
    role: Var<String>,
    busy: Var<bool>,
    failure: Var<Option<ApiFailure>>,
}

/// What the form adding a node holds.
#[derive(Clone, Copy)]
struct NewNodeState {
    chosen: Var<Vec<RoleName>>,
    status: Var<NodeStatus>,
    error: Var<Option<String>>,
}

/// What the editor of the node being edited holds.
#[derive(Clone, Copy)]
struct EditorState {
    chosen: Var<Vec<RoleName>>,
    tag: Var<String>,
    error: Var<Option<String>>,
}

impl EditorState {
    /// A fresh editor for `node`: its roles ticked, nothing typed.
    fn open(&self, node: Option<&NodeView>) {
        self.chosen
            .set(node.map(|n| n.roles.clone()).unwrap_or_default());
        self.tag.set(String::new());
        self.error.set(None);
    }
}

/// Ticks `role` if it is not, unticks it if it is.
fn toggle(chosen: Var<Vec<RoleName>>, role: &str) {
    chosen.update(|c| match c.iter().position(|r| r.as_str() == role) {
        Some(at) => {
            c.remove(at);
        }
        None => c.extend(RoleName::new(role).ok()),
    });
}

/// What every part of the table reads.
#[derive(Clone, Copy)]
struct Table {
    cluster_id: i64,
    state: TableState,
    all: Var<Vec<NodeView>>,
    /// The ids shown, in order.
    shown: Memo<Vec<i64>>,
    /// The roles to give a node, with why some cannot be.
    role_views: Var<Vec<RoleView>>,
    bulk: BulkState,
    new_node: NewNodeState,
    editor: EditorState,
    /// A node that could not be deleted.
    error: Var<Option<String>>,
    editable: bool,
    changed: Callback<()>,
}

/// The table of the nodes in `all`, following it (and `roles`) as the page
/// loads them again after each change.
pub fn node_table(
    cluster_id: i64,
    all: Var<Vec<NodeView>>,
    role_views: Var<Vec<RoleView>>,
    state: TableState,
    editable: bool,
    changed: Callback<()>,
) -> View {
    // The ids shown, in order: recomputed when the nodes, a filter or the
    // sort change.
    let shown = Memo::new(move |_| {
        let filter = state.filter();
        let (sort, descending) = state.sort.get();
        all.with(|nodes| {
            select(nodes, &filter, sort, descending)
                .iter()
                .map(|n| n.id)
                .collect::<Vec<i64>>()
        })
    });
    let t = Table {
        cluster_id,
        state,
        all,
        shown,
        role_views,
        bulk: BulkState {
            tags: Var::new(String::new()),
            role: Var::new(String::new()),
            busy: Var::new(false),
            failure: Var::new(None),
        },
        new_node: NewNodeState {
            chosen: Var::new(Vec::new()),
            status: Var::new(NodeStatus::Discover),
            error: Var::new(None),
        },
        editor: EditorState {
            chosen: Var::new(Vec::new()),
            tag: Var::new(String::new()),
            error: Var::new(None),
        },
        error: Var::new(None),
        editable,
        changed,
    };
    // The page reloads after a change: the node edited shows what it is now.
    let reopen = move || t.with_node(state.editing.get_untracked(), |node| t.editor.open(node));
    reopen();
    on_change(move || all.track(), reopen);
    el("div")
        .class("node-table")
        .merged(move || t.render())
        .on("input", move |ev| t.typed(&ev))
        .on("change", move |ev| t.changed(&ev))
        .on("click", move |ev| t.clicked(&ev))
        .into()
}

impl Table {
    /// Everything the table shows, as it is now.
    fn render(self) -> Markup {
        let s = self.state;
        let (sort, descending) = s.sort.get();
        let ids = self.shown.get();
        let (selected, all_selected) = s.selected.with(|sel| {
            let all = !ids.is_empty() && ids.iter().all(|id| sel.contains(*id));
            (sel.len(), all)
        });
        let (name, role, tag, status) = (s.name.get(), s.role.get(), s.tag.get(), s.status.get());
        // The roles to filter by and to add or remove: (id, label).
        let roles: Vec<(String, String)> = self.role_views.with(|roles| {
            roles
                .iter()
                .map(|r| (r.id.to_string(), r.name.clone()))
                .collect()
        });
        let roles = &roles;
        let c = Controls {
            name: &name,
            role: &role,
            tag: &tag,
            status: &status,
            only: s.only.with(Vec::len),
            roles,
            sort,
            descending,
            page: s.page.get(),
            shown: ids.len(),
            total: self.all.with(Vec::len),
            selected,
            all_selected,
        };
        let mut m = Markup::new();
        if self.editable {
            m.append(self.new_node());
        }
        m.append(table::filters(&c));
        if self.editable && selected > 0 {
            m.append(self.bulk_bar(selected, roles));
        }
        if let Some(f) = self.bulk.failure.get() {
            m.append(lists::bulk_problems(&f.message, &f.node_problems));
        }
        m.append(table::summary(&c));
        m.append(table::table(&c, self.rows(&ids, c.page)));
        m.append(table::pager(&c));
        if let Some(message) = self.error.get() {
            m.append(table::error(&message));
        }
        m
    }

    fn new_node(self) -> Markup {
        let n = self.new_node;
        let (chosen, error) = (n.chosen.get(), n.error.get());
        self.role_views.with(|roles| {
            forms::add_node(&NewNode {
                roles,
                chosen: &chosen,
                status: n.status.get(),
                error: error.as_deref(),
            })
        })
    }

    fn editor(self, node: &NodeView) -> Markup {
        let e = self.editor;
        let (chosen, tag, error) = (e.chosen.get(), e.tag.get(), e.error.get());
        self.role_views.with(|roles| {
            forms::editor(&Editor {
                node,
                roles,
                chosen: &chosen,
                tag: &tag,
                editable: self.editable,
                error: error.as_deref(),
            })
        })
    }

    /// Calls `f` with the node `id`, if there is one.
    fn with_node<R>(self, id: Option<i64>, f: impl FnOnce(Option<&NodeView>) -> R) -> R {
        self.all
            .with_untracked(|nodes| f(id.and_then(|id| nodes.iter().find(|n| n.id == id))))
    }

    fn bulk_bar(self, selected: usize, roles: &[(String, String)]) -> Markup {
        let (tags, role) = (self.bulk.tags.get(), self.bulk.role.get());
        table::bulk_bar(&Bulk {
            selected,
            tags: &tags,
            role: &role,
            roles,
            busy: self.bulk.busy.get(),
        })
    }

    /// The rows of page `page` of the nodes `ids`.
    fn rows(self, ids: &[i64], page: usize) -> Markup {
        let editing = self.state.editing.get();
        self.state.selected.with(|selected| {
            self.all.with(|nodes| {
                let on_page: Vec<&NodeView> = ids
                    .iter()
                    .skip(page * PAGE)
                    .take(PAGE)
                    .filter_map(|id| nodes.iter().find(|n| n.id == *id))
                    .collect();
                let state = RowState {
                    selected: &|id| selected.contains(id),
                    editing,
                    editable: self.editable,
                    editor: &|node| self.editor(node),
                };
                table::rows(&on_page, state)
            })
        })
    }

    /// Text typed: a filter or the bulk bar's tags.
    fn typed(self, ev: &Event) {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let s = self.state;
        match input.class_name().as_str() {
            "filter-name" => s.filter_by(s.name, input.value()),
            "filter-tag" => s.filter_by(s.tag, input.value()),
            "bulk-tags" => self.bulk.tags.set(input.value()),
            "add-tag" => self.editor.tag.set(input.value()),
            _ => {}
        }
    }

    /// A box ticked or a choice made.
    fn changed(self, ev: &Event) {
        let s = self.state;
        if let Some(select) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
        {
            match select.class_name().as_str() {
                "filter-role" => s.filter_by(s.role, select.value()),
                "filter-status" => s.filter_by(s.status, select.value()),
                "bulk-role" => self.bulk.role.set(select.value()),
                "new-node-status" => self
                    .new_node
                    .status
                    .set(NodeStatus::parse(&select.value()).unwrap_or_default()),
                _ => {}
            }
        } else if closest(ev, "input.select-all").is_some() {
            let ids = self.shown.get_untracked();
            let select = !ids.is_empty()
                && !s
                    .selected
                    .with(|sel| ids.iter().all(|id| sel.contains(*id)));
            s.selected
                .update(|sel| ids.iter().for_each(|id| sel.set(*id, select)));
        } else if let Some(role) = closest(ev, "input[data-role]") {
            let role = role.get_attribute("data-role").unwrap_or_default();
            match closest(ev, ".add-node") {
                Some(_) => toggle(self.new_node.chosen, &role),
                None => toggle(self.editor.chosen, &role),
            }
        } else if let Some(id) = row_of(ev, "input.select-node") {
            s.selected.update(|sel| sel.toggle(id));
        }
    }

    /// A button pressed.
    fn clicked(self, ev: &Event) {
        let s = self.state;
        let Some(button) = closest(ev, "button") else {
            return;
        };
        let class = button.class_name();
        if let Some(id) = row_of(ev, "button.edit-node") {
            let open = s.editing.get_untracked() != Some(id);
            self.with_node(Some(id), |node| self.editor.open(node));
            s.editing.set(open.then_some(id));
        } else if let Some(chip) = closest(ev, "button.remove-tag") {
            let tag = chip.closest(".chip").ok().flatten();
            let tag = tag.and_then(|c| c.get_attribute("data-tag"));
            self.change_node(NodeChange::Untag(tag.unwrap_or_default()));
        } else if let Some(id) = row_of(ev, "button.delete-node") {
            let name = self.with_node(Some(id), |n| n.map(|n| n.name.clone()));
            delete(id, name.unwrap_or_default(), s, self.error, self.changed);
        } else if let Some(column) = button.get_attribute("data-sort") {
            if let Some(column) = NodeSort::of_column(&column) {
                s.sort.update(|(sort, descending)| {
                    (*sort, *descending) = sort.clicked(*descending, column)
                });
            }
        } else if let Some(action) = BulkAction::of_button(&class) {
            self.run(action);
        } else {
            match class.as_str() {
                "previous-page" => s.page.update(|p| *p = p.saturating_sub(1)),
                "next-page" => s.page.update(|p| *p += 1),
                "show-all" => s.only.set(Vec::new()),
                "bulk-clear" => s.selected.set(Selection::default()),
                "add-node-button" => self.add_node(),
                "save-roles" => self.change_node(NodeChange::Roles),
                "add-tag-button" => {
                    let tag = self.editor.tag.get_untracked().trim().to_owned();
                    if !tag.is_empty() {
                        self.change_node(NodeChange::Tag(tag));
                    }
                }
                _ => {}
            }
        }
    }

    /// Sends the bulk bar's change for the nodes selected.
    fn run(self, action: BulkAction) {
        let nodes = self.state.selected.with_untracked(|s| s.ids().to_vec());
        let (tags, role) = (
            self.bulk.tags.get_untracked(),
            self.bulk.role.get_untracked(),
        );
        let failure = self.bulk.failure;
        let change = match action.change(nodes, &tags, &role) {
            Ok(change) => change,
            Err(e) => return failure.set(Some(ApiFailure::message(e))),
        };
        let (busy, changed, cluster_id) = (self.bulk.busy, self.changed, self.cluster_id);
        let typed = self.bulk.tags;
        busy.set(true);
        leptos::task::spawn_local(async move {
            let result = api::bulk_nodes(cluster_id, &change).await;
            busy.set(false);
            match result {
                Ok(_) => {
                    failure.set(None);
                    typed.set(String::new());
                    changed.run(());
                }
                Err(e) => failure.set(Some(e)),
            }
        });
    }
}

/// A change the editor sends for the node being edited.
enum NodeChange {
    /// The roles ticked.
    Roles,
    Tag(String),
    Untag(String),
}

impl Table {
    fn add_node(self) {
        let n = self.new_node;
        let request = CreateNode {
            name: None,
            status: Some(n.status.get_untracked()),
            roles: n.chosen.get_untracked(),
        };
        let (cluster_id, changed) = (self.cluster_id, self.changed);
        leptos::task::spawn_local(async move {
            match api::create_node(cluster_id, &request).await {
                Ok(_) => {
                    n.error.set(None);
                    n.chosen.set(Vec::new());
                    changed.run(());
                }
                Err(e) => n.error.set(Some(e.message)),
            }
        });
    }

    fn change_node(self, change: NodeChange) {
        let Some(id) = self.state.editing.get_untracked() else {
            return;
        };
        let (e, changed) = (self.editor, self.changed);
        leptos::task::spawn_local(async move {
            let result = match change {
                NodeChange::Roles => {
                    let change = UpdateNode {
                        roles: Some(e.chosen.get_untracked()),
                        ..UpdateNode::default()
                    };
                    api::update_node(id, &change).await
                }
                NodeChange::Tag(tag) => {
                    e.tag.set(String::new());
                    api::assign_tags(id, vec![tag]).await
                }
                NodeChange::Untag(tag) => api::unassign_tags(id, vec![tag]).await,
            };
            match result {
                Ok(_) => {
                    e.error.set(None);
                    changed.run(())
                }
                Err(failure) => e.error.set(Some(failure.message)),
            }
        });
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
    error: Var<Option<String>>,
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
                error.set(None);
                changed.run(());
            }
            Err(e) => error.set(Some(format!("Node {name} was not deleted: {}", e.message))),
        }
    });
}
