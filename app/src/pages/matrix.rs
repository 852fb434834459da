//! A release's compatibility matrix (the component-registry spec's table):
//! rows and columns grouped by type, each cell what the row component
//! declares or implies towards the column one (X incompatible, R requires,
//! C tested together), dead components marked. The operator can keep the
//! rows and the columns to one type each and highlight a component's row
//! and column; the SVG is the one `mosaic components matrix` draws.

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_core::api::ReleaseSummary;
use mosaic_core::component::{Cell, ComponentType, Matrix, type_order};
use mosaic_core::wizard::Pane;

use crate::api;
use crate::catalog::Catalog;
use crate::components::loaded::loaded;
use crate::components::retry::RetryNotice;
use crate::route::{Route, set_title};

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

#[component]
pub fn MatrixPage(release_id: i64) -> impl IntoView {
    let data = api::fetch(move || vec![api::path::releases(), api::path::components(release_id)]);
    let retry = Callback::new(move |()| data.refetch());
    set_title("Compatibility matrix");
    view! {
        <section class="card matrix-page" data-page="matrix">
            {loaded(data, "Loading the components…", move |bodies| {
                match load(release_id, &bodies) {
                    Ok((release, catalog)) => {
                        set_title(&format!("Compatibility matrix · {}", release.name));
                        view! { <MatrixView release catalog /> }.into_any()
                    }
                    Err(failure) => {
                        view! { <RetryNotice failure on_retry=retry auto=true /> }.into_any()
                    }
                }
            })}
        </section>
    }
}

/// Which type a filter keeps (`None`: every type).
fn type_filter(value: &str) -> Option<ComponentType> {
    ComponentType::parse(value)
}

#[component]
fn MatrixView(release: ReleaseSummary, catalog: Arc<Catalog>) -> impl IntoView {
    let matrix = Arc::new(Matrix::of(&catalog.engine));
    let rows = RwSignal::new(None::<ComponentType>);
    let columns = RwSignal::new(None::<ComponentType>);
    let highlight = RwSignal::new(None::<usize>);
    let svg = matrix.to_svg(catalog.registry());
    let download = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        js_sys::encode_uri_component(&svg)
    );
    let filter = |label: &'static str,
                  class: &'static str,
                  signal: RwSignal<Option<ComponentType>>| {
        let options = Pane::ALL
            .iter()
            .map(|p| view! { <option value=p.component_type().as_str()>{p.title()}</option> })
            .collect_view();
        view! {
            <label class="field inline">
                <span>{label}</span>
                <select class=class on:change=move |ev| signal.set(type_filter(&event_target_value(&ev)))>
                    <option value="">"All types"</option>
                    {options}
                </select>
            </label>
        }
    };
    view! {
        <h1>{format!("Compatibility matrix · {} ({})", release.name, release.version)}</h1>
        <p class="hint">
            "Each row says what its component declares or implies towards each column: "
            <b>"X"</b> " cannot be combined, " <b>"R"</b> " requires, " <b>"C"</b>
            " tested together; an empty cell: nothing is known. Struck-through components "
            "can never be selected. Choose a component to highlight its row and column."
        </p>
        <div class="matrix-tools">
            {filter("Rows", "row-filter", rows)}
            {filter("Columns", "column-filter", columns)}
            <a class="button" href=download download=format!("{}-matrix.svg", release.name)>
                "Download SVG"
            </a>
            <a href=Route::Environments.path() class="button">"Back to the wizard"</a>
        </div>
        <div class="matrix-scroll" tabindex="0" role="region" aria-label="Compatibility matrix">
            <MatrixTable catalog matrix rows columns highlight />
        </div>
    }
}

#[component]
fn MatrixTable(
    catalog: Arc<Catalog>,
    matrix: Arc<Matrix>,
    rows: RwSignal<Option<ComponentType>>,
    columns: RwSignal<Option<ComponentType>>,
    highlight: RwSignal<Option<usize>>,
) -> impl IntoView {
    let registry = catalog.registry();
    let order = type_order(registry);
    let kinds: Vec<ComponentType> = (0..registry.len())
        .map(|i| registry.get(i).kind())
        .collect();
    let shown = |filter: RwSignal<Option<ComponentType>>, i: usize| {
        let k = kinds[i];
        move || filter.get().is_none_or(|t| t == k)
    };
    let lit = move |i: usize| move || highlight.get() == Some(i);
    // The first component of each type starts a group (a thicker line).
    let starts: Vec<bool> = (0..registry.len())
        .map(|i| {
            order
                .iter()
                .position(|&j| j == i)
                .is_some_and(|at| at == 0 || kinds[order[at - 1]] != kinds[i])
        })
        .collect();
    let dead: Vec<bool> = (0..registry.len())
        .map(|i| matrix.dead.contains(&registry.get(i).name.to_string()))
        .collect();
    let head = order
        .iter()
        .map(|&j| {
            view! {
                <th scope="col" class="column" class:group-start-column=starts[j] class:dead=dead[j] class:lit=lit(j)
                    class:hidden={let s = shown(columns, j); move || !s()} data-column=registry.get(j).name.to_string()>
                    <span>{registry.label(j).to_owned()}</span>
                </th>
            }
        })
        .collect_view();
    let body = order
        .iter()
        .map(|&i| {
            let cells = order
                .iter()
                .map(|&j| {
                    let cell = matrix.cells[i][j];
                    let title = matrix.explain(registry, i, j);
                    view! {
                        <td
                            data-column=registry.get(j).name.to_string()
                            class=cell_class(cell)
                            class:group-start-column=starts[j]
                            class:lit={let (a, b) = (lit(i), lit(j)); move || a() || b()}
                            class:hidden={let s = shown(columns, j); move || !s()}
                            title=title
                        >
                            {cell.as_str()}
                        </td>
                    }
                })
                .collect_view();
            let name = registry.get(i).name.to_string();
            view! {
                <tr data-row=name.clone() class:group-start-row=starts[i] class:hidden={let s = shown(rows, i); move || !s()}>
                    <th scope="row" class="row" class:dead=dead[i] class:lit=lit(i)>
                        <button
                            type="button"
                            class="pick-row"
                            aria-pressed=move || if highlight.get() == Some(i) { "true" } else { "false" }
                            on:click=move |_| highlight.update(|h| *h = if *h == Some(i) { None } else { Some(i) })
                        >
                            {registry.get(i).display_label().to_owned()}
                        </button>
                        <span class="place">{registry.place(i)}</span>
                    </th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="matrix">
            <thead>
                <tr>
                    <th scope="col" class="corner">"Component"</th>
                    {head}
                </tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}

fn cell_class(cell: Cell) -> &'static str {
    match cell {
        Cell::Incompatible => "cell x",
        Cell::Requires => "cell r",
        Cell::Compatible => "cell c",
        Cell::Unknown => "cell",
    }
}
