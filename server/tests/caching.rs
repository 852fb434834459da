//! Reads answer with an `ETag` and honour `If-None-Match`; what is cached
//! per generation of the installed plugins and of the credentials follows
//! changes, also those made through another replica (issue 15).

mod support;

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use http_body_util::BodyExt;
use mosaic_core::access::Role;
use mosaic_server::access::Security;
use mosaic_server::access::secret::secret_hash;
use mosaic_server::db::DEFAULT_MAX_AGE;
use mosaic_server::{AppState, app, prepare};
use serde_json::json;
use support::{Handle, TestApp, archive, plugin_fixture, test_app, token_for};

const COMPONENTS: &str = "/api/v1/releases/1/components";

fn get(uri: &str, if_none_match: Option<&str>) -> Request<Body> {
    let mut request = Request::builder().uri(uri);
    if let Some(tag) = if_none_match {
        request = request.header("if-none-match", tag);
    }
    request.body(Body::empty()).unwrap()
}

fn etag(response: &Response<Body>) -> String {
    response.headers()["etag"].to_str().unwrap().to_owned()
}

async fn body_len(response: Response<Body>) -> usize {
    response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .len()
}

/// How many components release 1's registry has, through `handle`.
async fn component_count(handle: &Handle) -> usize {
    let (status, components) = handle.send(get(COMPONENTS, None)).await;
    assert_eq!(status, StatusCode::OK, "{components:#}");
    components.as_array().unwrap().len()
}

#[tokio::test]
async fn a_read_answers_304_when_if_none_match_names_its_etag() {
    let app = test_app().await;
    let first = app.respond(get(COMPONENTS, None)).await;
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()["cache-control"], "private, no-cache");
    let tag = etag(&first);
    assert!(body_len(first).await > 1000);
    for asked in [
        tag.clone(),
        format!("W/{tag}"),
        format!("\"other\", {tag}"),
        "*".into(),
    ] {
        let again = app.respond(get(COMPONENTS, Some(&asked))).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{asked}");
        assert_eq!(etag(&again), tag);
        assert_eq!(body_len(again).await, 0);
    }
    let other = app.respond(get(COMPONENTS, Some("\"other\""))).await;
    assert_eq!(other.status(), StatusCode::OK);
    // Routes without a cached answer get theirs from the body.
    let releases = app.respond(get("/api/v1/clusters", None)).await;
    let tag = etag(&releases);
    let again = app.respond(get("/api/v1/clusters", Some(&tag))).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    // Refusals are not made conditional.
    let missing = app
        .respond(get("/api/v1/releases/99/components", Some("*")))
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_install_changes_the_registry_and_its_etag() {
    let app = test_app().await;
    let before = app.respond(get(COMPONENTS, None)).await;
    let (old_tag, old_count) = (etag(&before), component_count(&app.handle()).await);
    let (status, plugin) = app.upload(archive(&plugin_fixture("v5-example"))).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    let after = app.respond(get(COMPONENTS, Some(&old_tag))).await;
    assert_eq!(after.status(), StatusCode::OK);
    assert_ne!(etag(&after), old_tag);
    assert_eq!(component_count(&app.handle()).await, old_count + 1);
}

#[tokio::test]
async fn a_versioned_read_starts_its_etag_with_the_version_and_follows_its_body() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"name": "n1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    let uri = format!("/api/v1/nodes/{}", node["id"]);
    let tag = etag(&app.respond(get(&uri, None)).await);
    assert!(tag.starts_with("\"1-"), "{tag}");
    let same = app.respond(get(&uri, Some(&tag))).await;
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);
    let (status, _) = app
        .call("PUT", &uri, Some(&json!({"status": "ready"}).to_string()))
        .await;
    assert_eq!(status, StatusCode::OK);
    let changed = app.respond(get(&uri, Some(&tag))).await;
    assert_eq!(changed.status(), StatusCode::OK);
    assert!(etag(&changed).starts_with("\"2-"), "{}", etag(&changed));
    // The old ETag in If-Match is refused like the old version.
    let (status, body) = app
        .call_with(
            "PUT",
            &uri,
            Some(r#"{"status": "ready"}"#),
            &[("if-match", &tag)],
        )
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{body:#}");
}

/// Another replica on the same database, with the default freshness.
async fn replica(first: &TestApp) -> Handle {
    let db = prepare(&first.url).await.unwrap();
    let token = token_for(&db, "replica", Role::Admin).await;
    Handle {
        router: app(AppState::new(db, Security::default()), None),
        token,
    }
}

#[tokio::test]
async fn another_replica_sees_an_install_within_the_max_age() {
    let app = test_app().await;
    let other = replica(&app).await;
    let count = component_count(&other).await;
    let (status, plugin) = app.upload(archive(&plugin_fixture("v5-example"))).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    tokio::time::sleep(DEFAULT_MAX_AGE * 2).await;
    assert_eq!(component_count(&other).await, count + 1);
}

#[tokio::test]
async fn a_token_revoked_elsewhere_is_refused_within_the_max_age() {
    let app = test_app().await;
    let other = replica(&app).await;
    let secret = token_for(&app.db, "script", Role::Viewer).await;
    let with_token = || {
        Request::builder()
            .uri("/api/v1/releases")
            .header("authorization", format!("Bearer {secret}"))
            .body(Body::empty())
            .unwrap()
    };
    assert_eq!(other.respond(with_token()).await.status(), StatusCode::OK);
    // The CLI revokes it on the database, not through this replica.
    assert!(app.db.revoke_token("script").await.unwrap());
    tokio::time::sleep(DEFAULT_MAX_AGE * 2).await;
    assert_eq!(
        other.respond(with_token()).await.status(),
        StatusCode::UNAUTHORIZED
    );
    // Through the replica that revoked it, at once.
    let again = token_for(&app.db, "again", Role::Viewer).await;
    let request = |s: &str| {
        Request::builder()
            .uri("/api/v1/releases")
            .header("authorization", format!("Bearer {s}"))
            .body(Body::empty())
            .unwrap()
    };
    assert_eq!(app.respond(request(&again)).await.status(), StatusCode::OK);
    assert!(app.db.revoke_token("again").await.unwrap());
    assert_eq!(
        app.respond(request(&again)).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_ne!(secret_hash(&secret), secret_hash(&again));
}
