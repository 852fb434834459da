//! Shown when no release is installed — on a fresh install, or after the
//! last release was uninstalled: the wizard cannot start without one.

use leptos::prelude::*;
use mosaic_core::access::Role;

use crate::api;
use crate::components::action::{ActionError, Request, on_success};
use crate::components::plugin_upload::PluginUpload;
use crate::route::set_title;
use crate::session::session;

#[component]
pub fn Onboarding(
    /// Told when a release was installed.
    installed: Callback<()>,
) -> impl IntoView {
    set_title("Welcome");
    let session = session();
    let admin = move || session.can(Role::Admin);
    view! {
        <section class="card onboarding" data-page="onboarding">
            <h1>"Welcome to Mosaic"</h1>
            <p>
                "No OpenStack release is installed, so no environment can be created yet. Environments are created from a release, and releases ship as release plugins."
            </p>
            <Show when=admin>
                <Reinstall installed />
            </Show>
            <h2>"Install a release plugin"</h2>
            <p>"On the server, with the command line:"</p>
            <pre class="command">"mosaic plugin install PATH"</pre>
            <p class="hint">
                "PATH is a release plugin directory or .tar.gz. "
                <code>"mosaic plugin create NAME --release"</code>
                " scaffolds one; Mosaic's own OpenStack release is "
                <code>"releases/openstack"</code> " in its repository."
            </p>
            <Show
                when=admin
                fallback=|| {
                    view! {
                        <p class="hint" data-role-note="">
                            "An admin installs plugins; ask one to install a release."
                        </p>
                    }
                }
            >
                <p>"Or upload a release plugin package here:"</p>
                <PluginUpload installed=Callback::new(move |_| installed.run(())) />
            </Show>
        </section>
    }
}

/// One click installs the OpenStack release built into the server (the one
/// a fresh install starts with).
#[component]
fn Reinstall(installed: Callback<()>) -> impl IntoView {
    let reinstall: Request<(), ()> =
        Action::new_unsync(move |_: &()| async move { api::reinstall_bundled().await.map(drop) });
    on_success(reinstall, move |()| installed.run(()));
    view! {
        <h2>"Mosaic's own release"</h2>
        <p>
            "The OpenStack release Mosaic comes with is built into the server. "
            <button
                class="reinstall-bundled primary"
                disabled=move || reinstall.pending().get()
                on:click=move |_| {
                    reinstall.dispatch(());
                }
            >
                "Install the built-in OpenStack release"
            </button>
        </p>
        <ActionError action=reinstall />
    }
}
