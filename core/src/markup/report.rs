//! A plugin package's validation report: every diagnostic, then the
//! summary line.

use super::Markup;
use crate::plugin::{Report, Severity};

pub fn report(report: &Report) -> Markup {
    let mut m = Markup::new();
    m.open("div").attr("class", "validation-report");
    m.open("ul").attr("class", "diagnostics");
    for d in &report.diagnostics {
        let (class, label) = match d.severity {
            Severity::Error => ("diagnostic error", "error"),
            Severity::Warning => ("diagnostic warning", "warning"),
        };
        m.open("li").attr("class", class);
        m.open("span")
            .attr("class", "severity")
            .text(label)
            .close("span");
        m.open("code")
            .attr("class", "place")
            .text(&d.place())
            .close("code");
        m.open("span").attr("class", "message").text(&d.message);
        m.close("span").close("li");
    }
    m.close("ul");
    m.open("p").attr("class", "report-summary");
    m.text(&report.summary()).close("p").close("div");
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::Diagnostic;

    fn diagnostic(severity: Severity, line: Option<usize>, path: Option<&str>) -> Diagnostic {
        Diagnostic {
            severity,
            file: "node_roles.yaml".into(),
            line,
            path: path.map(str::to_owned),
            message: "limits.min: expected a number <or> an expression".into(),
        }
    }

    #[test]
    fn places_name_file_line_and_path() {
        let d = diagnostic(Severity::Error, Some(5), Some("mistaken.limits"));
        assert_eq!(d.place(), "node_roles.yaml:5 (mistaken.limits)");
        assert_eq!(
            diagnostic(Severity::Error, None, None).place(),
            "node_roles.yaml"
        );
    }

    #[test]
    fn every_diagnostic_is_listed_with_the_summary() {
        let diagnostics = vec![
            diagnostic(Severity::Error, Some(5), Some("mistaken.limits")),
            diagnostic(Severity::Warning, None, None),
        ];
        let html = report(&Report::new(None, Vec::new(), diagnostics)).into_string();
        assert!(html.contains(
            r#"<li class="diagnostic error"><span class="severity">error</span><code class="place">node_roles.yaml:5 (mistaken.limits)</code>"#
        ), "{html}");
        assert!(html.contains("expected a number &lt;or&gt; an expression"));
        assert!(html.contains(r#"<li class="diagnostic warning">"#));
        assert!(html.ends_with(r#"<p class="report-summary">1 error, 1 warning</p></div>"#));
    }
}
