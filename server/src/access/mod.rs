//! Protection of the API and the app (SEMANTICS §10): who is calling
//! (bearer token or session cookie), whether their role may (core's
//! `access::required`), whether a cookie-borne change comes from the app's
//! own origin, which hosts the server answers to, the security headers of
//! every answer, and the audit log of every change.

mod guard;
mod headers;
pub mod secret;
pub mod throttle;

use std::path::PathBuf;

use mosaic_core::access::Role;

pub use guard::{authorize, check_host, session_cookie, unauthorized};
pub use headers::{SecurityHeaders, content_security_policy};
pub use throttle::SignInThrottle;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "mosaic_session";

/// How long a browser session lasts after signing in.
pub const SESSION_SECONDS: i64 = 12 * 60 * 60;

/// The server's protection settings (from `mosaic serve`'s flags).
#[derive(Debug, Clone)]
pub struct Security {
    /// The `Host` values answered (see `core::access::host_allowed`);
    /// `None`: every host (for tests that drive the router directly).
    pub allowed_hosts: Option<Vec<String>>,
    /// Where `POST /api/v1/plugins {"path"}` may read packages; `None`:
    /// installing from a server path is off.
    pub plugin_dir: Option<PathBuf>,
    /// The largest upload (plugin archives, Heat template sets), in bytes.
    pub max_upload: usize,
    /// Set the cookie's `Secure` attribute (when served over HTTPS).
    pub secure_cookie: bool,
}

impl Default for Security {
    fn default() -> Security {
        Security {
            allowed_hosts: None,
            plugin_dir: None,
            max_upload: 64 << 20,
            secure_cookie: false,
        }
    }
}

/// Who a request comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The user's name, or `token:LABEL`.
    pub actor: String,
    pub role: Role,
    /// Authenticated by the session cookie (so cross-site checks apply).
    pub by_cookie: bool,
}
