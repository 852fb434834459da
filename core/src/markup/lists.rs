//! Small read-only lists: the environments.

use super::Markup;
use crate::api::Cluster;

/// The environments, each a link (`href` gives the path of its page), or
/// nothing when there is none.
pub fn environments(list: &[Cluster], href: &dyn Fn(i64) -> String) -> Markup {
    let mut m = Markup::new();
    if list.is_empty() {
        return m;
    }
    m.open("section").attr("class", "card environments");
    m.attr("data-page", "environments")
        .leaf("h1", "Environments");
    m.open("ul");
    for c in list {
        m.open("li").attr("data-environment", &c.name);
        m.open("a")
            .attr("href", &href(c.id))
            .text(&c.name)
            .close("a");
        m.open("span").attr("class", "muted").text(" — ");
        m.text(&c.components.len().to_string())
            .text(" components, ");
        m.text(c.mode.as_str()).close("span").close("li");
    }
    m.close("ul").close("section");
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::Mode;

    #[test]
    fn environments_link_to_their_pages() {
        let lab = Cluster {
            id: 7,
            name: "lab <1>".into(),
            release_id: 1,
            components: Vec::new(),
            mode: Mode::default(),
        };
        let html = environments(&[lab], &|id| format!("/environments/{id}")).into_string();
        assert!(html.contains(r#"<li data-environment="lab &lt;1&gt;"><a href="/environments/7">lab &lt;1&gt;</a>"#), "{html}");
        assert!(html.contains(" — 0 components, "));
        assert_eq!(environments(&[], &|_| String::new()).into_string(), "");
    }
}
