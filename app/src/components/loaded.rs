//! A page's view once its answers have arrived.

use leptos::prelude::*;

use crate::api::{Bodies, Fetched};
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
        None => el("p").class("loading").text(loading).into(),
    })
}
