//! A page's view once its answers have arrived.

use leptos::prelude::*;

use crate::api::{ApiFailure, Bodies, Fetched};
use crate::components::var::Var;
use crate::components::watch::watch;
use crate::dom::{View, dynamic, el};

/// What `show` makes of a page's answers, with `loading` in its place
/// until the first arrive. While they are asked again, the last view stays
/// on screen until the new answers replace it. `show` runs untracked: the
/// view is built again when the answers change, not when what it reads does.
pub fn loaded(
    fetched: Fetched,
    loading: &'static str,
    show: impl Fn(Bodies) -> View + 'static,
) -> View {
    dynamic(move || match fetched.get() {
        Some(value) => untrack(|| show(value)),
        None => loading_line(loading),
    })
}

/// Like [`loaded`], for a view that follows its answers instead of being
/// built again: `show` builds it once from what `read` makes of the first
/// answers, and it reads the latest from the value it is given (`Some`
/// from then on) as later answers arrive. Its elements stay the same
/// elements, so the control in use keeps its focus, and what the user set
/// up in it (typed text, an open editor) stays. Answers `read` refuses
/// show `failed` instead, until good ones arrive again.
pub fn followed<T: Send + Sync + 'static>(
    fetched: Fetched,
    loading: &'static str,
    read: impl Fn(&Bodies) -> Result<T, ApiFailure> + 'static,
    show: impl Fn(Var<Option<T>>) -> View + 'static,
    failed: impl Fn(ApiFailure) -> View + 'static,
) -> View {
    let latest = Var::new(None::<T>);
    let outcome = Var::new(None::<Result<(), ApiFailure>>);
    watch(move || {
        let Some(bodies) = fetched.get() else {
            return;
        };
        let now = read(&bodies).map(|value| latest.set(Some(value)));
        if outcome.with_untracked(|o| o.as_ref() != Some(&now)) {
            outcome.set(Some(now));
        }
    });
    dynamic(move || match outcome.get() {
        None => loading_line(loading),
        Some(Ok(())) => untrack(|| show(latest)),
        Some(Err(failure)) => untrack(|| failed(failure)),
    })
}

fn loading_line(loading: &str) -> View {
    el("p").class("loading").text(loading).into()
}
