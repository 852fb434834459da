//! The OpenAPI document is the contract (issue 41): every route the router
//! really has is in it, every operation in it is routed, and it is served
//! as made, without credentials. The routes are read from the router the
//! server runs — its paths from axum's own description of it, each path's
//! methods from its `Allow` answer — so a route added without
//! `#[utoipa::path]` (or a documented one that is not routed) fails here.

mod support;

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use support::test_app;

/// `(METHOD, path)` of every API operation the document describes.
fn documented() -> BTreeSet<(String, String)> {
    let document = serde_json::to_value(mosaic_server::http::document()).unwrap();
    let mut out = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if [
                "get", "put", "post", "patch", "delete", "head", "options", "trace",
            ]
            .contains(&method.as_str())
            {
                out.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    out
}

/// The route paths of `router`, read from its `Debug` form: axum has no
/// listing of its routes, but its description names every path it holds.
fn routed_paths(router: &axum::Router) -> BTreeSet<String> {
    let description = format!("{router:?}");
    description
        .split('"')
        .filter(|s| s.starts_with("/api/v1/"))
        .map(str::to_owned)
        .collect()
}

/// A path of `template` with every parameter given a value.
fn instance(template: &str) -> String {
    template
        .split('/')
        .map(|segment| match segment {
            "{id}" => "1",
            "{name}" => "x",
            other => other,
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_route_is_documented_and_every_documented_operation_is_routed() {
    let app = test_app().await;
    let paths = routed_paths(&app.router);
    assert!(
        paths.len() > 20,
        "the router's paths could not be read from its description: {paths:?}"
    );
    let handle = app.handle();
    let mut routed = BTreeSet::new();
    for path in &paths {
        // A method no route takes: 405, and `Allow` names those it does.
        let request = Request::builder()
            .method("TRACE")
            .uri(instance(path))
            .body(Body::empty())
            .unwrap();
        let response = handle.respond(request).await;
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{path}");
        let allow = response.headers()["allow"].to_str().unwrap().to_owned();
        for method in allow.split(',').map(str::trim) {
            // axum answers HEAD for every GET; the document describes GET.
            if method != "HEAD" {
                routed.insert((method.to_owned(), path.clone()));
            }
        }
    }
    let documented = documented();
    let undocumented: Vec<_> = routed.difference(&documented).collect();
    let unrouted: Vec<_> = documented.difference(&routed).collect();
    assert!(
        undocumented.is_empty(),
        "routes the OpenAPI document does not describe (add #[utoipa::path] and register them with routes!): {undocumented:?}"
    );
    assert!(
        unrouted.is_empty(),
        "operations the document describes that no route answers: {unrouted:?}"
    );
}

#[tokio::test]
async fn the_document_is_served_without_credentials_as_made() {
    let app = test_app().await;
    let request = Request::builder()
        .uri("/api/v1/openapi.json")
        .header("authorization", "none")
        .body(Body::empty())
        .unwrap();
    let (status, served) = app.handle().send(request).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(served["openapi"], "3.1.0");
    let made = serde_json::to_value(mosaic_server::http::document()).unwrap();
    assert_eq!(served, made);
}

/// Every operation: a unique id, an answer that succeeds, and every error
/// answer of the `ErrorBody` shape.
#[test]
fn every_operation_is_named_once_and_its_refusals_are_error_bodies() {
    let document = serde_json::to_value(mosaic_server::http::document()).unwrap();
    let mut ids = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap_or_default();
            assert!(
                ids.insert(id.to_owned()),
                "{method} {path}: id '{id}' twice"
            );
            let responses = operation["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2')),
                "{method} {path}: no success"
            );
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        response["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ErrorBody",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
    let codes = &document["components"]["schemas"]["ErrorCode"]["enum"];
    assert!(
        codes
            .as_array()
            .is_some_and(|c| c.contains(&Value::from("not_found"))),
        "{codes}"
    );
}
