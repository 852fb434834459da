//! The app's view layer (`mosaic_app::dom`) in headless Chromium
//! (`wasm-bindgen-test`): reactive attributes follow their signals, a
//! dynamic part is built again in place, and what it built before (its
//! listeners, its effects) is gone with it.

#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use mosaic_app::components::var::Var;
use mosaic_app::dom::{View, dynamic, el, fragment, mount, text};
use mosaic_core::markup::Markup;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn find(selector: &str) -> Option<Element> {
    let document = web_sys::window().unwrap().document().unwrap();
    document.query_selector(selector).unwrap()
}

fn click(selector: &str) {
    let element: HtmlElement = find(selector).unwrap().dyn_into().unwrap();
    element.click();
}

#[wasm_bindgen_test]
async fn attributes_classes_and_text_follow_their_signals() {
    let on = Var::new(false);
    let name = Var::new(String::from("first"));
    mount(move || {
        el("p")
            .attr("id", "follows")
            .class("plain")
            .class_when("lit", move || on.get())
            .attr_when("data-name", move || on.get().then(|| name.get()))
            .disabled_when(move || on.get())
            .text_from(move || format!("name: {}", name.get()))
            .into()
    });
    let p = find("#follows").unwrap();
    // Built at once, not on the next tick.
    assert_eq!(p.class_name(), "plain");
    assert_eq!(p.text_content().unwrap(), "name: first");
    assert_eq!(p.get_attribute("data-name"), None);
    on.set(true);
    name.set(String::from("second"));
    leptos::task::tick().await;
    assert_eq!(p.class_name(), "plain lit");
    assert_eq!(p.get_attribute("data-name").as_deref(), Some("second"));
    assert!(p.has_attribute("disabled"));
    assert_eq!(p.text_content().unwrap(), "name: second");
    on.set(false);
    leptos::task::tick().await;
    assert_eq!(p.class_name(), "plain");
    assert_eq!(p.get_attribute("data-name"), None);
    assert!(!p.has_attribute("disabled"));
}

/// A dynamic part between two fixed ones, built from `count`; each build
/// has a button counting its clicks in `clicks` and an effect counting
/// its runs in `runs`.
fn counted(count: Var<u32>, clicks: Rc<Cell<u32>>, runs: Rc<Cell<u32>>) -> View {
    let part = dynamic(move || {
        let n = count.get();
        let (clicks, runs) = (clicks.clone(), runs.clone());
        let watched = Var::new(0u32);
        mosaic_app::components::watch::watch(move || {
            watched.get();
            runs.set(runs.get() + 1);
        });
        let button = el("button")
            .attr("id", &format!("part-{n}"))
            .on("click", move |_| {
                clicks.set(clicks.get() + 1);
                watched.update(|w| *w += 1);
            })
            .text(&n.to_string());
        fragment([button.into(), text(" and more")])
    });
    el("div")
        .attr("id", "parts")
        .child(el("span").text("before "))
        .child(part)
        .child(el("span").text(" after"))
        .into()
}

#[wasm_bindgen_test]
async fn a_dynamic_part_is_built_again_in_place_and_the_old_one_is_gone() {
    let count = Var::new(1u32);
    let (clicks, runs) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let (c, r) = (clicks.clone(), runs.clone());
    mount(move || counted(count, c, r));
    leptos::task::tick().await;
    let parts = find("#parts").unwrap();
    assert_eq!(parts.text_content().unwrap(), "before 1 and more after");
    click("#part-1");
    leptos::task::tick().await;
    assert_eq!((clicks.get(), runs.get()), (1, 2));

    let old: HtmlElement = find("#part-1").unwrap().dyn_into().unwrap();
    count.set(2);
    leptos::task::tick().await;
    assert_eq!(parts.text_content().unwrap(), "before 2 and more after");
    assert!(find("#part-1").is_none());
    let runs_after_rebuild = runs.get();
    // The old button's listener is gone with it, and its effect stopped.
    old.click();
    leptos::task::tick().await;
    assert_eq!(clicks.get(), 1);
    assert_eq!(runs.get(), runs_after_rebuild);
    click("#part-2");
    leptos::task::tick().await;
    assert_eq!(clicks.get(), 2);
}

#[wasm_bindgen_test]
async fn merged_content_follows_its_markup() {
    let items = Var::new(vec!["a"]);
    mount(move || {
        el("ul")
            .attr("id", "merged")
            .merged(move || {
                let mut html = Markup::new();
                for item in items.get() {
                    html.leaf("li", item);
                }
                html
            })
            .into()
    });
    let list = find("#merged").unwrap();
    assert_eq!(list.inner_html(), "<li>a</li>");
    let first = list.first_element_child().unwrap();
    items.set(vec!["a", "b"]);
    leptos::task::tick().await;
    assert_eq!(list.inner_html(), "<li>a</li><li>b</li>");
    // Merged, not written again: the first item is the same element.
    assert!(
        list.first_element_child()
            .unwrap()
            .is_same_node(Some(&first))
    );
}

#[wasm_bindgen_test]
async fn a_part_built_again_takes_what_its_inner_parts_added_with_it() {
    let outer = Var::new(1u32);
    let inner = Var::new(false);
    mount(move || {
        let part = dynamic(move || {
            let n = outer.get();
            // An inner part that fills in later, as a page does when its
            // answers arrive.
            let later = dynamic(move || match inner.get() {
                true => el("b").text(&format!("loaded {n}")).into(),
                false => text("loading"),
            });
            fragment([text(&format!("page {n}: ")), later])
        });
        el("main").attr("id", "nested").child(part).into()
    });
    let main = find("#nested").unwrap();
    assert_eq!(main.text_content().unwrap(), "page 1: loading");
    inner.set(true);
    leptos::task::tick().await;
    assert_eq!(main.text_content().unwrap(), "page 1: loaded 1");
    outer.set(2);
    leptos::task::tick().await;
    assert_eq!(main.text_content().unwrap(), "page 2: loaded 2");
    assert_eq!(main.query_selector_all("b").unwrap().length(), 1);
}
