//! Who is signed in, shared through context: pages ask it whether the
//! role may take an action (core's `Role` order: viewer, operator, admin)
//! and hide what it may not. The server decides anyway; hiding only spares
//! the operator a refusal.

use leptos::prelude::*;
use mosaic_core::access::Role;
use mosaic_core::api::SessionView;

#[derive(Debug, Clone, Copy)]
pub struct Session(RwSignal<Option<SessionView>>);

impl Session {
    /// Nobody signed in yet, provided to every page below.
    pub fn provide() -> Session {
        let session = Session(RwSignal::new(None));
        provide_context(session);
        session
    }

    pub fn set(self, view: Option<SessionView>) {
        self.0.set(view);
    }

    /// Who is signed in (reactive).
    pub fn view(self) -> Option<SessionView> {
        self.0.get()
    }

    /// Whether someone is signed in (reactive).
    pub fn signed_in(self) -> bool {
        self.0.with(Option::is_some)
    }

    /// Whether the signed-in role can do what `least` can (reactive).
    pub fn can(self, least: Role) -> bool {
        self.0.with(|s| s.as_ref().is_some_and(|s| s.role >= least))
    }
}

/// The session from context (the app provides it before any page).
pub fn session() -> Session {
    expect_context::<Session>()
}
