//! Brings an element's content up to date with markup written again
//! (`mosaic_core::markup`), changing only what differs: the elements the
//! new text shares with the old stay the same elements, so the control in
//! use keeps its focus and its caret, and a screen reader its place.
//!
//! Children carrying a `data-key` (the rows of a list: their item's key) are
//! paired by key, so a row is never merged into another item's row; other
//! children are paired in order, when they are the same kind of node with
//! the same tag.
//! An element marked `data-keep` keeps its children as they are: the app
//! mounts a view of its own there.

use std::collections::{BTreeMap, BTreeSet};

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlTemplateElement, Node};

/// Makes `target`'s children those `html` describes.
pub fn morph(target: &Element, html: &str) {
    let Some(template) = document()
        .create_element("template")
        .ok()
        .and_then(|t| t.dyn_into::<HtmlTemplateElement>().ok())
    else {
        return target.set_inner_html(html);
    };
    template.set_inner_html(html);
    children(target, &template.content());
}

fn document() -> web_sys::Document {
    leptos::prelude::document()
}

/// Pairs the children of `old` with those of `new`, which are moved over
/// when they have no partner. A keyed child is paired with the old child of
/// the same key wherever it is; an old keyed child whose key is gone is
/// removed rather than merged into its neighbour.
fn children(old: &Node, new: &Node) {
    let wanted: BTreeSet<String> = keyed(new).map(|(k, _)| k).collect();
    let mut by_key: BTreeMap<String, Node> = keyed(old).collect();
    let mut mine = old.first_child();
    let mut theirs = new.first_child();
    while let Some(fresh) = theirs {
        theirs = fresh.next_sibling();
        while let Some(gone) = mine
            .clone()
            .filter(|c| key(c).is_some_and(|k| !wanted.contains(&k)))
        {
            mine = gone.next_sibling();
            let _ = old.remove_child(&gone);
        }
        let partner = match (&mine, key(&fresh)) {
            (Some(current), None) if pairs(current, &fresh) => Some(current.clone()),
            (_, Some(k)) => by_key.remove(&k).filter(|p| pairs(p, &fresh)),
            _ => None,
        };
        match partner {
            Some(partner) => {
                if mine.as_ref() == Some(&partner) {
                    mine = partner.next_sibling();
                } else {
                    let _ = old.insert_before(&partner, mine.as_ref());
                }
                node(&partner, &fresh);
            }
            None => {
                let _ = old.insert_before(&fresh, mine.as_ref());
            }
        }
    }
    while let Some(extra) = mine {
        mine = extra.next_sibling();
        let _ = old.remove_child(&extra);
    }
}

/// The children of `parent` that carry a `data-key`, by key.
fn keyed(parent: &Node) -> impl Iterator<Item = (String, Node)> {
    let mut next = parent.first_child();
    std::iter::from_fn(move || {
        while let Some(child) = next.take() {
            next = child.next_sibling();
            if let Some(k) = key(&child) {
                return Some((k, child));
            }
        }
        None
    })
}

fn key(node: &Node) -> Option<String> {
    node.dyn_ref::<Element>()?.get_attribute("data-key")
}

fn pairs(a: &Node, b: &Node) -> bool {
    if a.node_type() != b.node_type() {
        return false;
    }
    match (a.dyn_ref::<Element>(), b.dyn_ref::<Element>()) {
        (Some(a), Some(b)) => {
            a.tag_name() == b.tag_name()
                && a.get_attribute("data-key") == b.get_attribute("data-key")
        }
        _ => true,
    }
}

/// `current` made like `fresh`, its partner.
fn node(current: &Node, fresh: &Node) {
    let (Some(current), Some(fresh)) = (current.dyn_ref::<Element>(), fresh.dyn_ref::<Element>())
    else {
        if current.node_value() != fresh.node_value() {
            current.set_node_value(fresh.node_value().as_deref());
        }
        return;
    };
    attributes(current, fresh);
    if let Some(input) = current.dyn_ref::<HtmlInputElement>() {
        // What the user sees is the property, which the attribute only
        // sets until the user changes it.
        let checked = fresh.has_attribute("checked");
        if input.checked() != checked {
            input.set_checked(checked);
        }
    }
    if !current.has_attribute("data-keep") {
        children(current, fresh);
    }
}

fn attributes(current: &Element, fresh: &Element) {
    for name in current.get_attribute_names().iter() {
        if let Some(name) = name.as_string()
            && !fresh.has_attribute(&name)
        {
            let _ = current.remove_attribute(&name);
        }
    }
    for name in fresh.get_attribute_names().iter() {
        if let Some(name) = name.as_string() {
            let value = fresh.get_attribute(&name).unwrap_or_default();
            if current.get_attribute(&name).as_deref() != Some(value.as_str()) {
                let _ = current.set_attribute(&name, &value);
            }
        }
    }
}
