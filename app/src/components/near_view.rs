//! Whether an element is on screen or close to it: one
//! `IntersectionObserver` for the whole page per zone. *Near* is within
//! about two screens, so that work done for what is on screen (a blocked
//! option's smallest repair) is done before the operator scrolls to it;
//! *soon* is a wider band, for work that is cheap to do in the same batch
//! and saves a second one when a click shifts rows a little.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// How far beyond the viewport an element counts as near it, or soon near.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Zone {
    Near,
    Soon,
}

impl Zone {
    fn margin(self) -> &'static str {
        match self {
            Zone::Near => "1600px 0px",
            Zone::Soon => "2400px 0px",
        }
    }
}

/// The attribute that names a watched element's entry in `WATCHED`.
const KEY: &str = "data-near-view";

/// A watched element in a zone: the signal kept telling whether it is in
/// it, and the element (to stop observing it).
type Watched = HashMap<(Zone, u32), (RwSignal<bool>, Element)>;

thread_local! {
    static OBSERVERS: RefCell<HashMap<Zone, IntersectionObserver>> = RefCell::new(HashMap::new());
    static WATCHED: RefCell<Watched> = RefCell::new(HashMap::new());
    static NEXT: Cell<u32> = const { Cell::new(0) };
}

/// Keeps `near` telling whether the element `node` refers to is within
/// the near zone of the viewport (a hidden element never is), and `soon`,
/// if given, whether it is within the wider one, from when it is mounted
/// until the calling component is cleaned up. Without
/// `IntersectionObserver` the element counts as near.
pub fn watch<E>(node: NodeRef<E>, near: RwSignal<bool>, soon: Option<RwSignal<bool>>)
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let key = NEXT.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get()
    });
    let zones: Vec<(Zone, RwSignal<bool>)> = [(Zone::Near, Some(near)), (Zone::Soon, soon)]
        .into_iter()
        .filter_map(|(zone, signal)| Some((zone, signal?)))
        .collect();
    let watched = zones.clone();
    node.on_load(move |element| {
        let element: &Element = element.unchecked_ref();
        let _ = element.set_attribute(KEY, &key.to_string());
        for (zone, signal) in watched {
            let Some(observer) = observer(zone) else {
                signal.set(true);
                continue;
            };
            WATCHED.with(|w| {
                w.borrow_mut()
                    .insert((zone, key), (signal, element.clone()))
            });
            observer.observe(element);
        }
    });
    on_cleanup(move || {
        for (zone, _) in zones {
            let watched = WATCHED.with(|w| w.borrow_mut().remove(&(zone, key)));
            if let (Some((_, element)), Some(observer)) = (watched, observer(zone)) {
                observer.unobserve(&element);
            }
        }
    });
}

/// The page's observer for `zone`, made on first use.
fn observer(zone: Zone) -> Option<IntersectionObserver> {
    OBSERVERS.with(|observers| {
        let mut observers = observers.borrow_mut();
        if let Some(observer) = observers.get(&zone) {
            return Some(observer.clone());
        }
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries| seen(zone, entries));
        let options = IntersectionObserverInit::new();
        options.set_root_margin(zone.margin());
        let made =
            IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options);
        // The observer lives as long as the page, and so does its callback.
        callback.forget();
        let made = made.ok()?;
        observers.insert(zone, made.clone());
        Some(made)
    })
}

/// Sets the signal of every element whose nearness in `zone` changed.
fn seen(zone: Zone, entries: js_sys::Array) {
    for entry in entries.iter() {
        let entry: IntersectionObserverEntry = entry.unchecked_into();
        let key = entry
            .target()
            .get_attribute(KEY)
            .and_then(|k| k.parse::<u32>().ok());
        let signal = key
            .and_then(|k| WATCHED.with(|w| w.borrow().get(&(zone, k)).map(|(signal, _)| *signal)));
        if let Some(signal) = signal
            && signal.get_untracked() != entry.is_intersecting()
        {
            signal.set(entry.is_intersecting());
        }
    }
}
