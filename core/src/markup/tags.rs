//! A release's or an environment's tags (SEMANTICS §5) as a table — each
//! tag with where it comes from, whether it has a primary, how many nodes
//! carry it and what may be done with it — and the form creating one.
//!
//! Only the tags created where the table is shown (`own`) can be changed:
//! the others are the release's, a role's or a plugin's. A tag a role
//! names cannot be deleted.

use super::Markup;
use crate::api::TagView;

/// Where a tag comes from, by its `source`.
pub fn source_label(source: &str) -> &'static str {
    match source {
        "release" => "the release",
        "role" => "a role",
        "plugin" => "a plugin",
        "user" => "created on the release",
        "environment" => "created here",
        _ => "elsewhere",
    }
}

/// The `source` of the tags created on a release (`user`) or on an
/// environment (`environment`).
pub fn own_source(on_release: bool) -> &'static str {
    if on_release { "user" } else { "environment" }
}

/// What the tags table shows.
#[derive(Debug, Clone, Copy)]
pub struct Tags<'a> {
    pub list: &'a [TagView],
    /// The `source` of the tags created here ([`own_source`]).
    pub own: &'a str,
    /// The user may change the tags created here.
    pub editable: bool,
    /// A change refused: the tag's name and why.
    pub failure: Option<(&'a str, &'a str)>,
}

/// The table, a row per tag (`data-tag`, `data-key`).
pub fn table(t: &Tags<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("table").attr("class", "tags-table").open("caption");
    m.attr("class", "visually-hidden")
        .text("Tags")
        .close("caption");
    m.open("thead").open("tr");
    for head in ["Name", "Comes from", "Has a primary", "Nodes", "Actions"] {
        m.open("th").attr("scope", "col").text(head).close("th");
    }
    m.close("tr").close("thead").open("tbody");
    for tag in t.list {
        row(&mut m, t, tag);
    }
    m.close("tbody").close("table");
    m
}

fn row(m: &mut Markup, t: &Tags<'_>, tag: &TagView) {
    let mine = t.editable && tag.source == t.own;
    m.open("tr")
        .attr("data-tag", &tag.name)
        .attr("data-key", &tag.name);
    m.open("th")
        .attr("scope", "row")
        .text(&tag.name)
        .close("th");
    m.leaf("td", source_label(&tag.source));
    m.open("td").open("input").attr("type", "checkbox");
    m.attr("class", "has-primary")
        .attr("aria-label", &format!("{} has a primary", tag.name));
    m.flag("checked", tag.has_primary)
        .flag("disabled", !mine)
        .close("td");
    m.open("td")
        .attr("class", "tag-nodes")
        .text(&tag.nodes.to_string())
        .close("td");
    m.open("td");
    match (mine, tag.deletable) {
        (true, true) => {
            m.open("button")
                .attr("class", "delete-tag danger")
                .text("Delete")
                .close("button");
        }
        (true, false) => muted(m, "Named by a role: it cannot be deleted."),
        (false, _) => muted(m, "read-only"),
    }
    if let Some((_, message)) = t.failure.filter(|(name, _)| *name == tag.name) {
        m.alert(message);
    }
    m.close("td").close("tr");
}

fn muted(m: &mut Markup, text: &str) {
    m.open("span")
        .attr("class", "muted")
        .text(text)
        .close("span");
}

/// What the form creating a tag shows.
#[derive(Debug, Clone, Copy)]
pub struct NewTag<'a> {
    pub name: &'a str,
    pub primary: bool,
    /// Why the last tag was not created.
    pub error: Option<&'a str>,
}

/// The form creating a tag: its name and whether it has a primary.
pub fn new_tag(n: &NewTag<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("form")
        .attr("class", "new-tag")
        .leaf("h2", "New tag");
    m.open("label")
        .text("Name ")
        .open("input")
        .attr("class", "new-tag-name");
    m.flag("required", true)
        .attr("placeholder", "e.g. mysql")
        .attr("value", n.name)
        .close("label");
    m.open("label")
        .open("input")
        .attr("type", "checkbox")
        .attr("class", "new-tag-primary");
    m.flag("checked", n.primary)
        .text(" has a primary (one node is chosen as primary in HA)")
        .close("label");
    m.open("button")
        .attr("type", "submit")
        .attr("class", "create-tag")
        .text("Create the tag")
        .close("button");
    if let Some(message) = n.error {
        m.alert(message);
    }
    m.close("form");
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(name: &str, source: &str, deletable: bool) -> TagView {
        TagView {
            name: name.to_owned(),
            has_primary: name == "mysql",
            source: source.to_owned(),
            deletable,
            nodes: 3,
        }
    }

    #[test]
    fn only_the_tags_created_here_can_be_changed_and_a_roles_not_deleted() {
        let list = [
            tag("controller", "release", false),
            tag("mysql", "environment", true),
            tag("db", "environment", false),
        ];
        let mut t = Tags {
            list: &list,
            own: own_source(false),
            editable: true,
            failure: Some(("mysql", "nodes carry it")),
        };
        let html = table(&t).into_string();
        assert!(html.contains(r#"<tr data-tag="controller" data-key="controller"><th scope="row">controller</th><td>the release</td><td><input type="checkbox" class="has-primary" aria-label="controller has a primary" disabled=""></td><td class="tag-nodes">3</td><td><span class="muted">read-only</span></td></tr>"#), "{html}");
        assert!(html.contains(r#"aria-label="mysql has a primary" checked=""></td><td class="tag-nodes">3</td><td><button class="delete-tag danger">Delete</button><div class="notice notice-error" role="alert">nodes carry it</div></td>"#), "{html}");
        assert!(
            html.contains(
                r#"<span class="muted">Named by a role: it cannot be deleted.</span></td>"#
            ),
            "{html}"
        );
        t.editable = false;
        assert!(!table(&t).into_string().contains("delete-tag"));
        t.own = own_source(true);
        t.editable = true;
        assert!(!table(&t).into_string().contains("delete-tag"));
    }

    #[test]
    fn the_new_tag_form_keeps_what_was_typed() {
        let html = new_tag(&NewTag {
            name: "mysql",
            primary: true,
            error: Some("taken"),
        })
        .into_string();
        assert!(
            html.contains(
                r#"<input class="new-tag-name" required="" placeholder="e.g. mysql" value="mysql">"#
            ),
            "{html}"
        );
        assert!(
            html.contains(r#"class="new-tag-primary" checked=""> has a primary"#),
            "{html}"
        );
        assert!(
            html.ends_with(r#"<div class="notice notice-error" role="alert">taken</div></form>"#),
            "{html}"
        );
    }
}
