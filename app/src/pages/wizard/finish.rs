//! The last step: what was chosen (`.summary`), pane by pane, what keeps
//! it from being created if anything, and the Create button (`#create`),
//! which needs a name and a valid selection. A created environment opens
//! its page; a refused or failed request keeps every choice and offers to
//! try again.

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::CreateCluster;
use mosaic_core::component::Violation;
use mosaic_core::wizard::view::summary;

use super::{Flow, LAST};
use crate::api;
use crate::catalog::Catalog;
use crate::components::action::on_success;
use crate::components::retry::RetryNotice;
use crate::route::Route;

/// `violations`: what makes the selection invalid, if anything.
#[component]
pub(super) fn Finish(
    catalog: Arc<Catalog>,
    flow: Flow,
    release_id: RwSignal<i64>,
    violations: Memo<Vec<Violation>>,
) -> impl IntoView {
    let create = Action::new_unsync(|request: &CreateCluster| {
        let request = request.clone();
        async move { api::create_cluster(&request).await }
    });
    // The created environment's page. The effect goes with the wizard: an
    // answer that arrives after the operator left changes nothing (going to
    // the new environment would undo where they went).
    let navigate = leptos_router::hooks::use_navigate();
    on_success(create, move |cluster| {
        navigate(&Route::Environment(cluster.id).path(), Default::default())
    });
    let creating = create.pending();
    // The last try's failure, until the next try.
    let failure = move || {
        if creating.get() {
            return None;
        }
        create
            .value()
            .with(|answer| answer.as_ref().and_then(|a| a.as_ref().err().cloned()))
    };
    let submit = {
        let catalog = catalog.clone();
        Callback::new(move |()| {
            create.dispatch(CreateCluster {
                name: flow.name.get_untracked().trim().to_owned(),
                release_id: release_id.get_untracked(),
                components: flow.selection.with_untracked(|s| catalog.names(s)),
                mode: None,
            });
        })
    };
    let blocked = move || {
        creating.get()
            || violations.with(|v| !v.is_empty())
            || flow.name.with(|n| n.trim().is_empty())
    };
    let chosen = move || {
        flow.selection.with(|selection| {
            summary(catalog.registry(), selection)
                .into_iter()
                .map(|(title, labels)| view! { <dt>{title}</dt><dd>{labels}</dd> })
                .collect_view()
        })
    };
    let shown = move || flow.step.get() == LAST;
    view! {
        <div class="pane-body" data-pane="finish" class:hidden=move || !shown()>
            <div>
                // Written while shown only: hidden, it follows no click.
                <Show when=shown>
                    <dl class="summary">
                        <dt>"Name"</dt>
                        <dd>{move || flow.name.get()}</dd>
                        {chosen.clone()}
                    </dl>
                    <Invalid violations />
                    {move || failure().map(|failure| view! { <RetryNotice failure retry=submit auto=false /> })}
                    <button
                        id="create"
                        type="button"
                        class="primary"
                        disabled=blocked
                        on:click=move |_| submit.run(())
                    >
                        {move || if creating.get() { "Creating…" } else { "Create environment" }}
                    </button>
                </Show>
            </div>
        </div>
    }
}

/// Why the selection cannot be created, when it cannot.
#[component]
fn Invalid(violations: Memo<Vec<Violation>>) -> impl IntoView {
    move || {
        violations.with(|violations| {
            (!violations.is_empty()).then(|| {
                let items = violations
                    .iter()
                    .map(|v| view! { <li>{v.message.clone()}</li> })
                    .collect_view();
                view! {
                    <div class="notice notice-error" role="alert">
                        <p>"This combination cannot be created:"</p>
                        <ul>{items}</ul>
                    </div>
                }
            })
        })
    }
}
