//! Accounts, roles and the checks around them (SEMANTICS §10), through the
//! real router: credentials, roles, the session cookie and its cross-site
//! check, content types, hosts, JSON errors for every rejection, security
//! headers, the audit log.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use mosaic_core::access::Role;
use mosaic_server::access::Security;
use mosaic_server::access::secret::hash_password;
use mosaic_server::timestamp::now;
use serde_json::{Value, json};
use support::{SELECTION, TestApp, test_app, test_app_with, token_for};

fn request(method: &str, uri: &str) -> axum::http::request::Builder {
    Request::builder().method(method).uri(uri)
}

fn json_body(value: &Value) -> Body {
    Body::from(value.to_string())
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

/// Signs `username` in; the session cookie (`name=value`).
async fn sign_in(app: &TestApp, username: &str, password: &str) -> String {
    let response = app
        .respond(
            request("POST", "/api/v1/session")
                .header("authorization", "none")
                .header("content-type", "application/json")
                .body(json_body(
                    &json!({"username": username, "password": password}),
                ))
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    cookie.split(';').next().unwrap().to_owned()
}

async fn user(app: &TestApp, name: &str, role: Role, password: &str) {
    let hash = hash_password(password).unwrap();
    app.db.create_user(name, role, &hash, now()).await.unwrap();
}

#[tokio::test]
async fn every_route_needs_credentials_and_the_right_role() {
    let app = test_app().await;
    let anonymous = |method: &str, uri: &str| {
        request(method, uri)
            .header("authorization", "none")
            .body(Body::empty())
            .unwrap()
    };
    let (status, body) = app.send(anonymous("GET", "/api/v1/releases")).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::UNAUTHORIZED, "unauthorized")
    );
    assert_eq!(
        app.send(anonymous("GET", "/api/v1/health")).await.0,
        StatusCode::OK
    );
    let bad = request("GET", "/api/v1/releases")
        .header("authorization", "Bearer mosaic_nope")
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(bad).await.0, StatusCode::UNAUTHORIZED);

    let viewer = token_for(&app.db, "ro", Role::Viewer).await;
    let as_viewer = |method: &str, uri: &str, body: Option<Value>| {
        let mut r = request(method, uri).header("authorization", format!("Bearer {viewer}"));
        if body.is_some() {
            r = r.header("content-type", "application/json");
        }
        r.body(body.map_or_else(Body::empty, |b| json_body(&b)))
            .unwrap()
    };
    assert_eq!(
        app.send(as_viewer("GET", "/api/v1/releases", None)).await.0,
        StatusCode::OK
    );
    let (status, body) = app
        .send(as_viewer("DELETE", "/api/v1/plugins/1", None))
        .await;
    assert_eq!((status, code(&body)), (StatusCode::FORBIDDEN, "forbidden"));
    let create = json!({"name": "x", "release_id": 1, "components": SELECTION});
    assert_eq!(
        app.send(as_viewer("POST", "/api/v1/clusters", Some(create)))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.send(as_viewer("GET", "/api/v1/audit", None)).await.0,
        StatusCode::FORBIDDEN
    );

    let operator = token_for(&app.db, "ops", Role::Operator).await;
    let uninstall = request("DELETE", "/api/v1/plugins/1")
        .header("authorization", format!("Bearer {operator}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(uninstall).await.0, StatusCode::FORBIDDEN);
    // The admin may: the bundled plugin goes.
    assert_eq!(
        app.call("DELETE", "/api/v1/plugins/1", None).await.0,
        StatusCode::NO_CONTENT
    );
}

#[tokio::test]
async fn the_session_cookie_only_works_from_the_apps_origin() {
    let app = test_app().await;
    user(&app, "olga", Role::Operator, "operator password").await;
    let wrong = request("POST", "/api/v1/session")
        .header("authorization", "none")
        .header("content-type", "application/json")
        .body(json_body(
            &json!({"username": "olga", "password": "not it at all"}),
        ))
        .unwrap();
    let (status, body) = app.send(wrong).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::UNAUTHORIZED, "unauthorized")
    );
    let cookie = sign_in(&app, "olga", "operator password").await;
    let with_cookie = |method: &str, uri: &str, origin: Option<&str>| {
        let mut r = request(method, uri)
            .header("authorization", "none")
            .header("cookie", &cookie)
            .header("host", "localhost:8080");
        if let Some(origin) = origin {
            r = r.header("origin", origin);
        }
        r
    };
    let (status, me) = app
        .send(
            with_cookie("GET", "/api/v1/session", None)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(
        (status, me),
        (
            StatusCode::OK,
            json!({"username": "olga", "role": "operator"})
        )
    );

    let create = json!({"name": "prod", "release_id": 1, "components": SELECTION});
    let post = |origin: &str, content_type: &str, uri: &str, body: String| {
        with_cookie("POST", uri, Some(origin))
            .header("content-type", content_type)
            .body(Body::from(body))
            .unwrap()
    };
    let evil = "http://evil.example";
    let (status, body) = app
        .send(post(
            evil,
            "application/json",
            "/api/v1/clusters",
            create.to_string(),
        ))
        .await;
    assert_eq!((status, code(&body)), (StatusCode::FORBIDDEN, "cross_site"));
    let (status, body) = app
        .send(post(
            evil,
            "text/plain",
            "/api/v1/clusters/import?name=x",
            "{}".into(),
        ))
        .await;
    assert_eq!((status, code(&body)), (StatusCode::FORBIDDEN, "cross_site"));
    // No Origin and no Sec-Fetch-Site: not known to come from the app.
    let bare = with_cookie("POST", "/api/v1/clusters", None)
        .header("content-type", "application/json")
        .body(json_body(&create))
        .unwrap();
    assert_eq!(app.send(bare).await.0, StatusCode::FORBIDDEN);
    let own = "http://localhost:8080";
    let (status, body) = app
        .send(post(
            own,
            "text/plain",
            "/api/v1/clusters",
            create.to_string(),
        ))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    );
    let (status, body) = app
        .send(post(
            own,
            "text/plain",
            "/api/v1/clusters/import?name=x",
            "{}".into(),
        ))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    );
    let (status, body) = app
        .send(post(
            own,
            "application/json",
            "/api/v1/clusters",
            create.to_string(),
        ))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body:#}");

    let out = with_cookie("DELETE", "/api/v1/session", Some(own))
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(out).await.0, StatusCode::NO_CONTENT);
    let after = with_cookie("GET", "/api/v1/session", None)
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(after).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn every_rejection_answers_the_json_error_body() {
    let app = test_app().await;
    let cases = [
        (
            request("GET", "/api/v1/nowhere"),
            StatusCode::NOT_FOUND,
            "not_found",
            None,
        ),
        (
            request("PATCH", "/api/v1/releases"),
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            None,
        ),
        (
            request("GET", "/api/v1/nodes/abc"),
            StatusCode::BAD_REQUEST,
            "bad_request",
            None,
        ),
        (
            request("GET", "/api/v1/audit?limit=x"),
            StatusCode::BAD_REQUEST,
            "bad_request",
            None,
        ),
        (
            request("POST", "/api/v1/clusters").header("content-type", "application/json"),
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            Some(format!("{{\"name\": \"{}\"}}", "x".repeat(2 << 20))),
        ),
        (
            request("POST", "/api/v1/plugins").header("content-type", "text/plain"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            Some("x".to_owned()),
        ),
    ];
    for (builder, status, expected, body) in cases {
        let request = builder
            .body(body.map_or_else(Body::empty, Body::from))
            .unwrap();
        let what = format!("{} {}", request.method(), request.uri());
        let (got, body) = app.send(request).await;
        assert_eq!((got, code(&body)), (status, expected), "{what}: {body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{what}"
        );
    }
}

#[tokio::test]
async fn hosts_are_checked_and_answers_carry_security_headers() {
    let app = test_app_with(Security {
        allowed_hosts: Some(vec![
            "127.0.0.1:8080".to_owned(),
            "localhost:8080".to_owned(),
        ]),
        ..Security::default()
    })
    .await;
    let get = |host: &str| {
        request("GET", "/api/v1/releases")
            .header("host", host)
            .body(Body::empty())
            .unwrap()
    };
    let response = app.respond(get("localhost:8080")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers();
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.contains("frame-ancestors 'none'") && policy.contains("'wasm-unsafe-eval'"),
        "{policy}"
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    let (status, body) = app.send(get("rebind.evil.example:8080")).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::BAD_REQUEST, "host_not_allowed")
    );
    let rejected = app.respond(get("evil.example")).await;
    assert!(rejected.headers().contains_key("content-security-policy"));
}

