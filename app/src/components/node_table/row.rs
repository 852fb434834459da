//! One node's row, and under it its editor while it is being edited.

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView};
use mosaic_core::name::RoleName;

use super::TableState;
use super::editor::NodeEditor;
use crate::api;
use crate::records::Records;

/// One node's row, and under it its editor while it is being edited.
#[component]
pub(super) fn NodeRow(
    id: i64,
    nodes: Records<NodeView>,
    roles: Signal<Vec<RoleView>>,
    networks: Signal<Vec<String>>,
    state: TableState,
    editable: bool,
    changed: Callback<()>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    // The node as last answered: only what changed in it changes the row.
    let row = nodes.row(&id);
    let node = Memo::new(move |_| row.as_ref().map(|r| r.get()));
    let read = move |f: fn(&NodeView) -> String| {
        move || node.with(|n| n.as_ref().map(f).unwrap_or_default())
    };
    let name = Signal::derive(read(|n| n.name.clone()));
    let selected = Memo::new(move |_| state.selected.with(|s| s.contains(id)));
    let editing = Memo::new(move |_| state.editing.get() == Some(id));
    view! {
        <tr class="node-row" class:selected=selected data-node=id>
            <td>
                <input
                    type="checkbox"
                    class="select-node"
                    aria-label=move || format!("Select {}", name.get())
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
            <td class="node-switch">{read(|n| mosaic_core::nodes::switches(n).join(", "))}</td>
            <td>
                <RowChips node />
            </td>
            <RowActions id name editing state editable changed error />
        </tr>
        <Show when=move || editing.get()>
            <tr class="node-editor">
                <td colspan="8">
                    <NodeEditor id node roles networks editable changed />
                </td>
            </tr>
        </Show>
    }
}

/// The node's tags as chips, those its roles bring marked.
#[component]
fn RowChips(node: Memo<Option<NodeView>>) -> impl IntoView {
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
    view! {
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
    }
}

/// The row's actions: open or close its editor (Details for a viewer),
/// and delete the node after a confirmation; a failed deletion is said
/// under the table (`error`).
#[component]
fn RowActions(
    id: i64,
    name: Signal<String>,
    editing: Memo<bool>,
    state: TableState,
    editable: bool,
    changed: Callback<()>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
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
        let name = name.get_untracked();
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
    }
}
