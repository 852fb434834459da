use leptos::prelude::*;

use crate::api;
use crate::components::notice::ErrorNotice;
use crate::components::plugin_upload::PluginUpload;
use crate::components::var::Var;

/// Shown when no release is installed — on a fresh install, or after the
/// last release was uninstalled: the wizard cannot start without one.
#[component]
pub fn Onboarding(#[prop(into)] installed: Callback<()>) -> impl IntoView {
    let admin = crate::session::session().can(mosaic_core::access::Role::Admin);
    view! {
        <section class="card onboarding" data-page="onboarding">
            <h1>"Welcome to Mosaic"</h1>
            <p>
                "No OpenStack release is installed, so no environment can be created yet. "
                "Environments are created from a release, and releases ship as release plugins."
            </p>
            {admin.then(|| view! { <Reinstall installed /> })}
            <h2>"Install a release plugin"</h2>
            <p>"On the server, with the command line:"</p>
            <pre class="command">"mosaic plugin install PATH"</pre>
            <p class="hint">
                "PATH is a release plugin directory or .tar.gz. "
                <code>"mosaic plugin create NAME --release"</code>
                " scaffolds one; Mosaic's own OpenStack release is "
                <code>"releases/openstack"</code> " in its repository."
            </p>
            {if admin {
                view! {
                    <p>"Or upload a release plugin package here:"</p>
                    <PluginUpload installed=move |_| installed.run(()) />
                }
                .into_any()
            } else {
                view! { <p class="hint" data-role-note="">"An admin installs plugins; ask one to install a release."</p> }.into_any()
            }}
        </section>
    }
}

/// One click installs the OpenStack release built into the server (the one
/// a fresh install starts with).
#[component]
fn Reinstall(installed: Callback<()>) -> impl IntoView {
    let busy = Var::new(false);
    let error = Var::new(None::<String>);
    let install = move |_| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            let result = api::reinstall_bundled().await;
            busy.set(false);
            match result {
                Ok(_) => installed.run(()),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    view! {
        <h2>"Mosaic's own release"</h2>
        <p>
            "The OpenStack release Mosaic comes with is built into the server. "
            <button class="reinstall-bundled primary" prop:disabled=move || busy.get() on:click=install>
                "Install the built-in OpenStack release"
            </button>
        </p>
        {move || error.get().map(|message| view! { <ErrorNotice message /> })}
    }
}
