//! The environments that exist, each a link to its page.

use leptos::prelude::*;
use mosaic_core::api::Cluster;

use crate::api;
use crate::components::retry::RetryNotice;
use crate::route::Route;

#[component]
pub fn Environments() -> impl IntoView {
    let clusters = api::fetch(|| vec![api::path::clusters()]);
    let retry = Callback::new(move |()| clusters.refetch());
    view! {
        {move || {
            let list = match api::answer::<Vec<Cluster>>(&clusters.get()?, 0) {
                Ok(list) => list,
                Err(failure) => {
                    return Some(view! { <RetryNotice failure on_retry=retry auto=true /> }.into_any());
                }
            };
            (!list.is_empty())
                .then(|| {
                    view! {
                        <section class="card environments" data-page="environments">
                            <h1>"Environments"</h1>
                            <ul>
                                {list
                                    .into_iter()
                                    .map(|c| {
                                        let name = c.name.clone();
                                        view! {
                                            <li data-environment=c.name.clone()>
                                                <a href=Route::Environment(c.id).path()>{name}</a>
                                                <span class="muted">
                                                    {format!(" — {} components, {}", c.components.len(), c.mode)}
                                                </span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        </section>
                    }
                    .into_any()
                })
        }}
    }
}
