//! The compatibility matrix (SEMANTICS §2.5a, the component-registry spec's
//! table): for every pair of a registry's components, what the row one
//! declares or implies towards the column one — incompatible, requires,
//! compatible or nothing — as data, as text, as an SVG drawing grouped
//! by component type, and as the app's table ([`Table`]) with the
//! component it highlights ([`Highlight`]).

use crate::svg::Markup;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::engine::Engine;
use super::layout::Pane;
use super::model::Quantifier;
use super::name::ComponentType;
use super::registry::Registry;
use super::validate::requirements;

/// One cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// Incompatible: either side declares it (duplex closure), or the row
    /// requires none of the column (`none_of`).
    #[serde(rename = "X")]
    Incompatible,
    /// The row requires the column: the column matches one of its
    /// (positive) requirements.
    #[serde(rename = "R")]
    Requires,
    /// A declared compatibility, either direction.
    #[serde(rename = "C")]
    Compatible,
    /// Nothing known (and the diagonal).
    #[serde(rename = "")]
    Unknown,
}

impl Cell {
    pub fn as_str(self) -> &'static str {
        match self {
            Cell::Incompatible => "X",
            Cell::Requires => "R",
            Cell::Compatible => "C",
            Cell::Unknown => "",
        }
    }
}

/// The matrix of a registry (the JSON of `mosaic components matrix`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matrix {
    /// Names in registry order.
    pub components: Vec<String>,
    /// `cells[i][j]`: what component i declares or implies towards j.
    pub cells: Vec<Vec<Cell>>,
    /// The components no valid selection can contain.
    pub dead: Vec<String>,
}

/// Where `X` wins over `R`, and `R` over `C`.
fn cell(
    registry: &Registry,
    required: &[Vec<usize>],
    forbidden: &[Vec<usize>],
    i: usize,
    j: usize,
) -> Cell {
    if i == j {
        Cell::Unknown
    } else if registry.conflict(i, j).is_some() || forbidden[i].contains(&j) {
        Cell::Incompatible
    } else if required[i].contains(&j) {
        Cell::Requires
    } else if registry.compatible(i, j) {
        Cell::Compatible
    } else {
        Cell::Unknown
    }
}

