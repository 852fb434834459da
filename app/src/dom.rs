//! The app's view layer: elements made with the browser's DOM, kept up to
//! date by Leptos's reactive system (`reactive_graph`: signals, memos,
//! owners, contexts).
//!
//! Most of what the app shows is markup core writes (`mosaic_core::markup`)
//! into a holder element; what is left to build here is the holders, the
//! page shells and a few reactive attributes. Leptos's typed views
//! (`view!`, `tachys`) gave every element, attribute and event its own
//! Rust type, and each type its own code in the download: this layer is
//! a handful of non-generic functions (docs/benchmarks.md, "App size").
//!
//! Lifetimes follow the reactive owner the view is built under, as in
//! Leptos: an event listener, a reactive attribute or a [`dynamic`] region
//! lives until that owner is cleaned up (a region's content is built under
//! an owner of its own, cleaned up each time it is built again).

use leptos::prelude::{Owner, on_cleanup};
use leptos::reactive::effect::RenderEffect;
use mosaic_core::markup::Markup;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Document, Element, Event, Node};

use crate::components::morph::morph;

/// What a view is: a node, or a fragment of several (moved into the
/// element it is added to).
pub type View = Node;

/// An element being built; [`El::into`] a [`View`] when done.
#[derive(Clone)]
pub struct El(Element);

/// A new `<tag>` element.
pub fn el(tag: &str) -> El {
    El(document()
        .create_element(tag)
        .expect("the document makes elements"))
}

/// A text node.
pub fn text(content: &str) -> View {
    document().create_text_node(content).into()
}

/// Several views as one, in order.
pub fn fragment(views: impl IntoIterator<Item = View>) -> View {
    let fragment = document().create_document_fragment();
    for view in views {
        let _ = fragment.append_child(&view);
    }
    fragment.into()
}

/// Nothing: an empty fragment.
pub fn nothing() -> View {
    document().create_document_fragment().into()
}

impl El {
    pub fn attr(self, name: &str, value: &str) -> El {
        let _ = self.0.set_attribute(name, value);
        self
    }

    pub fn class(self, value: &str) -> El {
        self.0.set_class_name(value);
        self
    }

    /// Text after the element's content so far.
    pub fn text(self, content: &str) -> El {
        self.child(text(content))
    }

    /// Markup as the element's content.
    pub fn html(self, markup: &str) -> El {
        self.0.set_inner_html(markup);
        self
    }

    /// `view` after the element's content so far.
    pub fn child(self, view: impl Into<View>) -> El {
        let _ = self.0.append_child(&view.into());
        self
    }

    /// `view`, if there is one, after the element's content so far.
    pub fn maybe(self, view: Option<View>) -> El {
        match view {
            Some(view) => self.child(view),
            None => self,
        }
    }

    /// Calls `handler` with every `event` that happens in the element.
    pub fn on(self, event: &str, handler: impl FnMut(Event) + 'static) -> El {
        listen(&self.0, event, false, Box::new(handler));
        self
    }

    /// Like [`El::on`], in the capture phase (for events that do not
    /// bubble, such as `toggle`).
    pub fn on_capture(self, event: &str, handler: impl FnMut(Event) + 'static) -> El {
        listen(&self.0, event, true, Box::new(handler));
        self
    }

    /// The class `name` while `when` says so.
    pub fn class_when(self, name: &'static str, when: impl Fn() -> bool + 'static) -> El {
        let element = self.0.clone();
        effect(Box::new(move || {
            let _ = element.class_list().toggle_with_force(name, when());
        }));
        self
    }

    /// The attribute `name` with the value `value` gives, or none.
    pub fn attr_when(self, name: &'static str, value: impl Fn() -> Option<String> + 'static) -> El {
        let element = self.0.clone();
        effect(Box::new(move || {
            let _ = match value() {
                Some(value) => element.set_attribute(name, &value),
                None => element.remove_attribute(name),
            };
        }));
        self
    }

    /// The text `content` gives as the element's content.
    pub fn text_from(self, content: impl Fn() -> String + 'static) -> El {
        let element = self.0.clone();
        effect(Box::new(move || element.set_text_content(Some(&content()))));
        self
    }

    /// Disabled while `when` says so.
    pub fn disabled_when(self, when: impl Fn() -> bool + 'static) -> El {
        self.attr_when("disabled", move || when().then(String::new))
    }

    /// The content `render` writes, merged again (`morph`) whenever a
    /// signal it reads changes.
    pub fn merged(self, render: impl Fn() -> Markup + 'static) -> El {
        let element = self.0.clone();
        effect(Box::new(move || morph(&element, render().as_str())));
        self
    }

    pub fn element(&self) -> &Element {
        &self.0
    }
}

impl From<El> for View {
    fn from(el: El) -> View {
        el.0.into()
    }
}

/// A part of a view that `render` builds, and builds again whenever a
/// signal it reads changes (what it built before, with its listeners and
/// effects, is gone then). Whatever `render` reads is followed, the
/// functions it calls to build included: those read untracked what should
/// not rebuild the part.
pub fn dynamic(render: impl Fn() -> View + 'static) -> View {
    region(Box::new(render))
}

/// The part lies between two empty comments, which stay: what is between
/// them is the part, including what parts inside it add later.
fn region(render: Box<dyn Fn() -> View>) -> View {
    let holder = document().create_document_fragment();
    let start: Node = document().create_comment("").into();
    let end: Node = document().create_comment("").into();
    let _ = holder.append_child(&start);
    let _ = holder.append_child(&end);
    effect(Box::new(move || {
        let view = render();
        let Some(parent) = end.parent_node() else {
            return;
        };
        while let Some(old) = start.next_sibling().filter(|n| !n.is_same_node(Some(&end))) {
            let _ = parent.remove_child(&old);
        }
        let _ = parent.insert_before(&view, Some(&end));
    }));
    holder.into()
}

/// Runs `f` now, and again whenever a signal it read changes, until the
/// current owner is cleaned up. One effect type for every use.
fn effect(mut f: Box<dyn FnMut()>) {
    let effect = RenderEffect::new(move |_: Option<()>| f());
    on_cleanup(move || drop(effect));
}

/// Listens for `event` on `element` until the current owner is cleaned up.
fn listen(element: &Element, event: &str, capture: bool, handler: Box<dyn FnMut(Event)>) {
    let closure = Closure::wrap(handler);
    let function = closure.as_ref().unchecked_ref();
    let _ = element.add_event_listener_with_callback_and_bool(event, function, capture);
    let kept = SendWrapper::new((element.clone(), event.to_owned(), closure));
    on_cleanup(move || {
        let (element, event, closure) = kept.take();
        let function = closure.as_ref().unchecked_ref();
        let _ = element.remove_event_listener_with_callback_and_bool(&event, function, capture);
    });
}

/// Builds the app with `app` and puts it in `<body>`, under an owner that
/// lives as long as the page.
pub fn mount(app: impl FnOnce() -> View) {
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let owner = Owner::new();
    let view = owner.with(app);
    if let Some(body) = document().body() {
        let _ = body.append_child(&view);
    }
    std::mem::forget(owner);
}

fn document() -> Document {
    leptos::prelude::document()
}
