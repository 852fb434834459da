//! One wizard option's row in the page. Core writes the row
//! (`markup::wizard::option`) and says what of it changes with the
//! selection (`OptionParts`); the row is written into its slot once, and
//! then only the parts that differ from what it shows are changed in
//! place: a click changes the "not tested with" count of dozens of rows,
//! and parsing each row again would cost more than the click's evaluation
//! (docs/benchmarks.md, "Wizard click latency").

use mosaic_core::markup::Markup;
use mosaic_core::markup::wizard::OptionParts;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

/// What a row's view gives: its parts, and when asked (`true`: the row is
/// not written yet) the whole row. It reads the signals the row follows.
pub type RowView = Box<dyn Fn(bool) -> (OptionParts, Option<Markup>)>;

/// Writes the row into `slot` once, then changes only the parts of it that
/// differ from what it shows.
pub fn keep_row(slot: &Element, view: RowView) {
    let holder = slot.clone();
    super::watch::watch_from(move |shown: Option<(RowNodes, OptionParts)>| {
        let (parts, whole) = view(shown.is_none());
        match shown {
            Some((nodes, old)) => {
                nodes.update(&old, &parts);
                Some((nodes, parts))
            }
            None => {
                holder.set_inner_html(whole?.as_str());
                Some((RowNodes::find(&holder)?, parts))
            }
        }
    });
}

/// The elements of a row whose content changes.
struct RowNodes {
    row: Element,
    input: HtmlInputElement,
    tested: Element,
    untested: Element,
    summary: Element,
    list: Element,
    reason: Element,
    reason_text: Element,
    fix: Element,
}

impl RowNodes {
    fn find(slot: &Element) -> Option<RowNodes> {
        let get = |css: &str| slot.query_selector(css).ok().flatten();
        Some(RowNodes {
            row: get(".option")?,
            input: get("input")?.dyn_into().ok()?,
            tested: get(".tested")?,
            untested: get(".untested")?,
            summary: get("summary")?,
            list: get(".untested ul")?,
            reason: get(".reason")?,
            reason_text: get(".reason-text")?,
            fix: get(".fix")?,
        })
    }

    /// Makes the row show `new` where it shows `old`.
    fn update(&self, old: &OptionParts, new: &OptionParts) {
        if old.class != new.class {
            self.row.set_class_name(&new.class);
        }
        if old.state != new.state {
            let _ = self.row.set_attribute("data-state", new.state);
        }
        // A click ticks a box before the engine answers: the box shows the
        // answer, whether or not the state changed.
        if self.input.checked() != new.checked {
            self.input.set_checked(new.checked);
        }
        if old.disabled != new.disabled {
            self.input.set_disabled(new.disabled);
        }
        if old.tested != new.tested {
            hide(&self.tested, !new.tested);
        }
        shown_text(&self.untested, &self.summary, &old.untested, &new.untested);
        if old.list != new.list {
            self.list.set_inner_html(new.list.as_str());
        }
        shown_text(&self.reason, &self.reason_text, &old.reasons, &new.reasons);
        shown_text(&self.fix, &self.fix, &old.fix, &new.fix);
    }
}

/// Sets the `hidden` class of `element` as `hidden` says.
fn hide(element: &Element, hidden: bool) {
    let _ = element.class_list().toggle_with_force("hidden", hidden);
}

/// Shows `new` in `text`, and `part` (which holds it) only when it is not
/// empty.
fn shown_text(part: &Element, text: &Element, old: &str, new: &str) {
    if old == new {
        return;
    }
    if old.is_empty() != new.is_empty() {
        hide(part, new.is_empty());
    }
    text.set_text_content(Some(new));
}
