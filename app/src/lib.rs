//! Mosaic's browser app (Leptos, client-side rendered): the environment
//! wizard. It asks the server for releases and components and decides what
//! each option shows with `mosaic-core`, the same code the server validates
//! with.

pub mod api;
pub mod components;
pub mod pages;

use leptos::prelude::*;

use crate::components::notice::ErrorNotice;
use crate::pages::onboarding::Onboarding;
use crate::pages::wizard::Wizard;

/// The whole app: a header and the wizard, or onboarding without releases.
#[component]
pub fn App() -> impl IntoView {
    let releases = LocalResource::new(api::releases);
    view! {
        <header class="topbar">
            <span class="brand">"Mosaic"</span>
            <span class="tagline">"Compose OpenStack deployments from plugins"</span>
        </header>
        <main class="page">
            <Suspense fallback=|| view! { <p class="loading">"Loading releases…"</p> }>
                {move || Suspend::new(async move {
                    match releases.await {
                        Ok(list) if list.is_empty() => view! { <Onboarding /> }.into_any(),
                        Ok(list) => view! { <Wizard releases=list /> }.into_any(),
                        Err(e) => view! { <ErrorNotice message=e.message /> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
