//! An environment's node table: its filters, the bulk bar over the nodes
//! selected, how many nodes are shown, the table with its sortable header
//! and one page of rows — per node its selection box, name, status, roles,
//! tags and actions, and under the node being edited its editor — and the
//! pager.
//!
//! The table is interactive: the app writes it again whenever what the
//! admin chose changes, and merges the new text into the page (`morph` in
//! the app) so that the control in use keeps focus. Every part and every
//! row carries `data-key`, so a row is only ever merged into the row of
//! the same node, and the bulk bar coming or going leaves the table the
//! same element.

use super::Markup;
use crate::api::NodeView;
use crate::name::NodeStatus;
use crate::nodes::NodeSort;

/// Rows on one page of the table.
pub const PAGE: usize = 50;

/// What the table's controls show.
#[derive(Debug, Clone, Copy)]
pub struct Controls<'a> {
    /// The filters as typed or chosen (a role by id, a status by name).
    pub name: &'a str,
    pub role: &'a str,
    pub tag: &'a str,
    pub status: &'a str,
    /// How many nodes a check narrowed the table to (0: it did not).
    pub only: usize,
    /// The roles to filter by: (id, label).
    pub roles: &'a [(String, String)],
    pub sort: NodeSort,
    pub descending: bool,
    /// The page shown (from 0), how many nodes pass the filters, how many
    /// the environment has.
    pub page: usize,
    pub shown: usize,
    pub total: usize,
    pub selected: usize,
    /// Every node the filters let through is selected.
    pub all_selected: bool,
}

impl Controls<'_> {
    /// How many pages the nodes shown take (at least one).
    pub fn pages(&self) -> usize {
        self.shown.div_ceil(PAGE).max(1)
    }
}

/// The filters: name, role, tag (from the page's `known-tags` list) and
/// status; and, while a check narrowed the table, the way back to all.
pub fn filters(c: &Controls<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "node-filters")
        .attr("role", "search");
    m.attr("data-key", "filters");
    m.open("label")
        .text("Name ")
        .open("input")
        .attr("class", "filter-name");
    m.attr("type", "search")
        .attr("placeholder", "e.g. rack3")
        .attr("value", c.name)
        .close("label");
    m.open("label").text("Role ").open("select");
    m.attr("class", "filter-role");
    let roles = c
        .roles
        .iter()
        .map(|(id, label)| (id.as_str(), label.as_str()));
    options(&mut m, roles, c.role);
    m.close("select").close("label");
    m.open("label")
        .text("Tag ")
        .open("input")
        .attr("class", "filter-tag");
    m.attr("list", "known-tags")
        .attr("placeholder", "any")
        .attr("value", c.tag)
        .close("label");
    m.open("label").text("Status ").open("select");
    m.attr("class", "filter-status");
    let statuses = NodeStatus::ALL.iter().map(|s| (s.as_str(), s.as_str()));
    options(&mut m, statuses, c.status);
    m.close("select").close("label");
    if c.only > 0 {
        m.open("button")
            .attr("class", "show-all")
            .text("Showing the ");
        m.text(&c.only.to_string())
            .text(" nodes of a check — show all")
            .close("button");
    }
    m.close("div");
    m
}

/// "any", then `(value, label)` each; the one whose value is `chosen`
/// selected.
fn options<'a>(m: &mut Markup, list: impl Iterator<Item = (&'a str, &'a str)>, chosen: &str) {
    m.open("option")
        .attr("value", "")
        .flag("selected", chosen.is_empty())
        .text("any")
        .close("option");
    for (value, label) in list {
        m.open("option")
            .attr("value", value)
            .flag("selected", chosen == value)
            .text(label)
            .close("option");
    }
}

/// "Nodes 51–100 of 200 (filtered from 1000); 20 selected", announced.
pub fn summary(c: &Controls<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("p")
        .attr("class", "node-count")
        .attr("data-key", "summary")
        .attr("aria-live", "polite");
    if c.shown == 0 {
        m.text("No node matches");
    } else {
        let first = c.page * PAGE + 1;
        let last = (c.page * PAGE + PAGE).min(c.shown);
        m.text(&format!("Nodes {first}–{last} of {}", c.shown));
    }
    if c.shown != c.total {
        m.text(&format!(" (filtered from {})", c.total));
    }
    if c.selected > 0 {
        m.text(&format!("; {} selected", c.selected));
    }
    m.close("p");
    m
}

