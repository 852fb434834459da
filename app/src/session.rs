//! Who is signed in, shared through context: pages ask it whether the
//! role may take an action (core's `Role` order: viewer, operator, admin)
//! and hide what it may not. The server decides anyway; hiding only spares
//! the operator a refusal.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::SessionView;

use crate::components::var::Var;

#[derive(Debug, Clone, Copy)]
pub struct Session(pub Var<Option<SessionView>>);

impl Session {
    /// Whether the signed-in role can do what `least` can (reactive).
    pub fn can(self, least: Role) -> bool {
        self.0.with(|s| s.as_ref().is_some_and(|s| s.role >= least))
    }
}

/// The session from context (the app provides it before any page).
pub fn session() -> Session {
    expect_context::<Session>()
}

/// Whether the signed-in role can do what `least` can, as a signal.
pub fn may(least: Role) -> Signal<bool> {
    let s = session();
    Signal::derive(move || s.can(least))
}
