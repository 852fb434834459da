//! Small read-only lists: the roles an environment rules out, a refused
//! bulk change's node problems.

use super::{Markup, plural};
use crate::api::{NodeProblem, RoleView};

/// How many of a refused bulk change's node problems are listed.
pub const LISTED_PROBLEMS: usize = 20;

/// The roles the environment's settings rule out, each with why (nothing
/// when every role is available).
pub fn unavailable_roles(roles: &[RoleView]) -> Markup {
    let mut m = Markup::new();
    let out: Vec<&RoleView> = roles.iter().filter(|r| r.unavailable.is_some()).collect();
    if out.is_empty() {
        return m;
    }
    m.open("details")
        .attr("class", "role-reasons")
        .open("summary");
    m.text(&out.len().to_string())
        .text(" role")
        .text(plural(out.len()));
    m.text(" not available here").close("summary").open("ul");
    for r in out {
        m.open("li")
            .attr("data-role", r.id.as_str())
            .leaf("strong", &r.name);
        m.text(": ")
            .text(r.unavailable.as_deref().unwrap_or_default());
        m.close("li");
    }
    m.close("ul").close("details");
    m
}

/// A refused bulk change: its message, then each node's problem (the
/// first [`LISTED_PROBLEMS`]; how many more).
pub fn bulk_problems(message: &str, problems: &[NodeProblem]) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "notice notice-error bulk-problems")
        .attr("data-key", "bulk-problems");
    m.attr("role", "alert").leaf("p", message).open("ul");
    for p in problems.iter().take(LISTED_PROBLEMS) {
        m.open("li").num_i64("data-node", p.node).open("strong");
        match &p.name {
            Some(name) => m.text(name),
            None => m.text("node ").text(&p.node.to_string()),
        };
        m.close("strong").text(": ").text(&p.message).close("li");
    }
    m.close("ul");
    let more = problems.len().saturating_sub(LISTED_PROBLEMS);
    if more > 0 {
        m.open("p").text("… and ").text(&more.to_string());
        m.text(" more.").close("p");
    }
    m.close("div");
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::RoleName;

    #[test]
    fn only_unavailable_roles_are_listed_with_why() {
        let role = |id: &str, why: Option<&str>| RoleView {
            id: RoleName::new(id).unwrap(),
            name: id.to_uppercase(),
            description: String::new(),
            tags: Vec::new(),
            unavailable: why.map(str::to_owned),
            plugin: None,
        };
        let roles = [
            role("controller", None),
            role("ceph-osd", Some("Ceph is off")),
        ];
        let html = unavailable_roles(&roles).into_string();
        assert!(
            html.contains("<summary>1 role not available here</summary>"),
            "{html}"
        );
        assert!(
            html.contains(
                r#"<li data-role="ceph-osd"><strong>CEPH-OSD</strong>: Ceph is off</li>"#
            )
        );
        assert_eq!(unavailable_roles(&roles[..1]).into_string(), "");
    }

    #[test]
    fn a_bulk_refusal_lists_twenty_problems_and_counts_the_rest() {
        let problems: Vec<NodeProblem> = (1..=22)
            .map(|node| NodeProblem {
                node,
                name: (node == 1).then(|| "rack1-n1".to_owned()),
                message: "too many controllers".into(),
            })
            .collect();
        let html = bulk_problems("Nothing changed.", &problems).into_string();
        assert_eq!(html.matches("<li ").count(), 20);
        assert!(
            html.contains(
                r#"<li data-node="1"><strong>rack1-n1</strong>: too many controllers</li>"#
            ),
            "{html}"
        );
        assert!(html.contains(r#"<li data-node="2"><strong>node 2</strong>"#));
        assert!(html.contains("<p>… and 2 more.</p>"));
    }
}
