use leptos::prelude::*;
use mosaic_core::plugin::Report;

/// A validation report (`markup::report`): every diagnostic and the
/// summary line.
#[component]
pub fn ValidationReport(report: Report) -> impl IntoView {
    let html = mosaic_core::markup::report::report(&report).into_string();
    view! { <div inner_html=html /> }
}
