//! A page not yet written as Leptos components (issue 29): built with the
//! app's former DOM layer (`dom`) under the component's owner, so its
//! listeners and effects go when the page does, and put into a holder
//! element that takes no part in the layout (`display: contents`).

use leptos::html::Div;
use leptos::prelude::*;

use crate::dom::View;

#[component]
pub fn Legacy(page: impl FnOnce() -> View + 'static) -> impl IntoView {
    let view = page();
    let holder = NodeRef::<Div>::new();
    // Leptos may keep the holder of the page shown before (the same
    // element type in the same place) and only run this for the new page:
    // what was in it goes.
    holder.on_load(move |div| div.replace_children_with_node_1(&view));
    view! { <div class="legacy" node_ref=holder></div> }
}