impl Matrix {
    pub fn of(engine: &Engine) -> Matrix {
        let registry = engine.registry();
        let n = registry.len();
        let mut required = vec![Vec::new(); n];
        let mut forbidden = vec![Vec::new(); n];
        for (i, (req, forb)) in required.iter_mut().zip(&mut forbidden).enumerate() {
            for r in requirements(registry, i) {
                let list = if r.quantifier == Quantifier::NoneOf {
                    &mut *forb
                } else {
                    &mut *req
                };
                list.extend(r.candidates.iter().copied());
            }
        }
        Matrix {
            components: (0..n).map(|i| registry.get(i).name.to_string()).collect(),
            cells: (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| cell(registry, &required, &forbidden, i, j))
                        .collect()
                })
                .collect(),
            dead: (0..n)
                .filter(|&i| engine.is_dead(i))
                .map(|i| registry.get(i).name.to_string())
                .collect(),
        }
    }

    /// Why cell (i, j) says what it says, for people.
    pub fn explain(&self, registry: &Registry, i: usize, j: usize) -> String {
        let (a, b) = (registry.label(i), registry.label(j));
        match self.cells[i][j] {
            Cell::Incompatible => match registry.conflict(i, j) {
                Some(conflict) => registry.conflict_message(&conflict),
                None => format!("{a} requires none of {b}"),
            },
            Cell::Requires => format!("{a} requires {b}"),
            Cell::Compatible => format!("{a} is tested with {b}"),
            Cell::Unknown => String::new(),
        }
    }

    /// A plain table: a numbered row per component, the cells as columns.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let width = self.components.iter().map(String::len).max().unwrap_or(0);
        let _ = write!(out, "{:>w$}  ", "", w = width + 4);
        for j in 0..self.components.len() {
            let _ = write!(out, "{:>3}", j + 1);
        }
        out.push('\n');
        for (i, name) in self.components.iter().enumerate() {
            let dead = if self.dead.contains(name) {
                " (dead)"
            } else {
                ""
            };
            let _ = write!(out, "{:>3} {:<w$}  ", i + 1, name, w = width);
            for c in &self.cells[i] {
                let _ = write!(
                    out,
                    "{:>3}",
                    if c.as_str().is_empty() {
                        "."
                    } else {
                        c.as_str()
                    }
                );
            }
            let _ = writeln!(out, "{dead}");
        }
        out.push_str(
            "X incompatible, R requires (row needs column), C tested together, . nothing known\n",
        );
        out
    }

    /// The matrix as SVG: rows and columns grouped by type with a heading
    /// per group, dead components struck through, every cell's meaning in
    /// its `<title>` (shown on hover). Written by [`Markup`], like every
    /// SVG document of Mosaic's.
    pub fn to_svg(&self, registry: &Registry) -> String {
        let layout = SvgLayout::new(registry);
        let n = layout.order.len();
        let groups = ComponentType::ALL.len();
        let mut m = Markup::new();
        m.open("svg").attr("xmlns", "http://www.w3.org/2000/svg");
        m.num("width", SVG_LABEL + n * SVG_CELL + groups * SVG_GAP + 10);
        m.num("height", SVG_HEAD + n * SVG_CELL + groups * SVG_GAP + 10);
        m.attr("font-family", "sans-serif").attr("font-size", "11");
        m.leaf("title", "Compatibility matrix");
        self.svg_labels(&mut m, &layout);
        self.svg_cells(&mut m, registry, &layout);
        for kind in ComponentType::ALL {
            let first = layout
                .order
                .iter()
                .position(|&i| registry.get(i).kind() == kind);
            if let Some(k) = first {
                m.open("text").attr("x", "4");
                m.num("y", SVG_HEAD + layout.pos[k] + SVG_CELL - 5);
                m.attr("font-weight", "bold");
                m.text(type_title(kind)).close("text");
            }
        }
        m.close("svg");
        m.into_string()
    }

    /// Each component's name, before its row and (turned) above its
    /// column; a dead one struck through in red.
    fn svg_labels(&self, m: &mut Markup, layout: &SvgLayout) {
        for (k, &i) in layout.order.iter().enumerate() {
            let name = &self.components[i];
            let dead = self.dead.contains(name);
            let strike = |m: &mut Markup| {
                if dead {
                    m.attr("text-decoration", "line-through")
                        .attr("fill", "#b91c1c");
                }
            };
            m.open("text").num("x", SVG_LABEL - 6);
            m.num("y", SVG_HEAD + layout.pos[k] + SVG_CELL - 5);
            m.attr("text-anchor", "end");
            strike(m);
            m.open("title").text(name);
            if dead {
                m.text(" (dead: no valid selection can contain it)");
            }
            m.close("title").text(name).close("text");
            let x = SVG_LABEL + layout.pos[k] + SVG_CELL / 2 + 4;
            let turn = format!("translate({x},{}) rotate(-60)", SVG_HEAD - 4);
            m.open("text").attr("transform", &turn);
            strike(m);
            m.text(name).close("text");
        }
    }

    /// One square per pair, coloured by its cell, its meaning in its title.
    fn svg_cells(&self, m: &mut Markup, registry: &Registry, layout: &SvgLayout) {
        for (k, &i) in layout.order.iter().enumerate() {
            for (l, &j) in layout.order.iter().enumerate() {
                let cell = self.cells[i][j];
                let fill = match cell {
                    Cell::Incompatible => "#fecaca",
                    Cell::Requires => "#bfdbfe",
                    Cell::Compatible => "#bbf7d0",
                    Cell::Unknown if i == j => "#e2e8f0",
                    Cell::Unknown => "#ffffff",
                };
                let (x, y) = (SVG_LABEL + layout.pos[l], SVG_HEAD + layout.pos[k]);
                m.open("g").open("rect").num("x", x).num("y", y);
                m.num("width", SVG_CELL).num("height", SVG_CELL);
                m.attr("fill", fill).attr("stroke", "#cbd5e1").close("rect");
                let title = self.explain(registry, i, j);
                if !title.is_empty() {
                    m.leaf("title", &title);
                    m.open("text").num("x", x + SVG_CELL / 2);
                    m.num("y", y + SVG_CELL - 5).attr("text-anchor", "middle");
                    m.text(cell.as_str()).close("text");
                }
                m.close("g");
            }
        }
    }
}

/// The SVG drawing's measures, in pixels: a cell's side, the room left
/// of the rows for their labels, above the columns for theirs, and
/// between two groups of components.
const SVG_CELL: usize = 18;
const SVG_LABEL: usize = 230;
const SVG_HEAD: usize = 150;
const SVG_GAP: usize = 6;

/// Where each component sits in the SVG drawing: grouped by type, and
/// each one's offset along the rows (and the columns), gaps included.
struct SvgLayout {
    order: Vec<usize>,
    pos: Vec<usize>,
}

impl SvgLayout {
    fn new(registry: &Registry) -> SvgLayout {
        let order = type_order(registry);
        let pos = order
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let kind = registry.get(i).kind();
                let groups_before = ComponentType::ALL
                    .iter()
                    .position(|t| *t == kind)
                    .unwrap_or(0);
                k * SVG_CELL + groups_before * SVG_GAP
            })
            .collect();
        SvgLayout { order, pos }
    }
}

