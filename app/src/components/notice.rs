use crate::components::var::Var;
use crate::dom::{View, dynamic, el, nothing};

/// A red box with an error message.
pub fn error_notice(message: &str) -> View {
    el("div")
        .class("notice notice-error")
        .attr("role", "alert")
        .text(message)
        .into()
}

/// The error `error` holds, in a red box, while it holds one.
pub fn error_notice_of(error: Var<Option<String>>) -> View {
    dynamic(move || match error.get() {
        Some(message) => error_notice(&message),
        None => nothing(),
    })
}
