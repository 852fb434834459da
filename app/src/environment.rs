//! The frame of an environment's pages (`/environments/:id` and its tabs,
//! a parent route): its name, its release and the tab bar, read once for
//! every tab, and the answers several tabs show, in a context (`Env`) the
//! tabs read. Going from tab to tab keeps the frame and its answers; only
//! the tab below it (`<Outlet/>`) is built anew.

use leptos::prelude::*;
use leptos_router::components::Outlet;
use leptos_router::hooks::use_location;
use mosaic_core::api::{Cluster, ConfigurationView};

use crate::api::{self, Tagged};
use crate::components::loading::Answer;
use crate::components::node_table::TableState;
use crate::route::{Route, for_id, page_of, set_title, tab_of};

/// The environment's page being shown: core's, which an export's
/// problem names too.
pub use mosaic_core::environment::EnvTab as Tab;

/// What an environment's tabs share: its id and the answers more than one
/// tab reads, asked for once when the environment is opened.
#[derive(Clone, Copy)]
pub struct Env {
    pub id: i64,
    /// The environment: its name, its release, its components.
    pub cluster: Answer<Cluster>,
    /// Its network configuration with its version (`ETag`): the Networks
    /// tab edits it, the Nodes tab offers its node groups and networks.
    pub networks: Answer<Tagged<ConfigurationView>>,
    /// What the admin chose in the node table (filters, sort, page,
    /// selection, the node edited): kept while they look at another tab
    /// (the rack filtered and selected is still there on coming back) and
    /// while the nodes are asked for again.
    pub table: TableState,
}

/// The environment of the page being shown (inside `EnvironmentLayout`).
pub fn env() -> Env {
    expect_context()
}

/// The parent route's view: the frame of the environment the path names
/// (`route::for_id`: built again when the id changes).
#[component]
pub fn EnvironmentLayout() -> impl IntoView {
    for_id(|id| view! { <Frame id /> })
}

/// The environment's name as the heading (its id until it is known), its
/// release, the tabs with the current one marked, and the current tab; the
/// browser's title names the environment and the tab.
#[component]
fn Frame(id: i64) -> impl IntoView {
    let cluster: Answer<Cluster> = LocalResource::new(move || api::get(api::path::cluster(id)));
    let networks = LocalResource::new(move || api::networks(id));
    provide_context(Env {
        id,
        cluster,
        networks,
        table: TableState::new(),
    });
    let location = use_location();
    let current = Memo::new(move |_| location.pathname.with(|p| tab_of(p)));
    let named = move || {
        cluster.get().and_then(Result::ok).map_or_else(
            || format!("Environment {id}"),
            |c| format!("Environment {}", c.name),
        )
    };
    Effect::new(move || set_title(&format!("{} · {}", named(), current.get().label())));
    // Which release, in which version: two versions of one release read
    // apart (the release's own label).
    let release = move || {
        cluster
            .get()
            .and_then(Result::ok)
            .and_then(|c| c.release)
            .map(|r| view! { <p class="muted environment-release">"Release: " {r.label()}</p> })
    };
    // Where its deployment is (SEMANTICS §15), following every run's end.
    let status = move || {
        cluster.get().and_then(Result::ok).map(|c| {
            let class = format!("environment-status status-{}", c.status.as_str());
            view! { <p class=class data-status=c.status.as_str()>"Status: " {c.status.label()}</p> }
        })
    };
    let tab = move |tab: Tab| {
        let here = move || current.get() == tab;
        view! {
            <li class="tab" class:current=here aria-current=move || here().then_some("page")>
                <a href=Route::of_tab(tab, id).path()>{tab.label()}</a>
            </li>
        }
    };
    view! {
        <section
            class=move || format!("card environment {}", page_of(current.get()))
            data-page=move || page_of(current.get())
        >
            <h1>{named}</h1>
            {release}
            {status}
            <ul class="tabs" role="list">{Tab::ALL.map(tab)}</ul>
            <Outlet />
        </section>
    }
}
