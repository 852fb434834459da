//! What a change would do, or why the server refused it, shown alike by
//! the Components tab's dry run and an upgrade's preview: the refusal, a
//! line per task change, the networks rebuilt.

use leptos::prelude::*;
use mosaic_core::api::TaskChange;
use mosaic_core::text;

use crate::api::ApiFailure;

/// Why the server refused: its message, the violations and each node with
/// the role it holds.
#[component]
pub fn Refusal(failure: ApiFailure) -> impl IntoView {
    let details = failure
        .details()
        .into_iter()
        .map(str::to_owned)
        .chain(failure.node_problems.iter().map(|p| p.message.clone()))
        .map(|line| view! { <li>{line}</li> })
        .collect_view();
    view! {
        <div class="notice notice-error" role="alert" data-refused="">
            <p>{failure.message.clone()}</p>
            <ul>{details}</ul>
        </div>
    }
}

/// The networks a change rebuilds, a line each (or that it rebuilds none).
pub fn network_items(rebuilt: &mosaic_core::network::Rebuilt) -> impl IntoView + use<> {
    let mut lines = rebuilt.lines();
    if lines.is_empty() {
        lines.push("No network is added or removed.".to_owned());
    }
    lines
        .into_iter()
        .map(|l| view! { <li>{l}</li> })
        .collect_view()
}

/// "Nodes 2, 3: start a, b; stop c".
pub fn task_item(change: TaskChange) -> impl IntoView {
    let nodes = change.node_names();
    let list = |ts: &[mosaic_core::name::TaskId]| {
        ts.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let label = text::agree(nodes.len(), "Node", "Nodes");
    view! {
        <li data-nodes=nodes.join(",") data-added=list(&change.added) data-removed=list(&change.removed)>
            {format!("{label} {}: {}", nodes.join(", "), change.summary())}
        </li>
    }
}
