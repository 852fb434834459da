//! The last step: what was chosen, pane by pane, what keeps it from being
//! created if anything, and the Create button. A created environment
//! opens its page; a refused or failed request keeps every choice and
//! offers to try again.

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::CreateCluster;
use mosaic_core::component::Violation;
use mosaic_core::markup;

use super::Flow;
use crate::api;
use crate::catalog::Catalog;
use crate::components::retry::RetryNotice;
use crate::route::{Route, Router};

#[component]
pub(super) fn Finish(
    catalog: Arc<Catalog>,
    flow: Flow,
    release_id: RwSignal<i64>,
    /// What makes the selection invalid, if anything.
    violations: Memo<Vec<Violation>>,
) -> impl IntoView {
    let creating = RwSignal::new(false);
    let failure = RwSignal::new(None::<api::ApiFailure>);
    // Taken now: the answer arrives outside the component's reactive owner.
    let router = use_context::<Router>();
    let create = {
        let catalog = catalog.clone();
        Callback::new(move |()| {
            let request = CreateCluster {
                name: flow.name.get_untracked().trim().to_owned(),
                release_id: release_id.get_untracked(),
                components: flow.selection.with_untracked(|s| catalog.names(s)),
                mode: None,
            };
            creating.set(true);
            failure.set(None);
            leptos::task::spawn_local(async move {
                let result = api::create_cluster(&request).await;
                // Before leaving the page: its signals are gone after.
                creating.set(false);
                match result {
                    Ok(cluster) => {
                        if let Some(router) = router {
                            router.go(Route::Environment(cluster.id));
                        }
                    }
                    Err(e) => failure.set(Some(e)),
                }
            });
        })
    };
    let summary = move || {
        let name = flow.name.get();
        flow.selection
            .with(|s| markup::wizard::summary(&name, catalog.registry(), s).into_string())
    };
    let problems = move || {
        violations
            .with(|v| markup::wizard::items(v.iter().map(|v| v.message.as_str())).into_string())
    };
    let blocked = move || {
        creating.get() || !violations.with(Vec::is_empty) || flow.name.with(|n| n.trim().is_empty())
    };
    view! {
        <dl class="summary" inner_html=summary></dl>
        <Show when=move || !violations.with(Vec::is_empty)>
            <div class="notice notice-error" role="alert">
                <p>"This combination cannot be created:"</p>
                <ul inner_html=problems></ul>
            </div>
        </Show>
        {move || failure.get().map(|failure| view! { <RetryNotice failure on_retry=create /> })}
        <button
            id="create"
            type="button"
            class="primary"
            prop:disabled=blocked
            on:click=move |_| create.run(())
        >
            {move || if creating.get() { "Creating…" } else { "Create environment" }}
        </button>
    }
}
