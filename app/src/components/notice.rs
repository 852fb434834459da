//! An error in a red box.

use leptos::prelude::*;

use crate::components::var::Var;
use crate::dom::{View, dynamic, el, nothing};

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

/// The error `error` holds, in a red box, while it holds one (for pages
/// built with `dom`).
pub fn error_notice_of(error: Var<Option<String>>) -> View {
    dynamic(move || match error.get() {
        Some(message) => error_notice(&message),
        None => nothing(),
    })
}