/// The table around `rows`: its caption and its header, where Name,
/// Status and Roles sort (`data-sort`) and a box selects every node the
/// filters let through.
pub fn table(c: &Controls<'_>, rows: Markup) -> Markup {
    let mut m = Markup::new();
    m.open("table").attr("class", "nodes-table");
    m.attr("data-key", "table").open("caption");
    m.attr("class", "visually-hidden")
        .text("The environment's nodes")
        .close("caption");
    m.open("thead").open("tr").open("th").attr("scope", "col");
    m.open("input")
        .attr("type", "checkbox")
        .attr("class", "select-all");
    m.attr("aria-label", "Select every node the filter shows")
        .flag("checked", c.all_selected)
        .close("th");
    for (sort, label) in NodeSort::COLUMNS {
        sort_header(&mut m, c, sort, label);
    }
    m.open("th").attr("scope", "col").text("Tags").close("th");
    m.open("th")
        .attr("scope", "col")
        .text("Actions")
        .close("th");
    m.close("tr").close("thead").open("tbody");
    m.append(rows).close("tbody").close("table");
    m
}

fn sort_header(m: &mut Markup, c: &Controls<'_>, sort: NodeSort, label: &str) {
    let current = c.sort == sort;
    let (order, arrow) = match (current, c.descending) {
        (true, true) => ("descending", " ▼"),
        (true, false) => ("ascending", " ▲"),
        (false, _) => ("none", ""),
    };
    m.open("th").attr("scope", "col").attr("aria-sort", order);
    m.open("button")
        .classes(&[("sort", true), ("current", current)])
        .attr("data-sort", label);
    m.text(label).text(arrow).close("button").close("th");
}

/// Previous and Next, when the nodes shown take more than a page.
pub fn pager(c: &Controls<'_>) -> Markup {
    let mut m = Markup::new();
    let pages = c.pages();
    if pages < 2 {
        return m;
    }
    m.open("nav")
        .attr("class", "pages")
        .attr("data-key", "pager")
        .attr("aria-label", "Pages of nodes");
    m.open("button")
        .attr("class", "previous-page")
        .flag("disabled", c.page == 0)
        .text("Previous")
        .close("button");
    m.leaf("span", &format!(" Page {} of {pages} ", c.page + 1));
    m.open("button")
        .attr("class", "next-page")
        .flag("disabled", c.page + 1 >= pages)
        .text("Next")
        .close("button");
    m.close("nav");
    m
}

/// What the bulk bar shows: the tags typed and the role chosen, for the
/// nodes selected.
#[derive(Debug, Clone, Copy)]
pub struct Bulk<'a> {
    pub selected: usize,
    pub tags: &'a str,
    pub role: &'a str,
    pub roles: &'a [(String, String)],
    /// A change is on its way: its buttons wait.
    pub busy: bool,
}

/// The changes to every node selected: assign or unassign tags, add or
/// remove a role, clear the selection.
pub fn bulk_bar(b: &Bulk<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "bulk-bar")
        .attr("role", "group");
    m.attr("data-key", "bulk");
    m.attr("aria-label", "Change the selected nodes")
        .open("strong");
    m.text(&b.selected.to_string())
        .text(" selected:")
        .close("strong");
    m.open("label")
        .text("Tags ")
        .open("input")
        .attr("class", "bulk-tags");
    m.attr("list", "known-tags")
        .attr("placeholder", "rabbitmq mysql:1")
        .attr("value", b.tags)
        .close("label");
    bulk_button(&mut m, "bulk-assign", "Assign", b.busy);
    bulk_button(&mut m, "bulk-unassign", "Unassign", b.busy);
    m.open("label")
        .text("Role ")
        .open("select")
        .attr("class", "bulk-role");
    m.open("option")
        .attr("value", "")
        .flag("selected", b.role.is_empty())
        .text("choose")
        .close("option");
    for (id, label) in b.roles {
        m.open("option")
            .attr("value", id)
            .flag("selected", b.role == id)
            .text(label)
            .close("option");
    }
    m.close("select").close("label");
    bulk_button(&mut m, "bulk-add-role", "Add role", b.busy);
    bulk_button(&mut m, "bulk-remove-role", "Remove role", b.busy);
    bulk_button(&mut m, "bulk-clear", "Clear selection", false);
    m.close("div");
    m
}

/// A failure to show under the table (a node not deleted).
pub fn error(message: &str) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "notice notice-error")
        .attr("data-key", "error")
        .attr("role", "alert")
        .text(message)
        .close("div");
    m
}

fn bulk_button(m: &mut Markup, class: &'static str, label: &str, busy: bool) {
    m.open("button")
        .attr("class", class)
        .attr("data-bulk", class)
        .flag("disabled", busy)
        .text(label)
        .close("button");
}

