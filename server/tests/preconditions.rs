//! `If-Match` as RFC 9110 §13.1.1 says (issue 53): a tag Mosaic never
//! issues names no version, so the change is refused 412 as a stale one
//! would be (it was 400); a list passes when any of its tags names the
//! version the resource is at, and fails when none does; nothing is
//! changed by a refusal. On a node, the network configuration, the
//! settings and a role's tags.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use support::{TestApp, test_app};

/// A change: method, path and body.
struct Change {
    method: &'static str,
    uri: String,
    body: Value,
}

/// `change` sent with `If-Match: if_match`: the status, the error code
/// when refused, and the answer's `ETag`.
async fn send(app: &TestApp, change: &Change, if_match: &str) -> (StatusCode, Value, String) {
    let request = Request::builder()
        .method(change.method)
        .uri(&change.uri)
        .header("content-type", "application/json")
        .header("if-match", if_match)
        .body(Body::from(change.body.to_string()))
        .unwrap();
    let response = app.respond(request).await;
    let status = response.status();
    let etag = response
        .headers()
        .get("etag")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, body["error"]["code"].clone(), etag)
}

/// The `ETag` of a read.
async fn etag(app: &TestApp, uri: &str) -> String {
    let response = app
        .respond(Request::get(uri).body(Body::empty()).unwrap())
        .await;
    assert_eq!(response.status(), StatusCode::OK, "GET {uri}");
    response.headers()["etag"].to_str().unwrap().to_owned()
}

/// Never-issued tags and lists on one change whose current `ETag` is
/// `current`: what each gives.
async fn holds_to_rfc_9110(app: &TestApp, what: &str, change: &Change, current: &str) {
    for never in ["\"stale-0\"", "\"abc\"", "\"-1\"", "\"\"", "stale"] {
        let (status, code, _) = send(app, change, never).await;
        assert_eq!(
            status,
            StatusCode::PRECONDITION_FAILED,
            "{what}: If-Match {never}"
        );
        assert_eq!(code, "precondition_failed", "{what}: If-Match {never}");
    }
    let version: i64 = current
        .trim_matches('"')
        .split('-')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let stale_list = format!("\"{}\", \"stale-0\", \"{}\"", version + 7, version + 9);
    let (status, code, _) = send(app, change, &stale_list).await;
    assert_eq!(
        status,
        StatusCode::PRECONDITION_FAILED,
        "{what}: If-Match {stale_list}"
    );
    assert_eq!(code, "precondition_failed");
    // Nothing was changed by the refusals: the current tag still passes,
    // in a list with tags that name nothing.
    let list = format!("\"stale-0\", {current}, W/\"{}\"", version + 5);
    let (status, code, _) = send(app, change, &list).await;
    assert!(
        status.is_success(),
        "{what}: If-Match {list}: {status} {code}"
    );
}

#[tokio::test]
async fn a_tag_never_issued_is_412_and_a_list_passes_on_any_of_its_tags() {
    let app = test_app().await;
    let (cluster, _) = app.environment("lab").await;
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"name": "cmp-1", "roles": ["compute"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    let node_uri = format!("/api/v1/nodes/{}", node["id"]);
    let rename = Change {
        method: "PUT",
        uri: node_uri.clone(),
        body: json!({"pending_deletion": false}),
    };
    holds_to_rfc_9110(&app, "a node", &rename, &etag(&app, &node_uri).await).await;

    let networks = format!("/api/v1/clusters/{cluster}/network_configuration/neutron");
    let save = Change {
        method: "PUT",
        uri: networks.clone(),
        body: json!({"networks": []}),
    };
    holds_to_rfc_9110(&app, "the networks", &save, &etag(&app, &networks).await).await;

    let settings = format!("/api/v1/clusters/{cluster}/attributes");
    let debug = Change {
        method: "PATCH",
        uri: settings.clone(),
        body: json!({"editable": {"common": {"debug": {"value": true}}}}),
    };
    holds_to_rfc_9110(&app, "the settings", &debug, &etag(&app, &settings).await).await;

    let role = format!("/api/v1/clusters/{cluster}/roles/controller");
    let tags = Change {
        method: "PUT",
        uri: role,
        body: json!({"tags": ["controller", "database"]}),
    };
    let (status, code, current) = send(&app, &tags, "*").await;
    assert!(status.is_success(), "a role's tags with *: {status} {code}");
    holds_to_rfc_9110(&app, "a role's tags", &tags, &current).await;

    // The components: the same selection saved again, under the settings'
    // version (the components change holds to it).
    let (_, env) = app.get(&format!("/api/v1/clusters/{cluster}")).await;
    let same = Change {
        method: "PUT",
        uri: format!("/api/v1/clusters/{cluster}/components"),
        body: json!({"components": env["components"]}),
    };
    holds_to_rfc_9110(&app, "the components", &same, &etag(&app, &settings).await).await;

    // Hardware declared by hand, under the node's version.
    let declared = Change {
        method: "PUT",
        uri: format!("{node_uri}/hardware"),
        body: json!({
            "interfaces": [{"name": "eth0", "mac": "52:54:00:aa:bb:01"}],
            "disks": [{"name": "sda", "size": 480103981056u64}],
            "memory": 68719476736u64, "cpus": 16
        }),
    };
    holds_to_rfc_9110(
        &app,
        "a node's hardware",
        &declared,
        &etag(&app, &node_uri).await,
    )
    .await;
}
