use leptos::prelude::*;
use mosaic_core::plugin::{Diagnostic, Report, Severity};

/// `file:line: path: message` for one diagnostic.
pub fn place(d: &Diagnostic) -> String {
    let mut place = d.file.clone();
    if let Some(line) = d.line {
        place.push_str(&format!(":{line}"));
    }
    if let Some(path) = d.path.as_deref().filter(|p| !p.is_empty()) {
        place.push_str(&format!(" ({path})"));
    }
    place
}

/// A validation report: every diagnostic and the summary line.
#[component]
pub fn ValidationReport(report: Report) -> impl IntoView {
    let summary = report.summary();
    view! {
        <div class="validation-report">
            <ul class="diagnostics">
                {report
                    .diagnostics
                    .into_iter()
                    .map(|d| {
                        let (class, label) = match d.severity {
                            Severity::Error => ("diagnostic error", "error"),
                            Severity::Warning => ("diagnostic warning", "warning"),
                        };
                        view! {
                            <li class=class>
                                <span class="severity">{label}</span>
                                <code class="place">{place(&d)}</code>
                                <span class="message">{d.message}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <p class="report-summary">{summary}</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn places_name_file_line_and_path() {
        let d = Diagnostic {
            severity: Severity::Error,
            file: "node_roles.yaml".into(),
            line: Some(5),
            path: Some("mistaken.limits".into()),
            message: "m".into(),
        };
        assert_eq!(place(&d), "node_roles.yaml:5 (mistaken.limits)");
        let d = Diagnostic {
            line: None,
            path: None,
            ..d
        };
        assert_eq!(place(&d), "node_roles.yaml");
    }
}