#[tokio::test]
async fn the_audit_log_records_every_change_with_its_actor() {
    let app = test_app().await;
    let operator = token_for(&app.db, "ci", Role::Operator).await;
    let create = request("POST", "/api/v1/clusters")
        .header("authorization", format!("Bearer {operator}"))
        .header("content-type", "application/json")
        .body(json_body(
            &json!({"name": "prod", "release_id": 1, "components": SELECTION}),
        ))
        .unwrap();
    assert_eq!(app.send(create).await.0, StatusCode::CREATED);
    let (status, _) = app
        .post(
            "/api/v1/clusters/1/nodes",
            &json!({"roles": ["controller"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    // A refused change is not one.
    app.post(
        "/api/v1/clusters",
        &json!({"name": "prod", "release_id": 1, "components": SELECTION}),
    )
    .await;
    let (status, log) = app.get("/api/v1/audit?limit=10").await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<(String, String, String)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["actor"].as_str().unwrap().to_owned(),
                e["method"].as_str().unwrap().to_owned(),
                e["target"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            (
                "token:test-admin".to_owned(),
                "POST".to_owned(),
                "/api/v1/clusters/1/nodes".to_owned()
            ),
            (
                "token:ci".to_owned(),
                "POST".to_owned(),
                "/api/v1/clusters".to_owned()
            ),
        ]
    );
    assert_eq!(log[0]["route"], "/api/v1/clusters/{id}/nodes");
    assert!(log[0]["at"].as_str().unwrap().ends_with('Z'));
}

/// One sign-in attempt from `peer` (`None`: no peer address, as a router
/// driven directly has none): the status, `Retry-After` and the body.
async fn attempt(
    app: &TestApp,
    username: &str,
    password: &str,
    peer: Option<[u8; 4]>,
) -> (StatusCode, Option<u64>, Value) {
    attempt_on(&app.handle(), username, password, peer).await
}

/// [`attempt`] through `replica`.
async fn attempt_on(
    replica: &support::Handle,
    username: &str,
    password: &str,
    peer: Option<[u8; 4]>,
) -> (StatusCode, Option<u64>, Value) {
    let mut request = request("POST", "/api/v1/session")
        .header("authorization", "none")
        .header("content-type", "application/json")
        .body(json_body(
            &json!({"username": username, "password": password}),
        ))
        .unwrap();
    if let Some(ip) = peer {
        let address = std::net::SocketAddr::from((ip, 40000));
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(address));
    }
    let response = replica.respond(request).await;
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, retry_after, serde_json::from_slice(&body).unwrap())
}

/// The 6th attempt of a name that failed 5 times is 429 `too_many_attempts`
/// with `Retry-After` within the 3 minutes one attempt takes to come back.
async fn assert_throttled(app: &TestApp, username: &str, password: &str, peer: [u8; 4]) {
    let (status, retry_after, body) = attempt(app, username, password, Some(peer)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{username}: {body}");
    assert_eq!(code(&body), "too_many_attempts");
    let seconds = retry_after.expect("Retry-After");
    assert!((1..=180).contains(&seconds), "{seconds}");
}

async fn fail_times(app: &TestApp, username: &str, times: usize, peer: [u8; 4]) {
    for n in 0..times {
        let (status, retry_after, body) =
            attempt(app, username, "wrong password", Some(peer)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{username} #{n}: {body}");
        assert_eq!(retry_after, None);
    }
}

#[tokio::test]
async fn failed_sign_ins_are_throttled_per_user_name_and_per_address() {
    let app = test_app().await;
    user(&app, "alice", Role::Operator, "alice's password").await;
    user(&app, "bob", Role::Viewer, "bob's password 1").await;
    let (here, elsewhere) = ([192, 0, 2, 1], [198, 51, 100, 7]);
    // Five failures of a user name, then 429 — even with the right password,
    // whose check costs nothing now, and from another address.
    fail_times(&app, "alice", 5, here).await;
    assert_throttled(&app, "alice", "alice's password", here).await;
    assert_throttled(&app, "alice", "alice's password", elsewhere).await;
    // The same for a name no user has.
    fail_times(&app, "nobody", 5, here).await;
    assert_throttled(&app, "nobody", "wrong password", here).await;
    // A success before the sixth starts the name's count again.
    fail_times(&app, "bob", 4, here).await;
    let (status, _, body) = attempt(&app, "bob", "bob's password 1", Some(here)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    fail_times(&app, "bob", 5, here).await;
    assert_throttled(&app, "bob", "bob's password 1", here).await;
    // Nineteen failures from `here` so far (throttled and successful
    // attempts are not counted): another name still gets its answer, the
    // twentieth; then the address is throttled, for every name, but only
    // there.
    fail_times(&app, "carol", 1, here).await;
    assert_throttled(&app, "dave", "wrong password", here).await;
    fail_times(&app, "dave", 1, elsewhere).await;
    // Without a peer address (a router driven directly) names are counted.
    fail_times(&app, "erin", 5, [203, 0, 113, 9]).await;
    let (status, _, _) = attempt(&app, "erin", "wrong password", None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// Another replica (its own pool, its own memory) on `app`'s database, as
/// a server started again would be.
async fn replica(app: &TestApp, label: &str) -> support::Handle {
    let db = mosaic_server::prepare(&app.url).await.unwrap();
    let token = support::token_for(&db, label, Role::Admin).await;
    support::Handle {
        router: mosaic_server::app(
            mosaic_server::AppState::new(db, mosaic_server::access::Security::default()),
            None,
        ),
        token,
    }
}

// Issue 43, point 6: on PostgreSQL the sign-in counts live in the
// database — five failures spread over two replicas throttle the name on
// both, and on a replica started afterwards (a restart) — and stay bounded
// and pruned; SQLite's server counts in its own memory, each replica apart.
#[tokio::test]
async fn replicas_on_postgresql_share_one_count_of_failed_sign_ins() {
    let app = test_app().await;
    user(&app, "alice", Role::Operator, "alice's password").await;
    let replicas = [app.handle(), replica(&app, "second").await];
    let here = [192, 0, 2, 1];
    for n in 0..5 {
        let (status, _, body) =
            attempt_on(&replicas[n % 2], "alice", "wrong password", Some(here)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "#{n}: {body}");
    }
    let (status, _, body) = attempt_on(&replicas[1], "alice", "alice's password", Some(here)).await;
    if !app.url.starts_with("postgres") {
        // Each SQLite replica counted only its own failures (two here).
        assert_eq!(status, StatusCode::OK, "{body}");
        return;
    }
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let restarted = replica(&app, "restarted").await;
    let (status, retry_after, body) =
        attempt_on(&restarted, "alice", "alice's password", Some(here)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!((1..=180).contains(&retry_after.unwrap()));
    // Another name is counted apart.
    let (status, _, _) = attempt_on(&restarted, "bob", "wrong password", Some(here)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // Bounded and pruned: past its cap a kind keeps the freshest seven
    // eighths; a key whose time has passed is gone at the next attempt.
    let limit = mosaic_server::db::Limit {
        period: std::time::Duration::from_millis(300),
        burst: 1,
        max_keys: 16,
    };
    for n in 0..40 {
        let taken = app.db.take_sign_in("test", &format!("k{n}"), &limit).await;
        assert!(taken.unwrap().is_ok());
    }
    assert!(app.db.sign_in_keys("test").await.unwrap() <= 16);
    let again = app.db.take_sign_in("test", "k39", &limit).await.unwrap();
    assert!(again.is_err(), "one at a time");
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    app.db
        .take_sign_in("test", "fresh", &limit)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(app.db.sign_in_keys("test").await.unwrap(), 1);
}
