//! Whether an element is on screen or close to it: one
//! `IntersectionObserver` for the whole page, with a margin of about two
//! screens, so that work done for what is on screen (a blocked option's
//! smallest repair) is done before the operator scrolls to it.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// How far beyond the viewport an element counts as near it.
const MARGIN: &str = "1600px 0px";

/// The attribute that names a watched element's entry in `WATCHED`.
const KEY: &str = "data-near-view";

thread_local! {
    static OBSERVER: RefCell<Option<IntersectionObserver>> = const { RefCell::new(None) };
    static WATCHED: RefCell<HashMap<u32, (RwSignal<bool>, Element)>> = RefCell::new(HashMap::new());
    static NEXT: Cell<u32> = const { Cell::new(0) };
}

/// Keeps `near` telling whether the element `node` refers to is within
/// [`MARGIN`] of the viewport (a hidden element never is), from when it is
/// mounted until the calling component is cleaned up. Without
/// `IntersectionObserver` the element counts as near.
pub fn watch<E>(node: NodeRef<E>, near: RwSignal<bool>)
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let key = NEXT.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get()
    });
    node.on_load(move |element| {
        let element: &Element = element.unchecked_ref();
        let Some(observer) = observer() else {
            near.set(true);
            return;
        };
        let _ = element.set_attribute(KEY, &key.to_string());
        WATCHED.with(|w| w.borrow_mut().insert(key, (near, element.clone())));
        observer.observe(element);
    });
    on_cleanup(move || {
        let watched = WATCHED.with(|w| w.borrow_mut().remove(&key));
        if let (Some((_, element)), Some(observer)) = (watched, observer()) {
            observer.unobserve(&element);
        }
    });
}

/// The page's observer, made on first use.
fn observer() -> Option<IntersectionObserver> {
    OBSERVER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            let callback = Closure::<dyn Fn(js_sys::Array)>::new(seen);
            let options = IntersectionObserverInit::new();
            options.set_root_margin(MARGIN);
            let made =
                IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options);
            // The observer lives as long as the page, and so does its callback.
            callback.forget();
            *slot = made.ok();
        }
        slot.clone()
    })
}

/// Sets the signal of every element whose nearness changed.
fn seen(entries: js_sys::Array) {
    for entry in entries.iter() {
        let entry: IntersectionObserverEntry = entry.unchecked_into();
        let key = entry
            .target()
            .get_attribute(KEY)
            .and_then(|k| k.parse::<u32>().ok());
        let near = key.and_then(|k| WATCHED.with(|w| w.borrow().get(&k).map(|(near, _)| *near)));
        if let Some(near) = near
            && near.get_untracked() != entry.is_intersecting()
        {
            near.set(entry.is_intersecting());
        }
    }
}
