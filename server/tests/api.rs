//! The HTTP API driven through `app().oneshot`, on a fresh database each
//! test: a SQLite file, or — when `MOSAIC_TEST_POSTGRES_URL` names a
//! PostgreSQL server (`make test` starts one) — a new PostgreSQL database.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use mosaic_server::access::Security;
use mosaic_server::prepare;
use serde_json::{Value, json};
use support::{archive, copy_dir, fresh_database, plugin_fixture, test_app, test_app_with};

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
async fn components_are_served_in_registry_order_with_their_source_without_bind() {
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
    // Registry order: the release's file order (the browser groups by
    // `source` to build the same registry).
    let order: Vec<&str> = components
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        order[..2],
        ["hypervisor:libvirt:kvm", "hypervisor:libvirt:qemu"]
    );
    assert_eq!(order.last(), Some(&"additional_service:ironic"));
    assert!(
        components
            .iter()
            .all(|c| c["source"] == "release OpenStack 2024.1 on Ubuntu 22.04 2024.1-1.0"),
        "{:?}",
        components[0]["source"]
    );
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
        "hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:vlan",
        "network:neutron:ml2:ovs", "storage:block:backend:lvm"
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

#[tokio::test]
async fn the_bundled_release_is_a_plugin() {
    let app = test_app().await;
    let (status, plugins) = app.get("/api/v1/plugins").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plugins.as_array().unwrap().len(), 1, "{plugins:#}");
    assert_eq!(plugins[0]["name"], "openstack");
    assert_eq!(plugins[0]["kind"], "release");
    assert_eq!(
        plugins[0]["releases"][0]["name"],
        "OpenStack 2024.1 on Ubuntu 22.04"
    );
    let (status, one) = app
        .get(&format!("/api/v1/plugins/{}", plugins[0]["id"]))
        .await;
    assert_eq!(
        (status, &one["name"]),
        (StatusCode::OK, &json!("openstack"))
    );
    let (status, _) = app.get("/api/v1/plugins/999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_uploaded_extension_adds_its_components_to_compatible_releases() {
    let app = test_app().await;
    let (status, plugin) = app.upload(archive(&plugin_fixture("v5-example"))).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    assert_eq!(
        (plugin["kind"].as_str(), plugin["name"].as_str()),
        (Some("extension"), Some("storage_demo"))
    );
    assert_eq!(
        plugin["releases"][0]["name"],
        "OpenStack 2024.1 on Ubuntu 22.04"
    );
    assert_eq!(plugin["warnings"][0]["path"], "fuel_version");
    let release = plugin["releases"][0]["id"].as_i64().unwrap();
    let (_, components) = app
        .get(&format!("/api/v1/releases/{release}/components"))
        .await;
    assert!(
        components
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "additional_service:storage_demo"),
        "{components:#}"
    );
}

#[tokio::test]
async fn a_plugin_colliding_with_the_release_leaves_the_database_unchanged() {
    let app = test_app().await;
    let before = app.installed().await;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("clash");
    copy_dir(&plugin_fixture("v5-example"), &root);
    std::fs::write(
        root.join("components.yaml"),
        "- name: additional_service:storage_demo\n- name: hypervisor:libvirt:kvm\n",
    )
    .unwrap();
    std::fs::write(
        root.join("node_roles.yaml"),
        "controller: {name: C, description: d}\n",
    )
    .unwrap();
    std::fs::write(root.join("volumes.yaml"), "volumes: []\n").unwrap();
    let (status, body) = app.upload(archive(&root)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body:#}");
    assert_eq!(body["error"]["code"], "plugin_conflict");
    let messages: Vec<&str> = body["error"]["report"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "component 'hypervisor:libvirt:kvm' is defined by both release 'OpenStack 2024.1 on Ubuntu 22.04 (2024.1-1.0)' (plugin openstack 1.0.0) and plugin storage_demo 1.0.0",
            "roles already defined by release 'OpenStack 2024.1 on Ubuntu 22.04 (2024.1-1.0)' (plugin openstack 1.0.0): controller",
        ]
    );
    assert_eq!(app.installed().await, before);
}

