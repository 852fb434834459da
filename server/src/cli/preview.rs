//! What a dry run prints for people, whatever the change: a section per
//! kind of consequence (`section`), a task's change on its nodes
//! (`task_line`); and the failure of an answer that is no preview.

use mosaic_core::api::TaskChange;
use mosaic_core::text::plural;

use super::client::Failure;

/// A dry run's answer that is not the preview it should be.
pub(super) fn not_a_preview(e: serde_json::Error) -> Failure {
    Failure::Broken(format!("the server's answer is not a preview: {e}"))
}

/// One section of a preview: its title, then a line each, or `none`.
pub(super) fn section(out: &mut String, title: &str, lines: Vec<String>) {
    if lines.is_empty() {
        out.push_str(&format!("{title}: none\n"));
        return;
    }
    out.push_str(&format!("{title}:\n"));
    for line in lines {
        out.push_str(&format!("  {line}\n"));
    }
}

/// A task's change as a preview's line: the nodes it is on, then what
/// changes.
pub(super) fn task_line(change: &TaskChange) -> String {
    let nodes = change.node_names();
    format!(
        "node{} {}: {}",
        plural(nodes.len()),
        nodes.join(", "),
        change.summary()
    )
}
