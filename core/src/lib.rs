//! Mosaic's rules, pure and free of IO.
//!
//! Everything that decides something — whether a name is valid, whether two
//! components can be combined, how the wizard groups options — lives here, so
//! the browser (compiled to `wasm32-unknown-unknown`) and the server decide
//! with the same functions. Callers hand in text and get data back; nothing in
//! this crate touches files, sockets or clocks.

pub mod access;
pub mod api;
pub mod component;
pub mod deployer;
pub mod disks;
pub mod environment;
pub mod export;
pub mod expr;
pub mod hardware;
pub mod heat;
pub mod name;
pub mod network;
pub mod node_import;
pub mod nodes;
pub mod plugin;
pub mod release;
pub mod restriction;
pub mod role;
pub mod role_layer;
pub mod run;
#[cfg(feature = "openapi")]
mod schema;
pub mod settings;
pub mod svg;
pub mod tag;
pub mod task;
pub mod text;
pub mod wizard;
pub mod yaml;
