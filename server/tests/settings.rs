//! Environment settings through the API (SEMANTICS §9): the wizard's choices
//! reach the settings, the roles and the plan; plugins are switched on by
//! their components or the settings; invalid changes are refused whole.
//! Runs on SQLite, and on PostgreSQL under `make postgres`.

mod support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, archive, plugin_fixture, test_app};

const CEPH: [&str; 8] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "network:neutron:ml2:ovs",
    "storage:block:backend:ceph",
    "storage:object:backend:ceph",
    "storage:image:ceph",
    "storage:ephemeral:ceph",
];

const LVM: [&str; 7] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "network:neutron:ml2:ovs",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
    "storage:image:swift",
];

fn attributes(cluster: i64) -> String {
    format!("/api/v1/clusters/{cluster}/attributes")
}

async fn value(app: &TestApp, cluster: i64, group: &str, attr: &str) -> Value {
    let (status, doc) = app.get(&attributes(cluster)).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    doc["editable"][group][attr]["value"].clone()
}

fn tasks_of(plan: &Value, node: i64) -> Vec<&str> {
    plan["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == node)
        .map(|n| {
            n["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect()
        })
        .unwrap_or_default()
}

fn message(body: &Value) -> &str {
    body["error"]["message"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn ceph_chosen_in_the_wizard_reaches_roles_and_the_plan() {
    let app = test_app().await;
    let (ceph, _) = app.environment_with("ceph", &CEPH).await;
    assert_eq!(
        value(&app, ceph, "storage", "volumes_ceph").await,
        json!(true)
    );
    assert_eq!(value(&app, ceph, "storage", "objects").await, json!("ceph"));
    assert_eq!(
        value(&app, ceph, "storage", "volumes_lvm").await,
        json!(false)
    );
    let nodes = format!("/api/v1/clusters/{ceph}/nodes");
    let (status, osd) = app
        .post(&nodes, &json!({"name": "osd-1", "roles": ["ceph-osd"]}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{osd:#}");
    let (status, _) = app
        .post(
            &nodes,
            &json!({"name": "ctl-1", "roles": ["controller"], "status": "ready"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = app.post(&nodes, &json!({"roles": ["cinder"]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        message(&body),
        "Cinder LVM needs to be enabled on the Settings tab."
    );

    let (_, plan) = app.get(&format!("/api/v1/clusters/{ceph}/plan")).await;
    let all: Vec<&str> = plan["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|n| {
            n["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
        })
        .collect();
    assert!(
        all.contains(&"top-role-ceph-osd") && all.contains(&"ceph-radosgw"),
        "{all:?}"
    );
    for absent in [
        "swift",
        "top-role-cinder",
        "ceilometer-controller",
        "ironic-api",
        "sahara",
        "murano",
    ] {
        assert!(!all.contains(&absent), "{absent} runs: {all:?}");
    }
    let skipped: Vec<&str> = plan["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert!(
        skipped.contains(&"swift") && skipped.contains(&"top-role-cinder"),
        "{skipped:?}"
    );
    assert_eq!(
        plan["skipped"][0]["reason"]
            .as_str()
            .map(|r| r.starts_with("condition")),
        Some(true)
    );

    let (lvm, _) = app.environment_with("lvm", &LVM).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/clusters/{lvm}/nodes"),
            &json!({"roles": ["ceph-osd"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "invalid_roles");
    assert_eq!(
        message(&body),
        "Ceph should be enabled in the environment settings."
    );
}

#[tokio::test]
async fn a_plugin_is_enabled_by_its_component_or_its_switch_and_offers_its_roles_only_then() {
    let app = test_app().await;
    let (status, plugin) = app.upload(archive(&plugin_fixture("v5-example"))).await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    let chosen: Vec<&str> = LVM
        .iter()
        .copied()
        .chain(["additional_service:storage_demo"])
        .collect();
    let (with, _) = app.environment_with("with", &chosen).await;
    let (doc_status, doc) = app.get(&attributes(with)).await;
    assert_eq!(doc_status, StatusCode::OK);
    assert_eq!(doc["editable"]["storage_demo"]["metadata"]["enabled"], true);
    assert_eq!(
        doc["editable"]["storage_demo"]["metadata"]["label"],
        "Storage demo"
    );
    let (_, roles) = app.get(&format!("/api/v1/clusters/{with}/roles")).await;
    assert!(
        roles
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == "storage_demo"),
        "{roles:#}"
    );
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{with}/nodes"),
            &json!({"name": "rack7-demo", "roles": ["storage_demo"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");

    // Not chosen: not offered, refused.
    let (without, _) = app.environment_with("without", &LVM).await;
    let (_, roles) = app.get(&format!("/api/v1/clusters/{without}/roles")).await;
    assert!(
        !roles
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == "storage_demo"),
        "{roles:#}"
    );
    let (status, body) = app
        .post(
            &format!("/api/v1/clusters/{without}/nodes"),
            &json!({"roles": ["storage_demo"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        message(&body).contains("The plugin 'storage_demo' is disabled"),
        "{body:#}"
    );

    // Its switch belongs to its component while that is chosen (SEMANTICS
    // §9.1): switching it off is changing the components.
    let off = json!({"editable": {"storage_demo": {"metadata": {"enabled": false}}}});
    let (status, body) = app.patch(&attributes(with), &off).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(body["error"]["problems"][0]["path"], "storage_demo.enabled");
    assert!(
        message(&body)
            .contains("Set by the choice of 'Storage demo service' in Additional services"),
        "{body:#}"
    );
    let (_, doc) = app.get(&attributes(with)).await;
    assert_eq!(doc["editable"]["storage_demo"]["metadata"]["enabled"], true);
    assert!(
        doc["bound"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["path"] == "storage_demo.enabled"),
        "{doc:#}"
    );

    // Switched on in the settings alone: offered, and its plan tasks run.
    let on = json!({"editable": {"storage_demo": {"metadata": {"enabled": true}}}});
    let (status, doc) = app.patch(&attributes(without), &on).await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    assert_eq!(doc["editable"]["storage_demo"]["metadata"]["enabled"], true);
    let (status, _) = app
        .post(
            &format!("/api/v1/clusters/{without}/nodes"),
            &json!({"roles": ["storage_demo"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    // The plugin is now in use by both environments.
    let (status, body) = app
        .call("DELETE", &format!("/api/v1/plugins/{}", plugin["id"]), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        message(&body).contains("'with'") && message(&body).contains("'without'"),
        "{body:#}"
    );
}

#[tokio::test]
async fn settings_never_undo_the_wizard() {
    let app = test_app().await;
    let (cluster, _) = app.environment_with("prod", &LVM).await;
    let (_, before) = app.get(&attributes(cluster)).await;
    let (status, body) = app
        .patch(
            &attributes(cluster),
            &json!({"editable": {
                "common": {"use_vcenter": {"value": true}},
                "storage": {"volumes_lvm": {"value": false}, "volumes_ceph": {"value": true}}
            }}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(body["error"]["code"], "invalid_settings");
    let problems: Vec<(&str, &str)> = body["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["path"].as_str().unwrap(), p["message"].as_str().unwrap()))
        .collect();
    let sentence = |label: &str, pane: &str| {
        format!(
            "Set by the choice of '{label}' in {pane}; change the environment's components to change it."
        )
    };
    assert_eq!(
        problems,
        [
            (
                "common.use_vcenter",
                sentence("vCenter", "Compute").as_str()
            ),
            ("storage.volumes_lvm", sentence("LVM", "Storage").as_str()),
            (
                "storage.volumes_ceph",
                sentence("Ceph RBD (block storage)", "Storage").as_str()
            ),
        ]
    );
    assert_eq!(
        app.get(&attributes(cluster)).await.1,
        before,
        "nothing is stored"
    );
}

#[tokio::test]
async fn an_environment_file_cannot_undo_its_components_either() {
    let app = test_app().await;
    let (cluster, _) = app.environment_with("prod", &LVM).await;
    let request = axum::http::Request::builder()
        .uri(format!("/api/v1/clusters/{cluster}/environment"))
        .body(axum::body::Body::empty())
        .unwrap();
    let (status, exported) = app.text(request).await;
    assert_eq!(status, StatusCode::OK);
    let mut file: Value = mosaic_core::yaml::parse("env.yaml", &exported).unwrap();
    file["settings"] = json!({"storage": {"volumes_lvm": false, "volumes_ceph": true}});
    let edited = mosaic_core::yaml::to_string(&file);
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/api/v1/clusters/import?name=copy")
        .header("content-type", "application/yaml")
        .body(axum::body::Body::from(edited))
        .unwrap();
    let (status, body) = app.send(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(body["error"]["code"], "invalid_environment");
    let said = message(&body);
    for path in ["storage.volumes_lvm", "storage.volumes_ceph"] {
        assert!(
            said.contains(&format!("settings: {path}: Set by the choice of")),
            "{said}"
        );
    }
    let (_, all) = app.get("/api/v1/clusters").await;
    assert_eq!(
        all.as_array().unwrap().len(),
        1,
        "nothing is stored: {all:#}"
    );
}

#[tokio::test]
async fn invalid_settings_are_refused_by_group_and_attribute_and_nothing_is_stored() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let (_, before) = app.get(&attributes(cluster)).await;
    let (status, body) = app
        .patch(
            &attributes(cluster),
            &json!({"editable": {
                "access": {"user": {"value": "nova"}, "email": {"value": "root@localhost"}},
                "neutron_advanced_configuration": {"neutron_dvr": {"value": true}},
                "storage": {"objects": {"value": "tape"}}
            }}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(body["error"]["code"], "invalid_settings");
    let problems: Vec<(&str, &str)> = body["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["path"].as_str().unwrap(), p["message"].as_str().unwrap()))
        .collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    // The object storage is the components' choice: that is said first.
    assert_eq!(
        problems[0],
        (
            "storage.objects",
            "Set by the choice of 'Swift (object storage)' in Storage; change the environment's components to change it."
        )
    );
    assert_eq!(problems[1].0, "access.user");
    assert!(problems[1].1.contains("service's name"), "{problems:?}");
    assert_eq!(
        problems[2],
        (
            "neutron_advanced_configuration.neutron_dvr",
            "Distributed routers need L2 population."
        )
    );
    assert_eq!(app.get(&attributes(cluster)).await.1, before);

    // Malformed patches and names that are not settings.
    let (status, body) = app
        .patch(
            &attributes(cluster),
            &json!({"editable": {"nowhere": {"x": {"value": 1}}, "common": {"debug": true}}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["problems"][0]["path"], "common.debug");
    let (status, body) = app
        .patch(
            &attributes(cluster),
            &json!({"editable": {"nowhere": {"x": {"value": 1}}}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["problems"][0]["path"], "nowhere");
    assert_eq!(
        app.get("/api/v1/clusters/99/attributes").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn changes_merge_and_if_match_guards_them() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let uri = attributes(cluster);
    assert_eq!(app.get(&uri).await.1["version"], 1);
    // Concurrent changes to different settings all take effect.
    let changes = [
        ("common", "debug", json!(true)),
        ("common", "nova_quota", json!(true)),
        ("common", "resume_guests_state_on_host_boot", json!(false)),
        (
            "neutron_advanced_configuration",
            "neutron_l3_ha",
            json!(true),
        ),
        ("common", "dns_list", json!(["10.0.0.53"])),
        ("syslog", "server", json!("10.0.0.9")),
        ("access", "email", json!("ops@example.org")),
    ];
    let mut tasks = tokio::task::JoinSet::new();
    for (group, attr, v) in changes.clone() {
        let handle = app.handle();
        let uri = uri.clone();
        tasks.spawn(async move {
            let body = json!({"editable": {group: {attr: {"value": v}}}}).to_string();
            let request = axum::http::Request::builder()
                .method("PATCH")
                .uri(uri)
                .header("content-type", "application/json")
                .body(axum::body::Body::from(body))
                .unwrap();
            handle.respond(request).await.status()
        });
    }
    while let Some(status) = tasks.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::OK);
    }
    let (_, doc) = app.get(&uri).await;
    for (group, attr, v) in &changes {
        assert_eq!(&doc["editable"][group][attr]["value"], v, "{group}.{attr}");
    }
    assert_eq!(doc["version"], 1 + changes.len());
    // A change conditional on an old version is refused; on the current one it goes.
    let debug_off = json!({"editable": {"common": {"debug": {"value": false}}}}).to_string();
    let (status, body) = app
        .call_with("PATCH", &uri, Some(&debug_off), &[("if-match", "\"1\"")])
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{body:#}");
    let current = format!("\"{}\"", doc["version"]);
    let (status, doc) = app
        .call_with("PATCH", &uri, Some(&debug_off), &[("if-match", &current)])
        .await;
    assert_eq!(status, StatusCode::OK, "{doc:#}");
    assert_eq!(doc["editable"]["common"]["debug"]["value"], false);
}

#[tokio::test]
async fn the_plan_follows_saved_settings_and_export_import_export_is_identical() {
    let app = test_app().await;
    let with_ceilometer: Vec<&str> = LVM
        .iter()
        .copied()
        .chain(["additional_service:ceilometer"])
        .collect();
    let (cluster, _) = app.environment_with("prod", &with_ceilometer).await;
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"name": "ctl", "roles": ["controller"], "status": "ready"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = node["id"].as_i64().unwrap();
    let plan_uri = format!("/api/v1/clusters/{cluster}/plan");
    let skipped = |plan: &Value| -> Vec<String> {
        plan["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_owned())
            .collect()
    };
    // Ceilometer was chosen in the wizard: its tasks run, with MongoDB nodes.
    let plan = app.get(&plan_uri).await.1;
    assert!(
        tasks_of(&plan, id).contains(&"ceilometer-controller"),
        "{plan:#}"
    );
    assert!(!skipped(&plan).contains(&"mongo".to_owned()), "{plan:#}");
    // An external MongoDB (a setting the components leave to the operator).
    let (status, body) = app
        .patch(&attributes(cluster), &json!({"editable": {"additional_components": {"mongo": {"value": true}}, "common": {"debug": {"value": true}}}}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    let plan = app.get(&plan_uri).await.1;
    assert!(skipped(&plan).contains(&"mongo".to_owned()), "{plan:#}");
    let (_, roles) = app.get(&format!("/api/v1/clusters/{cluster}/roles")).await;
    let mongo = roles
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "mongo")
        .unwrap();
    assert_eq!(
        mongo["unavailable"], "You are already using external MongoDB.",
        "{mongo:#}"
    );

    let export = |id: i64| {
        let app = &app;
        async move {
            let request = axum::http::Request::builder()
                .uri(format!("/api/v1/clusters/{id}/environment"))
                .body(axum::body::Body::empty())
                .unwrap();
            let (status, text) = app.text(request).await;
            assert_eq!(status, StatusCode::OK);
            text
        }
    };
    let first = export(cluster).await;
    let file: Value = mosaic_core::yaml::parse("env.yaml", &first).unwrap();
    assert_eq!(file["components"], json!(with_ceilometer));
    assert_eq!(
        file["settings"],
        json!({"common": {"debug": true}, "additional_components": {"mongo": true}})
    );
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/api/v1/clusters/import?name=copy")
        .header("content-type", "application/yaml")
        .body(axum::body::Body::from(first.clone()))
        .unwrap();
    let (status, copy) = app.send(request).await;
    assert_eq!(status, StatusCode::CREATED, "{copy:#}");
    assert_eq!(export(copy["id"].as_i64().unwrap()).await, first);
}
