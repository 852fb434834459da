//! What the component tests share: a place to mount a view, and ways to
//! find in and act on what it rendered. Each test file uses some of them.
#![allow(dead_code)]

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// The whole page, for tests that look anywhere in it.
pub fn page() -> Element {
    document().document_element().unwrap()
}

/// A fresh element under `<body>` to mount a view into.
pub fn holder() -> HtmlElement {
    let holder: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&holder).unwrap();
    holder
}

/// `view` mounted in an element of its own, for the rest of the test run.
pub fn mounted<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> Element {
    let root = holder();
    leptos::mount::mount_to(root.clone(), view).forget();
    root.into()
}

pub fn find(root: &Element, css: &str) -> Element {
    root.query_selector(css)
        .unwrap()
        .unwrap_or_else(|| panic!("no {css} in {}", root.inner_html()))
}

pub fn exists(root: &Element, css: &str) -> bool {
    root.query_selector(css).unwrap().is_some()
}

pub fn count(root: &Element, css: &str) -> usize {
    root.query_selector_all(css).unwrap().length() as usize
}

pub fn text(root: &Element, css: &str) -> String {
    find(root, css).text_content().unwrap_or_default()
}

pub fn click(root: &Element, css: &str) {
    find(root, css).unchecked_into::<HtmlElement>().click();
}

/// What `element` holds, without the empty comments Leptos leaves where a
/// view's dynamic parts go.
pub fn html(element: &Element) -> String {
    element.inner_html().replace("<!---->", "")
}

/// Lets the effects a change woke run (a memo's readers may take more
/// than one turn).
pub async fn settle() {
    for _ in 0..3 {
        leptos::task::tick().await;
    }
}
