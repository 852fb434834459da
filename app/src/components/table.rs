//! A table as every list of records in the app is drawn: a caption that
//! screen readers announce (hidden on screen, where a heading or the page
//! says it), a heading per column, and its rows.

use leptos::prelude::*;

/// A `<table class=class>` with `caption`, a `<th scope="col">` per
/// column, and `children` as its body's rows.
#[component]
pub fn Table(
    class: &'static str,
    caption: &'static str,
    columns: &'static [&'static str],
    children: Children,
) -> impl IntoView {
    view! {
        <table class=class>
            <caption class="visually-hidden">{caption}</caption>
            <thead>
                <tr>{columns.iter().map(|column| view! { <th scope="col">{*column}</th> }).collect_view()}</tr>
            </thead>
            <tbody>{children()}</tbody>
        </table>
    }
}
