//! The Plugins page: what is installed, upload, uninstall.

use leptos::prelude::*;
use mosaic_core::api::{PluginKind, PluginSummary};

use crate::api;
use crate::components::loaded::loaded;
use crate::components::notice::ErrorNotice;
use crate::components::plugin_upload::PluginUpload;
use crate::components::retry::RetryNotice;
use crate::route::{Route, set_title};

#[component]
pub fn PluginsPage() -> impl IntoView {
    let refresh = RwSignal::new(0u32);
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
    view! {
        <table class="plugin-table">
            <thead>
                <tr>
                    <th>"Plugin"</th>
                    <th>"Version"</th>
                    <th>"Kind"</th>
                    <th>"Releases"</th>
                    <th>"Used by"</th>
                    <th>"Warnings"</th>
                    <th scope="col">"Actions"</th>
                </tr>
            </thead>
            <tbody>
                {plugins
                    .into_iter()
                    .map(|plugin| view! { <PluginRow plugin changed /> })
                    .collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn PluginRow(plugin: PluginSummary, changed: Callback<()>) -> impl IntoView {
    // Two clicks uninstall: the first asks for confirmation in place.
    let confirming = RwSignal::new(false);
    let busy = RwSignal::new(false);
    let admin = crate::session::session().can(mosaic_core::access::Role::Admin);
    let error = RwSignal::new(None::<String>);
    let id = plugin.id;
    let uninstall = move |_| {
        if !confirming.get_untracked() {
            error.set(None);
            confirming.set(true);
            return;
        }
        confirming.set(false);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let result = api::uninstall_plugin(id).await;
            busy.set(false);
            match result {
                Ok(()) => changed.run(()),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let kind = match plugin.kind {
        PluginKind::Release => "release",
        PluginKind::Extension => "extension",
    };
    let idle = plugin.idle_reason();
    let release_plugin = plugin.kind == PluginKind::Release;
    let releases = plugin
        .releases
        .iter()
        .map(|r| {
            let links = release_plugin.then(|| {
                view! {
                    " " <a href=Route::ReleaseMatrix(r.id).path()>"matrix"</a>
                    " · " <a href=Route::ReleaseTags(r.id).path() class="release-tags">"tags"</a>
                }
            });
            view! { <div>{format!("{} ({})", r.name, r.version)}{links}</div> }
        })
        .collect_view();
    let used_by = plugin.used_by.join(", ");
    let warnings = plugin
        .warnings
        .iter()
        .map(|w| format!("{}: {}", w.place(), w.message))
        .collect::<Vec<_>>()
        .join("\n");
    view! {
        <tr data-plugin=plugin.name.clone()>
            <td>
                <strong>{plugin.title.clone()}</strong>
                <div class="muted">{plugin.name.clone()}</div>
            </td>
            <td>{plugin.version.clone()}</td>
            <td>{kind}</td>
            <td>
                {releases}
                {idle.map(|why| view! { <strong class="notice notice-warn idle-plugin">{why}</strong> })}
            </td>
            <td>{used_by}</td>
            <td title=warnings>{plugin.warnings.len()}</td>
            <td>
                <button
                    type="button"
                    class:hidden=!admin
                    class="uninstall"
                    class:danger=move || confirming.get()
                    prop:disabled=move || busy.get()
                    on:click=uninstall
                >
                    {move || if confirming.get() { "Confirm uninstall" } else { "Uninstall" }}
                </button>
                {move || error.get().map(|message| view! { <ErrorNotice message /> })}
            </td>
        </tr>
    }
}
