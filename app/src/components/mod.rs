//! Reusable pieces of the UI.

pub mod notice;
pub mod option_row;
