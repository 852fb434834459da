//! The head of an environment's nodes page: the tags inputs offer
//! (`known-tags`), the environment file to download, deleting the
//! environment, and the pre-deployment checks ([`super::checks`]).

use std::collections::BTreeMap;

use super::{Markup, plural};
use crate::api::TagView;
use crate::environment::Check;
use crate::tag::next_instance;

/// What the head shows.
#[derive(Debug, Clone, Copy)]
pub struct Head<'a> {
    pub tags: &'a [TagView],
    /// The plan's tag instances (`mysql:1` on which nodes), by tag.
    pub instances: &'a BTreeMap<String, BTreeMap<u64, Vec<i64>>>,
    /// Where the environment file is downloaded from.
    pub download: &'a str,
    /// The user may delete the environment.
    pub editable: bool,
    /// Why the environment was not deleted.
    pub error: Option<&'a str>,
    pub checks: &'a [Check],
}

pub fn head(h: &Head<'_>) -> Markup {
    let mut m = known_tags(h.tags, h.instances);
    m.open("p").attr("class", "environment-actions").open("a");
    m.attr("class", "button export")
        .attr("href", h.download)
        .attr("download", "");
    m.text("Download the environment file").close("a");
    if h.editable {
        m.open("button")
            .attr("class", "delete-environment danger")
            .text("Delete the environment")
            .close("button");
    }
    if let Some(message) = h.error {
        m.open("span")
            .attr("class", "notice notice-error")
            .attr("role", "alert")
            .text(message)
            .close("span");
    }
    m.close("p");
    m.append(super::checks::checks(h.checks));
    m
}

/// The tags a node may be given, offered as its inputs are typed into:
/// every tag the environment knows, and the next instance (`mysql:3`) of
/// each tag created by a user.
pub fn known_tags(
    tags: &[TagView],
    instances: &BTreeMap<String, BTreeMap<u64, Vec<i64>>>,
) -> Markup {
    let mut m = Markup::new();
    m.open("datalist").attr("id", "known-tags");
    let created = tags
        .iter()
        .filter(|t| t.source == "user" || t.source == "environment")
        .map(|t| next_instance(instances, &t.name));
    for tag in tags.iter().map(|t| t.name.clone()).chain(created) {
        m.open("option").attr("value", &tag).close("option");
    }
    m.close("datalist");
    m
}

/// What deleting the environment asks first: what goes with it.
pub fn delete_question(nodes: usize, tags: &[TagView]) -> String {
    let own = tags.iter().filter(|t| t.source == "environment").count();
    format!(
        "Delete this environment with its {nodes} node{} and its {own} own tag{}? This cannot be undone.",
        plural(nodes),
        plural(own),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(name: &str, source: &str) -> TagView {
        TagView {
            name: name.to_owned(),
            has_primary: false,
            source: source.to_owned(),
            deletable: true,
            nodes: 0,
        }
    }

    #[test]
    fn inputs_are_offered_every_tag_and_the_next_instance_of_those_created() {
        let tags = [tag("controller", "release"), tag("mysql", "environment")];
        let instances = BTreeMap::from([("mysql".to_owned(), BTreeMap::from([(2, vec![1])]))]);
        let html = known_tags(&tags, &instances).into_string();
        assert_eq!(
            html,
            r#"<datalist id="known-tags"><option value="controller"></option><option value="mysql"></option><option value="mysql:3"></option></datalist>"#
        );
    }

    #[test]
    fn deleting_says_what_goes_and_a_viewer_is_not_offered_it() {
        let tags = [tag("controller", "release"), tag("mysql", "environment")];
        assert_eq!(
            delete_question(1, &tags),
            "Delete this environment with its 1 node and its 1 own tag? This cannot be undone."
        );
        assert!(delete_question(2, &[]).contains("its 2 nodes and its 0 own tags?"));
        let mut h = Head {
            tags: &[],
            instances: &BTreeMap::new(),
            download: "/api/v1/clusters/1/environment",
            editable: true,
            error: Some("refused"),
            checks: &[],
        };
        let html = head(&h).into_string();
        assert!(html.contains(r#"<a class="button export" href="/api/v1/clusters/1/environment" download="">Download the environment file</a><button class="delete-environment danger">Delete the environment</button><span class="notice notice-error" role="alert">refused</span></p>"#), "{html}");
        h.editable = false;
        assert!(!head(&h).into_string().contains("delete-environment"));
    }
}
