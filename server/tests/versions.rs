//! Versions over time (SEMANTICS §7.6): versions of one plugin installed
//! side by side, environments built from the versions they pin.

mod support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{SELECTION, TestApp, archive, copy_dir, plugin_fixture, test_app};

/// A copy of the v5 example (`storage_demo` 1.0.0) as `version`.
fn storage_demo(dir: &std::path::Path, version: &str) -> std::path::PathBuf {
    let root = dir.join(format!("storage_demo-{version}"));
    copy_dir(&plugin_fixture("v5-example"), &root);
    edit(
        &root,
        "metadata.yaml",
        "version: '1.0.0'",
        &format!("version: '{version}'"),
    );
    root
}

/// Replaces `from` (which must be there) with `to` in `file` under `root`.
fn edit(root: &std::path::Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has {from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// `storage_demo` 3.0.0: its component renamed, its role replaced.
fn storage_demo_v3(dir: &std::path::Path) -> std::path::PathBuf {
    let root = storage_demo(dir, "3.0.0");
    edit(
        &root,
        "components.yaml",
        "name: additional_service:storage_demo",
        "name: additional_service:storage_demo_ng",
    );
    edit(
        &root,
        "node_roles.yaml",
        "storage_demo:",
        "storage_demo_ng:",
    );
    edit(
        &root,
        "volumes.yaml",
        "  storage_demo:\n    - {allocate_size: min",
        "  storage_demo_ng:\n    - {allocate_size: min",
    );
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

    install(&app, &plugin_fixture("v5-example-2")).await;
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

    // Each version lists the environments that pin it.
    let (_, plugins) = app.get("/api/v1/plugins").await;
    let used_by = |version: &str| {
        plugins
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "storage_demo" && p["version"] == version)
            .map(|p| p["used_by"].clone())
    };
    assert_eq!(used_by("1.0.0"), Some(json!(["old"])));
    assert_eq!(used_by("2.0.0"), Some(json!(["new"])));

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
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("env", &SELECTION).await;
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(cluster["plugins"], json!([]));
    let v2 = install(&app, &plugin_fixture("v5-example-2")).await;

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

async fn node_with(app: &TestApp, env: i64, name: &str, role: &str) -> i64 {
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{env}/nodes"),
            &json!({"name": name, "roles": [role]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    node["id"].as_i64().unwrap()
}

async fn settings_version(app: &TestApp, env: i64) -> i64 {
    let (_, doc) = app.get(&format!("/api/v1/clusters/{env}/attributes")).await;
    doc["version"].as_i64().unwrap()
}

#[tokio::test]
async fn an_upgrade_is_listed_previewed_and_applied_under_the_settings_version() {
    let app = test_app().await;
    let v1 = install(&app, &plugin_fixture("v5-example")).await;
    let (old, _) = app.environment_with("old", &WITH_DEMO).await;
    let node = node_with(&app, old, "demo-1", "storage_demo").await;
    let (edited, _) = app.environment_with("edited", &WITH_DEMO).await;
    let own = json!({"editable": {"storage_demo": {"storage_demo_pool": {"value": "mine"}}}});
    let (status, doc) = app
        .patch(&format!("/api/v1/clusters/{edited}/attributes"), &own)
        .await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    let (status, none) = app.get(&format!("/api/v1/clusters/{old}/upgrades")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(none, json!([]));

    install(&app, &plugin_fixture("v5-example-2")).await;
    let (_, offers) = app.get(&format!("/api/v1/clusters/{old}/upgrades")).await;
    assert_eq!(
        offers,
        json!([{"plugin": "storage_demo", "from": "1.0.0", "to": ["2.0.0"]}])
    );

    let upgrade = format!("/api/v1/clusters/{old}/upgrade");
    let to = |version: &str| json!({"plugin": "storage_demo", "version": version});
    let (status, preview) = app
        .post(&format!("{upgrade}?dry_run=true"), &to("2.0.0"))
        .await;
    assert_eq!(status, StatusCode::OK, "{preview:#}");
    assert_eq!(
        preview,
        json!({
            "components": {"added": [], "removed": []},
            "settings": {
                "added": ["storage_demo.storage_demo_replicas"],
                "removed": [],
                "changed": [{"path": "storage_demo.storage_demo_pool", "before": "data", "after": "data2"}]
            },
            "roles": {"added": ["storage_demo_gateway"], "removed": []},
            "tasks": [{"nodes": [node], "added": [], "removed": ["storage_demo-post-deployment"]}],
            "networks": {"added": [], "removed": []},
            "release_changes": {"carried": [], "not_carried": []}
        })
    );
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{old}")).await;
    assert_eq!(
        cluster["plugins"][0]["version"], "1.0.0",
        "a dry run stores nothing"
    );

    // Not installed, not newer: 404.
    for version in ["9.0.0", "1.0.0"] {
        let (status, body) = app.post(&upgrade, &to(version)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{version}: {body:#}");
    }

    // Under the settings version.
    let version = settings_version(&app, old).await;
    let stale = format!("\"{}\"", version - 1);
    let body = to("2.0.0").to_string();
    let (status, refused) = app
        .call_with("POST", &upgrade, Some(&body), &[("if-match", &stale)])
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{refused:#}");
    let current = format!("\"{version}\"");
    let (status, cluster) = app
        .call_with("POST", &upgrade, Some(&body), &[("if-match", &current)])
        .await;
    assert_eq!(status, StatusCode::OK, "{cluster:#}");
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "2.0.0"}])
    );
    assert_eq!(settings_version(&app, old).await, version + 1);
    let (_, offers) = app.get(&format!("/api/v1/clusters/{old}/upgrades")).await;
    assert_eq!(offers, json!([]));

    // Upgraded, it is what creating it on 2.0.0 gives; an operator's own
    // value is kept.
    let (fresh, _) = app.environment_with("fresh", &WITH_DEMO).await;
    node_with(&app, fresh, "demo-1", "storage_demo").await;
    let (settings, roles, _) = made_of(&app, old).await;
    let (fresh_settings, fresh_roles, _) = made_of(&app, fresh).await;
    assert_eq!(settings["editable"], fresh_settings["editable"]);
    assert_eq!(roles, fresh_roles);
    let (status, _) = app
        .post(&format!("/api/v1/clusters/{edited}/upgrade"), &to("2.0.0"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (settings, _, _) = made_of(&app, edited).await;
    let demo = &settings["editable"]["storage_demo"];
    assert_eq!(demo["storage_demo_pool"]["value"], "mine");
    assert_eq!(demo["storage_demo_replicas"]["value"], "3");

    // Nobody pins 1.0.0 any more.
    let (status, body) = app
        .call("DELETE", &format!("/api/v1/plugins/{v1}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body:#}");
}

#[tokio::test]
async fn an_upgrade_that_takes_a_chosen_component_or_a_held_role_away_is_refused() {
    let app = test_app().await;
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("env", &WITH_DEMO).await;
    node_with(&app, env, "demo-1", "storage_demo").await;
    let dir = tempfile::tempdir().unwrap();
    install(&app, &storage_demo_v3(dir.path())).await;
    let upgrade = format!("/api/v1/clusters/{env}/upgrade");
    let body = json!({"plugin": "storage_demo", "version": "3.0.0"});
    for uri in [format!("{upgrade}?dry_run=true"), upgrade.clone()] {
        let (status, refused) = app.post(&uri, &body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{refused:#}");
        assert_eq!(refused["error"]["code"], "upgrade_refused");
        assert_eq!(
            refused["error"]["refusals"],
            json!([
                {"kind": "component", "component": "additional_service:storage_demo"},
                {"kind": "role", "role": "storage_demo", "nodes": ["demo-1"]}
            ])
        );
        assert!(message(&refused).contains("'demo-1'"), "{refused:#}");
        let consequences = &refused["error"]["upgrade"];
        assert_eq!(
            consequences["components"],
            json!({"added": ["additional_service:storage_demo_ng"], "removed": ["additional_service:storage_demo"]})
        );
        assert_eq!(
            consequences["roles"],
            json!({"added": [], "removed": [{"role": "storage_demo", "nodes": ["demo-1"]}]})
        );
    }
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(cluster["plugins"][0]["version"], "1.0.0");
}

/// Another app (as another replica would be) on `first`'s database.
async fn replica(first: &TestApp) -> support::Handle {
    let db = mosaic_server::prepare(&first.url).await.unwrap();
    let token = support::token_for(&db, "replica", mosaic_core::access::Role::Admin).await;
    support::Handle {
        router: mosaic_server::app(
            mosaic_server::AppState::new(db, mosaic_server::access::Security::default()),
            None,
        ),
        token,
    }
}

/// `method uri` with a JSON `body` under `If-Match: version`.
fn conditional(
    method: &str,
    uri: &str,
    body: String,
    version: &str,
) -> axum::http::Request<axum::body::Body> {
    axum::http::Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("if-match", version)
        .body(axum::body::Body::from(body))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upgrade_racing_a_settings_save_on_two_replicas_loses_nothing() {
    let app = test_app().await;
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("env", &WITH_DEMO).await;
    install(&app, &plugin_fixture("v5-example-2")).await;
    let second = replica(&app).await;
    let version = format!("\"{}\"", settings_version(&app, env).await);
    let upgrade = json!({"plugin": "storage_demo", "version": "2.0.0"}).to_string();
    let save =
        json!({"editable": {"storage_demo": {"storage_demo_pool": {"value": "mine"}}}}).to_string();
    let (upgrade_uri, save_uri) = (
        format!("/api/v1/clusters/{env}/upgrade"),
        format!("/api/v1/clusters/{env}/attributes"),
    );
    let first = app.handle();
    let (upgraded, saved) = tokio::join!(
        second.send(conditional("POST", &upgrade_uri, upgrade, &version)),
        first.send(conditional("PATCH", &save_uri, save, &version)),
    );
    let mut statuses = [upgraded.0, saved.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::PRECONDITION_FAILED],
        "{upgraded:?} {saved:?}"
    );
    let (settings, _, _) = made_of(&app, env).await;
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    let pool = &settings["editable"]["storage_demo"]["storage_demo_pool"]["value"];
    if upgraded.0 == StatusCode::OK {
        assert_eq!(cluster["plugins"][0]["version"], "2.0.0");
        assert_eq!(pool, "data2");
    } else {
        assert_eq!(cluster["plugins"][0]["version"], "1.0.0");
        assert_eq!(pool, "mine");
    }
}

/// The bundled release plugin's next version, `openstack` 1.1.0 with
/// release record 2024.1-1.1: a new setting (`syslog.port`), a changed
/// default (`syslog.transport`), a new role (`telemetry`), a removed task
/// (`enable_nova_compute_service`) and a renamed component
/// (`hypervisor:xen` → `hypervisor:xen:libxl`).
fn openstack_v2(dir: &std::path::Path) -> std::path::PathBuf {
    let root = dir.join("openstack-1.1.0");
    let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../releases/openstack");
    copy_dir(&bundled, &root);
    edit(
        &root,
        "metadata.yaml",
        "version: '1.0.0'",
        "version: '1.1.0'",
    );
    edit(
        &root,
        "metadata.yaml",
        "version: 2024.1-1.0",
        "version: 2024.1-1.1",
    );
    edit(
        &root,
        "components.yaml",
        "- name: hypervisor:xen\n",
        "- name: hypervisor:xen:libxl\n",
    );
    edit(
        &root,
        "attributes.yaml",
        "      value: tcp\n",
        "      value: udp\n",
    );
    edit(
        &root,
        "attributes.yaml",
        "    transport:\n",
        "    port:\n      type: text\n      label: Syslog port\n      weight: 30\n      value: '514'\n    transport:\n",
    );
    let roles = std::fs::read_to_string(root.join("node_roles.yaml")).unwrap();
    std::fs::write(
        root.join("node_roles.yaml"),
        format!(
            "{roles}telemetry:\n  name: Telemetry\n  description: Collects the cloud's metering data.\n  weight: 80\n  group: other\n"
        ),
    )
    .unwrap();
    let compute = root.join("graphs/default/30-compute.yaml");
    let tasks = std::fs::read_to_string(&compute).unwrap();
    let (head, rest) = tasks
        .split_once("- id: enable_nova_compute_service")
        .unwrap();
    let (_, tail) = rest.split_once("\n- id: ").unwrap();
    std::fs::write(&compute, format!("{head}- id: {tail}")).unwrap();
    edit(
        &root,
        "graphs/default/40-storage.yaml",
        "required_for: [enable_nova_compute_service, deploy_end]",
        "required_for: [deploy_end]",
    );
    root
}

#[tokio::test]
async fn a_release_upgrades_as_its_plugin_with_every_kind_of_consequence() {
    let app = test_app().await;
    let dir = tempfile::tempdir().unwrap();
    let (env, old_release) = app.environment("env").await;
    let compute = node_with(&app, env, "compute-1", "compute").await;
    let (status, plugin) = app.upload(archive(&openstack_v2(dir.path()))).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    // Issue 43, point 4: two versions of one release are told apart by
    // the release's name and version wherever it is shown.
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(
        cluster["release"],
        json!({"plugin": "openstack", "version": "1.0.0",
               "name": "OpenStack 2024.1 on Ubuntu 22.04", "release_version": "2024.1-1.0"})
    );
    let (_, offers) = app.get(&format!("/api/v1/clusters/{env}/upgrades")).await;
    assert_eq!(
        offers,
        json!([{"plugin": "openstack", "from": "1.0.0", "to": ["1.1.0"]}])
    );

    let upgrade = format!("/api/v1/clusters/{env}/upgrade");
    let to = json!({"plugin": "openstack", "version": "1.1.0"});
    let (status, preview) = app.post(&format!("{upgrade}?dry_run=true"), &to).await;
    assert_eq!(status, StatusCode::OK, "{preview:#}");
    assert_eq!(
        preview,
        json!({
            "components": {"added": ["hypervisor:xen:libxl"], "removed": ["hypervisor:xen"]},
            "settings": {
                "added": ["syslog.port"],
                "removed": [],
                "changed": [{"path": "syslog.transport", "before": "tcp", "after": "udp"}]
            },
            "roles": {"added": ["telemetry"], "removed": []},
            "tasks": [{"nodes": [compute], "added": [], "removed": ["enable_nova_compute_service"]}],
            "networks": {"added": [], "removed": []},
            "release_changes": {"carried": [], "not_carried": []}
        })
    );

    let (status, cluster) = app.post(&upgrade, &to).await;
    assert_eq!(status, StatusCode::OK, "{cluster:#}");
    assert_eq!(
        cluster["release"],
        json!({"plugin": "openstack", "version": "1.1.0",
               "name": "OpenStack 2024.1 on Ubuntu 22.04", "release_version": "2024.1-1.1"})
    );
    assert_ne!(cluster["release_id"], json!(old_release));
    let (_, offers) = app.get(&format!("/api/v1/clusters/{env}/upgrades")).await;
    assert_eq!(offers, json!([]));

    // Upgraded, it is what creating it on the new release record gives.
    let (status, fresh) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "fresh", "release_id": cluster["release_id"], "components": SELECTION}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{fresh:#}");
    let fresh = fresh["id"].as_i64().unwrap();
    node_with(&app, fresh, "compute-1", "compute").await;
    let (settings, roles, _) = made_of(&app, env).await;
    let (fresh_settings, fresh_roles, _) = made_of(&app, fresh).await;
    assert_eq!(settings["editable"], fresh_settings["editable"]);
    assert_eq!(roles, fresh_roles);
    assert!(role_ids(&roles).contains(&"telemetry"));

    // A file naming the release without its version imports onto the
    // newest of its line; with one, onto that one.
    let export = format!("/api/v1/clusters/{fresh}/environment");
    let (_, text) = app
        .text(
            axum::http::Request::builder()
                .uri(&export)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert!(text.contains("release_version: 2024.1-1.1"), "{text}");
    let unversioned = text.replace("release_version: 2024.1-1.1\n", "");
    let (status, newest) = import(&app, "unversioned", unversioned).await;
    assert_eq!(status, StatusCode::CREATED, "{newest:#}");
    assert_eq!(newest["release"]["version"], "1.1.0");
    let older = text.replace("release_version: 2024.1-1.1", "release_version: 2024.1-1.0");
    let (status, old) = import(&app, "older", older).await;
    assert_eq!(status, StatusCode::CREATED, "{old:#}");
    assert_eq!(old["release"]["version"], "1.0.0");
}

#[tokio::test]
async fn a_release_upgrade_an_enabled_plugin_cannot_follow_is_refused_naming_it() {
    let app = test_app().await;
    let dir = tempfile::tempdir().unwrap();
    install(&app, &plugin_fixture("detach-queue")).await;
    let (env, _) = app.environment("env").await;
    let on = json!({"editable": {"detach-queue": {"metadata": {"enabled": true}}}});
    let (status, doc) = app
        .patch(&format!("/api/v1/clusters/{env}/attributes"), &on)
        .await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    install(&app, &openstack_v2(dir.path())).await;
    let (status, refused) = app
        .post(
            &format!("/api/v1/clusters/{env}/upgrade"),
            &json!({"plugin": "openstack", "version": "1.1.0"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused:#}");
    assert_eq!(
        refused["error"]["refusals"],
        json!([{
            "kind": "plugin",
            "plugin": "detach-queue",
            "version": "1.0.0",
            "release": "OpenStack 2024.1 on Ubuntu 22.04 (2024.1-1.1)"
        }])
    );
    assert!(message(&refused).contains("'detach-queue'"), "{refused:#}");
}

/// `POST /api/v1/clusters/import?name=NAME` with the YAML `body`.
async fn import(app: &TestApp, name: &str, body: String) -> (StatusCode, Value) {
    let request = axum::http::Request::builder()
        .method("POST")
        .uri(format!("/api/v1/clusters/import?name={name}"))
        .header("content-type", "application/yaml")
        .body(axum::body::Body::from(body))
        .unwrap();
    app.handle().send(request).await
}

#[tokio::test]
async fn an_environment_file_names_the_pinned_versions_and_an_import_pins_them() {
    let app = test_app().await;
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("old", &WITH_DEMO).await;
    install(&app, &plugin_fixture("v5-example-2")).await;
    let (status, text) = app
        .text(
            axum::http::Request::builder()
                .uri(format!("/api/v1/clusters/{env}/environment"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let file: Value = mosaic_core::yaml::parse("env.yaml", &text).unwrap();
    assert_eq!(
        file["plugins"],
        json!([{"name": "storage_demo", "version": "1.0.0"}])
    );
    assert_eq!(file["release_version"], "2024.1-1.0");

    // Imported, it pins what the file names, though 2.0.0 is newer.
    let (status, copy) = import(&app, "copy", text.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{copy:#}");
    assert_eq!(
        copy["plugins"],
        json!([{"name": "storage_demo", "version": "1.0.0"}])
    );
    // A version that is not installed is named.
    let missing = text.replace("version: 1.0.0", "version: 9.0.0");
    let (status, body) = import(&app, "missing", missing).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(message(&body).contains("'storage_demo' 9.0.0"), "{body:#}");
    let other = text.replace("release_version: 2024.1-1.0", "release_version: 2024.1-9.9");
    let (status, body) = import(&app, "other", other).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(message(&body).contains("2024.1-9.9"), "{body:#}");
    // The list of names still imports: the newest compatible version.
    let mut named = file.clone();
    named["plugins"] = json!(["storage_demo"]);
    named.as_object_mut().unwrap().remove("release_version");
    let (status, newest) = import(&app, "named", named.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{newest:#}");
    assert_eq!(
        newest["plugins"],
        json!([{"name": "storage_demo", "version": "2.0.0"}])
    );
}

#[tokio::test]
async fn a_setting_a_newer_version_dropped_does_not_stick_once_its_plugin_is_off() {
    let app = test_app().await;
    let dir = tempfile::tempdir().unwrap();
    install(&app, &plugin_fixture("v5-example")).await;
    let (env, _) = app.environment_with("env", &SELECTION).await;
    let attributes = format!("/api/v1/clusters/{env}/attributes");
    let on = json!({"editable": {"storage_demo": {
        "metadata": {"enabled": true},
        "storage_demo_pool": {"value": "mine"}
    }}});
    let (status, doc) = app.patch(&attributes, &on).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    // 2.5.0 calls the pool something else.
    let renamed = storage_demo(dir.path(), "2.5.0");
    edit(
        &renamed,
        "environment_config.yaml",
        "  storage_demo_pool:",
        "  storage_demo_path:",
    );
    install(&app, &renamed).await;

    // Off, the environment shows 2.5.0's group; the old edit does nothing.
    let off = json!({"editable": {"storage_demo": {"metadata": {"enabled": false}}}});
    let (status, doc) = app.patch(&attributes, &off).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    let change = json!({"editable": {"access": {"email": {"value": "ops@example.org"}}}});
    let (status, doc) = app.patch(&attributes, &change).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    assert!(doc["editable"]["storage_demo"]["storage_demo_path"].is_object());
    // Naming the setting that is gone is refused.
    let stale = json!({"editable": {"storage_demo": {"storage_demo_pool": {"value": "x"}}}});
    let (status, body) = app.patch(&attributes, &stale).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(
        body["error"]["problems"][0]["path"],
        "storage_demo.storage_demo_pool"
    );
}

/// `role`'s tags and where they come from, as environment or release
/// `owner` (its API path) lists them.
async fn role_tags(app: &TestApp, owner: &str, role: &str) -> (Value, Value) {
    let (_, roles) = app.get(&format!("{owner}/roles")).await;
    let role = roles
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == role)
        .cloned()
        .unwrap_or_else(|| panic!("no role {role} in {roles:#}"));
    (role["tags"].clone(), role["tags_source"].clone())
}

// Issue 43, point 1: a release upgrade carries the changes made on the old
// release record — tags created there, role edits, roles of its own — onto
// the new record where they still fit; the preview lists every one, and
// why one is not carried (the new version declares it, or the new record
// has its own change), and the upgrade's answer says the same.
#[tokio::test]
async fn a_release_upgrade_carries_the_changes_made_on_the_old_release() {
    let app = test_app().await;
    let dir = tempfile::tempdir().unwrap();
    let (env, old) = app.environment("env").await;
    let controller = node_with(&app, env, "ctl-1", "controller").await;
    let on_old = format!("/api/v1/releases/{old}");
    let changes = [
        (
            "POST",
            format!("{on_old}/tags"),
            json!({"name": "mysql", "instances": 2}),
        ),
        ("POST", format!("{on_old}/tags"), json!({"name": "rack"})),
        (
            "PUT",
            format!("{on_old}/roles/controller"),
            json!({"tags": ["controller", "database", "mysql"]}),
        ),
        (
            "PUT",
            format!("{on_old}/roles/compute"),
            json!({"tags": ["compute", "rack"]}),
        ),
        (
            "POST",
            format!("{on_old}/roles"),
            json!({"name": "telemetry", "label": "Mine", "tags": ["rack"]}),
        ),
    ];
    for (method, uri, body) in changes {
        let (status, answer) = app.call(method, &uri, Some(&body.to_string())).await;
        assert!(status.is_success(), "{uri}: {answer:#}");
    }
    install(&app, &openstack_v2(dir.path())).await;
    let (_, releases) = app.get("/api/v1/releases").await;
    let new = releases[1]["id"].as_i64().unwrap();
    let on_new = format!("/api/v1/releases/{new}");
    // An environment already on the new record, which has its own change.
    let (status, fresh) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "fresh", "release_id": new, "components": SELECTION}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{fresh:#}");
    let fresh = fresh["id"].as_i64().unwrap();
    let fresh_controller = node_with(&app, fresh, "ctl-1", "controller").await;
    let (status, _) = app
        .put(
            &format!("{on_new}/roles/compute"),
            &json!({"tags": ["compute", "neutron"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    let upgrade = format!("/api/v1/clusters/{env}/upgrade");
    let to = json!({"plugin": "openstack", "version": "1.1.0"});
    let (status, preview) = app.post(&format!("{upgrade}?dry_run=true"), &to).await;
    assert_eq!(status, StatusCode::OK, "{preview:#}");
    let expected = json!({
        "carried": [
            {"kind": "tag", "name": "mysql"},
            {"kind": "tag", "name": "rack"},
            {"kind": "role", "name": "controller"}
        ],
        "not_carried": [
            {"kind": "role", "name": "compute", "reason": "changed"},
            {"kind": "role", "name": "telemetry", "reason": "declared"}
        ]
    });
    assert_eq!(preview["release_changes"], expected);
    let (tags, _) = role_tags(&app, &on_new, "controller").await;
    assert!(
        !tags.to_string().contains("mysql"),
        "a dry run stores nothing"
    );

    let (status, upgraded) = app.post(&upgrade, &to).await;
    assert_eq!(status, StatusCode::OK, "{upgraded:#}");
    assert_eq!(upgraded["upgrade"], preview, "the upgrade says what it did");
    assert_eq!(upgraded["release_id"], new);
    let cluster = format!("/api/v1/clusters/{env}");
    let carried = (json!(["controller", "database", "mysql"]), json!("release"));
    assert_eq!(role_tags(&app, &cluster, "controller").await, carried);
    assert_eq!(role_tags(&app, &on_new, "controller").await, carried);
    // The new record's own change stays; the declared role is the release's.
    let (tags, _) = role_tags(&app, &cluster, "compute").await;
    assert_eq!(tags, json!(["compute", "neutron"]));
    let (_, source) = role_tags(&app, &cluster, "telemetry").await;
    assert_eq!(source, "declared");
    let (_, listed) = app.get(&format!("{on_new}/tags")).await;
    let user: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["source"] == "user")
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(user, ["mysql", "rack"]);
    // The environment already on the new record sees the carried edit, and
    // its controller got its instance in the upgrade's transaction.
    assert_eq!(
        role_tags(&app, &format!("/api/v1/clusters/{fresh}"), "controller").await,
        carried
    );
    for node in [controller, fresh_controller] {
        let (_, view) = app.get(&format!("/api/v1/nodes/{node}")).await;
        assert!(view["tags"].to_string().contains("mysql:1"), "{view:#}");
    }
}
