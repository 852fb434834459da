//! An error in a red box.

use leptos::prelude::*;

#[component]
pub fn ErrorNotice(#[prop(into)] message: String) -> impl IntoView {
    view! { <div class="notice notice-error" role="alert">{message}</div> }
}
