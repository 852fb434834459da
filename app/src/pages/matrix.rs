//! A release's compatibility matrix (the component-registry spec's table):
//! rows and columns grouped by type, each cell what the row component
//! declares or implies towards the column one (X incompatible, R requires,
//! C tested together), dead components marked. The operator can keep the
//! rows and the columns to one type each and highlight a component's row
//! and column; the SVG is the one `mosaic components matrix` draws.

use leptos::prelude::*;
use mosaic_core::api::{ComponentView, ReleaseSummary};
use mosaic_core::component::{ComponentType, Highlight, Matrix, type_filters};

use crate::api::{self, ApiFailure};
use crate::catalog::Catalog;
use crate::components::loading::Loading;
use crate::components::matrix_table::MatrixTable;
use crate::route::{Route, set_title};

/// Release `id`'s matrix, from its summary and its components.
#[component]
pub fn MatrixPage(id: i64) -> impl IntoView {
    let releases = LocalResource::new(|| api::get::<Vec<ReleaseSummary>>(api::path::releases()));
    let components =
        LocalResource::new(move || api::get::<Vec<ComponentView>>(api::path::components(id)));
    let retry = Callback::new(move |()| {
        releases.refetch();
        components.refetch();
    });
    set_title("Compatibility matrix");
    view! {
        <section class="card matrix-page" data-page="matrix">
            <Loading label="Loading the components…" retry>
                {move || Suspend::new(async move {
                    let (release, catalog) = load(id, releases.await?, components.await?)?;
                    set_title(&format!("Compatibility matrix · {}", release.label()));
                    Ok::<_, ApiFailure>(view! { <MatrixView release catalog /> })
                })}
            </Loading>
        </section>
    }
}

/// Release `id` among `releases`, and its components compiled.
fn load(
    id: i64,
    releases: Vec<ReleaseSummary>,
    components: Vec<ComponentView>,
) -> Result<(ReleaseSummary, Catalog), ApiFailure> {
    let Some(release) = releases.into_iter().find(|r| r.id == id) else {
        return Err(ApiFailure::message(format!("There is no release {id}.")));
    };
    let catalog = Catalog::new(&release, components).map_err(ApiFailure::message)?;
    Ok((release, catalog))
}

/// The title, the legend, the filters with the downloads, and the table.
#[component]
fn MatrixView(release: ReleaseSummary, catalog: Catalog) -> impl IntoView {
    let registry = catalog.registry();
    let matrix = Matrix::of(&catalog.engine);
    let svg = matrix.to_svg(registry);
    let download = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        js_sys::encode_uri_component(&svg)
    );
    let table = matrix.table(registry);
    let rows = RwSignal::new(None::<ComponentType>);
    let columns = RwSignal::new(None::<ComponentType>);
    let highlight = RwSignal::new(Highlight::default());
    let title = format!("Compatibility matrix · {}", release.label());
    view! {
        <h1>{title}</h1>
        <p class="hint">
            "Each row says what its component declares or implies towards each column: "
            <b>"X"</b>
            " cannot be combined, "
            <b>"R"</b>
            " requires, "
            <b>"C"</b>
            " tested together; an empty cell: nothing is known. Struck-through components can never be selected. Choose a component to highlight its row and column."
        </p>
        <div class="matrix-tools">
            <TypeFilter label="Rows" class="row-filter" on_change=Callback::new(move |t| rows.set(t)) />
            <TypeFilter
                label="Columns"
                class="column-filter"
                on_change=Callback::new(move |t| columns.set(t))
            />
            <a class="button" href=download download=format!("{}-matrix.svg", release.label())>
                "Download SVG"
            </a>
            <a href=Route::Environments.path() class="button">
                "Back to the wizard"
            </a>
        </div>
        <div class="matrix-scroll" tabindex="0" role="region" aria-label="Compatibility matrix">
            <MatrixTable
                table
                rows
                columns
                highlight
                on_pick=Callback::new(move |i| highlight.update(|h| *h = h.pick(i)))
            />
        </div>
    }
}

/// A type filter: a `<select>` of every type, telling which one it keeps
/// (`None`: every type).
#[component]
fn TypeFilter(
    label: &'static str,
    class: &'static str,
    on_change: Callback<Option<ComponentType>>,
) -> impl IntoView {
    view! {
        <label class="field inline">
            <span>{label}</span>
            <select
                class=class
                on:change=move |ev| on_change.run(ComponentType::parse(&event_target_value(&ev)))
            >
                <option value="">"All types"</option>
                {type_filters()
                    .map(|(value, title)| view! { <option value=value>{title}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}
