//! `morph` in headless Chromium (`wasm-bindgen-test`): markup written again
//! changes only what differs, so the element in use stays the same element.

#![cfg(target_arch = "wasm32")]

use mosaic_app::components::morph::morph;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn holder(html: &str) -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.set_inner_html(html);
    div
}

fn find(root: &Element, css: &str) -> Element {
    root.query_selector(css)
        .unwrap()
        .unwrap_or_else(|| panic!("no {css}"))
}

const ROWS: &str = r#"<p data-key="1" class="row"><input type="checkbox"> one</p><p data-key="2" class="row"><input type="checkbox"> two</p>"#;

#[wasm_bindgen_test]
fn the_focused_control_stays_the_same_element_and_keeps_focus() {
    let root = holder(ROWS);
    let input: HtmlInputElement = find(&root, "[data-key='2'] input").unchecked_into();
    input.focus().unwrap();
    morph(
        &root,
        r#"<p data-key="1" class="row"><input type="checkbox"> one</p><p data-key="2" class="row selected"><input type="checkbox" checked=""> two!</p>"#,
    );
    let after = find(&root, "[data-key='2'] input");
    assert!(
        after == *input.unchecked_ref::<Element>(),
        "the input was replaced"
    );
    assert!(input.checked(), "the checked property follows the markup");
    assert_eq!(find(&root, "[data-key='2']").class_name(), "row selected");
    assert_eq!(
        find(&root, "[data-key='2']").text_content().unwrap(),
        " two!"
    );
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert!(
        active.as_ref() == Some(input.unchecked_ref::<Element>()),
        "focus was lost"
    );
}

#[wasm_bindgen_test]
fn an_item_is_never_merged_into_another_items_element() {
    let root = holder(ROWS);
    let second = find(&root, "[data-key='2']");
    // The first item goes: the second's element must not become the first's.
    morph(
        &root,
        r#"<p data-key="2" class="row"><input type="checkbox"> two</p>"#,
    );
    assert_eq!(root.children().length(), 1);
    assert!(find(&root, "[data-key='2']") == second);
    // A new item in front, another at the end; attributes gone are removed.
    morph(
        &root,
        r#"<p data-key="0">zero</p><p data-key="2"><input type="checkbox"> two</p><p data-key="3">three</p>"#,
    );
    assert_eq!(
        root.inner_html(),
        r#"<p data-key="0">zero</p><p data-key="2"><input type="checkbox"> two</p><p data-key="3">three</p>"#
    );
    assert!(find(&root, "[data-key='2']") == second);
    // Sorted otherwise: each item keeps its element.
    let last = find(&root, "[data-key='3']");
    morph(
        &root,
        r#"<p data-key="3">three</p><p data-key="0">zero</p><p data-key="2"><input type="checkbox"> two</p>"#,
    );
    assert_eq!(
        root.inner_html(),
        r#"<p data-key="3">three</p><p data-key="0">zero</p><p data-key="2"><input type="checkbox"> two</p>"#
    );
    assert!(find(&root, "[data-key='3']") == last && find(&root, "[data-key='2']") == second);
}

#[wasm_bindgen_test]
fn a_details_the_user_opened_stays_open() {
    let list = r#"<details class="why"><summary>2 reasons</summary><ul><li>a</li></ul></details>"#;
    let root = holder(list);
    find(&root, "details").set_attribute("open", "").unwrap();
    morph(&root, &list.replace("2 reasons", "3 reasons"));
    let details = find(&root, "details");
    assert!(details.has_attribute("open"));
    assert_eq!(details.text_content().unwrap(), "3 reasonsa");
    // Markup may still open one itself.
    let root = holder(list);
    morph(
        &root,
        &list.replace(
            "<details class=\"why\">",
            "<details class=\"why\" open=\"\">",
        ),
    );
    assert!(find(&root, "details").has_attribute("open"));
}

#[wasm_bindgen_test]
fn controls_show_the_markup_except_the_text_being_typed() {
    let root = holder(
        r#"<input id="a" value="one"><input id="b" value="two"><textarea id="c">x</textarea><select id="d"><option value="0">A</option><option value="1">B</option></select>"#,
    );
    let a: HtmlInputElement = find(&root, "#a").unchecked_into();
    let b: HtmlInputElement = find(&root, "#b").unchecked_into();
    a.set_value("1.");
    b.set_value("typed elsewhere");
    a.focus().unwrap();
    morph(
        &root,
        r#"<input id="a" value="1"><input id="b" value="three"><textarea id="c">y</textarea><select id="d"><option value="0">A</option><option value="1" selected="">B</option></select>"#,
    );
    assert_eq!(a.value(), "1.", "the text being typed is the user's");
    assert_eq!(b.value(), "three", "the others show the markup's new value");
    let c: web_sys::HtmlTextAreaElement = find(&root, "#c").unchecked_into();
    assert_eq!(c.value(), "y");
    let d: web_sys::HtmlSelectElement = find(&root, "#d").unchecked_into();
    assert_eq!(d.value(), "1");
}
