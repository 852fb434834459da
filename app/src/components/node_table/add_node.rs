//! Adding a node, and why the roles not available here are not.

use leptos::prelude::*;
use mosaic_core::api::{CreateNode, RoleView};
use mosaic_core::name::{NodeStatus, RoleName};
use mosaic_core::nodes::unavailable_summary;

use super::role_boxes::RoleBoxes;
use super::toggle;
use crate::api;
use crate::components::action::{ActionError, Request, on_success};

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
pub(super) fn AddNode(
    cluster_id: i64,
    roles: Signal<Vec<RoleView>>,
    changed: Callback<()>,
) -> impl IntoView {
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
