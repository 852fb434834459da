//! What the API tests share: a fresh database per test (SQLite, or a new
//! PostgreSQL database when `MOSAIC_TEST_POSTGRES_URL` names a server), the
//! app driven through `oneshot`, and fixtures.
#![allow(dead_code)]

pub mod runner;
pub mod serve;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use http_body_util::BodyExt;
use mosaic_core::access::Role;
use mosaic_server::access::Security;
use mosaic_server::access::secret::{new_secret, secret_hash};
use mosaic_server::db::Db;
use mosaic_server::timestamp::now;
use mosaic_server::{AppState, app, prepare};
use serde_json::{Value, json};
use tower::ServiceExt;

/// The app on a fresh database, and an admin token it accepts (sent with
/// every request unless the request carries its own `Authorization`).
pub struct TestApp {
    pub router: Router,
    pub db: Db,
    /// The database's URL (another replica can connect to it).
    pub url: String,
    pub token: String,
    _dir: tempfile::TempDir,
}

/// What sends requests to the app: cheap to clone into spawned tasks.
#[derive(Clone)]
pub struct Handle {
    pub router: Router,
    pub token: String,
}

impl Handle {
    /// `request` with the admin token unless it names its own credentials
    /// (or says `authorization: none`).
    pub async fn respond(&self, mut request: Request<Body>) -> Response<Body> {
        let headers = request.headers_mut();
        match headers.get("authorization").map(|v| v.as_bytes()) {
            None => {
                let value = format!("Bearer {}", self.token);
                headers.insert("authorization", value.parse().unwrap());
            }
            Some(b"none") => {
                headers.remove("authorization");
            }
            Some(_) => {}
        }
        self.router.clone().oneshot(request).await.unwrap()
    }

    /// The status and the body as JSON (`Null` when it is not JSON).
    pub async fn send(&self, request: Request<Body>) -> (StatusCode, Value) {
        let (status, bytes) = self.bytes(request).await;
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// The status and the body as text.
    pub async fn text(&self, request: Request<Body>) -> (StatusCode, String) {
        let (status, bytes) = self.bytes(request).await;
        (status, String::from_utf8(bytes).unwrap())
    }

    async fn bytes(&self, request: Request<Body>) -> (StatusCode, Vec<u8>) {
        let response = self.respond(request).await;
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, bytes.to_vec())
    }
}

/// A token of `role` stored in `db`.
pub async fn token_for(db: &Db, label: &str, role: Role) -> String {
    let secret = new_secret().unwrap();
    db.create_token(label, role, &secret_hash(&secret), now())
        .await
        .unwrap();
    secret
}

