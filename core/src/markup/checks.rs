//! The pre-deployment checks: a headline, the errors, then the warnings
//! (folded when there are many), each with a button that shows the nodes
//! it concerns.

use super::{Markup, plural};
use crate::environment::{Check, CheckSeverity};

/// More warnings than this are folded under a summary.
const UNFOLDED_WARNINGS: usize = 3;

/// The checks panel. A check that concerns nodes has a
/// `button.show-nodes` whose `data-nodes` lists their ids, space-separated
/// ([`node_ids`] reads them back).
pub fn checks(checks: &[Check]) -> Markup {
    let (errors, warnings): (Vec<&Check>, Vec<&Check>) = checks
        .iter()
        .partition(|c| c.severity == CheckSeverity::Error);
    let mut m = Markup::new();
    m.open("section").attr("aria-labelledby", "checks-heading");
    let class = if errors.is_empty() {
        "checks"
    } else {
        "checks has-errors"
    };
    m.attr("class", class);
    m.open("h2")
        .attr("id", "checks-heading")
        .text("Before deploying")
        .close("h2");
    m.open("p").attr("class", "checks-headline");
    m.text(&headline(errors.len(), warnings.len())).close("p");
    list(&mut m, &errors);
    if warnings.len() > UNFOLDED_WARNINGS {
        m.open("details")
            .attr("class", "check-warnings")
            .open("summary");
        m.text(&warnings.len().to_string())
            .text(" warnings")
            .close("summary");
        list(&mut m, &warnings);
        m.close("details");
    } else {
        list(&mut m, &warnings);
    }
    m.close("section");
    m
}

/// "Ready to deploy…" or "Not ready to deploy…", with the counts.
pub fn headline(errors: usize, warnings: usize) -> String {
    match (errors, warnings) {
        (0, 0) => "Ready to deploy: no problem found.".to_owned(),
        (0, w) => format!("Ready to deploy, with {w} warning{}.", plural(w)),
        (e, w) => format!(
            "Not ready to deploy: {e} error{}, {w} warning{}.",
            plural(e),
            plural(w)
        ),
    }
}

fn list(m: &mut Markup, checks: &[&Check]) {
    m.open("ul");
    for check in checks {
        item(m, check);
    }
    m.close("ul");
}

fn item(m: &mut Markup, check: &Check) {
    let error = check.severity == CheckSeverity::Error;
    m.open("li");
    m.attr(
        "class",
        if error {
            "check check-error"
        } else {
            "check check-warning"
        },
    );
    m.attr("data-kind", &check.kind)
        .open("span")
        .attr("class", "severity");
    m.text(if error { "Error: " } else { "Warning: " })
        .close("span");
    m.text(&check.message);
    let count = check.nodes.len();
    if count > 0 {
        let ids: Vec<String> = check.nodes.iter().map(i64::to_string).collect();
        m.text(" ").open("button").attr("class", "show-nodes link");
        m.attr("data-nodes", &ids.join(" ")).text("Show the ");
        m.text(&count.to_string()).text(" node").text(plural(count));
        m.close("button");
    }
    m.close("li");
}

/// The node ids a `data-nodes` attribute lists; what is not an id is
/// skipped.
pub fn node_ids(attribute: &str) -> Vec<i64> {
    attribute
        .split_ascii_whitespace()
        .filter_map(|id| id.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(severity: CheckSeverity, message: &str, nodes: &[i64]) -> Check {
        Check {
            severity,
            kind: "node_roles".to_owned(),
            message: message.to_owned(),
            nodes: nodes.to_vec(),
        }
    }

    #[test]
    fn errors_come_first_and_a_check_names_its_nodes() {
        let all = [
            check(CheckSeverity::Warning, "w", &[]),
            check(CheckSeverity::Error, "e <x>", &[4, 12]),
        ];
        let html = checks(&all).into_string();
        assert!(html.starts_with(
            r#"<section aria-labelledby="checks-heading" class="checks has-errors">"#
        ));
        assert!(html.contains("Not ready to deploy: 1 error, 1 warning."));
        let error = html.find("e &lt;x&gt;").unwrap();
        assert!(error < html.find(">w<").unwrap(), "{html}");
        assert!(html.contains(r#"data-nodes="4 12">Show the 2 nodes</button>"#));
        assert_eq!(node_ids("4 12"), [4, 12]);
    }

    #[test]
    fn many_warnings_are_folded() {
        let few: Vec<Check> = (0..3)
            .map(|_| check(CheckSeverity::Warning, "w", &[1]))
            .collect();
        assert!(!checks(&few).into_string().contains("<details"));
        let many: Vec<Check> = (0..4)
            .map(|_| check(CheckSeverity::Warning, "w", &[1]))
            .collect();
        let html = checks(&many).into_string();
        assert!(html.contains(r#"<details class="check-warnings"><summary>4 warnings</summary>"#));
        assert!(html.contains("Ready to deploy, with 4 warnings."));
    }

    #[test]
    fn no_checks_means_ready() {
        assert_eq!(headline(0, 0), "Ready to deploy: no problem found.");
        assert!(checks(&[]).into_string().contains(r#"class="checks">"#));
    }
}