#[tokio::test]
async fn an_invalid_package_is_refused_with_its_report() {
    let app = test_app().await;
    let before = app.installed().await;
    let (status, body) = app.upload(archive(&plugin_fixture("five-mistakes"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "invalid_plugin");
    assert_eq!(body["error"]["report"]["errors"], 5);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("5 errors, 0 warnings")
    );
    let (status, body) = app.upload(b"not an archive".to_vec()).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!("unreadable_package"))
    );
    assert_eq!(app.installed().await, before);
}

#[tokio::test]
async fn plugins_install_by_path_only_from_the_plugin_directory() {
    let code = |body: &Value| body["error"]["code"].clone();
    let off = test_app().await;
    let path = plugin_fixture("v5-example");
    let (status, body) = off
        .post("/api/v1/plugins", &json!({"path": path.to_str().unwrap()}))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::FORBIDDEN, json!("path_install_disabled"))
    );

    let dir = plugin_fixture("");
    let app = test_app_with(Security {
        plugin_dir: Some(dir.clone()),
        ..Security::default()
    })
    .await;
    let (status, plugin) = app
        .post("/api/v1/plugins", &json!({"path": "v5-example"}))
        .await;
    assert_eq!(
        (status, &plugin["name"]),
        (StatusCode::CREATED, &json!("storage_demo"))
    );
    for outside in ["/etc", "../../../src", "v5-example/../../../../src"] {
        let (status, body) = app.post("/api/v1/plugins", &json!({"path": outside})).await;
        assert_eq!(
            (status, code(&body)),
            (StatusCode::FORBIDDEN, json!("outside_plugin_dir")),
            "{outside}"
        );
    }
    let (status, body) = app
        .post("/api/v1/plugins", &json!({"path": "no-such-dir"}))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::BAD_REQUEST, json!("unreadable_package"))
    );
}