/// Component indices grouped by type (Compute, Networking, Storage,
/// Additional services), registry order within each group.
pub fn type_order(registry: &Registry) -> Vec<usize> {
    let mut order: Vec<usize> = (0..registry.len()).collect();
    order.sort_by_key(|&i| (registry.get(i).kind(), i));
    order
}

/// What a type's group is called (its wizard pane's title: "Compute",
/// "Networking", …).
pub fn type_title(kind: ComponentType) -> &'static str {
    Pane::ALL
        .iter()
        .find(|p| p.component_type() == kind)
        .map_or("", |p| p.title())
}

/// What the page's type filters offer, in order: every type, as the
/// filter's value (the type's name) and its group's title.
pub fn type_filters() -> impl Iterator<Item = (&'static str, &'static str)> {
    Pane::ALL
        .into_iter()
        .map(|p| (p.component_type().as_str(), p.title()))
}

/// The matrix as the page's table shows it: the components grouped by
/// type ([`type_order`]), each a column and a row in the same order, and
/// every cell with its explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The components in table order: the columns' headings, left to
    /// right, and the rows' headings, top to bottom.
    pub headers: Vec<Header>,
    /// `cells[a][b]`: the cell in the row of `headers[a]` and the column of
    /// `headers[b]`.
    pub cells: Vec<Vec<TableCell>>,
}

/// A component as a row's and a column's heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Its registry index: what the highlight is kept by.
    pub index: usize,
    pub name: String,
    pub kind: ComponentType,
    /// The column's heading ([`Registry::label`]).
    pub label: String,
    /// The row's heading: its label (or name) and its place.
    pub display_label: String,
    pub place: String,
    /// The first component of its type: a group starts (a thicker line).
    pub group_start: bool,
    /// No valid selection can contain it.
    pub dead: bool,
}

/// One cell of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCell {
    pub cell: Cell,
    /// Why it says what it says ([`Matrix::explain`]).
    pub title: String,
}

impl Matrix {
    /// The table of `registry`'s matrix.
    pub fn table(&self, registry: &Registry) -> Table {
        let order = type_order(registry);
        let headers: Vec<Header> = order
            .iter()
            .enumerate()
            .map(|(at, &i)| {
                let component = registry.get(i);
                Header {
                    index: i,
                    name: self.components[i].clone(),
                    kind: component.kind(),
                    label: registry.label(i).to_owned(),
                    display_label: component.display_label().to_owned(),
                    place: registry.place(i),
                    group_start: at == 0 || registry.get(order[at - 1]).kind() != component.kind(),
                    dead: self.dead.contains(&self.components[i]),
                }
            })
            .collect();
        let cells = order
            .iter()
            .map(|&i| {
                order
                    .iter()
                    .map(|&j| TableCell {
                        cell: self.cells[i][j],
                        title: self.explain(registry, i, j),
                    })
                    .collect()
            })
            .collect();
        Table { headers, cells }
    }
}

/// The component whose row and column the page lights, if any: one at a
/// time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Highlight(pub Option<usize>);

impl Highlight {
    /// Picking component `i` lights its row and column, or puts them out
    /// when they are lit.
    pub fn pick(self, i: usize) -> Highlight {
        Highlight((self.0 != Some(i)).then_some(i))
    }