/// A URL of an empty database, and the directory that holds it (SQLite).
pub async fn fresh_database() -> (String, tempfile::TempDir) {
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

pub async fn test_app() -> TestApp {
    test_app_with(Security::default()).await
}

/// The app with deployments on: its data directory the test's, runs made
/// with the virtual environment `venv` (`runner::stand_in`, say).
pub async fn test_app_deploying(venv: &std::path::Path) -> TestApp {
    let mut test = test_app().await;
    let data = test._dir.path().join("data");
    let deployments = mosaic_server::deploy::Deployments::new(Some(data), Some(venv.to_path_buf()));
    let state = AppState::with_deployments(test.db.clone(), Security::default(), deployments);
    test.router = app(state, None);
    test
}

impl TestApp {
    /// The directory the test's files are in.
    pub fn dir(&self) -> &std::path::Path {
        self._dir.path()
    }
}

pub async fn test_app_with(security: Security) -> TestApp {
    // Info by default (shown for failing tests); `RUST_LOG` narrows it.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_test_writer()
        .try_init();
    let (url, dir) = fresh_database().await;
    let db = prepare(&url).await.unwrap();
    let token = token_for(&db, "test-admin", Role::Admin).await;
    TestApp {
        router: app(AppState::new(db.clone(), security), None),
        db,
        url,
        token,
        _dir: dir,
    }
}

impl TestApp {
    pub async fn call(&self, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
        self.call_with(method, uri, body, &[]).await
    }

    /// A request with extra headers.
    pub async fn call_with(
        &self,
        method: &str,
        uri: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri);
        if body.is_some() {
            request = request.header("content-type", "application/json");
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Body::from(body.unwrap_or_default().to_owned()))
            .unwrap();
        self.handle().send(request).await
    }

    pub fn handle(&self) -> Handle {
        Handle {
            router: self.router.clone(),
            token: self.token.clone(),
        }
    }

    pub async fn respond(&self, request: Request<Body>) -> Response<Body> {
        self.handle().respond(request).await
    }

    pub async fn send(&self, request: Request<Body>) -> (StatusCode, Value) {
        self.handle().send(request).await
    }

    pub async fn text(&self, request: Request<Body>) -> (StatusCode, String) {
        self.handle().text(request).await
    }

    pub async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.call("GET", uri, None).await
    }

    /// Environment `cluster`'s export for kolla-ansible, refused (409
    /// `not_exportable`): its problems, and the whole answer to print.
    pub async fn export_refused(&self, cluster: i64) -> (Vec<Value>, Value) {
        let (status, body) = self
            .get(&format!(
                "/api/v1/clusters/{cluster}/deployers/kolla-ansible"
            ))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body:#}");
        assert_eq!(body["error"]["code"], "not_exportable");
        let problems = body["error"]["problems"].as_array().unwrap().clone();
        (problems, body)
    }

    pub async fn post(&self, uri: &str, body: &Value) -> (StatusCode, Value) {
        self.call("POST", uri, Some(&body.to_string())).await
    }
}

pub fn plugin_fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/plugins")
        .join(name)
}

/// The package directory `dir` as a `.tar.gz`, as `mosaic plugin build` writes it.
pub fn archive(dir: &std::path::Path) -> Vec<u8> {
    let mut out = Vec::new();
    mosaic_server::package::build_archive(dir, "pkg-1.0.0", &mut out, &mut |_, _| {}).unwrap();
    out
}

impl TestApp {
    pub async fn upload(&self, bytes: Vec<u8>) -> (StatusCode, Value) {
        let request = Request::builder()
            .method("POST")
            .uri("/api/v1/plugins")
            .header("content-type", "application/gzip")
            .body(Body::from(bytes))
            .unwrap();
        self.send(request).await
    }

    /// Plugins and releases as the API lists them: what must not change
    /// when an install is refused.
    pub async fn installed(&self) -> (Value, Value) {
        (
            self.get("/api/v1/plugins").await.1,
            self.get("/api/v1/releases").await.1,
        )
    }
}

/// A copy of a fixture directory (for tests that change it).
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

pub const SELECTION: [&str; 7] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "network:neutron:ml2:ovs",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
    "storage:image:swift",
];

impl TestApp {
    pub async fn put(&self, uri: &str, body: &Value) -> (StatusCode, Value) {
        self.call("PUT", uri, Some(&body.to_string())).await
    }

    pub async fn delete(&self, uri: &str, body: Option<&Value>) -> (StatusCode, Value) {
        let body = body.map(Value::to_string);
        self.call("DELETE", uri, body.as_deref()).await
    }

    pub async fn patch(&self, uri: &str, body: &Value) -> (StatusCode, Value) {
        self.call("PATCH", uri, Some(&body.to_string())).await
    }

    /// A new environment on the bundled release: (cluster id, release id).
    pub async fn environment(&self, name: &str) -> (i64, i64) {
        self.environment_with(name, &SELECTION).await
    }

    /// A new environment on the bundled release with `components`.
    pub async fn environment_with(&self, name: &str, components: &[&str]) -> (i64, i64) {
        let (_, releases) = self.get("/api/v1/releases").await;
        let release = releases[0]["id"].as_i64().unwrap();
        let (status, cluster) = self
            .post(
                "/api/v1/clusters",
                &json!({"name": name, "release_id": release, "components": components}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{cluster:#}");
        (cluster["id"].as_i64().unwrap(), release)
    }
}
