//! A change sent to the server, said once for every page: a Leptos
//! `Action` whose answer is a `Result` (`Request`), its failure shown by
//! `ActionError`, and what follows a success run by `on_success`.
//!
//! Follow-ups after an action are written one way: `on_success(action,
//! |answer| …)` in the component that dispatched it (`on_answer` when a
//! failure is followed up too). It runs once per answer, in an effect owned by that component, so an answer that
//! arrives after the user left the page changes nothing. State that only
//! mirrors an answer is not copied into a signal: it is read from
//! `action.value()` where it is shown.

use leptos::prelude::*;

use crate::api::ApiFailure;
use crate::components::notice::ErrorNotice;

/// An action whose answer is the server's (or the browser's) verdict.
pub type Request<I, O> = Action<I, Result<O, ApiFailure>>;

/// The message of `action`'s last answer when it was a failure.
pub fn failure<I, O>(action: Request<I, O>) -> impl Fn() -> Option<String> + Copy + Send + Sync
where
    I: Send + Sync + 'static,
    O: Send + Sync + 'static,
{
    move || {
        action.value().with(|answer| match answer {
            Some(Err(failure)) => Some(failure.message.clone()),
            _ => None,
        })
    }
}

/// Runs `then` with each successful answer of `action` (a `Request`, or
/// an action whose failure says more than an `ApiFailure`).
pub fn on_success<I, O, E>(action: Action<I, Result<O, E>>, then: impl Fn(&O) + 'static)
where
    I: Send + Sync + 'static,
    O: Send + Sync + 'static,
    E: Send + Sync + 'static,
{
    on_answer(action, move |answer| {
        if let Ok(answer) = answer {
            then(answer);
        }
    });
}

/// Runs `then` with each answer of `action`, whatever it said.
pub fn on_answer<I, O>(action: Action<I, O>, then: impl Fn(&O) + 'static)
where
    I: Send + Sync + 'static,
    O: Send + Sync + 'static,
{
    Effect::new(move || {
        action.value().with(|answer| {
            if let Some(answer) = answer {
                then(answer);
            }
        })
    });
}

/// The last failure of `action`, in the app's red box, beside what sent
/// it.
#[component]
pub fn ActionError<I, O>(action: Request<I, O>) -> impl IntoView
where
    I: Send + Sync + 'static,
    O: Send + Sync + 'static,
{
    let message = failure(action);
    move || message().map(|message| view! { <ErrorNotice message /> })
}
