//! Views that core writes as markup (`mosaic_core::markup`): the app sets
//! the text as an element's inner HTML and listens for clicks (or changes)
//! on the element itself, finding the control used by its class (one
//! listener per view, not one per control).

use wasm_bindgen::JsCast;
use web_sys::{Element, Event};

/// The element matching `selector` that `event` happened in: its target or
/// the target's nearest such ancestor.
pub fn closest(event: &Event, selector: &str) -> Option<Element> {
    let target: Element = event.target()?.dyn_into().ok()?;
    target.closest(selector).ok().flatten()
}

/// The control `event` happened on, as an `E`, when it is (or is in) the
/// element `selector` finds.
pub fn control<E: JsCast>(event: &Event, selector: &str) -> Option<E> {
    closest(event, selector)?.dyn_into().ok()
}

/// The file picked in `input`, which is cleared so that picking the same
/// file again is a change.
pub fn picked_file(input: &web_sys::HtmlInputElement) -> Option<web_sys::File> {
    let file = input.files()?.get(0)?;
    input.set_value("");
    Some(file)
}
