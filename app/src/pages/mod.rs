//! One file per page.

pub mod onboarding;
pub mod wizard;
