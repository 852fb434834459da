//! The built app (Trunk's `dist/`) as browsers expect it: each file in the
//! encoding the browser asks for, from the `.br` and `.gz` copies the build
//! wrote beside it (scripts/post-build.mjs), and cached by what its name
//! says. An asset whose name carries its content hash never changes under
//! that name, so browsers keep it for a year without asking again;
//! `index.html`, which names the current assets, is asked for again on
//! every visit (`no-cache`: a conditional request, answered 304 when it has
//! not changed).
//!
//! A page split off the main module (app/src/lazy_pages.rs) is fetched once
//! the app runs; a first visit that starts on such a page would wait for
//! it after the main module. So `index.html` answered for that page's path
//! names the module's files in a `Link` preload (the build lists them in
//! `lazy-modules.json`; core's `lazy_module` says which module a path
//! needs), and they download with the main module.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

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
    let preloads = Arc::new(preloads(dist));
    Router::new()
        .fallback(move |request: Request| {
            serve(files.clone(), index.clone(), preloads.clone(), request)
        })
        .layer(from_fn(cache_control))
}

async fn serve(
    files: ServeDir,
    index: ServeFile,
    preloads: Arc<Preloads>,
    request: Request,
) -> Response {
    let path = request.uri().path().to_owned();
    let last = path.rsplit('/').next().unwrap_or_default();
    if last.contains('.') {
        let Ok(response) = files.oneshot(request).await;
        return response.into_response();
    }
    let Ok(response) = index.oneshot(request).await;
    let mut response = response.into_response();
    let link = mosaic_core::environment::lazy_module(&path).and_then(|m| preloads.get(m));
    if let Some(link) = link {
        response.headers_mut().insert(header::LINK, link.clone());
    }
    response
}

/// Lazy module → the `Link` header that preloads its files.
type Preloads = HashMap<String, HeaderValue>;

/// The preloads of `dist/lazy-modules.json` (module → its files); none
/// when the build wrote none (an app not split) or it cannot be read,
/// which costs a first visit time, not a page: the app fetches a module
/// itself all the same.
fn preloads(dist: &Path) -> Preloads {
    let Ok(text) = std::fs::read_to_string(dist.join("lazy-modules.json")) else {
        return Preloads::new();
    };
    let modules: HashMap<String, Vec<String>> = match serde_json::from_str(&text) {
        Ok(modules) => modules,
        Err(e) => {
            tracing::warn!("dist/lazy-modules.json does not read ({e}): no preloads");
            return Preloads::new();
        }
    };
    modules
        .into_iter()
        .filter_map(|(module, files)| Some((module, link_header(&files)?)))
        .collect()
}

/// `</a.wasm>; rel=preload; as=fetch; crossorigin=anonymous, …`: fetched
/// as the app's own `fetch` asks for them, so that it is answered from them.
fn link_header(files: &[String]) -> Option<HeaderValue> {
    let safe = |f: &String| {
        f.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    let links: Vec<String> = files
        .iter()
        .filter(|f| safe(f))
        .map(|f| format!("</{f}>; rel=preload; as=fetch; crossorigin=anonymous"))
        .collect();
    (!links.is_empty())
        .then(|| HeaderValue::from_str(&links.join(", ")).ok())
        .flatten()
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
    use super::{is_hashed, link_header};

    #[test]
    fn a_modules_files_are_named_in_one_link_header() {
        let files = [
            "split_environment-0a.wasm".to_owned(),
            "chunk_4-1b.wasm".to_owned(),
        ];
        assert_eq!(
            link_header(&files).unwrap(),
            "</split_environment-0a.wasm>; rel=preload; as=fetch; crossorigin=anonymous, \
             </chunk_4-1b.wasm>; rel=preload; as=fetch; crossorigin=anonymous"
        );
        // A name that would break the header out of its angle brackets is left out.
        let odd = ["a>; rel=x.wasm".to_owned()];
        assert_eq!(link_header(&odd), None);
    }

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
