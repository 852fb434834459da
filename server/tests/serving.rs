//! The built app and the API as browsers receive them (issue 29): assets in
//! the encoding asked for, from the copies the build precompressed; hashed
//! assets cached for a year, `index.html` revalidated; API answers
//! compressed when the client accepts it.

mod support;

use std::io::Read;
use std::path::Path;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use http_body_util::BodyExt;
use mosaic_server::access::Security;
use mosaic_server::{AppState, app};
use support::test_app;
use tower::ServiceExt;

const WASM: &str = "mosaic-app-0123456789abcdef_bg.wasm";
const INDEX: &str = "<!doctype html><title>Mosaic</title>";

/// A built app: `index.html` and a hashed asset, each with the `.br` and
/// `.gz` copies the build writes (their content only has to be told apart).
fn dist(dir: &Path) {
    for (name, body) in [("index.html", INDEX), (WASM, "\0asm wasm")] {
        std::fs::write(dir.join(name), body).unwrap();
        std::fs::write(dir.join(format!("{name}.br")), format!("br:{name}")).unwrap();
        std::fs::write(dir.join(format!("{name}.gz")), format!("gz:{name}")).unwrap();
    }
}

async fn get(router: &Router, uri: &str, accept_encoding: Option<&str>) -> Response<Body> {
    let mut request = Request::builder().uri(uri);
    if let Some(encodings) = accept_encoding {
        request = request.header("accept-encoding", encodings);
    }
    router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

fn header<'a>(response: &'a Response<Body>, name: &str) -> Option<&'a str> {
    response.headers().get(name).map(|v| v.to_str().unwrap())
}

async fn body(response: Response<Body>) -> Vec<u8> {
    response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec()
}

async fn app_serving(dir: &Path) -> Router {
    let test = test_app().await;
    app(
        AppState::new(test.db.clone(), Security::default()),
        Some(dir.to_path_buf()),
    )
}

#[tokio::test]
async fn assets_are_sent_in_the_encoding_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    dist(dir.path());
    let router = app_serving(dir.path()).await;
    let path = format!("/{WASM}");
    for (asked, encoding, expect) in [
        (Some("br, gzip"), Some("br"), format!("br:{WASM}")),
        (Some("gzip, deflate"), Some("gzip"), format!("gz:{WASM}")),
        (None, None, "\0asm wasm".to_owned()),
    ] {
        let response = get(&router, &path, asked).await;
        assert_eq!(response.status(), StatusCode::OK, "{asked:?}");
        assert_eq!(header(&response, "content-encoding"), encoding, "{asked:?}");
        assert_eq!(header(&response, "content-type"), Some("application/wasm"));
        assert_eq!(
            header(&response, "cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        assert_eq!(header(&response, "vary"), Some("accept-encoding"));
        assert_eq!(body(response).await, expect.as_bytes(), "{asked:?}");
    }
}

#[tokio::test]
async fn index_html_is_revalidated_on_every_path_that_answers_with_it() {
    let dir = tempfile::tempdir().unwrap();
    dist(dir.path());
    let router = app_serving(dir.path()).await;
    for path in ["/", "/index.html", "/environments/3", "/releases/1/matrix"] {
        let response = get(&router, path, Some("gzip, br")).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(
            header(&response, "cache-control"),
            Some("no-cache"),
            "{path}"
        );
        assert_eq!(header(&response, "content-encoding"), Some("br"), "{path}");
        assert_eq!(body(response).await, b"br:index.html", "{path}");
        let plain = get(&router, path, None).await;
        assert_eq!(body(plain).await, INDEX.as_bytes(), "{path}");
    }
    // A missing asset is missing, not the app under the asset's name (which
    // the browser would then keep for a year).
    let missing = get(&router, "/mosaic-app-fedcba9876543210.js", None).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_ne!(
        header(&missing, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
}

#[tokio::test]
async fn api_answers_are_compressed_when_the_client_accepts_it() {
    let test = test_app().await;
    let request = || {
        Request::builder()
            .uri("/api/v1/releases/1/components")
            .header("accept-encoding", "gzip")
            .body(Body::empty())
            .unwrap()
    };
    let response = test.respond(request()).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-encoding"), Some("gzip"));
    let compressed = body(response).await;
    let mut json = String::new();
    flate2::read::GzDecoder::new(compressed.as_slice())
        .read_to_string(&mut json)
        .unwrap();
    let components: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(components.as_array().unwrap().len() > 10);
    assert!(
        compressed.len() * 3 < json.len(),
        "{} of {}",
        compressed.len(),
        json.len()
    );
    // Without Accept-Encoding the answer is plain JSON, as before.
    let plain = test
        .respond(
            Request::builder()
                .uri("/api/v1/releases/1/components")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(header(&plain, "content-encoding"), None);
    assert_eq!(body(plain).await, json.as_bytes());
}
