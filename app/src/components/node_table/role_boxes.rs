//! The role checkboxes of the add-node form and of the node editor.

use leptos::prelude::*;
use mosaic_core::api::RoleView;
use mosaic_core::name::RoleName;
use mosaic_core::nodes::role_title;

/// The role checkboxes, `chosen` ticked; `toggle` ticks or unticks one. A
/// role not available is disabled with the reason as its title, unless it
/// is ticked: a role the node has can always be taken away. Keyed by the
/// role's id: a new answer (a role becoming unavailable, say) updates the
/// boxes in place, and the one in use keeps its focus.
#[component]
pub(super) fn RoleBoxes(
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
