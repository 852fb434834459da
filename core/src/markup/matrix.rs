//! The compatibility matrix as an HTML table (the SVG is
//! [`Matrix::to_svg`]): rows and columns grouped by type, each cell what
//! the row component declares or implies towards the column one, its
//! explanation as the cell's title, dead components marked.
//!
//! What the page changes afterwards goes through attributes the table
//! carries: every row (`tr`) has `data-row-type`, every column cell (`th`,
//! `td`) `data-column-type` — the component types, which the stylesheet
//! hides by the filters' choice — and every cell of component `k`'s row or
//! column has `data-i="k"` or `data-j="k"`, which the page marks `lit`.

use super::Markup;
use crate::component::{Cell, Matrix, Registry, type_order};

pub fn table(matrix: &Matrix, registry: &Registry) -> Markup {
    let order = type_order(registry);
    // The first component of each type starts a group (a thicker line).
    let starts: Vec<bool> = order
        .iter()
        .enumerate()
        .map(|(at, &i)| at == 0 || registry.get(order[at - 1]).kind() != registry.get(i).kind())
        .collect();
    let dead = |i: usize| matrix.dead.iter().any(|d| *d == matrix.components[i]);
    let mut m = Markup::new();
    m.open("table")
        .attr("class", "matrix")
        .open("thead")
        .open("tr");
    m.open("th").attr("scope", "col").attr("class", "corner");
    m.text("Component").close("th");
    for (at, &j) in order.iter().enumerate() {
        m.open("th").attr("scope", "col");
        m.classes(&[
            ("column", true),
            ("group-start-column", starts[at]),
            ("dead", dead(j)),
        ]);
        m.attr("data-column", &matrix.components[j]);
        m.attr("data-column-type", registry.get(j).kind().as_str());
        m.num("data-j", j)
            .leaf("span", registry.label(j))
            .close("th");
    }
    m.close("tr").close("thead").open("tbody");
    for (at, &i) in order.iter().enumerate() {
        row(&mut m, matrix, registry, i, starts[at], dead(i));
        for (col, &j) in order.iter().enumerate() {
            let cell = matrix.cells[i][j];
            m.open("td").attr("data-column", &matrix.components[j]);
            m.classes(&[
                (cell_class(cell), true),
                ("group-start-column", starts[col]),
            ]);
            m.attr("data-column-type", registry.get(j).kind().as_str());
            m.num("data-i", i).num("data-j", j);
            m.attr("title", &matrix.explain(registry, i, j));
            m.text(cell.as_str()).close("td");
        }
        m.close("tr");
    }
    m.close("tbody").close("table");
    m
}

/// A row's start and its header: the component's button (which picks it
/// for highlighting) and its place.
fn row(m: &mut Markup, matrix: &Matrix, registry: &Registry, i: usize, start: bool, dead: bool) {
    let component = registry.get(i);
    m.open("tr").attr("data-row", &matrix.components[i]);
    m.attr("data-row-type", component.kind().as_str());
    if start {
        m.attr("class", "group-start-row");
    }
    m.open("th").attr("scope", "row");
    m.classes(&[("row", true), ("dead", dead)]).num("data-i", i);
    m.open("button")
        .attr("type", "button")
        .attr("class", "pick-row");
    m.attr("aria-pressed", "false").num("data-i", i);
    m.text(component.display_label()).close("button");
    m.open("span")
        .attr("class", "place")
        .text(&registry.place(i));
    m.close("span").close("th");
}

fn cell_class(cell: Cell) -> &'static str {
    match cell {
        Cell::Incompatible => "cell x",
        Cell::Requires => "cell r",
        Cell::Compatible => "cell c",
        Cell::Unknown => "cell",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::{DEFAULT_REQUIRED_TYPES, Engine};

    use crate::component::matrix::tests::SEED;

    fn html() -> String {
        let registry = crate::component::test_registry(SEED);
        let engine = Engine::new(registry.clone(), &DEFAULT_REQUIRED_TYPES);
        table(&Matrix::of(&engine), &registry).into_string()
    }

    #[test]
    fn cells_carry_their_row_column_type_and_explanation() {
        let html = html();
        assert!(html.contains(
            r#"<td data-column="network:neutron:core:ml2" class="cell x" data-column-type="network" data-i="3" data-j="4" title="Contrail replaces ML2">X</td>"#
        ), "{html}");
        assert!(html.contains(r#"<tr data-row="network:neutron:core:contrail" data-row-type="network" class="group-start-row">"#));
        assert!(
            html.contains(r#"<tr data-row="network:neutron:core:ml2" data-row-type="network"><th"#)
        );
    }

    #[test]
    fn groups_start_with_a_line_and_dead_components_are_marked() {
        let html = html();
        // The first column of each type starts a group; the second does not.
        assert!(
            html.contains(
                r#"class="column group-start-column" data-column="hypervisor:libvirt:kvm""#
            ),
            "{html}"
        );
        assert!(html.contains(r#"class="column" data-column="hypervisor:libvirt:qemu""#));
        // It requires no hypervisor, and one is always chosen.
        assert!(html.contains(r#"class="column dead" data-column="storage:object:never""#));
        assert!(html.contains(r#"<th scope="row" class="row dead" data-i="8">"#));
        assert_eq!(html.matches(r#"class="pick-row""#).count(), 9);
    }
}
