//! Changing an environment's components later through the API (SEMANTICS
//! §9.1): `PUT /api/v1/clusters/{id}/components`, its dry run, and every
//! refusal with nothing stored. Runs on SQLite, and on PostgreSQL under
//! `make postgres`.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use mosaic_core::access::Role;
use serde_json::{Value, json};
use support::{SELECTION, TestApp, test_app, token_for};

/// `SELECTION` (LVM for volumes) with Ceph for volumes instead.
fn ceph_volumes() -> Vec<&'static str> {
    SELECTION
        .iter()
        .map(|c| match *c {
            "storage:block:backend:lvm" => "storage:block:backend:ceph",
            other => other,
        })
        .collect()
}

fn components(cluster: i64) -> String {
    format!("/api/v1/clusters/{cluster}/components")
}

/// What a refused change must leave as it was: the environment and its
/// settings (with their version).
async fn stored(app: &TestApp, cluster: i64) -> (Value, Value) {
    let (_, env) = app.get(&format!("/api/v1/clusters/{cluster}")).await;
    let (_, settings) = app
        .get(&format!("/api/v1/clusters/{cluster}/attributes"))
        .await;
    (env, settings)
}

async fn node(app: &TestApp, cluster: i64, name: &str, roles: &[&str]) -> i64 {
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"name": name, "roles": roles}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    node["id"].as_i64().unwrap()
}

fn paths(consequences: &Value) -> Vec<(String, Value, Value)> {
    consequences["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().to_owned(),
                c["before"].clone(),
                c["after"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_dry_run_answers_the_consequences_and_stores_nothing() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let ctl = node(&app, cluster, "ctl", &["controller"]).await;
    let before = stored(&app, cluster).await;
    let (status, seen) = app
        .put(
            &format!("{}?dry_run=true", components(cluster)),
            &json!({"components": ceph_volumes()}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{seen:#}");
    let changes = paths(&seen);
    assert!(
        changes.contains(&("storage.volumes_lvm".into(), json!(true), json!(false))),
        "{changes:?}"
    );
    assert!(
        changes.contains(&("storage.volumes_ceph".into(), json!(false), json!(true))),
        "{changes:?}"
    );
    assert_eq!(seen["plugins"], json!({"enabled": [], "disabled": []}));
    let roles: Vec<&str> = seen["roles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["role"].as_str().unwrap())
        .collect();
    assert!(roles.contains(&"cinder"), "{roles:?}");
    let on_ctl = seen["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["nodes"].as_array().unwrap().contains(&json!(ctl)));
    assert!(on_ctl.is_some(), "{seen:#}");
    assert_eq!(stored(&app, cluster).await, before);
}

#[tokio::test]
async fn a_change_stores_the_selection_and_settings_and_keeps_unbound_edits() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let attributes = format!("/api/v1/clusters/{cluster}/attributes");
    let debug_on = json!({"editable": {"common": {"debug": {"value": true}}}});
    let (status, _) = app.patch(&attributes, &debug_on).await;
    assert_eq!(status, StatusCode::OK);
    let (_, settings) = app.get(&attributes).await;
    let version = settings["version"].as_i64().unwrap();

    let request = Request::builder()
        .method("PUT")
        .uri(components(cluster))
        .header("content-type", "application/json")
        .header("if-match", format!("\"{version}\""))
        .body(Body::from(
            json!({"components": ceph_volumes()}).to_string(),
        ))
        .unwrap();
    let response = app.respond(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with(&format!("\"{}", version + 1)), "{etag}");
    let (_, env) = app.get(&format!("/api/v1/clusters/{cluster}")).await;
    let chosen: Vec<&str> = env["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(chosen.contains(&"storage:block:backend:ceph"), "{chosen:?}");
    assert!(!chosen.contains(&"storage:block:backend:lvm"), "{chosen:?}");
    let (_, settings) = app.get(&attributes).await;
    assert_eq!(settings["version"], version + 1);
    let storage = &settings["editable"]["storage"];
    assert_eq!(storage["volumes_ceph"]["value"], true);
    assert_eq!(storage["volumes_lvm"]["value"], false);
    assert_eq!(settings["editable"]["common"]["debug"]["value"], true);
}

#[tokio::test]
async fn an_invalid_selection_is_refused_as_creation_refuses_it() {
    let app = test_app().await;
    let (cluster, release) = app.environment("prod").await;
    let before = stored(&app, cluster).await;
    let mut wanted = SELECTION.to_vec();
    wanted.push("storage:block:backend:ceph");
    wanted.push("no:such:thing");
    let (status, refused) = app
        .put(&components(cluster), &json!({"components": wanted}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    let (_, created) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "other", "release_id": release, "components": wanted}),
        )
        .await;
    assert_eq!(refused, created);
    assert_eq!(refused["error"]["code"], "invalid_selection");
    assert_eq!(stored(&app, cluster).await, before);
    let (status, _) = app
        .put(
            &format!("{}?dry_run=true", components(cluster)),
            &json!({"components": wanted}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_change_under_a_node_holding_a_lost_role_is_refused_naming_it() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let block = node(&app, cluster, "block-1", &["cinder"]).await;
    let before = stored(&app, cluster).await;
    let (status, refused) = app
        .put(&components(cluster), &json!({"components": ceph_volumes()}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused:#}");
    assert_eq!(refused["error"]["code"], "components_in_use");
    let problems = refused["error"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{refused:#}");
    assert_eq!(problems[0]["node"], block);
    assert_eq!(problems[0]["name"], "block-1");
    assert_eq!(problems[0]["role"], "cinder");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("'block-1' holds 'cinder'"), "{message}");
    assert_eq!(stored(&app, cluster).await, before);

    // Issue 43, point 7: its dry run answers as the change does — the
    // same 409 with every reason — and the consequences are in both.
    let (status, seen) = app
        .put(
            &format!("{}?dry_run=true", components(cluster)),
            &json!({"components": ceph_volumes()}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{seen:#}");
    assert_eq!(seen, refused);
    let cinder = seen["error"]["consequences"]["roles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["role"] == "cinder")
        .cloned();
    assert_eq!(
        cinder,
        Some(json!({"role": "cinder", "nodes": ["block-1"]}))
    );
    let settings = &seen["error"]["consequences"]["settings"];
    assert!(
        settings.to_string().contains("storage.volumes_ceph"),
        "{seen:#}"
    );
    assert_eq!(stored(&app, cluster).await, before);
}

#[tokio::test]
async fn if_match_names_the_settings_version_and_viewers_cannot_change() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let (_, settings) = app
        .get(&format!("/api/v1/clusters/{cluster}/attributes"))
        .await;
    let version = settings["version"].as_i64().unwrap();
    let body = json!({"components": ceph_volumes()}).to_string();
    let stale = format!("\"{}\"", version + 5);
    let (status, refused) = app
        .call_with(
            "PUT",
            &components(cluster),
            Some(&body),
            &[("if-match", &stale)],
        )
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{refused:#}");
    let viewer = token_for(&app.db, "ro", Role::Viewer).await;
    let bearer = format!("Bearer {viewer}");
    let (status, _) = app
        .call_with(
            "PUT",
            &components(cluster),
            Some(&body),
            &[("authorization", &bearer)],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let current = format!("\"{version}\"");
    let (status, env) = app
        .call_with(
            "PUT",
            &components(cluster),
            Some(&body),
            &[("if-match", &current)],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{env:#}");
    assert_eq!(env["id"], cluster);
}
