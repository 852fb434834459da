//! A failed request, with a way to try again: a button, and while the
//! server cannot be reached, a quiet retry every few seconds so the page
//! recovers by itself when the server comes back.

use std::time::Duration;

use leptos::prelude::*;

use crate::api::ApiFailure;

/// How often an unreachable server is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(3);

/// `failure` with a Retry button; with `auto`, it also retries by itself
/// while the server cannot be reached (for reads; a write is only ever
/// repeated by the operator).
#[component]
pub fn RetryNotice(failure: ApiFailure, retry: Callback<()>, auto: bool) -> impl IntoView {
    let waiting = auto && failure.offline;
    if waiting && let Ok(handle) = set_interval_with_handle(move || retry.run(()), RETRY_EVERY) {
        on_cleanup(move || handle.clear());
    }
    let details = failure
        .details()
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    let no_details = details.is_empty();
    view! {
        <div class="notice notice-error" role="alert" data-retry="">
            <p>{failure.message}</p>
            <ul class:hidden=no_details>
                {details.into_iter().map(|detail| view! { <li>{detail}</li> }).collect_view()}
            </ul>
            <p class="muted" class:hidden=!waiting>"Trying again every few seconds…"</p>
            <button type="button" class="retry" on:click=move |_| retry.run(())>"Try again"</button>
        </div>
    }
}
