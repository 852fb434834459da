//! A failed request, with a way to try again: a button, and while the
//! server cannot be reached, a quiet retry every few seconds so the page
//! recovers by itself when the server comes back.

use std::time::Duration;

use leptos::ev::MouseEvent;
use leptos::prelude::*;
use mosaic_core::markup::Markup;

use crate::api::ApiFailure;
use crate::components::html::closest;

/// How often an unreachable server is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(3);

#[component]
pub fn RetryNotice(
    failure: ApiFailure,
    on_retry: Callback<()>,
    /// Retry by itself while the server cannot be reached (for reads; a
    /// write is only ever repeated by the operator).
    #[prop(optional)]
    auto: bool,
) -> impl IntoView {
    if auto
        && failure.offline
        && let Ok(handle) = set_interval_with_handle(move || on_retry.run(()), RETRY_EVERY)
    {
        on_cleanup(move || handle.clear());
    }
    let waiting = auto && failure.offline;
    let mut html = Markup::new();
    html.retry(&failure.message, &failure.details(), waiting);
    let clicked = move |ev: MouseEvent| {
        if closest(&ev, "button.retry").is_some() {
            on_retry.run(());
        }
    };
    view! { <div inner_html=html.into_string() on:click=clicked></div> }
}
