//! The pages loaded when first visited: lazy routes of `leptos_router`,
//! whose pages the build splits off the main module (scripts/post-build.mjs,
//! tools/wasm-split), fetched by the browser the first time the user goes
//! to one. The main module holds what a first visit to `/` shows: the
//! sign-in page, the wizard and the environments, the onboarding, and an
//! environment's frame. The rest is three modules (docs/benchmarks.md,
//! "Three modules"):
//! - `environment`: the tabs an environment opens on and the light ones —
//!   Nodes, Deployment preview, Tags, Components;
//! - `environment_more`: its heavy tabs — Networks, Settings, Deploy,
//!   History;
//! - `catalog`: the plugins, the Heat template sets, a release's tags and
//!   its compatibility matrix.
//!
//! Few modules on purpose: the splitter puts code that several modules
//! share in a `chunk_*.wasm` per set of modules sharing it, so a module per
//! page meant dozens of small requests for a first visit to an
//! environment (measured: 62 requests, 300 ms slower than three modules).
//!
//! Written without Leptos's `#[lazy_route]`, whose load panics when the
//! module cannot be fetched (the server down, or redeployed under an open
//! tab), and a panic stops the whole app. Here a failed load is a notice
//! with Try again — by itself every few seconds, as for any page whose
//! answers cannot be fetched — and the page appears once its module
//! arrives (`wasm_split`'s `fallible` load; a failure is not remembered,
//! so the next attempt fetches again).
//!
//! A route reads nothing before its view: the router runs `data` outside
//! the parent route, where the environment's context is not provided.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use leptos_router::LazyRoute;
use send_wrapper::SendWrapper;

use crate::api::ApiFailure;
use crate::components::retry::RetryNotice;
use crate::pages::components::ComponentsPage;
use crate::pages::deploy::DeployPage;
use crate::pages::environment::EnvironmentNodes;
use crate::pages::heat::HeatPage;
use crate::pages::history::HistoryPage;
use crate::pages::matrix::MatrixPage;
use crate::pages::networks::NetworksPage;
use crate::pages::plugins::Plugins;
use crate::pages::preview::EnvironmentPreview;
use crate::pages::settings::SettingsPage;
use crate::pages::tags::{EnvironmentTagsPage, ReleaseTagsPage};
use crate::route::for_id;

/// A page's module being fetched, then its view.
type Load = Pin<Box<dyn Future<Output = Result<AnyView, SplitLoaderError>>>>;

/// Lazy routes, each written `Route: function in module, page => body;`:
/// `Route` shows what `body` builds (the function `function`), split off
/// into `module`; `page` is the `data-page` its load failure is shown
/// under (the environment's frame has its own). Routes that name one
/// module share it: one download brings them all.
macro_rules! lazy_pages {
    ($(
        $(#[$doc:meta])*
        $route:ident: $page_fn:ident in $module:ident, $page:expr => $body:expr;
    )*) => {$(
        $(#[$doc])*
        pub struct $route;

        impl $route {
            /// The module its page is split into.
            #[allow(dead_code)]
            pub const MODULE: &str = stringify!($module);
        }

        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            async fn view(_this: Self) -> AnyView {
                #[wasm_split($module, fallible, wasm_split_path = ::leptos::wasm_split)]
                fn $page_fn() -> Result<AnyView, SplitLoaderError> {
                    Ok($body)
                }
                lazily($page, || Box::pin($page_fn()))
            }
        }
    )*};
}

/// The page `load` gives once its module arrived; until then the loading
/// line, and when it cannot be fetched, the failure with Try again.
fn lazily(page: Option<&'static str>, load: fn() -> Load) -> AnyView {
    let attempt = RwSignal::new(0_u32);
    let retry = Callback::new(move |()| attempt.update(|n| *n += 1));
    let shown = move || {
        attempt.track();
        Suspend::new(SendWrapper::new(async move {
            match load().await {
                Ok(view) => view,
                Err(_) => {
                    let failure =
                        ApiFailure::unreachable("Cannot reach the server to load this page.");
                    view! {
                        <section class="card" data-page=page>
                            <RetryNotice failure retry auto=true />
                        </section>
                    }
                    .into_any()
                }
            }
        }))
    };
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading the page…"</p> }>{shown}</Transition>
    }
    .into_any()
}

lazy_pages! {
    // What an environment opens on, and its light tabs.
    /// An environment's Nodes tab.
    NodesTab: nodes_tab in environment, None => view! { <EnvironmentNodes /> }.into_any();
    /// An environment's Deployment preview tab.
    PreviewTab: preview_tab in environment, None => view! { <EnvironmentPreview /> }.into_any();
    /// An environment's Tags tab.
    TagsTab: tags_tab in environment, None => view! { <EnvironmentTagsPage /> }.into_any();
    /// An environment's Components tab.
    ComponentsTab: components_tab in environment, None => view! { <ComponentsPage /> }.into_any();

    // An environment's heavy tabs.
    /// An environment's Networks tab.
    NetworksTab: networks_tab in environment_more, None => view! { <NetworksPage /> }.into_any();
    /// An environment's Settings tab.
    SettingsTab: settings_tab in environment_more, None => view! { <SettingsPage /> }.into_any();
    /// An environment's Deploy tab.
    DeployTab: deploy_tab in environment_more, None => view! { <DeployPage /> }.into_any();
    /// An environment's History tab.
    HistoryTab: history_tab in environment_more, None => view! { <HistoryPage /> }.into_any();

    // What is installed: plugins, Heat template sets, releases.
    /// A release's tags.
    ReleaseTags: release_tags in catalog, Some("tags") =>
        for_id(|id| view! { <ReleaseTagsPage id /> });
    /// A release's compatibility matrix.
    ReleaseMatrix: release_matrix in catalog, Some("matrix") =>
        for_id(|id| view! { <MatrixPage id /> });
    /// The installed plugins.
    PluginsRoute: plugins in catalog, Some("plugins") => view! { <Plugins /> }.into_any();
    /// The Heat template sets.
    HeatRoute: heat in catalog, Some("heat") => view! { <HeatPage /> }.into_any();
}

#[cfg(test)]
mod tests {
    use mosaic_core::environment::lazy_module;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::route::Route;

    /// The server preloads the module core's `lazy_module` names for a
    /// path: each lazy page must be split into that one.
    #[wasm_bindgen_test]
    fn each_lazy_page_is_in_the_module_core_names_for_its_path() {
        let pages = [
            (Route::Environment(1), NodesTab::MODULE),
            (Route::EnvironmentPreview(1), PreviewTab::MODULE),
            (Route::EnvironmentTags(1), TagsTab::MODULE),
            (Route::EnvironmentComponents(1), ComponentsTab::MODULE),
            (Route::EnvironmentNetworks(1), NetworksTab::MODULE),
            (Route::EnvironmentSettings(1), SettingsTab::MODULE),
            (Route::EnvironmentDeploy(1), DeployTab::MODULE),
            (Route::EnvironmentHistory(1), HistoryTab::MODULE),
            (Route::ReleaseTags(1), ReleaseTags::MODULE),
            (Route::ReleaseMatrix(1), ReleaseMatrix::MODULE),
            (Route::Plugins, PluginsRoute::MODULE),
            (Route::Heat, HeatRoute::MODULE),
        ];
        for (route, module) in pages {
            assert_eq!(lazy_module(&route.path()), Some(module), "{route:?}");
        }
        assert_eq!(lazy_module(&Route::Environments.path()), None);
    }
}
