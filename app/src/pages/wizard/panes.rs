//! The four component panes: their options laid out as the core's
//! `Layout` says (radio groups, ML2 drivers under the ML2 core, storage
//! sections), each option a row with its state from the pane's evaluation
//! and, while it is near the screen, its smallest repair or its
//! compatibility advice.

use std::cell::RefCell;
use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::component::{ComponentReport, Evaluation};
use mosaic_core::wizard::{self, Control, Pane};

use super::{Flow, nearby};
use crate::catalog::Catalog;
use crate::components::option_row::{Input, OptionRow};

/// The panes' bodies (steps 1 to 4), each shown on its own step; option
/// `i`'s row shows `reports[i]`, from the evaluation `shown`, where it is
/// at `positions[i]`.
pub(super) fn panes(
    catalog: Arc<Catalog>,
    flow: Flow,
    shown: Memo<Option<(Pane, Evaluation)>>,
    reports: Arc<Vec<RwSignal<ComponentReport>>>,
    positions: Arc<Vec<usize>>,
) -> AnyView {
    let registry = catalog.registry();
    let signals = || (0..registry.len()).map(|_| RwSignal::new(false)).collect();
    let zones = Arc::new(nearby::Zones {
        near: signals(),
        soon: signals(),
    });
    let row = Row {
        catalog: catalog.clone(),
        flow,
        reports,
        zones: zones.clone(),
        nearby: nearby::Nearby::new(registry.len()),
        order: RefCell::new(Vec::new()),
    };
    let layout = catalog.layout();
    let body = |step: usize, pane: &'static str, content: AnyView| {
        view! {
            <div class="pane-body" data-pane=pane class:hidden=move || flow.step.get() != step>
                {content}
            </div>
        }
    };
    let compute = layout
        .compute
        .iter()
        .map(|&i| row.view(i, false))
        .collect_view();
    let additional = layout
        .additional
        .iter()
        .map(|&i| row.view(i, false))
        .collect_view();
    let (network, storage) = (network(&row), storage(&row));
    let places = nearby::Places {
        zones,
        positions,
        order: row.order.take(),
    };
    row.nearby.keep_up(catalog.clone(), flow, shown, places);
    view! {
        {body(1, "compute", view! { <fieldset><legend>"Hypervisors"</legend>{compute}</fieldset> }.into_any())}
        {body(2, "networking", network)}
        {body(3, "storage", storage)}
        {body(
            4,
            "additional_services",
            view! { <fieldset><legend>"Additional services"</legend>{additional}</fieldset> }.into_any(),
        )}
    }
    .into_any()
}

/// Cores as one radio group with the ML2 drivers under the ML2 core, then
/// the network services.
fn network(row: &Row) -> AnyView {
    let n = &row.catalog.layout().network;
    let cores = n
        .cores
        .iter()
        .map(|&core| {
            let drivers = (Some(core) == n.ml2_core)
                .then(|| n.drivers.iter().map(|&d| row.view(d, true)).collect_view());
            view! { {row.view(core, false)} {drivers} }
        })
        .collect_view();
    // Without an ML2 core, drivers are plain checkboxes.
    let loose = n
        .ml2_core
        .is_none()
        .then(|| n.drivers.iter().map(|&d| row.view(d, false)).collect_view());
    let services = n
        .services
        .iter()
        .map(|&i| row.view(i, false))
        .collect_view();
    view! {
        <fieldset>
            <legend>"Network core"</legend>
            {cores}
            {loose}
        </fieldset>
        <fieldset class:hidden=n.services.is_empty()>
            <legend>"Network services"</legend>
            {services}
        </fieldset>
    }
    .into_any()
}

fn storage(row: &Row) -> AnyView {
    row.catalog
        .layout()
        .storage
        .iter()
        .map(|section| {
            let members = section
                .members
                .iter()
                .map(|&i| row.view(i, false))
                .collect_view();
            view! {
                <fieldset data-section=section.name.clone()>
                    <legend>{storage_title(&section.name)}</legend>
                    {members}
                </fieldset>
            }
        })
        .collect_view()
        .into_any()
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
    reports: Arc<Vec<RwSignal<ComponentReport>>>,
    zones: Arc<nearby::Zones>,
    /// Per option, its repair and advice while it is near the screen.
    nearby: nearby::Nearby,
    /// The options in the order their rows were made: the order shown.
    order: RefCell<Vec<usize>>,
}

impl Row {
    fn view(&self, i: usize, nested: bool) -> AnyView {
        self.order.borrow_mut().push(i);
        let catalog = &self.catalog;
        let (flow, report) = (self.flow, self.reports[i]);
        let c = catalog.registry().get(i);
        let input = match catalog.layout().control(i) {
            Control::Checkbox => Input::Checkbox,
            Control::Radio if catalog.layout().network.cores.contains(&i) => {
                Input::Radio("network-core".to_owned())
            }
            Control::Radio => Input::Radio(format!(
                "storage-{}",
                c.name.segments().next().unwrap_or_default()
            )),
        };
        let on_toggle = {
            let catalog = catalog.clone();
            Callback::new(move |()| {
                let change = flow
                    .selection
                    .with_untracked(|s| wizard::toggle(&catalog.engine, s, i));
                flow.apply(change);
            })
        };
        let (near, soon) = (self.zones.near[i], self.zones.soon[i]);
        let (repair, advice) = (self.nearby.repairs[i], self.nearby.advice[i]);
        let on_fix = {
            let catalog = catalog.clone();
            Callback::new(move |()| {
                let Some(repair) = repair.get_untracked() else {
                    return;
                };
                let change = flow
                    .selection
                    .with_untracked(|s| wizard::fix(&catalog.engine, s, i, &repair));
                flow.apply(change);
            })
        };
        let label_of = {
            let catalog = catalog.clone();
            Callback::new(
                move |name: String| match catalog.registry().position(&name) {
                    Some(j) => catalog.registry().label(j).to_owned(),
                    None => name,
                },
            )
        };
        view! {
            <OptionRow
                name=c.name.to_string()
                label=c.display_label().to_owned()
                description=c.description.clone()
                plugin=catalog.plugin(i).map(str::to_owned)
                input
                report
                repair
                advice
                near
                soon
                label_of
                on_toggle
                on_fix
                nested
            />
        }
        .into_any()
    }
}
