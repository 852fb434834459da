//! An error in a red box.

use leptos::prelude::*;

use crate::dom::{View, el};

/// A red box with an error message.
#[component]
pub fn ErrorNotice(#[prop(into)] message: String) -> impl IntoView {
    view! { <div class="notice notice-error" role="alert">{message}</div> }
}

/// A red box with an error message (for pages built with `dom`).
pub fn error_notice(message: &str) -> View {
    el("div")
        .class("notice notice-error")
        .attr("role", "alert")
        .text(message)
        .into()
}
