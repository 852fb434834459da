//! A resource's view once it has loaded.

use leptos::prelude::*;

/// What `show` makes of `resource`'s value, with `loading` in its place
/// until the first value arrives. While the resource loads again, the last
/// view stays on screen until the new value replaces it.
///
/// Pages use this instead of `<Suspense>` around `Suspend::new(async {…})`:
/// that wrapped each page's whole view in an async state machine, 2.7 KB of
/// WASM for the smallest page (docs/benchmarks.md, "App size").
pub fn loaded<T, V>(
    resource: LocalResource<T>,
    loading: &'static str,
    show: impl Fn(T) -> V + Send + Sync + 'static,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    move || match resource.get() {
        Some(value) => show(value).into_any(),
        None => view! { <p class="loading">{loading}</p> }.into_any(),
    }
}
