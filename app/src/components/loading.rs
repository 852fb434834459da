//! What a page shows around its answers: a loading line until they first
//! arrive (the last answers stay on screen while they are asked again),
//! and a failed answer as a notice with Try again.
//!
//! A page renders its answers as `Result`s inside: an `Err(ApiFailure)`
//! reaches the `ErrorBoundary`, which shows it with a Retry button that
//! asks again (`retry`), and by itself every few seconds while the server
//! cannot be reached. A page whose answers are asked for again after its
//! changes builds its views once (`Loaded`) and hands them the latest
//! answers (`latest`), so that a view follows an answer in place.

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

/// An answer a page asks for again after a change.
pub type Answer<T> = LocalResource<Result<T, ApiFailure>>;

/// The latest good answer of `answer` (an empty one before the first):
/// what the views read. A failed answer leaves the last one in place (the
/// page shows the failure instead of them).
pub fn latest<T>(answer: Answer<T>) -> Memo<T>
where
    T: Clone + Default + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |last: Option<&T>| {
        answer
            .map(|r| r.as_ref().ok().cloned())
            .flatten()
            .unwrap_or_else(|| last.cloned().unwrap_or_default())
    })
}

/// Whether `answer` arrived, and whether it failed.
pub fn outcome<T: 'static>(answer: &Answer<T>) -> Option<Result<(), ApiFailure>> {
    answer.map(|r| r.as_ref().map(|_| ()).map_err(Clone::clone))
}

/// `children` once every answer `arrived` (inside `Loading`, which shows
/// the loading line until then), or the first failure. Built once: later
/// answers reach the views through the memos they read, not by building
/// them again.
#[component]
pub fn Loaded(
    arrived: impl Fn() -> Vec<Option<Result<(), ApiFailure>>> + Send + Sync + 'static,
    children: ChildrenFn,
) -> impl IntoView {
    let state = Memo::new(move |_| {
        let mut all = Ok(());
        for answer in arrived() {
            match answer {
                None => return None,
                Some(Err(e)) if all.is_ok() => all = Err(e),
                Some(_) => {}
            }
        }
        Some(all)
    });
    move || state.get().map(|all| all.map(|()| untrack(|| children())))
}
