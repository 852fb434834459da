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
use crate::components::html::closest;
use crate::components::var::Var;
use crate::dom::{View, el};
use crate::route::Route;

/// `violations`: what makes the selection invalid, if anything.
pub(super) fn finish(
    catalog: Arc<Catalog>,
    flow: Flow,
    release_id: Var<i64>,
    violations: Memo<Vec<Violation>>,
) -> View {
    let creating = Var::new(false);
    let failure = Var::new(None::<api::ApiFailure>);
    // Taken now: the answer arrives outside the component's reactive owner.
    let navigate = leptos_router::hooks::use_navigate();
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
            let navigate = navigate.clone();
            leptos::task::spawn_local(async move {
                let result = api::create_cluster(&request).await;
                // An answer that arrives after the operator left the
                // wizard changes nothing: its values are gone, and going
                // to the new environment would undo where they went.
                if creating.try_set(false).is_some() {
                    return;
                }
                match result {
                    Ok(cluster) => {
                        navigate(&Route::Environment(cluster.id).path(), Default::default())
                    }
                    Err(e) => {
                        failure.try_set(Some(e));
                    }
                }
            });
        })
    };
    let render = move || {
        // Written while shown only: hidden, it follows no click.
        if flow.step.get() != super::LAST {
            return markup::Markup::new();
        }
        let failure = failure.get();
        let details = failure.as_ref().map(api::ApiFailure::details);
        flow.name.with(|name| {
            flow.selection.with(|selection| {
                violations.with(|violations| {
                    markup::wizard::finish(&markup::wizard::Finish {
                        name,
                        registry: catalog.registry(),
                        selection,
                        violations,
                        creating: creating.get(),
                        failure: failure
                            .as_ref()
                            .zip(details.as_deref())
                            .map(|(f, details)| (f.message.as_str(), details)),
                    })
                })
            })
        })
    };
    let clicked = move |ev: web_sys::Event| {
        if closest(&ev, "#create, button.retry").is_some() {
            create.run(());
        }
    };
    el("div").merged(render).on("click", clicked).into()
}
