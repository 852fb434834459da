//! Versions over time (SEMANTICS §7.6): versions of one plugin installed
//! side by side, environments built from the versions they pin.

mod support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{SELECTION, TestApp, archive, copy_dir, plugin_fixture, test_app};

/// `storage_demo` 2.0.0: the v5 example with a new setting, the pool's
/// default changed and a new role.
fn storage_demo_v2(dir: &std::path::Path) -> std::path::PathBuf {
    let root = dir.join("storage_demo-2.0.0");
    copy_dir(&plugin_fixture("v5-example"), &root);
    let edit = |file: &str, from: &str, to: &str| {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit("metadata.yaml", "version: '1.0.0'", "version: '2.0.0'");
    edit("environment_config.yaml", "value: data\n", "value: data2\n");
    edit(
        "environment_config.yaml",
        "  storage_demo_pool:",
        "  storage_demo_replicas:\n    value: '3'\n    label: Replicas\n    weight: 30\n    type: text\n  storage_demo_pool:",
    );
    let roles = std::fs::read_to_string(root.join("node_roles.yaml")).unwrap();
    std::fs::write(
        root.join("node_roles.yaml"),
        format!(
            "{roles}storage_demo_gateway:\n  name: Storage demo gateway\n  description: Serves the demo storage.\n  has_primary: false\n"
        ),
    )
    .unwrap();
    root
}

const WITH_DEMO: [&str; 8] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "network:neutron:ml2:ovs",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
    "storage:image:swift",
    "additional_service:storage_demo",
];

async fn install(app: &TestApp, dir: &std::path::Path) -> i64 {
    let (status, plugin) = app.upload(archive(dir)).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    plugin["id"].as_i64().unwrap()
}

fn message(body: &Value) -> &str {
    body["error"]["message"].as_str().unwrap_or_default()
}

/// What an environment is made of, as the API shows it.
async fn made_of(app: &TestApp, id: i64) -> (Value, Value, Value) {
    let (_, settings) = app.get(&format!("/api/v1/clusters/{id}/attributes")).await;
    let (_, roles) = app.get(&format!("/api/v1/clusters/{id}/roles")).await;
    let (_, plan) = app.get(&format!("/api/v1/clusters/{id}/plan")).await;
    (settings, roles, plan)
}

fn role_ids(roles: &Value) -> Vec<&str> {
    roles
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn an_environment_keeps_the_versions_it_pins_when_a_newer_one_is_installed() {
    let app = test_app().await;
    let dir = tempfile::tempdir().unwrap();
    let v1 = install(&app, &plugin_fixture("v5-example")).await;
    let (old, _) = app.environment_with("old", &WITH_DEMO).await;
    let (status, cluster) = app.get(&format!("/api/v1/clusters/{old}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "1.0.0"}])
    );
    assert_eq!(cluster["release"]["plugin"], "openstack");
    assert!(cluster["release"]["version"].is_string(), "{cluster:#}");
    let before = made_of(&app, old).await;

    install(&app, &storage_demo_v2(dir.path())).await;
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{old}")).await;
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "1.0.0"}])
    );
    let after = made_of(&app, old).await;
    assert_eq!(after, before, "installing 2.0.0 changed the environment");
    let (settings, roles, _) = &after;
    assert_eq!(
        settings["editable"]["storage_demo"]["storage_demo_pool"]["value"],
        "data"
    );
    assert!(settings["editable"]["storage_demo"]["storage_demo_replicas"].is_null());
    assert!(!role_ids(roles).contains(&"storage_demo_gateway"));

    // A new environment takes 2.0.0.
    let (new, _) = app.environment_with("new", &WITH_DEMO).await;
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{new}")).await;
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "2.0.0"}])
    );
    let (settings, roles, _) = made_of(&app, new).await;
    assert_eq!(
        settings["editable"]["storage_demo"]["storage_demo_pool"]["value"],
        "data2"
    );
    assert_eq!(
        settings["editable"]["storage_demo"]["storage_demo_replicas"]["value"],
        "3"
    );
    assert!(role_ids(&roles).contains(&"storage_demo_gateway"));

    // 1.0.0 is pinned by 'old' alone.
    let (status, body) = app
        .call("DELETE", &format!("/api/v1/plugins/{v1}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body:#}");
    assert_eq!(body["error"]["code"], "plugin_in_use");
    assert!(message(&body).contains("'old'"), "{body:#}");
    assert!(!message(&body).contains("'new'"), "{body:#}");
    let (status, _) = app.delete(&format!("/api/v1/clusters/{old}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = app
        .call("DELETE", &format!("/api/v1/plugins/{v1}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body:#}");
}

#[tokio::test]
async fn switching_a_plugin_on_pins_its_newest_version_then_and_off_unpins_it() {
    let app = test_app().await;
    let dir = tempfile::tempdir().unwrap();
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("env", &SELECTION).await;
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(cluster["plugins"], json!([]));
    let v2 = install(&app, &storage_demo_v2(dir.path())).await;

    let attributes = format!("/api/v1/clusters/{env}/attributes");
    let switch = |on: bool| json!({"editable": {"storage_demo": {"metadata": {"enabled": on}}}});
    let (status, doc) = app.patch(&attributes, &switch(true)).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "2.0.0"}])
    );
    let (status, body) = app
        .call("DELETE", &format!("/api/v1/plugins/{v2}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body:#}");
    assert!(message(&body).contains("'env'"), "{body:#}");

    let (status, doc) = app.patch(&attributes, &switch(false)).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(cluster["plugins"], json!([]));
}

#[tokio::test]
async fn environments_stored_before_versions_were_pinned_pin_what_they_resolve_to() {
    use sqlx::{Connection, Executor};
    let app = test_app().await;
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("legacy", &WITH_DEMO).await;
    sqlx::any::install_default_drivers();
    let mut connection = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    connection
        .execute("UPDATE clusters SET plugins = NULL")
        .await
        .unwrap();
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(cluster["plugins"], json!([]));

    // The next start pins them.
    mosaic_server::prepare(&app.url).await.unwrap();
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "1.0.0"}])
    );
}
