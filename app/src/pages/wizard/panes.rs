//! The four component panes: their options laid out as the core's
//! `Layout` says (radio groups, ML2 drivers under the ML2 core, storage
//! sections), each option a row with its state from the pane's evaluation
//! and, while it is near the screen, why it is blocked and its smallest
//! repair, or its compatibility advice.
//!
//! A row is core markup (`markup::wizard::option`), written into its slot
//! once; when its report, reasons and repair, advice or open list changes, the parts
//! of it that differ are changed in place (`OptionParts`): a click touches
//! the rows it changed and, in them, what changed. The panes listen for the
//! rows' input (one listener per event type and pane, not per row).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::component::{Blocking, ComponentReport, Evaluation};
use mosaic_core::markup::wizard::{OptionView, option};
use mosaic_core::wizard::{self, Pane};
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlDetailsElement, HtmlElement};

use super::{Flow, nearby};
use crate::catalog::Catalog;
use crate::components::html::closest;
use crate::components::near_view;
use crate::components::option_row::keep_row;
use crate::components::var::Var;
use crate::dom::{El, View, el, fragment};

/// The panes' bodies (steps 1 to 4), each shown on its own step; option
/// `i`'s row shows `reports[i]`, from the evaluation `shown`, where it is
/// at `positions[i]`.
pub(super) fn panes(
    catalog: Arc<Catalog>,
    flow: Flow,
    shown: Memo<Option<(Pane, Evaluation)>>,
    reports: Arc<Vec<Var<ComponentReport>>>,
    positions: Arc<Vec<usize>>,
) -> View {
    let registry = catalog.registry();
    let signals = || (0..registry.len()).map(|_| Var::new(false)).collect();
    let zones = Arc::new(nearby::Zones {
        near: signals(),
        soon: signals(),
    });
    let row = Rc::new(Row {
        catalog: catalog.clone(),
        flow,
        reports,
        zones: zones.clone(),
        nearby: nearby::Nearby::new(registry.len()),
        open: (0..registry.len()).map(|_| Var::new(false)).collect(),
        order: RefCell::new(Vec::new()),
    });
    let layout = catalog.layout();
    let body = |step: usize, pane: &'static str, content: View| {
        let (on_change, on_click, on_toggle) = (row.clone(), row.clone(), row.clone());
        el("div")
            .class("pane-body")
            .attr("data-pane", pane)
            .class_when("hidden", move || flow.step.get() != step)
            .on("change", move |ev| on_change.changed(&ev))
            .on("click", move |ev| on_click.clicked(&ev))
            .on_capture("toggle", move |ev| on_toggle.toggled(&ev))
            .child(content)
            .into()
    };
    let compute = rows(&row, &layout.compute, "Hypervisors");
    let additional = rows(&row, &layout.additional, "Additional services");
    let (network, storage) = (network(&row), storage(&row));
    let places = nearby::Places {
        zones,
        positions,
        order: row.order.take(),
    };
    row.nearby.keep_up(catalog.clone(), flow, shown, places);
    fragment([
        body(1, "compute", compute.into()),
        body(2, "networking", network),
        body(3, "storage", storage),
        body(4, "additional_services", additional.into()),
    ])
}

/// A fieldset of the options `members`, under `legend`.
fn rows(row: &Row, members: &[usize], legend: &str) -> El {
    let mut set = el("fieldset").child(el("legend").text(legend));
    for &i in members {
        set = set.child(row.view(i, false));
    }
    set
}

/// Cores as one radio group with the ML2 drivers under the ML2 core, then
/// the network services.
fn network(row: &Row) -> View {
    let n = &row.catalog.layout().network;
    let mut cores = el("fieldset").child(el("legend").text("Network core"));
    for &core in &n.cores {
        cores = cores.child(row.view(core, false));
        if Some(core) == n.ml2_core {
            for &d in &n.drivers {
                cores = cores.child(row.view(d, true));
            }
        }
    }
    // Without an ML2 core, drivers are plain checkboxes.
    if n.ml2_core.is_none() {
        for &d in &n.drivers {
            cores = cores.child(row.view(d, false));
        }
    }
    let services = rows(row, &n.services, "Network services");
    let services = match n.services.is_empty() {
        true => services.class("hidden"),
        false => services,
    };
    fragment([cores.into(), services.into()])
}

