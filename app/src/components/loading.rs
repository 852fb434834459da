//! What a page shows around its answers: a loading line until they first
//! arrive (the last answers stay on screen while they are asked again),
//! and a failed answer as a notice with Try again.
//!
//! A page renders its answers as `Result`s inside: an `Err(ApiFailure)`
//! reaches the `ErrorBoundary`, which shows it with a Retry button that
//! asks again (`retry`), and by itself every few seconds while the server
//! cannot be reached.

use leptos::prelude::*;

use crate::api::ApiFailure;
use crate::components::retry::RetryNotice;

#[component]
pub fn Loading(
    /// The loading line, e.g. "Loading plugins…".
    label: &'static str,
    /// Asks for the answers again.
    retry: Callback<()>,
    children: ChildrenFn,
) -> impl IntoView {
    view! {
        <Transition fallback=move || view! { <p class="loading">{label}</p> }>
            <ErrorBoundary fallback=move |errors| view! { <Failed errors retry /> }>
                {children()}
            </ErrorBoundary>
        </Transition>
    }
}

/// The first failure with Try again.
#[component]
fn Failed(errors: ArcRwSignal<Errors>, retry: Callback<()>) -> impl IntoView {
    move || {
        errors.with(|errors| {
            errors.iter().next().map(|(_, error)| {
                let failure = error
                    .downcast_ref::<ApiFailure>()
                    .cloned()
                    .unwrap_or_else(|| ApiFailure::message(error.to_string()));
                view! { <RetryNotice failure retry auto=true /> }
            })
        })
    }
}
