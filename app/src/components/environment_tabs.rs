//! The head of an environment's pages: its name, its release, and tabs for
//! its nodes (with the deployment preview), its networks, its settings, its
//! tags, its components and its hand-off to a deployer.

use leptos::prelude::*;
use mosaic_core::api::Cluster;

use crate::api;
use crate::route::{Route, set_title};

/// The environment's page being shown: core's, which an export's
/// problem names too.
pub use mosaic_core::environment::EnvTab as Tab;

/// The environment's name as the heading (its id until it is known) and
/// the tabs, `current` marked; the browser's title names both.
#[component]
pub fn EnvironmentTabs(cluster_id: i64, current: Tab) -> impl IntoView {
    let cluster = LocalResource::new(move || api::get::<Cluster>(api::path::cluster(cluster_id)));
    let title = Memo::new(move |_| {
        cluster.get().and_then(Result::ok).map_or_else(
            || format!("Environment {cluster_id}"),
            |c| format!("Environment {}", c.name),
        )
    });
    Effect::new(move || set_title(&format!("{} · {}", title.get(), current.label())));
    // Which release, in which version: two versions of one release read
    // apart (the release's own label).
    let release = move || {
        cluster
            .get()
            .and_then(Result::ok)
            .and_then(|c| c.release)
            .map(|r| view! { <p class="muted environment-release">"Release: " {r.label()}</p> })
    };
    view! {
        <h1>{title}</h1>
        {release}
        <ul class="tabs" role="list">
            {Tab::ALL
                .map(|tab| {
                    let here = tab == current;
                    view! {
                        <li class="tab" class:current=here aria-current=here.then_some("page")>
                            <a href=Route::of_tab(tab, cluster_id).path()>{tab.label()}</a>
                        </li>
                    }
                })}
        </ul>
    }
}
