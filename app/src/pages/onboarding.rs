use leptos::prelude::*;

use crate::components::plugin_upload::PluginUpload;

/// Shown when no release is installed: the wizard cannot start without one.
#[component]
pub fn Onboarding(#[prop(into)] installed: Callback<()>) -> impl IntoView {
    view! {
        <section class="card onboarding" data-page="onboarding">
            <h1>"Welcome to Mosaic"</h1>
            <p>
                "No OpenStack release is installed yet. Environments are created from a release, "
                "and releases ship as release plugins."
            </p>
            <h2>"Install a release plugin"</h2>
            <p>"On the server, with the command line:"</p>
            <pre class="command">"mosaic plugin install PATH"</pre>
            <p class="hint">
                "PATH is a release plugin directory or .tar.gz. "
                <code>"mosaic plugin create NAME --release"</code>
                " scaffolds one; Mosaic's own OpenStack release is "
                <code>"releases/openstack"</code> " in its repository."
            </p>
            {if crate::session::session().can(mosaic_core::access::Role::Admin) {
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
