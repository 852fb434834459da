use leptos::prelude::*;

/// Shown when no release is installed: the wizard cannot start without one.
#[component]
pub fn Onboarding() -> impl IntoView {
    view! {
        <section class="card onboarding" data-page="onboarding">
            <h1>"Welcome to Mosaic"</h1>
            <p>
                "No OpenStack release is installed yet. Environments are created from a release, "
                "and releases ship as release plugins."
            </p>
            <p>
                "A fresh Mosaic installs its bundled OpenStack release on first start; "
                "this one has none. Install a release plugin, then reload this page to "
                "start the environment wizard."
            </p>
        </section>
    }
}
