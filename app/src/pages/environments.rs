//! The environments that exist, each a link to its page (`markup::lists`).

use leptos::prelude::*;
use mosaic_core::api::Cluster;
use mosaic_core::markup;

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
            let html = markup::lists::environments(&list, &|id| Route::Environment(id).path());
            Some(view! { <div inner_html=html.into_string() /> }.into_any())
        }}
    }
}
