//! Reusable pieces of the UI.

pub mod action;
pub mod graph_choice;
pub mod interfaces_editor;
pub mod loading;
pub mod matrix_table;
pub mod near_view;
pub mod node_table;
pub mod notice;
pub mod option_row;
pub mod pager;
pub mod plugin_upload;
pub mod retry;
