//! A page's view once its answers have arrived.

use leptos::prelude::*;

use crate::api::{Bodies, Fetched};

/// What `show` makes of a page's answers, with `loading` in its place
/// until the first arrive. While they are asked again, the last view stays
/// on screen until the new answers replace it.
///
/// Pages use this instead of `<Suspense>` around `Suspend::new(async {…})`:
/// that wrapped each page's whole view in an async state machine, 2.7 KB of
/// WASM for the smallest page (docs/benchmarks.md, "App size").
pub fn loaded<V>(
    fetched: Fetched,
    loading: &'static str,
    show: impl Fn(Bodies) -> V + Send + Sync + 'static,
) -> impl IntoView
where
    V: IntoView + 'static,
{
    move || match fetched.get() {
        Some(value) => show(value).into_any(),
        None => view! { <p class="loading">{loading}</p> }.into_any(),
    }
}
