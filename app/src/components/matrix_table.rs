//! The compatibility matrix as a table (core's [`Table`]; the SVG is
//! `Matrix::to_svg`): rows and columns grouped by type, each cell what the
//! row component declares or implies towards the column one, its
//! explanation as the cell's title, dead components marked.
//!
//! Every row (`tr`) carries `data-row-type` and every column cell (`th`,
//! `td`) `data-column-type`, the component types: the stylesheet hides
//! them by the holder's `data-rows` and `data-columns`, the filters'
//! choice. A row's button picks its component; the highlighted one's
//! headings and every cell of its row and column are `lit`.

use leptos::prelude::*;
use mosaic_core::component::{Cell, ComponentType, Header, Highlight, Table, TableCell};

#[component]
pub fn MatrixTable(
    table: Table,
    /// The type the rows are kept to (`None`: every type).
    #[prop(into)]
    rows: Signal<Option<ComponentType>>,
    /// The type the columns are kept to.
    #[prop(into)]
    columns: Signal<Option<ComponentType>>,
    /// The component whose row and column are lit.
    #[prop(into)]
    highlight: Signal<Highlight>,
    /// A row's button used: the registry index of its component.
    on_pick: Callback<usize>,
) -> impl IntoView {
    let Table { headers, cells } = table;
    // One signal per component, so that a pick tells only the row and
    // column it lights and the ones it puts out, not every cell.
    let lit: Vec<Memo<bool>> = headers
        .iter()
        .map(|h| {
            let i = h.index;
            Memo::new(move |_| highlight.get().lights(i))
        })
        .collect();
    let kept = |filter: Signal<Option<ComponentType>>| move || filter.get().map(|t| t.as_str());
    let column_heads = headers
        .iter()
        .zip(&lit)
        .map(|(column, &lit)| column_head(column, lit))
        .collect_view();
    let body = headers
        .iter()
        .zip(cells)
        .zip(&lit)
        .map(|((row, cells), &row_lit)| {
            let row_cells = cells
                .into_iter()
                .zip(&headers)
                .zip(&lit)
                .map(|((cell, column), &column_lit)| {
                    cell_view(cell, row.index, column, move || {
                        row_lit.get() || column_lit.get()
                    })
                })
                .collect_view();
            row_view(row, row_lit, on_pick, row_cells)
        })
        .collect_view();
    view! {
        <div class="matrix-holder" data-rows=kept(rows) data-columns=kept(columns)>
            <table
                class="matrix"
                data-lit=move || highlight.get().0.map(|i| i.to_string())
            >
                <thead>
                    <tr>
                        <th scope="col" class="corner">"Component"</th>
                        {column_heads}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// A column's heading.
fn column_head(column: &Header, lit: Memo<bool>) -> impl IntoView + use<> {
    view! {
        <th
            scope="col"
            class="column"
            class:group-start-column=column.group_start
            class:dead=column.dead
            class:lit=move || lit.get()
            data-column=column.name.clone()
            data-column-type=column.kind.as_str()
            data-j=column.index.to_string()
        >
            <span>{column.label.clone()}</span>
        </th>
    }
}

/// A row: its heading, whose button picks its component, then `cells`.
fn row_view<C: IntoView + 'static>(
    row: &Header,
    lit: Memo<bool>,
    on_pick: Callback<usize>,
    cells: C,
) -> impl IntoView + use<C> {
    let i = row.index;
    view! {
        <tr data-row=row.name.clone() data-row-type=row.kind.as_str() class:group-start-row=row.group_start>
            <th scope="row" class="row" class:dead=row.dead class:lit=move || lit.get() data-i=i.to_string()>
                <button
                    type="button"
                    class="pick-row"
                    aria-pressed=move || if lit.get() { "true" } else { "false" }
                    data-i=i.to_string()
                    on:click=move |_| on_pick.run(i)
                >
                    {row.display_label.clone()}
                </button>
                <span class="place">{row.place.clone()}</span>
            </th>
            {cells}
        </tr>
    }
}

/// The cell of row `i` in `column`, lit while `lit` says so.
fn cell_view<L: Fn() -> bool + Send + Sync + 'static>(
    cell: TableCell,
    i: usize,
    column: &Header,
    lit: L,
) -> impl IntoView + use<L> {
    view! {
        <td
            data-column=column.name.clone()
            class=cell_class(cell.cell)
            class:group-start-column=column.group_start
            class:lit=lit
            data-column-type=column.kind.as_str()
            data-i=i.to_string()
            data-j=column.index.to_string()
            title=cell.title
        >
            {cell.cell.as_str()}
        </td>
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
