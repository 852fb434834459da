//! One page of an environment's node table: a row per node — its selection
//! box, name, status, roles, tags and actions — and, under the node being
//! edited, an empty row the app mounts the node's editor in.
//!
//! The rows are interactive: the app writes them again whenever the page,
//! the selection or the node edited changes, and merges the new text into
//! the table (`morph` in the app) so that the control in use keeps focus.
//! Every row carries `data-key`, so a row is only ever merged into the row
//! of the same node.

use super::Markup;
use crate::api::NodeView;

/// What the rows show beyond the nodes themselves.
#[derive(Clone, Copy)]
pub struct RowState<'a> {
    /// Whether a node (by id) is selected.
    pub selected: &'a dyn Fn(i64) -> bool,
    /// The node whose editor is open.
    pub editing: Option<i64>,
    /// An operator may change nodes (Edit, Delete); a viewer sees Details.
    pub editable: bool,
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
            m.open("td")
                .attr("colspan", "6")
                .attr("class", "editor-slot")
                .flag("data-keep", true)
                .close("td")
                .close("tr");
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
    use crate::name::{NodeStatus, RoleName, TagName};

    fn node(id: i64, name: &str) -> NodeView {
        NodeView {
            id,
            cluster_id: 1,
            name: name.to_owned(),
            status: NodeStatus::Ready,
            roles: vec![RoleName::new("controller").unwrap()],
            pending_roles: Vec::new(),
            tags: vec![
                TagName::new("controller").unwrap(),
                TagName::new("mysql").unwrap(),
            ],
            role_tags: vec![TagName::new("controller").unwrap()],
            tags_added: Vec::new(),
            tags_removed: Vec::new(),
            primary_tags: Vec::new(),
            pending_deletion: false,
            version: 1,
        }
    }

    #[test]
    fn a_row_shows_the_node_and_marks_the_selection_and_the_tags_roles_bring() {
        let (a, b) = (node(1, "rack1-1"), node(2, "rack1-2"));
        let state = RowState {
            selected: &|id| id == 2,
            editing: None,
            editable: true,
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
    fn the_node_edited_has_its_editor_slot_and_a_viewer_sees_details_only() {
        let (a, b) = (node(1, "a"), node(2, "b"));
        let state = RowState {
            selected: &|_| false,
            editing: Some(1),
            editable: false,
        };
        let html = rows(&[&a, &b], state).into_string();
        assert!(html.contains(r#"<button class="edit-node" aria-expanded="true">Close</button></td></tr><tr class="node-editor" data-key="editor-1"><td colspan="6" class="editor-slot" data-keep=""></td></tr><tr class="node-row" data-node="2""#), "{html}");
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
        };
        let html = rows(&[&a], state).into_string();
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"));
    }
}
