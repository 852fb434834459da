//! The table's filters, and the role and node group options the bulk bar
//! offers too.

use leptos::prelude::*;
use mosaic_core::api::RoleView;
use mosaic_core::name::NodeStatus;

use super::TableState;

/// "any" or "choose" (`none`), then a role per option, by id.
pub(super) fn role_options(
    roles: Signal<Vec<RoleView>>,
    chosen: RwSignal<String>,
    none: &'static str,
) -> impl IntoView {
    view! {
        <option value="" prop:selected=move || chosen.with(String::is_empty)>{none}</option>
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

/// "any" or "choose" (`none`), then a node group (or a switch) per
/// option, by name.
pub(super) fn group_options(
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
/// status, node group and switch; and, while a check narrowed the table, the way
/// back to all.
#[component]
pub(super) fn Filters(
    state: TableState,
    roles: Signal<Vec<RoleView>>,
    groups: Signal<Vec<String>>,
    /// The switches the nodes are cabled to (LLDP); the filter shows once
    /// there is one.
    switches: Memo<Vec<String>>,
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
                    {role_options(roles, s.role, "any")}
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
            <Show when=move || switches.with(|s| !s.is_empty())>
                <label>
                    "Switch "
                    <select class="filter-switch" on:change=move |ev| s.filter_by(s.switch, event_target_value(&ev))>
                        {group_options(switches.into(), s.switch, "any")}
                    </select>
                </label>
            </Show>
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
