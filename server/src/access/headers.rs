//! The security headers of every answer: a Content-Security-Policy the
//! WASM app runs under (its one inline loader script allowed by hash,
//! WebAssembly compilation allowed, nothing from elsewhere, no framing),
//! `X-Content-Type-Options`, `Referrer-Policy` and `X-Frame-Options`.

use std::path::Path;

use axum::http::{HeaderName, HeaderValue, header};
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The policy for the app built in `dist` (its inline scripts hashed; none
/// when there is no app).
pub fn content_security_policy(dist: Option<&Path>) -> String {
    let html = dist
        .and_then(|d| std::fs::read_to_string(d.join("index.html")).ok())
        .unwrap_or_default();
    let hashes: String = inline_scripts(&html)
        .map(|script| {
            let digest = Sha256::digest(script.as_bytes());
            format!(
                " 'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        })
        .collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The contents of the `<script>` elements without `src` in `html`.
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    html.split("<script").skip(1).filter_map(|rest| {
        let (tag, body) = rest.split_once('>')?;
        if tag.contains("src=") {
            return None;
        }
        body.split_once("</script>").map(|(script, _)| script)
    })
}

/// The headers, ready to set.
#[derive(Debug, Clone)]
pub struct SecurityHeaders(pub Vec<(HeaderName, HeaderValue)>);

impl SecurityHeaders {
    pub fn new(policy: &str) -> SecurityHeaders {
        let value = |v: &str| HeaderValue::from_str(v).expect("header values are ASCII");
        SecurityHeaders(vec![
            (header::CONTENT_SECURITY_POLICY, value(policy)),
            (header::X_CONTENT_TYPE_OPTIONS, value("nosniff")),
            (header::REFERRER_POLICY, value("no-referrer")),
            (header::X_FRAME_OPTIONS, value("DENY")),
            (
                HeaderName::from_static("cross-origin-opener-policy"),
                value("same-origin"),
            ),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_are_hashed_and_external_ones_are_not() {
        let html = "<script type=\"module\">init();</script><script src=\"/a.js\"></script>";
        let scripts: Vec<&str> = inline_scripts(html).collect();
        assert_eq!(scripts, ["init();"]);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), html).unwrap();
        let policy = content_security_policy(Some(dir.path()));
        assert!(policy.contains("'sha256-"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(!content_security_policy(None).contains("sha256"));
    }
}
