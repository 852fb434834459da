//! A page not yet written as Leptos components (issue 29): built with the
//! app's former DOM layer (`dom`) under the component's owner, so its
//! listeners and effects go when the page does, and put into a holder
//! element that takes no part in the layout (`display: contents`).

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::dom::View;

#[component]
pub fn Legacy(page: impl FnOnce() -> View + 'static) -> impl IntoView {
    let view = page();
    let holder = NodeRef::<Div>::new();
    holder.on_load(move |div| {
        let _ = div.append_child(&view);
    });
    view! { <div class="legacy" node_ref=holder></div> }
}

/// A Leptos view inside a page still built with `dom` (until that page is a
/// component too): built under the current owner, so it goes when the page
/// does, and handed over as a fragment of its nodes.
pub fn dom_view<N: IntoView + 'static>(view: impl FnOnce() -> N + 'static) -> View {
    let document = document();
    let holder: web_sys::HtmlElement = document
        .create_element("div")
        .expect("the document makes elements")
        .unchecked_into();
    let mounted = send_wrapper::SendWrapper::new(leptos::mount::mount_to(holder.clone(), view));
    on_cleanup(move || drop(mounted));
    let fragment = document.create_document_fragment();
    while let Some(node) = holder.first_child() {
        let _ = fragment.append_child(&node);
    }
    fragment.into()
}
