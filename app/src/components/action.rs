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
/// it; `listed`: with every problem the refusal carries, by where it is
/// (`disks[0].volumes[1].size`, a file and host) or by node — for a change
/// whose form does not show them itself.
#[component]
pub fn ActionError<I, O>(action: Request<I, O>, #[prop(optional)] listed: bool) -> impl IntoView
where
    I: Send + Sync + 'static,
    O: Send + Sync + 'static,
{
    move || {
        action.value().with(|answer| match answer {
            Some(Err(failure)) if listed => {
                Some(view! { <Refusal failure=failure.clone() /> }.into_any())
            }
            Some(Err(failure)) => {
                Some(view! { <ErrorNotice message=failure.message.clone() /> }.into_any())
            }
            _ => None,
        })
    }
}

/// A refusal with its problems listed.
#[component]
fn Refusal(failure: ApiFailure) -> impl IntoView {
    let places = failure
        .problems
        .into_iter()
        .map(|p| view! { <li><code>{p.path}</code>": "{p.message}</li> })
        .collect_view();
    let nodes = failure
        .node_problems
        .into_iter()
        .map(|p| {
            let name = p.name.unwrap_or_else(|| format!("node {}", p.node));
            view! { <li data-node=p.node><strong>{name}</strong>": "{p.message}</li> }
        })
        .collect_view();
    view! {
        <div class="notice notice-error refused" role="alert">
            <p>{failure.message}</p>
            <ul>{places}{nodes}</ul>
        </div>
    }
}
