//! A failed request, with a way to try again: a button, and while the
//! server cannot be reached, a quiet retry every few seconds so the page
//! recovers by itself when the server comes back.

use std::time::Duration;

use leptos::prelude::*;

use crate::api::ApiFailure;

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
    let no_details = failure.violations.is_empty();
    view! {
        <div class="notice notice-error" role="alert" data-retry="">
            <p>{failure.message}</p>
            <ul class:hidden=no_details>
                {failure.violations.into_iter().map(|v| view! { <li>{v.message}</li> }).collect_view()}
            </ul>
            <p class="muted" class:hidden=!waiting>"Trying again every few seconds…"</p>
            <button type="button" class="retry" on:click=move |_| on_retry.run(())>
                "Try again"
            </button>
        </div>
    }
}
