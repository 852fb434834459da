//! Whether an element is on screen or close to it: one
//! `IntersectionObserver` for the whole page per zone, kept telling a
//! signal per element ([`watch`], given the element a `NodeRef` holds). *Near* is within
//! about two screens, so that work done for what is on screen (a blocked
//! option's reasons and smallest repair) is done before the operator scrolls to it;
//! *soon* is a wider band, for work that is cheap to do in the same batch
//! and saves a second one when a click shifts rows a little.

use std::cell::RefCell;

use leptos::prelude::*;
use leptos::tachys::html::element::ElementType;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// How far beyond the viewport an element counts as near it, or soon near.
#[derive(Clone, Copy, PartialEq, Eq)]
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

/// The attribute that names a watched element's slot in `WATCHED`.
const KEY: &str = "data-near-view";

/// A watched element: the signals kept telling whether it is in each zone
/// it is watched in, and the element (to stop observing it).
struct Watched {
    near: RwSignal<bool>,
    soon: Option<RwSignal<bool>>,
    element: Element,
}

/// The watched elements, each in the slot its `KEY` attribute names; a
/// slot freed is used again. (A list rather than a map: one collection
/// type fewer in the download, docs/benchmarks.md "App size".)
#[derive(Default)]
struct Slots {
    items: Vec<Option<Watched>>,
    free: Vec<usize>,
}

impl Slots {
    fn insert(&mut self, watched: Watched) -> usize {
        match self.free.pop() {
            Some(slot) => {
                self.items[slot] = Some(watched);
                slot
            }
            None => {
                self.items.push(Some(watched));
                self.items.len() - 1
            }
        }
    }

    fn remove(&mut self, slot: usize) -> Option<Watched> {
        let watched = self.items.get_mut(slot)?.take()?;
        self.free.push(slot);
        Some(watched)
    }
}

thread_local! {
    /// The page's observer per zone (`Zone as usize`), made on first use.
    static OBSERVERS: RefCell<[Option<IntersectionObserver>; 2]> = const { RefCell::new([None, None]) };
    static WATCHED: RefCell<Slots> = RefCell::new(Slots::default());
}

/// Keeps `near` telling whether `element` is within the near zone of the
/// viewport (a hidden element never is), and `soon`, if given, whether it
/// is within the wider one, until the current owner is cleaned up. Without
/// `IntersectionObserver` the element counts as near.
pub fn watch(element: &Element, near: RwSignal<bool>, soon: Option<RwSignal<bool>>) {
    let (Some(near_zone), soon_zone) = (observer(Zone::Near), observer(Zone::Soon)) else {
        near.set(true);
        if let Some(soon) = soon {
            soon.set(true);
        }
        return;
    };
    let watched = Watched {
        near,
        soon,
        element: element.clone(),
    };
    let key = WATCHED.with(|w| w.borrow_mut().insert(watched));
    let _ = element.set_attribute(KEY, &key.to_string());
    near_zone.observe(element);
    match (soon, soon_zone) {
        (Some(_), Some(observer)) => observer.observe(element),
        (Some(soon), None) => soon.set(true),
        (None, _) => {}
    }
    on_cleanup(move || {
        let watched = WATCHED.with(|w| w.borrow_mut().remove(key));
        if let Some(watched) = watched {
            for zone in [Zone::Near, Zone::Soon] {
                if let Some(observer) = observer(zone) {
                    observer.unobserve(&watched.element);
                }
            }
        }
    });
}

/// [`watch`] for the element `node` holds, once it does: for a view's
/// element (`node_ref=node`).
pub fn watch_node<E>(node: NodeRef<E>, near: RwSignal<bool>, soon: Option<RwSignal<bool>>)
where
    E: ElementType + 'static,
    E::Output: JsCast + Clone + 'static,
{
    node.on_load(move |element| watch(element.unchecked_ref(), near, soon));
}

/// The page's observer for `zone`, made on first use.
fn observer(zone: Zone) -> Option<IntersectionObserver> {
    OBSERVERS.with(|observers| {
        let mut observers = observers.borrow_mut();
        if let Some(observer) = &observers[zone as usize] {
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
        observers[zone as usize] = Some(made.clone());
        Some(made)
    })
}

/// Sets the signal of every element whose nearness in `zone` changed.
fn seen(zone: Zone, entries: js_sys::Array) {
    for entry in entries.iter() {
        let entry: IntersectionObserverEntry = entry.unchecked_into();
        let target = entry.target();
        let key = target
            .get_attribute(KEY)
            .and_then(|k| k.parse::<usize>().ok());
        // A slot is used again: an entry queued for an element since
        // unwatched must not reach the element watched there now.
        let signal = key.and_then(|k| {
            WATCHED.with(|w| match w.borrow().items.get(k)? {
                Some(watched) if watched.element != target => None,
                Some(watched) if zone == Zone::Near => Some(watched.near),
                Some(watched) => watched.soon,
                None => None,
            })
        });
        if let Some(signal) = signal
            && signal.try_get_untracked() == Some(!entry.is_intersecting())
        {
            signal.try_set(entry.is_intersecting());
        }
    }
}
