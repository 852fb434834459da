//! Reusable pieces of the UI.

pub mod action;
pub mod changes;
pub mod graph_choice;
pub mod interfaces_editor;
pub mod live_run;
pub mod loading;
pub mod matrix_table;
pub mod near_view;
pub mod new_tag_form;
pub mod node_table;
pub mod notice;
pub mod option_row;
pub mod pager;
pub mod plugin_upload;
pub mod retry;
pub mod roles;
pub mod run_start;
pub mod table;
pub mod upgrades;
