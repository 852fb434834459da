//! The editor of the node being edited, in the row under it.

use leptos::prelude::*;
use mosaic_core::api::{NodeView, RoleView, UpdateNode};
use mosaic_core::name::{RoleName, TagName};
use mosaic_core::nodes::TagOrigin;

use super::disks::{NodeDisks, ResetWarning, reset_notice};
use super::hardware::NodeHardwarePanel;
use super::role_boxes::RoleBoxes;
use super::toggle;
use crate::api::{self, ApiFailure};
use crate::components::action::{ActionError, Request, on_success};
use crate::components::interfaces_editor::InterfacesEditor;

/// A change the editor sends for the node being edited.
#[derive(Debug, Clone)]
enum NodeChange {
    Roles(Vec<RoleName>),
    Tag(String),
    Untag(String),
}

impl NodeChange {
    /// Sends the change for node `id`: whether it reset the node's disk
    /// layout (a change of roles may).
    async fn send(self, id: i64) -> Result<bool, ApiFailure> {
        match self {
            NodeChange::Roles(roles) => {
                let change = UpdateNode {
                    roles: Some(roles),
                    ..UpdateNode::default()
                };
                api::update_node(id, &change).await.map(|n| n.disks_reset)
            }
            NodeChange::Tag(tag) => api::assign_tags(id, vec![tag]).await.map(|_| false),
            NodeChange::Untag(tag) => api::unassign_tags(id, vec![tag]).await.map(|_| false),
        }
    }
}

/// One node's editor: its roles to save, its tags — each saying where it
/// comes from, the ones added by hand or by a role removable —, a tag
/// to add, its hardware, its disks, and its interfaces with the networks on
/// them. The roles ticked are the node's until the admin ticks others, and
/// again once the node changed (its version moved on); roles other than
/// the node's warn that Save resets its disk layout, when it has one.
#[component]
pub(super) fn NodeEditor(
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
    let other_roles = Memo::new(move |_| {
        chosen.with(|now| node.with(|n| n.as_ref().is_some_and(|n| n.roles_reset_disks(now))))
    });
    let typed = RwSignal::new(String::new());
    let send: Request<NodeChange, bool> =
        Action::new_unsync(move |change: &NodeChange| change.clone().send(id));
    // The last change's word on the disk layout it reset.
    let reset = RwSignal::new(None::<String>);
    on_success(send, move |disks_reset| {
        let name = node.with_untracked(|n| n.as_ref().map(|n| n.name.clone()).unwrap_or_default());
        reset.set(if *disks_reset {
            reset_notice(&[name])
        } else {
            None
        });
        changed.run(());
    });
    let add_tag = move |_| {
        let tag = typed.get_untracked().trim().to_owned();
        if !tag.is_empty() {
            typed.set(String::new());
            send.dispatch(NodeChange::Tag(tag));
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
                <ResetWarning shown=other_roles />
                <button class="save-roles" on:click=move |_| {
                    send.dispatch(NodeChange::Roles(chosen.get_untracked()));
                }>"Save roles"</button>
            })}
            {move || reset.get().map(|m| view! { <p class="notice notice-warn disks-reset" role="status">{m}</p> })}
            <EditorChips node editable send />
            {editable.then(|| view! {
                <div class="add-tag-row">
                    <input class="add-tag" list="known-tags" placeholder="tag or name:N" bind:value=typed />
                    <button class="add-tag-button" on:click=add_tag>"Add tag"</button>
                </div>
            })}
            <ActionError action=send />
            <NodeHardwarePanel id node />
            <NodeDisks id node editable changed />
            <InterfacesEditor id node networks editable changed />
        </div>
    }
}

/// The node's tags as chips, each saying where it comes from; one added by
/// hand or by a role has a button removing it.
#[component]
fn EditorChips(
    node: Memo<Option<NodeView>>,
    editable: bool,
    send: Request<NodeChange, bool>,
) -> impl IntoView {
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
    view! {
        <div class="chips">
            <For each=move || chips.get() key=|chip| chip.clone() children=chip />
        </div>
    }
}
