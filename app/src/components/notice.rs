use leptos::prelude::*;

/// A red box with an error message.
#[component]
pub fn ErrorNotice(#[prop(into)] message: String) -> impl IntoView {
    view! { <div class="notice notice-error" role="alert">{message}</div> }
}
