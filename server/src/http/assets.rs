//! The built app (Trunk's `dist/`) as browsers expect it: each file in the
//! encoding the browser asks for, from the `.br` and `.gz` copies the build
//! wrote beside it (scripts/post-build.mjs), and cached by what its name
//! says. An asset whose name carries its content hash never changes under
//! that name, so browsers keep it for a year without asking again;
//! `index.html`, which names the current assets, is asked for again on
//! every visit (`no-cache`: a conditional request, answered 304 when it has
//! not changed).

use std::path::Path;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{Next, from_fn};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// What a hashed asset may be cached as.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// What `index.html` (and every path that answers with it) may be cached as.
const REVALIDATE: &str = "no-cache";

/// Serves `dist`: its files, and `index.html` for every path that names no
/// file (no extension), so the app's own routes survive a reload. A file
/// that is not there is 404: answering `index.html` under an asset's name
/// would have the browser keep it as that asset.
pub fn service(dist: &Path) -> Router {
    let files = ServeDir::new(dist).precompressed_br().precompressed_gzip();
    let index = ServeFile::new(dist.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    Router::new()
        .fallback(move |request: Request| serve(files.clone(), index.clone(), request))
        .layer(from_fn(cache_control))
}

async fn serve(files: ServeDir, index: ServeFile, request: Request) -> Response {
    let last = request.uri().path().rsplit('/').next().unwrap_or_default();
    let answer = match last.contains('.') {
        true => files.oneshot(request).await,
        false => index.oneshot(request).await,
    };
    match answer {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    }
}

async fn cache_control(request: Request, next: Next) -> Response {
    let policy = match is_hashed(request.uri().path()) {
        true => IMMUTABLE,
        false => REVALIDATE,
    };
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status().is_redirection() {
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
        // Several encodings are served under one URL.
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// Whether the file at `path` carries its content hash, as Trunk names
/// assets (`mosaic-app-3f9c1a2b4d5e6f70_bg.wasm`, `main-0a1b2c3d4e5f6789.css`):
/// the last `-` of the name followed by 8 to 16 hex digits, then
/// optionally `_bg`, then the extension.
fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let Some((stem, _extension)) = name.rsplit_once('.') else {
        return false;
    };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    let Some((_, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    (8..=16).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::is_hashed;

    #[test]
    fn hashed_names_are_told_from_the_rest() {
        for (path, hashed) in [
            ("/mosaic-app-3f9c1a2b4d5e6f70_bg.wasm", true),
            ("/mosaic-app-3f9c1a2b4d5e6f70.js", true),
            ("/main-a1b2c3d4e5f6.css", true),
            ("/favicon-0123456789abcdef.svg", true),
            // The split by route: the link module, a lazy page's module, a shared chunk.
            ("/__wasm_split-0123456789abcdef.js", true),
            ("/split_networks_tab-0123456789abcdef.wasm", true),
            ("/chunk_3-0123456789abcdef.wasm", true),
            ("/index.html", false),
            ("/", false),
            ("/environments/12", false),
            ("/mosaic-app.css", false),
            ("/release-notes-2026.txt", false),
            ("/a-xyzxyzxyz.js", false),
            ("/a-0123456789abcdef0.js", false),
        ] {
            assert_eq!(is_hashed(path), hashed, "{path}");
        }
    }
}
