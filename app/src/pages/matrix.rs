//! A release's compatibility matrix (the component-registry spec's table):
//! rows and columns grouped by type, each cell what the row component
//! declares or implies towards the column one (X incompatible, R requires,
//! C tested together), dead components marked. The operator can keep the
//! rows and the columns to one type each and highlight a component's row
//! and column; the SVG is the one `mosaic components matrix` draws.

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::ReleaseSummary;
use mosaic_core::component::{ComponentType, Matrix};
use mosaic_core::markup;
use mosaic_core::wizard::Pane;

use crate::api;
use crate::catalog::Catalog;
use crate::components::html::closest;
use crate::components::loaded::loaded;
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{El, View, el, fragment};
use crate::route::{Route, set_title};
use wasm_bindgen::JsCast;
use web_sys::{Element, Event};

/// The release and its components, compiled, from the answers to
/// [`api::path::releases`] and [`api::path::components`].
fn load(
    release_id: i64,
    bodies: &api::Bodies,
) -> Result<(ReleaseSummary, Arc<Catalog>), api::ApiFailure> {
    let releases: Vec<ReleaseSummary> = api::answer(bodies, 0)?;
    let Some(release) = releases.into_iter().find(|r| r.id == release_id) else {
        return Err(api::ApiFailure::message(format!(
            "There is no release {release_id}."
        )));
    };
    let components = api::answer(bodies, 1)?;
    let catalog = Catalog::new(&release, components).map_err(api::ApiFailure::message)?;
    Ok((release, Arc::new(catalog)))
}

pub fn matrix_page(release_id: i64) -> View {
    let data = api::fetch(move || vec![api::path::releases(), api::path::components(release_id)]);
    let retry = Callback::new(move |()| data.refetch());
    set_title("Compatibility matrix");
    el("section")
        .class("card matrix-page")
        .attr("data-page", "matrix")
        .child(loaded(
            data,
            "Loading the components…",
            move |bodies| match load(release_id, &bodies) {
                Ok((release, catalog)) => {
                    set_title(&format!("Compatibility matrix · {}", release.name));
                    matrix_view(release, catalog)
                }
                Err(failure) => retry_notice(failure, retry, true),
            },
        ))
        .into()
}

/// Which type a filter keeps (`None`: every type).
fn type_filter(value: &str) -> Option<ComponentType> {
    ComponentType::parse(value)
}

fn matrix_view(release: ReleaseSummary, catalog: Arc<Catalog>) -> View {
    let matrix = Arc::new(Matrix::of(&catalog.engine));
    let rows = Var::new(None::<ComponentType>);
    let columns = Var::new(None::<ComponentType>);
    let svg = matrix.to_svg(catalog.registry());
    let download = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        js_sys::encode_uri_component(&svg)
    );
    let tools = el("div")
        .class("matrix-tools")
        .child(filter("Rows", "row-filter", rows))
        .child(filter("Columns", "column-filter", columns))
        .child(
            el("a")
                .class("button")
                .attr("href", &download)
                .attr("download", &format!("{}-matrix.svg", release.name))
                .text("Download SVG"),
        )
        .child(
            el("a")
                .attr("href", &Route::Environments.path())
                .class("button")
                .text("Back to the wizard"),
        );
    let scroll = el("div")
        .class("matrix-scroll")
        .attr("tabindex", "0")
        .attr("role", "region")
        .attr("aria-label", "Compatibility matrix")
        .child(matrix_table(catalog, matrix, rows, columns));
    let title = format!(
        "Compatibility matrix · {} ({})",
        release.name, release.version
    );
    fragment([
        el("h1").text(&title).into(),
        el("p").class("hint").html(LEGEND).into(),
        tools.into(),
        scroll.into(),
    ])
}

const LEGEND: &str = "Each row says what its component declares or implies towards each \
    column: <b>X</b> cannot be combined, <b>R</b> requires, <b>C</b> tested together; an empty \
    cell: nothing is known. Struck-through components can never be selected. Choose a \
    component to highlight its row and column.";

/// A type filter: a `<select>` of the types, `signal` what it keeps.
fn filter(label: &str, class: &str, signal: Var<Option<ComponentType>>) -> El {
    let mut select = el("select")
        .class(class)
        .on("change", move |ev| {
            signal.set(type_filter(&event_target_value(&ev)))
        })
        .child(el("option").attr("value", "").text("All types"));
    for pane in Pane::ALL {
        let value = pane.component_type().as_str();
        select = select.child(el("option").attr("value", value).text(pane.title()));
    }
    el("label")
        .class("field inline")
        .child(el("span").text(label))
        .child(select)
}

/// The table (`markup::matrix`). The filters hide rows and columns
/// through the stylesheet, by the holder's `data-rows` and `data-columns`;
/// picking a component lights its row and column.
fn matrix_table(
    catalog: Arc<Catalog>,
    matrix: Arc<Matrix>,
    rows: Var<Option<ComponentType>>,
    columns: Var<Option<ComponentType>>,
) -> View {
    let html = markup::matrix::table(&matrix, catalog.registry()).into_string();
    let pick = move |ev: Event| {
        let Some(button) = closest(&ev, "button.pick-row") else {
            return;
        };
        let table = button.closest("table.matrix").ok().flatten();
        let i = button
            .get_attribute("data-i")
            .and_then(|i| i.parse::<usize>().ok());
        if let (Some(table), Some(i)) = (table, i) {
            light(&table, i);
        }
    };
    let kept =
        |filter: Var<Option<ComponentType>>| move || filter.get().map(|t| t.as_str().to_owned());
    el("div")
        .class("matrix-holder")
        .attr_when("data-rows", kept(rows))
        .attr_when("data-columns", kept(columns))
        .html(&html)
        .on("click", pick)
        .into()
}

/// Lights component `i`'s row and column (its header cells and every cell
/// of both), or puts them out when they are lit; one component at a time.
fn light(table: &Element, i: usize) {
    let again = table.get_attribute("data-lit") == Some(i.to_string());
    each(table, ".lit", |e| {
        let _ = e.class_list().remove_1("lit");
    });
    each(table, "button[aria-pressed='true']", |e| {
        let _ = e.set_attribute("aria-pressed", "false");
    });
    if again {
        let _ = table.remove_attribute("data-lit");
        return;
    }
    let _ = table.set_attribute("data-lit", &i.to_string());
    let cells = format!("td[data-i='{i}'], td[data-j='{i}'], th[data-i='{i}'], th[data-j='{i}']");
    each(table, &cells, |e| {
        let _ = e.class_list().add_1("lit");
    });
    each(table, &format!("button[data-i='{i}']"), |e| {
        let _ = e.set_attribute("aria-pressed", "true");
    });
}

/// Runs `f` on every element under `root` that `selector` matches.
fn each(root: &Element, selector: &str, f: impl Fn(&Element)) {
    let Ok(found) = root.query_selector_all(selector) else {
        return;
    };
    for k in 0..found.length() {
        if let Some(e) = found.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
            f(&e);
        }
    }
}
