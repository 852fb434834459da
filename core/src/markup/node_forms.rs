//! The forms that change nodes, written with the node table
//! ([`super::nodes`]) and merged with it: adding a node with its roles and
//! status, and the editor of one node — its roles and its tags — in the
//! row under the node's.
//!
//! What the admin ticked and typed is state the app keeps; these functions
//! show it. A role a node cannot have is shown disabled with the reason as
//! its title, unless it is ticked: a role the node already has can always
//! be taken away.

use super::Markup;
use crate::api::{NodeView, RoleView};
use crate::name::{NodeStatus, RoleName, TagName};

/// The role checkboxes: `chosen` ticked.
pub fn role_boxes(m: &mut Markup, roles: &[RoleView], chosen: &[RoleName]) {
    for role in roles {
        let checked = chosen.contains(&role.id);
        let unavailable = role.unavailable.is_some();
        let title = match &role.unavailable {
            Some(why) => format!("Not available: {why}"),
            None => {
                let tags: Vec<&str> = role.tags.iter().map(TagName::as_str).collect();
                format!("{} — tags: {}", role.description, tags.join(", "))
            }
        };
        m.open("label")
            .classes(&[("role", true), ("unavailable", unavailable)])
            .attr("title", &title);
        m.open("input")
            .attr("type", "checkbox")
            .attr("data-role", role.id.as_str());
        m.flag("checked", checked)
            .flag("disabled", unavailable && !checked);
        m.text(&role.name);
        if let Some(plugin) = &role.plugin {
            m.open("span")
                .attr("class", "muted")
                .text(&format!(" ({plugin})"))
                .close("span");
        }
        m.close("label");
    }
}

/// What the form to add a node shows.
#[derive(Debug, Clone, Copy)]
pub struct NewNode<'a> {
    pub roles: &'a [RoleView],
    pub chosen: &'a [RoleName],
    pub status: NodeStatus,
    /// Why the last node was not added.
    pub error: Option<&'a str>,
}

/// Adding a node: its roles, its status, the button, a refusal, and why
/// the roles not available here are not.
pub fn add_node(n: &NewNode<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "add-node")
        .attr("data-key", "add-node");
    m.open("div").attr("class", "roles");
    role_boxes(&mut m, n.roles, n.chosen);
    m.close("div");
    m.open("label")
        .text("Status ")
        .open("select")
        .attr("class", "new-node-status");
    for status in NodeStatus::ALL {
        m.open("option")
            .attr("value", status.as_str())
            .flag("selected", *status == n.status)
            .text(status.as_str())
            .close("option");
    }
    m.close("select").close("label");
    m.open("button")
        .attr("class", "add-node-button")
        .text("Add node")
        .close("button");
    if let Some(message) = n.error {
        m.alert(message);
    }
    m.append(super::lists::unavailable_roles(n.roles));
    m.close("div");
    m
}

/// What a node's editor shows.
#[derive(Debug, Clone, Copy)]
pub struct Editor<'a> {
    pub node: &'a NodeView,
    pub roles: &'a [RoleView],
    /// The roles ticked (the node's, until the admin changes them).
    pub chosen: &'a [RoleName],
    /// The tag being typed.
    pub tag: &'a str,
    /// An operator may change the node; a viewer only sees it.
    pub editable: bool,
    /// Why the last change was refused.
    pub error: Option<&'a str>,
}

/// One node's editor: its roles to save, its tags — each saying where it
/// comes from, the ones added by hand or by a role removable — and a tag
/// to add.
pub fn editor(e: &Editor<'_>) -> Markup {
    let node = e.node;
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "node")
        .num_i64("data-node", node.id);
    m.open("h3").text(&node.name).open("span");
    m.attr("class", "muted")
        .text(&format!(" — {}", node.status.as_str()))
        .close("span")
        .close("h3");
    m.open("fieldset")
        .attr("class", "roles plain")
        .flag("disabled", !e.editable);
    role_boxes(&mut m, e.roles, e.chosen);
    m.close("fieldset");
    if e.editable {
        m.open("button")
            .attr("class", "save-roles")
            .text("Save roles")
            .close("button");
    }
    m.open("div").attr("class", "chips");
    for tag in &node.tags {
        chip(&mut m, node, tag, e.editable);
    }
    m.close("div");
    if e.editable {
        m.open("div")
            .attr("class", "add-tag-row")
            .open("input")
            .attr("class", "add-tag");
        m.attr("list", "known-tags")
            .attr("placeholder", "tag or name:N")
            .attr("value", e.tag);
        m.open("button")
            .attr("class", "add-tag-button")
            .text("Add tag")
            .close("button")
            .close("div");
    }
    if let Some(message) = e.error {
        m.alert(message);
    }
    m.close("div");
    m
}

