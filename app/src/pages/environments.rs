//! The environments that exist, each a link to its page; nothing while
//! they load, or when there is none.

use leptos::prelude::*;
use mosaic_core::api::Cluster;

use crate::api;
use crate::components::retry::RetryNotice;
use crate::route::Route;

#[component]
pub fn Environments() -> impl IntoView {
    let clusters = LocalResource::new(|| api::get::<Vec<Cluster>>(api::path::clusters()));
    let retry = Callback::new(move |()| clusters.refetch());
    let list = Memo::new(move |_| clusters.get().and_then(Result::ok).unwrap_or_default());
    let failure = move || clusters.get().and_then(Result::err);
    // A boundary of its own: the page around shows without waiting for it.
    view! {
        <Transition fallback=|| ()>
            {move || failure().map(|failure| view! { <RetryNotice failure retry auto=true /> })}
            <EnvironmentList list=list.into() />
        </Transition>
    }
}

/// The environments, each a link to its page, or nothing when there is
/// none.
#[component]
pub fn EnvironmentList(list: Signal<Vec<Cluster>>) -> impl IntoView {
    view! {
        <Show when=move || list.with(|list| !list.is_empty())>
            <section class="card environments" data-page="environments">
                <h1>"Environments"</h1>
                <ul>
                    <For each=move || list.get() key=|c| c.id children=environment />
                </ul>
            </section>
        </Show>
    }
}

fn environment(c: Cluster) -> impl IntoView {
    let name = c.name.clone();
    let release = c.release.as_ref().map(|r| format!("{}, ", r.label()));
    view! {
        <li data-environment=name>
            <a href=Route::Environment(c.id).path()>{c.name}</a>
            <span class="muted">
                " — " <span class="release">{release}</span> {c.components.len()} " components, "
                {c.mode.as_str()}
            </span>
        </li>
    }
}
