//! One file per page.

pub mod components;
pub mod deploy;
pub mod environment;
pub mod environments;
pub mod heat;
pub mod history;
pub mod matrix;
pub mod networks;
pub mod onboarding;
pub mod plugins;
pub mod preview;
pub mod settings;
pub mod sign_in;
pub mod tags;
pub mod wizard;