/// Where a node's tag comes from, as its chip says.
fn chip(m: &mut Markup, node: &NodeView, tag: &TagName, editable: bool) {
    let from_role = node.role_tags.contains(tag);
    let primary = tag.as_str().starts_with("primary-");
    let title = if primary {
        "primary: chosen by Mosaic in HA environments"
    } else if from_role {
        "brought by a role"
    } else {
        "added by hand"
    };
    m.open("span")
        .classes(&[
            ("chip", true),
            ("from-role", from_role),
            ("primary", primary),
        ])
        .attr("data-tag", tag.as_str())
        .attr("title", title);
    m.text(tag.as_str());
    if editable && !primary {
        m.open("button")
            .attr("class", "remove-tag")
            .attr("aria-label", "Remove the tag")
            .text("×")
            .close("button");
    }
    m.close("span");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(id: &str, unavailable: Option<&str>) -> RoleView {
        RoleView {
            id: RoleName::new(id).unwrap(),
            name: id.to_uppercase(),
            description: format!("The {id}"),
            tags: vec![TagName::new(id).unwrap()],
            unavailable: unavailable.map(str::to_owned),
            plugin: None,
        }
    }

    fn node() -> NodeView {
        let tags = ["controller", "mysql", "primary-controller"];
        NodeView::sample(7, "rack1-7", &["controller"], &tags, &["controller"])
    }

    #[test]
    fn a_role_not_available_is_disabled_unless_the_node_has_it() {
        let roles = [
            role("controller", None),
            role("ceph-osd", Some("needs Ceph")),
        ];
        let mut m = Markup::new();
        role_boxes(&mut m, &roles, &[]);
        let html = m.into_string();
        assert!(html.contains(r#"<label class="role" title="The controller — tags: controller"><input type="checkbox" data-role="controller">CONTROLLER</label>"#), "{html}");
        assert!(html.contains(r#"<label class="role unavailable" title="Not available: needs Ceph"><input type="checkbox" data-role="ceph-osd" disabled="">"#), "{html}");
        let mut m = Markup::new();
        role_boxes(&mut m, &roles, &[RoleName::new("ceph-osd").unwrap()]);
        assert!(
            m.into_string()
                .contains(r#"data-role="ceph-osd" checked="">"#)
        );
    }

    #[test]
    fn the_new_node_form_keeps_the_status_chosen_and_says_why_it_failed() {
        let roles = [role("compute", None)];
        let chosen = [RoleName::new("compute").unwrap()];
        let html = add_node(&NewNode {
            roles: &roles,
            chosen: &chosen,
            status: NodeStatus::Ready,
            error: Some("no <name>"),
        })
        .into_string();
        assert!(
            html.starts_with(r#"<div class="add-node" data-key="add-node"><div class="roles">"#),
            "{html}"
        );
        assert!(
            html.contains(r#"data-role="compute" checked="">"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<option value="ready" selected="">ready</option>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<div class="notice notice-error" role="alert">no &lt;name&gt;</div>"#),
            "{html}"
        );
    }

    #[test]
    fn the_editor_says_where_each_tag_comes_from_and_a_viewer_changes_nothing() {
        let (n, roles) = (node(), [role("controller", None)]);
        let mut e = Editor {
            node: &n,
            roles: &roles,
            chosen: &n.roles,
            tag: "mysql:2",
            editable: true,
            error: None,
        };
        let html = editor(&e).into_string();
        assert!(html.starts_with(r#"<div class="node" data-node="7"><h3>rack1-7<span class="muted"> — ready</span></h3>"#), "{html}");
        assert!(html.contains(r#"<span class="chip from-role" data-tag="controller" title="brought by a role">controller<button class="remove-tag""#), "{html}");
        assert!(
            html.contains(
                r#"<span class="chip" data-tag="mysql" title="added by hand">mysql<button"#
            ),
            "{html}"
        );
        assert!(html.contains(r#"<span class="chip primary" data-tag="primary-controller" title="primary: chosen by Mosaic in HA environments">primary-controller</span>"#), "{html}");
        assert!(
            html.contains(r#"value="mysql:2"><button class="add-tag-button">"#),
            "{html}"
        );
        e.editable = false;
        let html = editor(&e).into_string();
        assert!(
            html.contains(r#"<fieldset class="roles plain" disabled="">"#),
            "{html}"
        );
        for control in ["save-roles", "remove-tag", "add-tag"] {
            assert!(!html.contains(control), "{control}: {html}");
        }
    }
}
