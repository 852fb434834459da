use crate::dom::{View, el};

/// A red box with an error message.
pub fn error_notice(message: &str) -> View {
    el("div")
        .class("notice notice-error")
        .attr("role", "alert")
        .text(message)
        .into()
}