    /// Whether component `i`'s row and column are lit: its headings, and
    /// every cell of both (a cell is lit when its row's or its column's
    /// component is).
    pub fn lights(self, i: usize) -> bool {
        self.0 == Some(i)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::component::DEFAULT_REQUIRED_TYPES;

    /// The component-registry spec's example.
    pub(crate) const SEED: &str = r#"
- {name: 'hypervisor:libvirt:kvm', label: KVM, compatible: [{name: 'hypervisor:libvirt:qemu'}]}
- {name: 'hypervisor:libvirt:qemu', label: QEMU}
- {name: 'hypervisor:vmware', label: vCenter}
- {name: 'network:neutron:core:contrail', label: Contrail, incompatible: [{name: 'network:neutron:core:ml2', message: 'Contrail replaces ML2'}]}
- {name: 'network:neutron:core:ml2', label: ML2}
- {name: 'network:neutron:ml2:dvs', label: DVS, requires: [{name: 'network:neutron:core:ml2'}, {name: 'hypervisor:vmware'}]}
- {name: 'storage:block:ceph', label: Ceph, incompatible: [{name: 'storage:block:lvm'}]}
- {name: 'storage:block:lvm', label: LVM}
- {name: 'storage:object:never', requires: [{none_of: {items: ['hypervisor:*']}}]}
"#;

    fn matrix() -> (Matrix, Registry) {
        let registry = crate::component::test_registry(SEED);
        let engine = Engine::new(registry.clone(), &DEFAULT_REQUIRED_TYPES);
        (Matrix::of(&engine), registry)
    }

    #[test]
    fn cells_follow_the_seed_table() {
        let (m, registry) = matrix();
        let at = |a: &str, b: &str| {
            m.cells[registry.position(a).unwrap()][registry.position(b).unwrap()]
        };
        assert_eq!(
            at("hypervisor:libvirt:kvm", "hypervisor:libvirt:qemu"),
            Cell::Compatible
        );
        assert_eq!(
            at("hypervisor:libvirt:qemu", "hypervisor:libvirt:kvm"),
            Cell::Compatible
        );
        assert_eq!(
            at("network:neutron:core:contrail", "network:neutron:core:ml2"),
            Cell::Incompatible
        );
        assert_eq!(
            at("network:neutron:core:ml2", "network:neutron:core:contrail"),
            Cell::Incompatible
        );
        assert_eq!(
            at("network:neutron:ml2:dvs", "hypervisor:vmware"),
            Cell::Requires
        );
        assert_eq!(
            at("hypervisor:vmware", "network:neutron:ml2:dvs"),
            Cell::Unknown
        );
        assert_eq!(
            at("storage:block:lvm", "storage:block:ceph"),
            Cell::Incompatible
        );
        assert_eq!(
            at("storage:object:never", "hypervisor:vmware"),
            Cell::Incompatible
        );
        assert_eq!(at("storage:block:lvm", "storage:block:lvm"), Cell::Unknown);
        // No hypervisor at all is no valid selection.
        assert_eq!(m.dead, ["storage:object:never"]);
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(json["cells"][0][1], "C");
        assert_eq!(json["cells"][0][0], "");
    }

    #[test]
    fn drawings_group_by_type_and_say_why() {
        let (m, registry) = matrix();
        let svg = m.to_svg(&registry);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("<title>Contrail replaces ML2</title>"));
        assert!(svg.contains(">Networking</text>") && svg.contains(">Storage</text>"));
        assert!(svg.contains("line-through"));
        let text = m.to_text();
        assert!(
            text.contains("storage:object:never") && text.contains("(dead)"),
            "{text}"
        );
    }

    #[test]
    fn the_table_groups_by_type_and_carries_each_cells_explanation() {
        let (m, registry) = matrix();
        let table = m.table(&registry);
        let names: Vec<&str> = table.headers.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(
            names[..4],
            [
                "hypervisor:libvirt:kvm",
                "hypervisor:libvirt:qemu",
                "hypervisor:vmware",
                "network:neutron:core:contrail"
            ]
        );
        let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
        let (contrail, ml2) = (
            at("network:neutron:core:contrail"),
            at("network:neutron:core:ml2"),
        );
        let cell = &table.cells[contrail][ml2];
        assert_eq!(cell.cell, Cell::Incompatible);
        assert_eq!(cell.title, "Contrail replaces ML2");
        assert_eq!(table.cells[ml2][ml2].title, "");
        let header = &table.headers[contrail];
        assert_eq!((header.index, header.kind), (3, ComponentType::Network));
        assert_eq!(
            (header.label.as_str(), header.display_label.as_str()),
            ("Contrail", "Contrail")
        );
        assert_eq!(header.place, "network core");
        // The first component of each type starts a group; the second does not.
        let starts: Vec<&str> = table
            .headers
            .iter()
            .filter(|h| h.group_start)
            .map(|h| h.name.as_str())
            .collect();
        assert_eq!(
            starts,
            [
                "hypervisor:libvirt:kvm",
                "network:neutron:core:contrail",
                "storage:block:ceph"
            ]
        );
        // It requires no hypervisor, and one is always chosen.
        let dead: Vec<&str> = table
            .headers
            .iter()
            .filter(|h| h.dead)
            .map(|h| h.name.as_str())
            .collect();
        assert_eq!(dead, ["storage:object:never"]);
    }

    #[test]
    fn a_pick_lights_one_component_and_a_second_pick_puts_it_out() {
        let lit = Highlight::default().pick(3);
        assert!(lit.lights(3) && !lit.lights(4));
        assert_eq!(lit.pick(4), Highlight(Some(4)));
        assert_eq!(lit.pick(3), Highlight(None));
        let filters: Vec<_> = type_filters().collect();
        assert_eq!(filters[0], ("hypervisor", "Compute"));
        assert_eq!(filters.len(), 4);
    }
}