fn storage(row: &Row) -> View {
    let sections = row.catalog.layout().storage.iter().map(|section| {
        rows(row, &section.members, &storage_title(&section.name))
            .attr("data-section", &section.name)
            .into()
    });
    fragment(sections)
}

fn storage_title(section: &str) -> String {
    match section {
        "block" => "Block storage".to_owned(),
        "object" => "Object storage".to_owned(),
        "image" => "Image storage".to_owned(),
        "ephemeral" => "Ephemeral storage".to_owned(),
        other => format!("Storage: {other}"),
    }
}

/// What every option row needs.
struct Row {
    catalog: Arc<Catalog>,
    flow: Flow,
    reports: Arc<Vec<Var<ComponentReport>>>,
    zones: Arc<nearby::Zones>,
    /// Per option, why it is blocked and its repair, or its advice, while
    /// it is near the screen.
    nearby: nearby::Nearby,
    /// Per option, whether its "not tested with" list is open.
    open: Vec<Var<bool>>,
    /// The options in the order their rows were made: the order shown.
    order: RefCell<Vec<usize>>,
}

impl Row {
    /// Option `i`'s slot: its row written once, then kept up to date part
    /// by part (`OptionParts`).
    fn view(&self, i: usize, nested: bool) -> View {
        self.order.borrow_mut().push(i);
        let catalog = self.catalog.clone();
        let report = self.reports[i];
        let (blocking, advice) = (self.nearby.blocking[i], self.nearby.advice[i]);
        let open = self.open[i];
        let group = catalog.layout().radio_group(catalog.registry(), i);
        let slot = el("div").class("option-slot");
        near_view::watch(slot.element(), self.zones.near[i], Some(self.zones.soon[i]));
        let view = move |whole: bool| {
            let (blocking, advice) = (blocking.get(), advice.get());
            report.with(|report| {
                let v = OptionView {
                    registry: catalog.registry(),
                    i,
                    plugin: catalog.plugin(i),
                    radio_group: group.as_deref(),
                    nested,
                    report,
                    blocking: blocking.as_ref(),
                    advice: advice.as_ref(),
                    open: open.get(),
                };
                let parts = v.parts();
                let whole = whole.then(|| option(&v, &parts));
                (parts, whole)
            })
        };
        keep_row(slot.element(), Box::new(view));
        slot.into()
    }

    /// The option a row's control belongs to.
    fn option_of(&self, ev: &Event) -> Option<(usize, Element)> {
        let row = closest(ev, ".option")?;
        let name = row.get_attribute("data-component")?;
        Some((self.catalog.registry().position(&name)?, row))
    }

    /// An option ticked or unticked.
    fn changed(&self, ev: &Event) {
        let Some((i, _)) = self.option_of(ev) else {
            return;
        };
        let (catalog, flow) = (&self.catalog, self.flow);
        let change = flow
            .selection
            .with_untracked(|s| wizard::toggle(&catalog.engine, s, i));
        flow.apply(change);
    }

    /// A Fix: the repair applied. The Fix button disappears with the
    /// repair: the focus moves to the option it enabled, once the page
    /// shows it enabled. It is in the row just clicked, so the page does
    /// not scroll to it: a scroll would bring other rows near the screen
    /// and their repairs into this click.
    fn clicked(&self, ev: &Event) {
        if closest(ev, "button.fix").is_none() {
            return;
        }
        let Some((i, row)) = self.option_of(ev) else {
            return;
        };
        let Some(Blocking { repair, .. }) = self.nearby.blocking[i].get_untracked() else {
            return;
        };
        let (catalog, flow) = (&self.catalog, self.flow);
        let change = flow
            .selection
            .with_untracked(|s| wizard::fix(&catalog.engine, s, i, &repair));
        flow.apply(change);
        request_animation_frame(move || {
            let input = row.query_selector("input").ok().flatten();
            if let Some(input) = input.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = input.focus_with_options(&options);
            }
        });
    }

    /// A "not tested with" list opened or closed: it is listed only while
    /// open.
    fn toggled(&self, ev: &Event) {
        let Some(details) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlDetailsElement>().ok())
        else {
            return;
        };
        if let Some((i, _)) = self.option_of(ev) {
            self.open[i].set(details.open());
        }
    }
}