#[tokio::test]
async fn a_plugin_in_use_cannot_be_uninstalled_and_without_releases_nothing_can_be_created() {
    let app = test_app().await;
    let (_, plugins) = app.get("/api/v1/plugins").await;
    let id = plugins[0]["id"].as_i64().unwrap();
    let release = plugins[0]["releases"][0]["id"].as_i64().unwrap();
    let (status, cluster) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "prod", "release_id": release, "components": [
                "hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:vlan",
                "network:neutron:ml2:ovs", "storage:block:backend:lvm", "storage:object:backend:swift",
                "storage:image:swift"
            ]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{cluster:#}");
    let (status, body) = app
        .call("DELETE", &format!("/api/v1/plugins/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"]["code"], "plugin_in_use");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'prod'"),
        "{body:#}"
    );

    // A fresh Mosaic whose only release plugin is uninstalled.
    let app = test_app().await;
    let (status, _) = app
        .call("DELETE", &format!("/api/v1/plugins/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/v1/releases").await.1, json!([]));
    let (status, body) = app
        .post(
            "/api/v1/clusters",
            &json!({"name": "x", "release_id": release, "components": []}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"]["code"], "no_release");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("mosaic plugin install")
    );
    let (status, _) = app
        .call("DELETE", &format!("/api/v1/plugins/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn release_tags_can_be_created_changed_and_deleted_when_user_defined() {
    let app = test_app().await;
    let (_, releases) = app.get("/api/v1/releases").await;
    let base = format!("/api/v1/releases/{}/tags", releases[0]["id"]);
    let (status, tags) = app.get(&base).await;
    assert_eq!(status, StatusCode::OK);
    let controller = tags
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "controller")
        .unwrap();
    assert_eq!(
        controller,
        &json!({"name": "controller", "has_primary": true, "source": "release", "deletable": false, "nodes": 0})
    );

    let (status, tag) = app.post(&base, &json!({"name": "mysql"})).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        tag,
        json!({"name": "mysql", "has_primary": false, "source": "user", "deletable": true, "nodes": 0})
    );
    for (body, expected) in [
        (json!({"name": "mysql"}), StatusCode::CONFLICT),
        (json!({"name": "controller"}), StatusCode::CONFLICT),
        (json!({"name": "no spaces"}), StatusCode::BAD_REQUEST),
    ] {
        assert_eq!(app.post(&base, &body).await.0, expected, "{body}");
    }
    let (status, tag) = app
        .put(&format!("{base}/mysql"), &json!({"has_primary": true}))
        .await;
    assert_eq!(
        (status, &tag["has_primary"]),
        (StatusCode::OK, &json!(true))
    );
    assert_eq!(
        app.put(
            &format!("{base}/controller"),
            &json!({"has_primary": false})
        )
        .await
        .0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        app.put(&format!("{base}/nope"), &json!({"has_primary": false}))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.delete(&format!("{base}/controller"), None).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        app.delete(&format!("{base}/mysql"), None).await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        app.delete(&format!("{base}/mysql"), None).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/api/v1/releases/999/tags").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn nodes_take_roles_and_tags_and_the_plan_follows_them() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let nodes = format!("/api/v1/clusters/{cluster}/nodes");
    let (_, roles) = app.get(&format!("/api/v1/clusters/{cluster}/roles")).await;
    assert_eq!(roles[0]["id"], "controller");
    assert_eq!(
        roles[0]["tags"],
        json!(["controller", "rabbitmq", "database", "keystone", "neutron"])
    );
    let (status, node) = app
        .post(&nodes, &json!({"roles": ["controller"], "status": "ready"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    let id = node["id"].as_i64().unwrap();
    assert_eq!(
        node["role_tags"],
        json!(["controller", "rabbitmq", "database", "keystone", "neutron"])
    );
    assert!(
        node["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("primary-controller")),
        "{node:#}"
    );

    let (status, body) = app
        .post(&nodes, &json!({"roles": ["controller", "compute"]}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "invalid_roles");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Role 'controller' in conflict with role 'compute'."),
        "{body:#}"
    );

    // Keep only rabbitmq: the plan runs only rabbitmq-tagged and '*' tasks there.
    let tags = format!("/api/v1/nodes/{id}/tags");
    let (status, node) = app
        .delete(
            &tags,
            Some(&json!({"tags": ["controller", "database", "keystone", "neutron"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{node:#}");
    assert_eq!(node["tags"], json!(["rabbitmq", "primary-rabbitmq"]));
    let (status, body) = app.post(&tags, &json!({"tags": ["galera"]})).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!("unknown_tag"))
    );
    let (status, _) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/tags"),
            &json!({"name": "galera"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, node) = app
        .post(&tags, &json!({"tags": ["galera:2", "database"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{node:#}");
    assert_eq!(node["tags_added"], json!(["galera:2"]));
    assert_eq!(
        node["tags_removed"],
        json!(["controller", "keystone", "neutron"])
    );

    let (status, plan) = app.get(&format!("/api/v1/clusters/{cluster}/plan")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plan["errors"], json!([]), "{plan:#}");
    assert!(plan.get("cross").is_none(), "cross waits only when asked");
    let (status, crossed) = app
        .get(&format!("/api/v1/clusters/{cluster}/plan?cross=true"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(crossed["cross"].is_array(), "{crossed:#}");
    let tasks: Vec<&str> = plan["nodes"][0]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        tasks.contains(&"rabbitmq") && tasks.contains(&"database") && tasks.contains(&"globals"),
        "{tasks:?}"
    );
    assert!(
        !tasks.contains(&"keystone") && !tasks.contains(&"openstack-controller"),
        "{tasks:?}"
    );
    assert!(
        plan["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("'compute'"))
    );

    // Changing roles through PUT; an unknown node is 404.
    let (status, node) = app
        .put(
            &format!("/api/v1/nodes/{id}"),
            &json!({"roles": ["compute"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{node:#}");
    assert_eq!(node["tags"], json!(["compute", "galera:2"]));
    assert_eq!(app.get("/api/v1/nodes/999").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn heat_template_sets_resolve_environments_with_the_users_picks() {
    let app = test_app().await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/heat");
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/heat/template-sets?name=tripleo")
        .header("content-type", "application/gzip")
        .body(Body::from(archive(&dir)))
        .unwrap();
    let (status, set) = app.send(request).await;
    assert_eq!(status, StatusCode::CREATED, "{set:#}");
    assert_eq!(set["name"], "tripleo");
    assert!(
        set["templates"]
            .as_array()
            .unwrap()
            .contains(&json!("puppet/controller.yaml")),
        "{set:#}"
    );
    assert_eq!(
        set["summary"]["capabilities"]["deployment"],
        json!(["docker", "puppet"])
    );
    let uri = format!("/api/v1/heat/template-sets/{}/resolve", set["id"]);
    let open = std::fs::read_to_string(dir.join("open-env.yaml")).unwrap();

    let (status, answer) = app.post(&uri, &json!({"environment": open})).await;
    assert_eq!(status, StatusCode::OK, "{answer:#}");
    assert_eq!(
        answer["choices"][0]["candidates"],
        json!(["puppet/controller.yaml", "docker/controller.yaml"])
    );
    assert_eq!(answer["environment"], Value::Null);

    let picks = json!({"OS::TripleO::Controller": "docker/controller.yaml"});
    let (status, answer) = app
        .post(&uri, &json!({"environment": open, "picks": picks}))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer:#}");
    assert_eq!(answer["errors"], json!([]));
    assert_eq!(answer["choices"], json!([]));
    let resolved: Value =
        mosaic_core::yaml::parse("env.yaml", answer["environment"].as_str().unwrap()).unwrap();
    assert_eq!(
        resolved["resource_registry"]["OS::TripleO::Controller"],
        "docker/controller.yaml"
    );

    let picks = json!({"OS::TripleO::Controller": "network/noop.yaml"});
    let (status, _) = app
        .post(&uri, &json!({"environment": open, "picks": picks}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        app.get("/api/v1/heat/template-sets/99").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn environments_export_and_import_as_environment_files() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    app.post(
        &format!("/api/v1/clusters/{cluster}/tags"),
        &json!({"name": "galera"}),
    )
    .await;
    let (status, _) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"roles": ["controller"], "status": "ready"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let request = Request::builder()
        .uri(format!("/api/v1/clusters/{cluster}/environment"))
        .body(Body::empty())
        .unwrap();
    let (status, text) = app.text(request).await;
    assert_eq!(status, StatusCode::OK);
    let file: Value = mosaic_core::yaml::parse("env.yaml", &text).unwrap();
    assert_eq!(file["release_name"], "OpenStack 2024.1 on Ubuntu 22.04");
    assert_eq!(
        file["tags_metadata"],
        json!({"galera": {"has_primary": false}})
    );
    assert_eq!(file["nodes"][0]["roles"], json!(["controller"]));

    let import = |name: &str, body: String| {
        let request = Request::builder()
            .method("POST")
            .uri(format!("/api/v1/clusters/import?name={name}"))
            .header("content-type", "application/yaml")
            .body(Body::from(body))
            .unwrap();
        let handle = app.handle();
        async move { handle.send(request).await }
    };
    let (status, copy) = import("copy", text.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{copy:#}");
    let id = copy["id"].as_i64().unwrap();
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{id}/nodes")).await;
    assert_eq!(nodes[0]["roles"], json!(["controller"]));
    let (_, tags) = app.get(&format!("/api/v1/clusters/{id}/tags")).await;
    assert!(
        tags.as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "galera" && t["source"] == "environment")
    );

    // Bad input is refused and nothing is stored.
    let before = app.get("/api/v1/clusters").await.1;
    let mut edited: Value = mosaic_core::yaml::parse("env.yaml", &text).unwrap();
    edited["nodes"][0]["roles"] = json!(["controller", "compute"]);
    let conflicting = mosaic_core::yaml::to_string(&edited);
    let (status, body) = import("bad", conflicting).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("in conflict"),
        "{body:#}"
    );
    let (status, body) = import("bad", "nodes: [{id: 1, roles: [nope]}]\n".to_owned()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'nope'"),
        "{body:#}"
    );
    let (status, body) = import("bad", "nodes: [\n".to_owned()).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!("invalid_environment"))
    );
    assert_eq!(app.get("/api/v1/clusters").await.1, before);
}

#[tokio::test]
async fn graphs_list_every_type_and_a_type_nobody_defines_is_404_unknown_graph() {
    let app = test_app().await;
    let (status, plugin) = app.upload(archive(&plugin_fixture("burnin"))).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    let mut chosen = support::SELECTION.to_vec();
    chosen.push("additional_service:burnin");
    let (with, _) = app.environment_with("burn", &chosen).await;
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{with}/nodes"),
            &json!({"roles": ["compute"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    let graphs = format!("/api/v1/clusters/{with}/graphs");
    let (status, listed) = app.get(&graphs).await;
    assert_eq!(status, StatusCode::OK, "{listed:#}");
    let (_, default_plan) = app.get(&format!("/api/v1/clusters/{with}/plan")).await;
    let default_tasks = default_plan["nodes"][0]["tasks"].as_array().unwrap();
    assert!(
        default_tasks.contains(&json!("burnin-sensors")),
        "{default_plan:#}"
    );
    assert_eq!(listed[0]["type"], "default");
    assert_eq!(listed[0]["sources"], json!(["release", "plugin:burnin"]));
    assert_eq!(
        listed.as_array().unwrap()[1..],
        [
            json!({"type": "burn_in", "name": "hardware burn-in", "tasks": 2, "sources": ["plugin:burnin"]}),
            json!({"type": "deletion", "name": "deletion", "tasks": 2, "sources": ["release"]}),
            json!({"type": "provisioning", "name": "provisioning", "tasks": 4, "sources": ["release", "plugin:burnin"]}),
        ]
    );

    // A type only the plugin defines plans; its deployment task stays in default.
    let (status, plan) = app
        .get(&format!("/api/v1/clusters/{with}/plan?graph=burn_in"))
        .await;
    assert_eq!(status, StatusCode::OK, "{plan:#}");
    assert_eq!(
        plan["nodes"][0]["tasks"],
        json!(["burnin-stress", "burnin-report"])
    );
    let (_, plan) = app
        .get(&format!("/api/v1/clusters/{with}/plan?graph=provisioning"))
        .await;
    assert_eq!(
        plan["nodes"][0]["tasks"],
        json!([
            "upload_provision_data",
            "burnin-firmware-check",
            "provision",
            "reboot_provisioned_nodes"
        ])
    );
    for unknown in ["network_verification", "Not A Type"] {
        let uri = format!(
            "/api/v1/clusters/{with}/plan?graph={}",
            unknown.replace(' ', "%20")
        );
        let (status, body) = app.get(&uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body:#}");
        assert_eq!(body["error"]["code"], "unknown_graph");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("no graph of type '{unknown}'")),
            "{body:#}"
        );
    }

    // Without the plugin, its type is gone.
    let (without, _) = app.environment("plain").await;
    let (_, listed) = app.get(&format!("/api/v1/clusters/{without}/graphs")).await;
    let kinds: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["default", "deletion", "provisioning"]);
    let (status, body) = app
        .get(&format!("/api/v1/clusters/{without}/plan?graph=burn_in"))
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::NOT_FOUND, &json!("unknown_graph"))
    );
    let (status, _) = app.get("/api/v1/clusters/999/graphs").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The plugin's graphs are stored with it: a server started again on
    // the database lists the same.
    let db = prepare(&app.url).await.unwrap();
    let again = support::Handle {
        router: mosaic_server::app(mosaic_server::AppState::new(db, Security::default()), None),
        token: app.token.clone(),
    };
    let request = Request::builder().uri(&graphs).body(Body::empty()).unwrap();
    let (status, after) = again.send(request).await;
    assert_eq!(status, StatusCode::OK);
    let (_, before) = app.get(&graphs).await;
    assert_eq!(after, before);
}

const ONE_CONTROLLER: &str = "Multi-node environments can not have more than 1 controller node.";

fn put_node(id: i64, body: &Value) -> Request<Body> {
    Request::builder()
        .method("PUT")
        .uri(format!("/api/v1/nodes/{id}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

#[tokio::test]
async fn role_maximums_hold_for_single_bulk_and_imported_changes() {
    let app = test_app().await;
    let (_, releases) = app.get("/api/v1/releases").await;
    let body = json!({"name": "multi", "release_id": releases[0]["id"],
                      "components": support::SELECTION, "mode": "multinode"});
    let (_, cluster) = app.post("/api/v1/clusters", &body).await;
    let cluster = cluster["id"].as_i64().unwrap();
    let nodes_uri = format!("/api/v1/clusters/{cluster}/nodes");
    let add = |roles: Value| {
        let (app, uri) = (&app, nodes_uri.clone());
        async move {
            let (status, node) = app.post(&uri, &json!({"roles": roles})).await;
            (status, node)
        }
    };
    let refused = |status: StatusCode, body: &Value, code: &str| {
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
        assert_eq!(body["error"]["code"], code, "{body:#}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(ONE_CONTROLLER), "{message}");
    };
    // One controller, then a second one added or changed into: refused.
    let (status, ctl) = add(json!(["controller"])).await;
    assert_eq!(status, StatusCode::CREATED, "{ctl:#}");
    let ctl = ctl["id"].as_i64().unwrap();
    let (status, body) = add(json!(["controller"])).await;
    refused(status, &body, "invalid_roles");
    let (_, other) = add(json!([])).await;
    let other = other["id"].as_i64().unwrap();
    let (status, body) = app
        .send(put_node(other, &json!({"roles": ["controller"]})))
        .await;
    refused(status, &body, "invalid_roles");
    // In bulk: 400 invalid_nodes, nothing changed.
    let bulk = |nodes: Vec<i64>, change: Value| {
        let mut body = change;
        body["nodes"] = json!(nodes);
        let (app, uri) = (&app, format!("{nodes_uri}/bulk"));
        async move { app.post(&uri, &body).await }
    };
    let (status, body) = bulk(vec![other], json!({"add_roles": ["controller"]})).await;
    refused(status, &body, "invalid_nodes");
    // A controller pending deletion does not count; taking the mark back
    // would make two.
    let (status, _) = app
        .send(put_node(ctl, &json!({"pending_deletion": true})))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app
        .send(put_node(other, &json!({"roles": ["controller"]})))
        .await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    let (status, body) = app
        .send(put_node(ctl, &json!({"pending_deletion": false})))
        .await;
    refused(status, &body, "invalid_roles");

    // An environment over its maximum already (stored before the rule):
    // other changes and fewer controllers pass, one more does not.
    let over = mosaic_core::tag::NodeTags {
        roles: vec![mosaic_core::name::RoleName::new("controller").unwrap()],
        ..Default::default()
    };
    let version = app
        .db
        .cluster(cluster)
        .await
        .unwrap()
        .unwrap()
        .settings_version;
    let head = mosaic_server::environment::Stored::head(&app.db, cluster)
        .await
        .unwrap()
        .unwrap();
    let env = head.environment().unwrap();
    let addressing = env.addressing(&env.network_configuration().unwrap().0);
    let third = app
        .db
        .insert_node(cluster, &over, (version, &addressing), false, |_| {
            Ok::<_, mosaic_server::db::DbError>(())
        })
        .await
        .unwrap()
        .spec
        .id;
    let (status, body) = bulk(vec![other, third], json!({"add_tags": ["rabbitmq"]})).await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    let (status, body) = app.send(put_node(third, &json!({"status": "ready"}))).await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    let (status, body) = add(json!(["controller"])).await;
    refused(status, &body, "invalid_roles");
    let (status, body) = bulk(vec![third], json!({"remove_roles": ["controller"]})).await;
    assert_eq!(status, StatusCode::OK, "{body:#}");

    // An import with two controllers in a multi-node environment: refused
    // as its other role problems are, nothing stored.
    let file = format!(
        "release_name: {}\nmode: multinode\ncomponents: {}\nnodes:\n  - {{id: 1, roles: [controller]}}\n  - {{id: 2, roles: [controller]}}\n",
        releases[0]["name"].as_str().unwrap(),
        json!(support::SELECTION)
    );
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/clusters/import?name=imported")
        .header("content-type", "application/yaml")
        .body(Body::from(file.clone()))
        .unwrap();
    let (status, body) = app.send(request).await;
    refused(status, &body, "invalid_environment");
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/clusters/import?name=imported")
        .header("content-type", "application/yaml")
        .body(Body::from(
            file.replace("mode: multinode", "mode: ha_compact"),
        ))
        .unwrap();
    let (status, body) = app.send(request).await;
    assert_eq!(status, StatusCode::CREATED, "{body:#}");
}
