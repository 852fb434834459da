//! A failed request, with a way to try again: a button, and while the
//! server cannot be reached, a quiet retry every few seconds so the page
//! recovers by itself when the server comes back.

use std::time::Duration;

use leptos::prelude::*;
use mosaic_core::markup::Markup;

use crate::api::ApiFailure;
use crate::components::html::closest;
use crate::dom::{View, el};

/// How often an unreachable server is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(3);

/// `failure` with a Retry button; with `auto`, it also retries by itself
/// while the server cannot be reached (for reads; a write is only ever
/// repeated by the operator).
pub fn retry_notice(failure: ApiFailure, on_retry: Callback<()>, auto: bool) -> View {
    if auto
        && failure.offline
        && let Ok(handle) = set_interval_with_handle(move || on_retry.run(()), RETRY_EVERY)
    {
        on_cleanup(move || handle.clear());
    }
    let waiting = auto && failure.offline;
    let mut html = Markup::new();
    html.retry(&failure.message, &failure.details(), waiting);
    let clicked = move |ev| {
        if closest(&ev, "button.retry").is_some() {
            on_retry.run(());
        }
    };
    el("div").html(html.as_str()).on("click", clicked).into()
}
