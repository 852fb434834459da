//! The HTTP API driven through `app().oneshot`, on a fresh database each
//! test: a SQLite file, or — when `MOSAIC_TEST_POSTGRES_URL` names a
//! PostgreSQL server (`make test` starts one) — a new PostgreSQL database.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use mosaic_server::{AppState, app, prepare};
use serde_json::{Value, json};
use tower::ServiceExt;

struct TestApp {
    router: Router,
    _dir: tempfile::TempDir,
}

/// A URL of an empty database, and the directory that holds it (SQLite).
async fn fresh_database() -> (String, tempfile::TempDir) {
    use sqlx::{Connection, Executor};
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = tempfile::tempdir().unwrap();
    let Ok(admin) = std::env::var("MOSAIC_TEST_POSTGRES_URL") else {
        let url = format!("sqlite:{}", dir.path().join("mosaic.db").display());
        return (url, dir);
    };
    let name = format!(
        "mosaic_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    let mut connection = sqlx::postgres::PgConnection::connect(&admin)
        .await
        .expect("MOSAIC_TEST_POSTGRES_URL accepts connections");
    connection
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .unwrap();
    let base = &admin[..admin.rfind('/').expect("a URL with a database name")];
    (format!("{base}/{name}"), dir)
}

async fn test_app() -> TestApp {
    let (url, dir) = fresh_database().await;
    let db = prepare(&url).await.unwrap();
    TestApp {
        router: app(AppState { db }, None),
        _dir: dir,
    }
}

impl TestApp {
    async fn call(&self, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri);
        if body.is_some() {
            request = request.header("content-type", "application/json");
        }
        let request = request
            .body(Body::from(body.unwrap_or_default().to_owned()))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, value)
    }

    async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.call("GET", uri, None).await
    }

    async fn post(&self, uri: &str, body: &Value) -> (StatusCode, Value) {
        self.call("POST", uri, Some(&body.to_string())).await
    }
}

#[tokio::test]
async fn lists_the_bundled_release() {
    let app = test_app().await;
    let (status, body) = app.get("/api/v1/releases").await;
    assert_eq!(status, StatusCode::OK);
    let releases = body.as_array().unwrap();
    assert_eq!(releases.len(), 1);
    let release = &releases[0];
    for key in ["id", "name", "version", "operating_system", "state"] {
        assert!(release.get(key).is_some(), "missing {key} in {release}");
    }
    assert_eq!(release["state"], "available");
    assert_eq!(
        release["required_component_types"],
        json!(["hypervisor", "network", "storage"])
    );
}

#[tokio::test]
async fn components_are_served_in_display_order_without_bind() {
    let app = test_app().await;
    let (status, body) = app.get("/api/v1/releases/1/components").await;
    assert_eq!(status, StatusCode::OK);
    let components = body.as_array().unwrap();
    assert!(components.len() > 30, "{} components", components.len());
    for c in components {
        assert!(c.get("bind").is_none(), "bind leaked: {c}");
        for key in [
            "name",
            "label",
            "description",
            "weight",
            "default",
            "compatible",
            "incompatible",
            "requires",
        ] {
            assert!(c.get(key).is_some(), "missing {key} in {c}");
        }
    }
    let order: Vec<(i64, &str)> = components
        .iter()
        .map(|c| (c["weight"].as_i64().unwrap(), c["name"].as_str().unwrap()))
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    let dvs = components
        .iter()
        .find(|c| c["name"] == "network:neutron:ml2:dvs")
        .unwrap();
    assert_eq!(
        dvs["requires"],
        json!([
            {"name": "network:neutron:core:ml2"},
            {"name": "hypervisor:vmware", "message": "The DVS driver requires vCenter."}
        ])
    );
}

#[tokio::test]
async fn unknown_release_is_a_json_404() {
    let app = test_app().await;
    for uri in ["/api/v1/releases/42/components", "/api/v1/releases/42"] {
        let (status, body) = app.get(uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(body["error"]["code"], "not_found");
        assert_eq!(body["error"]["message"], "release 42 does not exist");
    }
    let (status, body) = app.get("/api/v1/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "not_found");
}

#[tokio::test]
async fn clusters_are_validated_with_every_violation() {
    let app = test_app().await;
    let (status, body) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "lab", "release_id": 1, "components": [
                "hypervisor:vmware", "network:neutron:core:contrail", "storage:block:backend:lvm", "storage:block:backend:ceph", "bogus"
            ]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "invalid_selection");
    let kinds: Vec<&str> = body["error"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["unknown", "incompatible", "incompatible"]);
    assert_eq!(
        body["error"]["violations"][1]["components"],
        json!(["network:neutron:core:contrail", "hypervisor:vmware"])
    );
}

#[tokio::test]
async fn a_valid_cluster_is_stored_once_per_name() {
    let app = test_app().await;
    let request = json!({"name": "lab", "release_id": 1, "components": [
        "hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:ovs", "storage:block:backend:lvm"
    ]});
    let (status, body) = app.post("/api/v1/clusters", &request).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["name"], "lab");
    let (status, body) = app.post("/api/v1/clusters", &request).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"]["code"], "conflict");
    let (_, list) = app.get("/api/v1/clusters").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn malformed_requests_get_the_same_error_body() {
    let app = test_app().await;
    let (status, body) = app
        .call("POST", "/api/v1/clusters", Some("{not json"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "bad_request");
    let (status, body) = app.post("/api/v1/clusters", &json!({"name": "x"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("release_id"),
        "{body}"
    );
    let (status, body) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": " ", "release_id": 1, "components": []}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("name"),
        "{body}"
    );
    let (status, _) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "x", "release_id": 7, "components": []}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_bundled_release_is_installed_only_on_first_start() {
    let (url, _dir) = fresh_database().await;
    prepare(&url).await.unwrap();
    let db = prepare(&url).await.unwrap();
    assert_eq!(db.releases().await.unwrap().len(), 1);
}