/// What the rows show beyond the nodes themselves.
#[derive(Clone, Copy)]
pub struct RowState<'a> {
    /// Whether a node (by id) is selected.
    pub selected: &'a dyn Fn(i64) -> bool,
    /// The node whose editor is open.
    pub editing: Option<i64>,
    /// An operator may change nodes (Edit, Delete); a viewer sees Details.
    pub editable: bool,
    /// The editor of the node being edited ([`super::node_forms::editor`]).
    pub editor: &'a dyn Fn(&NodeView) -> Markup,
}

/// The rows of `nodes`, in order.
pub fn rows(nodes: &[&NodeView], state: RowState<'_>) -> Markup {
    let mut m = Markup::new();
    for node in nodes {
        row(&mut m, node, state);
        if state.editing == Some(node.id) {
            m.open("tr")
                .attr("class", "node-editor")
                .attr("data-key", &format!("editor-{}", node.id));
            m.open("td").attr("colspan", "6");
            m.append((state.editor)(node)).close("td").close("tr");
        }
    }
    m
}

fn row(m: &mut Markup, node: &NodeView, state: RowState<'_>) {
    let selected = (state.selected)(node.id);
    let editing = state.editing == Some(node.id);
    m.open("tr")
        .classes(&[("node-row", true), ("selected", selected)])
        .num_i64("data-node", node.id)
        .num_i64("data-key", node.id);
    m.open("td").open("input").attr("type", "checkbox");
    m.attr("class", "select-node")
        .attr("aria-label", &format!("Select {}", node.name))
        .flag("checked", selected)
        .close("td");
    m.open("th")
        .attr("scope", "row")
        .attr("class", "node-name")
        .text(&node.name)
        .close("th");
    m.leaf("td", node.status.as_str());
    let roles: Vec<&str> = node.roles.iter().map(|r| r.as_str()).collect();
    m.open("td")
        .attr("class", "node-roles")
        .text(&roles.join(", "))
        .close("td");
    m.open("td").open("div").attr("class", "chips");
    for tag in &node.tags {
        m.open("span")
            .classes(&[("chip", true), ("from-role", node.role_tags.contains(tag))])
            .attr("data-tag", tag.as_str())
            .text(tag.as_str())
            .close("span");
    }
    m.close("div").close("td");
    m.open("td").attr("class", "actions").open("button");
    m.attr("class", "edit-node")
        .attr("aria-expanded", if editing { "true" } else { "false" });
    m.text(match (editing, state.editable) {
        (true, _) => "Close",
        (false, true) => "Edit",
        (false, false) => "Details",
    })
    .close("button");
    if state.editable {
        m.open("button")
            .attr("class", "delete-node danger")
            .text("Delete")
            .close("button");
    }
    m.close("td").close("tr");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: i64, name: &str) -> NodeView {
        let tags = ["controller", "mysql"];
        NodeView::sample(id, name, &["controller"], &tags, &["controller"])
    }

    #[test]
    fn a_row_shows_the_node_and_marks_the_selection_and_the_tags_roles_bring() {
        let (a, b) = (node(1, "rack1-1"), node(2, "rack1-2"));
        let state = RowState {
            selected: &|id| id == 2,
            editing: None,
            editable: true,
            editor: &|_| Markup::new(),
        };
        let html = rows(&[&a, &b], state).into_string();
        assert!(html.starts_with(
            r#"<tr class="node-row" data-node="1" data-key="1"><td><input type="checkbox" class="select-node" aria-label="Select rack1-1"></td>"#
        ), "{html}");
        assert!(html.contains(r#"<tr class="node-row selected" data-node="2" data-key="2"><td><input type="checkbox" class="select-node" aria-label="Select rack1-2" checked="">"#));
        assert!(html.contains(r#"<td>ready</td><td class="node-roles">controller</td>"#));
        assert!(html.contains(r#"<span class="chip from-role" data-tag="controller">controller</span><span class="chip" data-tag="mysql">mysql</span>"#));
        assert!(html.contains(r#"<button class="edit-node" aria-expanded="false">Edit</button><button class="delete-node danger">Delete</button>"#));
        assert!(!html.contains("node-editor"));
    }

    #[test]
    fn the_node_edited_has_its_editor_under_it_and_a_viewer_sees_details_only() {
        let (a, b) = (node(1, "a"), node(2, "b"));
        let state = RowState {
            selected: &|_| false,
            editing: Some(1),
            editable: false,
            editor: &|n| {
                let mut m = Markup::new();
                m.leaf("p", &n.name);
                m
            },
        };
        let html = rows(&[&a, &b], state).into_string();
        assert!(html.contains(r#"<button class="edit-node" aria-expanded="true">Close</button></td></tr><tr class="node-editor" data-key="editor-1"><td colspan="6"><p>a</p></td></tr><tr class="node-row" data-node="2""#), "{html}");
        assert!(html.contains(r#"aria-expanded="false">Details</button></td></tr>"#));
        assert!(!html.contains("delete-node"));
    }

    #[test]
    fn a_hostile_node_name_stays_text() {
        let a = node(1, r#"<img src=x onerror="alert(1)">"#);
        let state = RowState {
            selected: &|_| false,
            editing: None,
            editable: true,
            editor: &|_| Markup::new(),
        };
        let html = rows(&[&a], state).into_string();
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"));
    }

    fn controls<'a>(roles: &'a [(String, String)]) -> Controls<'a> {
        Controls {
            name: "rack3",
            role: "compute",
            tag: "",
            status: "",
            only: 0,
            roles,
            sort: NodeSort::Name,
            descending: false,
            page: 1,
            shown: 120,
            total: 1000,
            selected: 20,
            all_selected: false,
        }
    }

    fn roles() -> Vec<(String, String)> {
        vec![
            ("compute".to_owned(), "Compute".to_owned()),
            ("controller".to_owned(), "Controller".to_owned()),
        ]
    }

    #[test]
    fn the_filters_show_what_was_typed_and_chosen_and_the_way_back_from_a_check() {
        let roles = roles();
        let mut c = controls(&roles);
        let html = filters(&c).into_string();
        assert!(
            html.contains(
                r#"class="filter-name" type="search" placeholder="e.g. rack3" value="rack3">"#
            ),
            "{html}"
        );
        assert!(html.contains(r#"<option value="">any</option><option value="compute" selected="">Compute</option><option value="controller">Controller</option>"#), "{html}");
        assert!(
            html.contains(r#"<option value="" selected="">any</option><option value="discover">"#),
            "{html}"
        );
        assert!(!html.contains("show-all"));
        c.only = 7;
        let html = filters(&c).into_string();
        assert!(
            html.contains(
                r#"<button class="show-all">Showing the 7 nodes of a check — show all</button>"#
            ),
            "{html}"
        );
    }

    #[test]
    fn the_summary_counts_the_page_the_filter_and_the_selection() {
        let roles = roles();
        let mut c = controls(&roles);
        let text = |c: &Controls<'_>| summary(c).into_string();
        assert!(
            text(&c).contains(">Nodes 51–100 of 120 (filtered from 1000); 20 selected</p>"),
            "{}",
            text(&c)
        );
        c.page = 2;
        assert!(text(&c).contains(">Nodes 101–120 of 120"), "{}", text(&c));
        (c.shown, c.total, c.selected) = (0, 0, 0);
        assert!(text(&c).ends_with(">No node matches</p>"), "{}", text(&c));
    }

    #[test]
    fn the_header_marks_the_sort_and_the_pager_stops_at_both_ends() {
        let roles = roles();
        let mut c = controls(&roles);
        c.descending = true;
        let html = table(&c, Markup::new()).into_string();
        assert!(html.contains(r#"<th scope="col" aria-sort="descending"><button class="sort current" data-sort="Name">Name ▼</button>"#), "{html}");
        assert!(html.contains(r#"<th scope="col" aria-sort="none"><button class="sort" data-sort="Status">Status</button>"#), "{html}");
        assert!(html.ends_with("<tbody></tbody></table>"), "{html}");
        assert!(pager(&c).into_string().contains(" Page 2 of 3 "));
        assert!(!pager(&c).into_string().contains("disabled"));
        c.page = 2;
        assert!(
            pager(&c)
                .into_string()
                .contains(r#"class="next-page" disabled="""#)
        );
        c.shown = PAGE;
        assert_eq!(pager(&c).into_string(), "");
    }

    #[test]
    fn the_bulk_bar_keeps_what_was_typed_and_waits_while_busy() {
        let roles = roles();
        let b = Bulk {
            selected: 3,
            tags: "mysql:1",
            role: "controller",
            roles: &roles,
            busy: true,
        };
        let html = bulk_bar(&b).into_string();
        assert!(html.contains("<strong>3 selected:</strong>"), "{html}");
        assert!(html.contains(r#"value="mysql:1">"#), "{html}");
        assert!(
            html.contains(r#"<option value="controller" selected="">Controller</option>"#),
            "{html}"
        );
        assert!(
            html.contains(
                r#"<button class="bulk-assign" data-bulk="bulk-assign" disabled="">Assign</button>"#
            ),
            "{html}"
        );
        assert!(
            html.contains(
                r#"<button class="bulk-clear" data-bulk="bulk-clear">Clear selection</button>"#
            ),
            "{html}"
        );
    }
}
