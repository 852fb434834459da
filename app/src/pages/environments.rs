//! The environments that exist, each a link to its page; nothing while
//! they load, or when there is none.

use leptos::prelude::*;
use mosaic_core::api::Cluster;

use crate::api;
use crate::components::retry::RetryNotice;
use crate::records::{Record, Records};
use crate::route::Route;

impl Record for Cluster {
    type Key = i64;

    fn key(&self) -> i64 {
        self.id
    }
}

#[component]
pub fn Environments() -> impl IntoView {
    let list = Records::new();
    let clusters = LocalResource::new(move || list.load(api::get(api::path::clusters())));
    let retry = Callback::new(move |()| clusters.refetch());
    let failure = move || clusters.get().and_then(Result::err);
    // A boundary of its own: the page around shows without waiting for it.
    view! {
        <Transition fallback=|| ()>
            {move || failure().map(|failure| view! { <RetryNotice failure retry auto=true /> })}
            <EnvironmentList list />
        </Transition>
    }
}

/// The environments, each a link to its page, or nothing when there is
/// none.
#[component]
pub fn EnvironmentList(list: Records<Cluster>) -> impl IntoView {
    let environment = move |id: i64| {
        list.row(&id)
            .map(|c| view! { <EnvironmentItem id cluster=c.into() /> })
    };
    view! {
        <Show when=move || list.all().with(|list| !list.is_empty())>
            <section class="card environments" data-page="environments">
                <h1>"Environments"</h1>
                <ul>
                    <For each=list.keys() key=|id| *id children=environment />
                </ul>
            </section>
        </Show>
    }
}

/// One environment, as last answered: a link to its page, its release,
/// how many components and its mode.
#[component]
fn EnvironmentItem(id: i64, cluster: Signal<Cluster>) -> impl IntoView {
    let read = move |f: fn(&Cluster) -> String| move || cluster.with(f);
    view! {
        <li data-environment=read(|c| c.name.clone())>
            <a href=Route::Environment(id).path()>{read(|c| c.name.clone())}</a>
            <span class="muted">
                " — "
                <span class="release">
                    {read(|c| c.release.as_ref().map(|r| format!("{}, ", r.label())).unwrap_or_default())}
                </span>
                {read(|c| c.components.len().to_string())}
                " components, "
                {read(|c| c.mode.as_str().to_owned())}
            </span>
        </li>
    }
}
