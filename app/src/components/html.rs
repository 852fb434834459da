//! Views that core writes as markup (`mosaic_core::markup`): the app sets
//! the text as an element's inner HTML and listens for clicks on the
//! element itself, finding the button pressed by its class (one listener
//! per view, not one per button).

use leptos::ev::MouseEvent;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// The element matching `selector` that `event` happened in: its target or
/// the target's nearest such ancestor.
pub fn closest(event: &MouseEvent, selector: &str) -> Option<Element> {
    let target: Element = event.target()?.dyn_into().ok()?;
    target.closest(selector).ok().flatten()
}
