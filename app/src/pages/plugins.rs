//! The Plugins page: what is installed, upload, uninstall.

use leptos::ev::MouseEvent;
use leptos::prelude::*;
use mosaic_core::api::PluginSummary;
use mosaic_core::markup::{self, plugins::Plugins};

use crate::api;
use crate::components::html::closest;
use crate::components::loaded::loaded;
use crate::components::morph::keep_merged;
use crate::components::plugin_upload::PluginUpload;
use crate::components::retry::RetryNotice;
use crate::components::var::Var;
use crate::route::{Route, set_title};

#[component]
pub fn PluginsPage() -> impl IntoView {
    let refresh = Var::new(0u32);
    let plugins = api::fetch(move || {
        refresh.get();
        vec![api::path::plugins()]
    });
    let changed = Callback::new(move |()| refresh.update(|n| *n += 1));
    set_title("Plugins");
    view! {
        <section class="card plugins" data-page="plugins">
            <h1>"Plugins"</h1>
            <p class="hint">
                "Releases and everything the wizard offers come from plugin packages. "
                "Upload one here, or install it on the server with "
                <code>"mosaic plugin install PATH"</code> "."
            </p>
            {crate::session::session()
                .can(mosaic_core::access::Role::Admin)
                .then(|| view! { <PluginUpload installed=move |_| changed.run(()) /> })}
            {loaded(plugins, "Loading plugins…", move |bodies| {
                match api::answer::<Vec<PluginSummary>>(&bodies, 0) {
                    Ok(list) if list.is_empty() => {
                        view! { <p class="empty">"No plugin is installed."</p> }.into_any()
                    }
                    Ok(list) => view! { <PluginTable plugins=list changed /> }.into_any(),
                    Err(failure) => {
                        view! { <RetryNotice failure on_retry=changed auto=true /> }.into_any()
                    }
                }
            })}
        </section>
    }
}

#[component]
fn PluginTable(plugins: Vec<PluginSummary>, changed: Callback<()>) -> impl IntoView {
    let list = Var::new(plugins);
    let admin = crate::session::session().can(mosaic_core::access::Role::Admin);
    // Two clicks uninstall: the first asks for confirmation in place.
    let confirming = Var::new(None::<i64>);
    let busy = Var::new(None::<i64>);
    let failure = Var::new(None::<(i64, String)>);
    let holder = NodeRef::<leptos::html::Div>::new();
    keep_merged(holder, move || {
        let failure = failure.get();
        list.with_untracked(|list| {
            markup::plugins::table(&Plugins {
                list,
                admin,
                confirming: confirming.get(),
                busy: busy.get(),
                failure: failure.as_ref().map(|(id, m)| (*id, m.as_str())),
                matrix: &|id| Route::ReleaseMatrix(id).path(),
                tags: &|id| Route::ReleaseTags(id).path(),
            })
        })
    });
    let uninstall = move |ev: MouseEvent| {
        let row = closest(&ev, "button.uninstall").and_then(|b| b.closest("tr").ok().flatten());
        let Some(id) = row.and_then(|r| r.get_attribute("data-key")?.parse::<i64>().ok()) else {
            return;
        };
        if confirming.get_untracked() != Some(id) {
            failure.set(None);
            confirming.set(Some(id));
            return;
        }
        confirming.set(None);
        busy.set(Some(id));
        leptos::task::spawn_local(async move {
            let result = api::uninstall_plugin(id).await;
            busy.set(None);
            match result {
                Ok(()) => changed.run(()),
                Err(e) => failure.set(Some((id, e.message))),
            }
        });
    };
    view! { <div node_ref=holder on:click=uninstall></div> }
}
