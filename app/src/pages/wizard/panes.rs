//! The four component panes: their options laid out as the core's
//! `Layout` says (radio groups, ML2 drivers under the ML2 core, storage
//! sections), each option a row (`OptionRow`) with its state from the
//! pane's evaluation and, while it is near the screen, why it is blocked
//! and its smallest repair, or its compatibility advice.
//!
//! Each row's parts are a memo of its own signals (`RowState`): a click
//! re-renders the rows it changed and, in them, what changed. A row's
//! input goes through `mosaic_core::wizard` (toggle, fix).

use std::sync::Arc;

use leptos::html::Div;
use leptos::prelude::*;
use mosaic_core::component::{Blocking, Evaluation};
use mosaic_core::wizard::view::{OptionHead, OptionParts, OptionView};
use mosaic_core::wizard::{self, Pane};

use super::{Flow, RowState, nearby};
use crate::catalog::Catalog;
use crate::components::near_view;
use crate::components::option_row::OptionRow;

/// What every option row needs.
#[derive(Clone)]
struct Rows {
    catalog: Arc<Catalog>,
    flow: Flow,
    rows: Arc<Vec<RowState>>,
}

/// A row in a fieldset: the option's name (its key), its place in the
/// registry, and whether it is an ML2 driver under the ML2 core.
type Member = (String, usize, bool);

/// The panes' bodies (steps 1 to 4), each shown on its own step; option
/// `i`'s row shows `rows[i]`, from the evaluation `shown`, where it is at
/// `positions[i]`.
#[component]
pub(super) fn Panes(
    catalog: Arc<Catalog>,
    flow: Flow,
    shown: Memo<Option<(Pane, Evaluation)>>,
    rows: Arc<Vec<RowState>>,
    positions: Arc<Vec<usize>>,
) -> impl IntoView {
    let places = nearby::Places {
        rows: rows.clone(),
        positions,
        order: catalog.layout().shown_order(),
    };
    nearby::keep_up(catalog.clone(), flow, shown, places);
    let all = Rows {
        catalog: catalog.clone(),
        flow,
        rows,
    };
    let layout = catalog.layout();
    let member = |i: usize, nested: bool| -> Member {
        (catalog.registry().get(i).name.to_string(), i, nested)
    };
    let members =
        |list: &[usize]| -> Vec<Member> { list.iter().map(|&i| member(i, false)).collect() };
    let network = &layout.network;
    let cores: Vec<Member> = network
        .core_members()
        .into_iter()
        .map(|m| member(m.index, m.nested))
        .collect();
    let no_services = network.services.is_empty();
    let storage = layout
        .storage
        .iter()
        .map(|section| {
            view! {
                <Fieldset
                    rows=all.clone()
                    legend=storage_title(&section.name)
                    members=members(&section.members)
                    section=section.name.clone()
                />
            }
        })
        .collect_view();
    let body = move |step: usize| move || flow.step.get() != step;
    view! {
        <div class="pane-body" data-pane="compute" class:hidden=body(1)>
            <Fieldset rows=all.clone() legend="Hypervisors".to_owned() members=members(&layout.compute) />
        </div>
        <div class="pane-body" data-pane="networking" class:hidden=body(2)>
            <Fieldset rows=all.clone() legend="Network core".to_owned() members=cores />
            <Fieldset
                rows=all.clone()
                legend="Network services".to_owned()
                members=members(&network.services)
                hidden=no_services
            />
        </div>
        <div class="pane-body" data-pane="storage" class:hidden=body(3)>
            {storage}
        </div>
        <div class="pane-body" data-pane="additional_services" class:hidden=body(4)>
            <Fieldset
                rows=all.clone()
                legend="Additional services".to_owned()
                members=members(&layout.additional)
            />
        </div>
    }
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

/// A fieldset of the options `members`, under `legend`, keyed by name.
#[component]
fn Fieldset(
    rows: Rows,
    legend: String,
    members: Vec<Member>,
    /// `data-section`: a storage section's name.
    #[prop(optional)]
    section: Option<String>,
    #[prop(optional)] hidden: bool,
) -> impl IntoView {
    view! {
        <fieldset class:hidden=hidden data-section=section>
            <legend>{legend}</legend>
            <For
                each=move || members.clone()
                key=|(name, _, _)| name.clone()
                children=move |(_, i, nested)| view! { <Slot rows=rows.clone() i nested /> }
            />
        </fieldset>
    }
}

/// Option `i`'s row in its slot, the element watched for nearness to the
/// screen.
#[component]
fn Slot(rows: Rows, i: usize, nested: bool) -> impl IntoView {
    let Rows {
        catalog,
        flow,
        rows,
    } = rows;
    let row = rows[i];
    let registry = catalog.registry();
    let head = OptionHead::new(
        registry,
        i,
        catalog.plugin(i),
        catalog.layout().radio_group(registry, i),
    );
    let parts: Memo<OptionParts> = {
        let catalog = catalog.clone();
        Memo::new(move |_| {
            let open = row.open.get();
            row.report.with(|report| {
                row.blocking.with(|blocking| {
                    row.advice.with(|advice| {
                        OptionView {
                            registry: catalog.registry(),
                            i,
                            nested,
                            report,
                            blocking: blocking.as_ref(),
                            advice: advice.as_ref(),
                            open,
                        }
                        .parts()
                    })
                })
            })
        })
    };
    let on_pick = {
        let catalog = catalog.clone();
        Callback::new(move |()| {
            let change = flow
                .selection
                .with_untracked(|s| wizard::toggle(&catalog.engine, s, i));
            flow.apply(change);
        })
    };
    let on_fix = Callback::new(move |()| {
        let Some(Blocking { repair, .. }) = row.blocking.get_untracked() else {
            return;
        };
        let change = flow
            .selection
            .with_untracked(|s| wizard::fix(&catalog.engine, s, i, &repair));
        flow.apply(change);
    });
    // The untested list is listed only while open.
    let on_open = Callback::new(move |open: bool| row.open.set(open));
    let slot = NodeRef::<Div>::new();
    near_view::watch_node(slot, row.near, Some(row.soon));
    view! {
        <div class="option-slot" node_ref=slot>
            <OptionRow head parts on_pick on_fix on_open />
        </div>
    }
}
