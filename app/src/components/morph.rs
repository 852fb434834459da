//! Brings an element's content up to date with markup written again
//! (`mosaic_core::markup`), changing only what differs: the elements the
//! new text shares with the old stay the same elements, so the control in
//! use keeps its focus and its caret, and a screen reader its place.
//!
//! Children carrying a `data-key` (the rows of a list: their item's key) are
//! paired by key, so a row is never merged into another item's row; other
//! children are paired in order, when they are the same kind of node with
//! the same tag. Like a control's value, whether a `<details>` is open is
//! the user's: merging never closes one.

use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlInputElement, HtmlSelectElement, HtmlTemplateElement, HtmlTextAreaElement, Node,
};

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
    let wanted = Keyed::of(new);
    let mut by_key = Keyed::of(old);
    let mut mine = old.first_child();
    let mut theirs = new.first_child();
    while let Some(fresh) = theirs {
        theirs = fresh.next_sibling();
        while let Some(gone) = mine
            .clone()
            .filter(|c| key(c).is_some_and(|k| !wanted.has(&k)))
        {
            mine = gone.next_sibling();
            let _ = old.remove_child(&gone);
        }
        let partner = match (&mine, key(&fresh)) {
            (Some(current), None) if pairs(current, &fresh) => Some(current.clone()),
            (_, Some(k)) => by_key.take(&k).filter(|p| pairs(p, &fresh)),
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

/// The children of a node that carry a `data-key`, sorted by key (a list
/// of a thousand rows is looked up a thousand times).
struct Keyed(Vec<(String, Option<Node>)>);

impl Keyed {
    fn of(parent: &Node) -> Keyed {
        let mut list = Vec::new();
        let mut next = parent.first_child();
        while let Some(child) = next {
            next = child.next_sibling();
            if let Some(k) = key(&child) {
                list.push((k, Some(child)));
            }
        }
        list.sort_by(|a, b| a.0.cmp(&b.0));
        Keyed(list)
    }

    fn at(&self, key: &str) -> Option<usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()
    }

    fn has(&self, key: &str) -> bool {
        self.at(key).is_some()
    }

    /// The child with `key`, once.
    fn take(&mut self, key: &str) -> Option<Node> {
        let at = self.at(key)?;
        self.0[at].1.take()
    }
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
    // Most of a list is as it was: the browser compares a subtree at once.
    // (A control whose property alone differs from equal markup is one the
    // user is typing into, whose text is theirs.)
    if current.is_equal_node(Some(fresh)) {
        return;
    }
    let (Some(current), Some(fresh)) = (current.dyn_ref::<Element>(), fresh.dyn_ref::<Element>())
    else {
        if current.node_value() != fresh.node_value() {
            current.set_node_value(fresh.node_value().as_deref());
        }
        return;
    };
    attributes(current, fresh);
    children(current, fresh);
    properties(current, fresh);
}

/// What a control shows is its properties, which its attributes only set
/// until the user changes them: they follow the markup too — except the
/// text of the control being typed into, which is the user's (the value
/// it stands for can read differently: `1.` is the number 1).
fn properties(current: &Element, fresh: &Element) {
    let typing = document().active_element().as_ref() == Some(current);
    if let Some(input) = current.dyn_ref::<HtmlInputElement>() {
        let checked = fresh.has_attribute("checked");
        if input.checked() != checked {
            input.set_checked(checked);
        }
        let ticked = matches!(input.type_().as_str(), "checkbox" | "radio");
        let value = fresh.get_attribute("value").unwrap_or_default();
        if !ticked && !typing && input.value() != value {
            input.set_value(&value);
        }
    } else if let Some(area) = current.dyn_ref::<HtmlTextAreaElement>() {
        let text = fresh.text_content().unwrap_or_default();
        if !typing && area.value() != text {
            area.set_value(&text);
        }
    } else if let Some(select) = current.dyn_ref::<HtmlSelectElement>() {
        let chosen = fresh.query_selector("option[selected]").ok().flatten();
        if let Some(value) = chosen.and_then(|o| o.get_attribute("value"))
            && select.value() != value
        {
            select.set_value(&value);
        }
    }
}

fn attributes(current: &Element, fresh: &Element) {
    let opened = current.tag_name() == "DETAILS";
    for name in current.get_attribute_names().iter() {
        if let Some(name) = name.as_string()
            && !fresh.has_attribute(&name)
            && !(opened && name == "open")
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
