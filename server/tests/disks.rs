//! Disks and volumes (SEMANTICS §14) through the API: a node's disks
//! declared and laid out as Fuel's volume manager would, a layout saved,
//! refused with every problem, made again when roles or disks change
//! (single and bulk changes say so), the volumes and the defaults, one
//! layout for three nodes alike, the checks, and layouts through the
//! environment file.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use support::{TestApp, test_app};

const GIB: u64 = 1 << 30;

/// A node named `name` with `roles`, its disks (name, GiB) and memory
/// (GiB) declared: its id.
async fn node(app: &TestApp, env: i64, name: &str, roles: &[&str], disks: &[(&str, u64)]) -> i64 {
    node_with_memory(app, env, name, roles, disks, 4).await
}

async fn node_with_memory(
    app: &TestApp,
    env: i64,
    name: &str,
    roles: &[&str],
    disks: &[(&str, u64)],
    memory_gib: u64,
) -> i64 {
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{env}/nodes"),
            &json!({"name": name, "roles": roles}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    let id = node["id"].as_i64().unwrap();
    if !disks.is_empty() {
        declare(app, id, disks, memory_gib).await;
    }
    id
}

/// Declares node `id`'s disks (name, GiB) and memory (GiB).
async fn declare(app: &TestApp, id: i64, disks: &[(&str, u64)], memory_gib: u64) {
    let disks: Vec<Value> = disks
        .iter()
        .map(|(name, gib)| json!({"name": name, "size": gib * GIB}))
        .collect();
    let hardware = json!({"disks": disks, "memory": memory_gib * GIB});
    let (status, saved) = app
        .put(&format!("/api/v1/nodes/{id}/hardware"), &hardware)
        .await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
}

async fn layout(app: &TestApp, id: i64) -> Value {
    let (status, layout) = app.get(&format!("/api/v1/nodes/{id}/disks")).await;
    assert_eq!(status, StatusCode::OK, "{layout:#}");
    layout
}

async fn defaults(app: &TestApp, id: i64) -> Value {
    let (status, layout) = app.get(&format!("/api/v1/nodes/{id}/disks/defaults")).await;
    assert_eq!(status, StatusCode::OK, "{layout:#}");
    layout
}

/// The size of volume `name` on disk `disk` of a layout.
fn size(layout: &Value, disk: usize, name: &str) -> i64 {
    layout[disk]["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no volume {name} on disk {disk}: {layout:#}"))["size"]
        .as_i64()
        .unwrap()
}

/// `layout` with volume `name` of disk `disk` at `size`.
fn with_size(mut layout: Value, disk: usize, name: &str, size: i64) -> Value {
    for v in layout[disk]["volumes"].as_array_mut().unwrap() {
        if v["name"] == name {
            v["size"] = json!(size);
        }
    }
    layout
}

async fn version(app: &TestApp, id: i64) -> i64 {
    let (_, node) = app.get(&format!("/api/v1/nodes/{id}")).await;
    node["version"].as_i64().unwrap()
}

#[tokio::test]
async fn declared_disks_are_laid_out_as_fuel_did_and_a_saved_layout_is_kept() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let id = node(&app, env, "cmp-1", &["compute"], &[("sda", 100)]).await;

    // Fuel's numbers: 102400 MB less 300 for the boot records, 200 for
    // /boot and 64 of LVM metadata for each of the two volume groups;
    // `os` is root (20 % of the first disk, 20480) and swap (4 GiB of
    // RAM: 4096); `vm` takes the rest.
    let laid = layout(&app, id).await;
    assert_eq!(laid.as_array().unwrap().len(), 1, "{laid:#}");
    assert_eq!(laid[0]["id"], "sda");
    assert_eq!(laid[0]["bootable"], true);
    assert_eq!(laid[0]["size"], 102400 - 300 - 200 - 2 * 64, "{laid:#}");
    assert_eq!(size(&laid, 0, "os"), 20480 + 4096);
    assert_eq!(size(&laid, 0, "vm"), 102400 - 628 - 24576);
    assert_eq!(defaults(&app, id).await, laid, "nothing edited yet");

    let (status, volumes) = app.get(&format!("/api/v1/nodes/{id}/volumes")).await;
    assert_eq!(status, StatusCode::OK, "{volumes:#}");
    let names: Vec<&str> = volumes
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["os", "vm"], "{volumes:#}");
    assert_eq!(volumes[0]["label"], "Base System");
    assert_eq!(volumes[0]["min_size"], 24576, "{volumes:#}");
    assert_eq!(volumes[1]["label"], "Virtual Storage");
    assert_eq!(volumes[1]["min_size"], 5120, "{volumes:#}");

    // Saved on the node's version: the stored layout comes back.
    let before = version(&app, id).await;
    let edited = with_size(with_size(laid.clone(), 0, "os", 30000), 0, "vm", 60000);
    let uri = format!("/api/v1/nodes/{id}/disks");
    let (status, stale) = app
        .call_with(
            "PUT",
            &uri,
            Some(&edited.to_string()),
            &[("if-match", &format!("\"{}\"", before - 1))],
        )
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{stale:#}");
    assert_eq!(stale["error"]["code"], "precondition_failed");
    assert_eq!(
        layout(&app, id).await,
        laid,
        "a stale change stores nothing"
    );
    let (status, saved) = app
        .call_with(
            "PUT",
            &uri,
            Some(&edited.to_string()),
            &[("if-match", &format!("\"{before}\""))],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    assert_eq!(size(&saved, 0, "os"), 30000);
    assert_eq!(size(&saved, 0, "vm"), 60000);
    assert_eq!(layout(&app, id).await, saved, "seen as saved");
    assert_eq!(version(&app, id).await, before + 1);
    assert_eq!(defaults(&app, id).await, laid, "the defaults stay Fuel's");

    // The same disks declared again keep the layout; another disk makes
    // it again.
    declare(&app, id, &[("sda", 100)], 4).await;
    assert_eq!(layout(&app, id).await, saved, "made for this machine: kept");
    declare(&app, id, &[("sda", 200)], 4).await;
    let again = layout(&app, id).await;
    assert_eq!(
        again,
        defaults(&app, id).await,
        "another disk: its defaults"
    );
    assert_eq!(size(&again, 0, "os"), 40960 + 4096, "root: 20 % of 200 GiB");
}

#[tokio::test]
async fn a_bad_layout_is_refused_with_every_problem_and_nothing_is_stored() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let id = node(
        &app,
        env,
        "cmp-2",
        &["compute"],
        &[("sda", 100), ("sdb", 50)],
    )
    .await;
    let laid = layout(&app, id).await;
    let before = version(&app, id).await;
    let mut bad = with_size(laid.clone(), 0, "os", -5);
    bad[0]["volumes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "nope", "size": 10}));
    bad[0]["bootable"] = json!(true);
    bad[1]["bootable"] = json!(true);
    bad.as_array_mut()
        .unwrap()
        .push(json!({"id": "sdz", "size": 10, "volumes": []}));
    let (status, refused) = app.put(&format!("/api/v1/nodes/{id}/disks"), &bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["code"], "invalid_disks");
    let problems = refused["error"]["problems"].as_array().unwrap();
    let said = |path: &str, words: &str| {
        problems
            .iter()
            .any(|p| p["path"] == path && p["message"].as_str().unwrap().contains(words))
    };
    assert!(said("[0].volumes[0].size", "negative"), "{refused:#}");
    assert!(
        said("[0].volumes[2].name", "Unknown volume 'nope'"),
        "{refused:#}"
    );
    assert!(said("[2].id", "Unknown disk 'sdz'"), "{refused:#}");
    assert!(
        said("", "can not be selected as bootable at the same time"),
        "{refused:#}"
    );
    assert_eq!(layout(&app, id).await, laid, "nothing stored");
    assert_eq!(version(&app, id).await, before);

    // Fuel's own: more than a disk holds.
    let too_much = with_size(laid.clone(), 0, "vm", 10_000_000);
    let (status, refused) = app
        .put(&format!("/api/v1/nodes/{id}/disks"), &too_much)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("Not enough free space on disk: sda"),
        "{message}"
    );
    let (status, _) = app
        .put(&format!("/api/v1/nodes/{id}/disks"), &json!({"disks": []}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "not a layout");
}

/// Sizes no disk holds, however large, are refused, not a failure.
#[tokio::test]
async fn sizes_past_any_disk_are_refused_not_a_failure() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let id = node(&app, env, "cmp-9", &["compute"], &[("sda", 100)]).await;
    let laid = layout(&app, id).await;
    let huge = with_size(
        with_size(laid.clone(), 0, "os", i64::MAX),
        0,
        "vm",
        i64::MAX,
    );
    let (status, refused) = app.put(&format!("/api/v1/nodes/{id}/disks"), &huge).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(layout(&app, id).await, laid, "nothing stored");
}

#[tokio::test]
async fn a_node_whose_disks_are_unknown_has_no_layout_to_save() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let id = node(&app, env, "bare", &["compute"], &[]).await;
    assert_eq!(layout(&app, id).await, json!([]));
    assert_eq!(defaults(&app, id).await, json!([]));
    let sent = json!([{"id": "sda", "size": 100, "volumes": [{"name": "os", "size": 100}]}]);
    let (status, refused) = app.put(&format!("/api/v1/nodes/{id}/disks"), &sent).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused:#}");
    assert_eq!(
        refused["error"]["message"],
        "Node 'bare' has no known disks: import its hardware or declare its disks"
    );
    let (status, volumes) = app.get(&format!("/api/v1/nodes/{id}/volumes")).await;
    assert_eq!(status, StatusCode::OK, "its roles' volumes: {volumes:#}");
    assert_eq!(volumes.as_array().unwrap().len(), 2, "{volumes:#}");
    for path in ["disks", "disks/defaults", "volumes"] {
        let (status, _) = app.get(&format!("/api/v1/nodes/999999/{path}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let (listed_status, listed) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    assert_eq!(listed_status, StatusCode::OK);
    assert!(
        listed[0].get("disks").is_none(),
        "the list carries no layout"
    );
}

#[tokio::test]
async fn a_role_change_resets_the_layout_and_says_so_single_and_bulk() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let ids = [
        node(&app, env, "n-1", &["compute"], &[("sda", 100)]).await,
        node(&app, env, "n-2", &["compute"], &[("sda", 100)]).await,
        node(&app, env, "n-3", &["compute"], &[]).await,
    ];
    for id in &ids[..2] {
        let edited = with_size(layout(&app, *id).await, 0, "vm", 1000);
        let (status, saved) = app.put(&format!("/api/v1/nodes/{id}/disks"), &edited).await;
        assert_eq!(status, StatusCode::OK, "{saved:#}");
    }

    // One node: its roles change, its edits go.
    let (status, changed) = app
        .put(
            &format!("/api/v1/nodes/{}", ids[0]),
            &json!({"roles": ["compute", "cinder"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed:#}");
    assert_eq!(changed["disks_reset"], true, "{changed:#}");
    let reset = layout(&app, ids[0]).await;
    assert_eq!(reset, defaults(&app, ids[0]).await);
    assert!(size(&reset, 0, "cinder") > 0, "{reset:#}");
    // The same roles again, or a status: nothing reset, nothing said.
    let (_, same) = app
        .put(
            &format!("/api/v1/nodes/{}", ids[0]),
            &json!({"roles": ["cinder", "compute"], "status": "ready"}),
        )
        .await;
    assert!(same.get("disks_reset").is_none(), "{same:#}");

    // Many nodes: those with disks whose roles change are named.
    let (status, views) = app
        .post(
            &format!("/api/v1/clusters/{env}/nodes/bulk"),
            &json!({"nodes": ids, "add_roles": ["cinder"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{views:#}");
    let reset: Vec<i64> = views
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["disks_reset"] == true)
        .map(|v| v["id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        reset,
        [ids[1]],
        "n-1 had cinder, n-3 has no disks: {views:#}"
    );
    assert_eq!(layout(&app, ids[1]).await, defaults(&app, ids[1]).await);
    assert_eq!(layout(&app, ids[2]).await, json!([]));

    // A tag changes no volume.
    let edited = with_size(layout(&app, ids[1]).await, 0, "vm", 1000);
    app.put(&format!("/api/v1/nodes/{}/disks", ids[1]), &edited)
        .await;
    let (status, views) = app
        .post(
            &format!("/api/v1/clusters/{env}/nodes/bulk"),
            &json!({"nodes": [ids[1]], "add_tags": ["rabbitmq"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{views:#}");
    assert!(views[0].get("disks_reset").is_none(), "{views:#}");
    assert_eq!(size(&layout(&app, ids[1]).await, 0, "vm"), 1000);
}

#[tokio::test]
async fn one_layout_is_given_to_nodes_alike_and_refused_for_an_unlike_one() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let disks = [("sda", 100), ("sdb", 50)];
    let mut alike = Vec::new();
    for name in ["c-1", "c-2", "c-3"] {
        alike.push(node(&app, env, name, &["compute"], &disks).await);
    }
    let unlike = node(&app, env, "c-4", &["compute"], &[("sda", 100), ("sdb", 60)]).await;
    let (other_env, _) = app.environment("other").await;
    let stranger = node(&app, other_env, "x-1", &["compute"], &disks).await;

    let first = layout(&app, alike[0]).await;
    let edited = with_size(with_size(first.clone(), 0, "vm", 20000), 1, "vm", 30000);
    let uri = format!("/api/v1/clusters/{env}/disks");
    let (status, saved) = app
        .put(&uri, &json!({"nodes": alike, "layout": edited}))
        .await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    let saved = saved.as_array().unwrap();
    assert_eq!(saved.len(), 3);
    for (answer, id) in saved.iter().zip(&alike) {
        assert_eq!(answer["node"], *id);
        assert_eq!(size(&answer["disks"], 0, "vm"), 20000, "{answer:#}");
        assert_eq!(size(&answer["disks"], 1, "vm"), 30000, "{answer:#}");
        assert_eq!(layout(&app, *id).await, answer["disks"], "stored");
    }

    // Unlike disks: Fuel's words, the node named, nothing stored.
    let before = layout(&app, unlike).await;
    let again = with_size(edited.clone(), 0, "vm", 10000);
    let (status, refused) = app
        .put(
            &uri,
            &json!({"nodes": [alike[0], alike[1], unlike], "layout": again}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["code"], "invalid_disks");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Selected nodes have different disk capacities.")
            && message.contains("c-4"),
        "{message}"
    );
    assert_eq!(layout(&app, unlike).await, before);
    assert_eq!(size(&layout(&app, alike[0]).await, 0, "vm"), 20000);

    // Every node's problems, by node; a node of another environment.
    let negative = with_size(edited.clone(), 0, "vm", -1);
    let (status, refused) = app
        .put(&uri, &json!({"nodes": alike, "layout": negative}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    let problems = refused["error"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 3, "{refused:#}");
    assert!(
        problems
            .iter()
            .all(|p| p["message"].as_str().unwrap().contains("negative"))
    );
    let (status, refused) = app
        .put(
            &uri,
            &json!({"nodes": [alike[0], stranger], "layout": edited}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["problems"][0]["node"], stranger);
    for body in [
        json!({"nodes": [], "layout": edited}),
        json!({"nodes": (0..10_001).collect::<Vec<i64>>(), "layout": edited}),
        json!({"nodes": alike, "layout": [edited[0]]}),
    ] {
        let (status, refused) = app.put(&uri, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
        assert_eq!(refused["error"]["code"], "bad_request", "{refused:#}");
    }
}

#[tokio::test]
async fn the_checks_name_a_node_short_of_disk_space_and_warn_of_unknown_disks() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    // Compute on one 20 GB disk with 4 GB of RAM: root's floor (15360)
    // and swap (4096) leave no room for vm's 5120.
    node(&app, env, "small", &["compute"], &[("sda", 20)]).await;
    node(&app, env, "roomy", &["compute"], &[("sda", 200)]).await;
    node(&app, env, "unknown", &["compute"], &[]).await;
    let (status, checks) = app.get(&format!("/api/v1/clusters/{env}/checks")).await;
    assert_eq!(status, StatusCode::OK, "{checks:#}");
    let disks: Vec<&Value> = checks
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "disks")
        .collect();
    let short = disks
        .iter()
        .find(|c| c["severity"] == "error")
        .unwrap_or_else(|| panic!("{checks:#}"));
    let message = short["message"].as_str().unwrap();
    assert!(
        message.starts_with("Node 'small' has insufficient disk space"),
        "{message}"
    );
    assert!(
        message.contains("Volume group 'Virtual Storage' requires a minimum of 5120MB"),
        "{message}"
    );
    assert_eq!(disks.iter().filter(|c| c["severity"] == "error").count(), 1);
    let warning = disks
        .iter()
        .find(|c| c["severity"] == "warning")
        .unwrap_or_else(|| panic!("{checks:#}"));
    assert!(
        warning["message"]
            .as_str()
            .unwrap()
            .starts_with("1 node has no known disks"),
        "{warning:#}"
    );
}

#[tokio::test]
async fn layouts_go_through_the_environment_file() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let id = node(
        &app,
        env,
        "kept",
        &["compute"],
        &[("sda", 100), ("sdb", 50)],
    )
    .await;
    let edited = with_size(layout(&app, id).await, 1, "vm", 12345);
    let (status, saved) = app.put(&format!("/api/v1/nodes/{id}/disks"), &edited).await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    let (status, file) = app
        .text(
            Request::get(format!("/api/v1/clusters/{env}/environment"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(file.contains("disks:"), "{file}");
    let (status, copy) = app
        .send(
            Request::post("/api/v1/clusters/import?name=copy")
                .header("content-type", "application/yaml")
                .body(Body::from(file))
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{copy:#}");
    let copy = copy["id"].as_i64().unwrap();
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{copy}/nodes")).await;
    let copied = nodes[0]["id"].as_i64().unwrap();
    assert_eq!(layout(&app, copied).await, saved, "the layout as saved");
}

#[tokio::test]
async fn found_hardware_lays_a_node_out_and_a_re_import_keeps_its_edits() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let facts = json!({"ansible_facts": {
        "ansible_interfaces": ["eth0"],
        "ansible_eth0": {"device": "eth0", "type": "ether", "macaddress": "52:54:00:00:09:01", "active": true},
        "ansible_default_ipv4": {"address": "10.0.0.9"},
        "ansible_memtotal_mb": 8192,
        "ansible_devices": {"vda": {"sectors": "209715200", "sectorsize": "512", "removable": "0"}}
    }});
    let files = json!({"found-1": facts.to_string()});
    let uri = format!("/api/v1/clusters/{env}/nodes/import");
    let (status, report) = app.post(&uri, &files).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    let id = nodes[0]["id"].as_i64().unwrap();
    let laid = layout(&app, id).await;
    // No role: `os` takes the disk; swap of 8 GiB of RAM is 8192.
    assert_eq!(laid[0]["id"], "vda");
    assert_eq!(size(&laid, 0, "os"), 102400 - 300 - 200 - 64, "{laid:#}");

    let edited = with_size(laid.clone(), 0, "os", 50000);
    let (status, _) = app.put(&format!("/api/v1/nodes/{id}/disks"), &edited).await;
    assert_eq!(status, StatusCode::OK);
    let (status, again) = app.post(&uri, &files).await;
    assert_eq!(status, StatusCode::OK, "{again:#}");
    assert_eq!(again["unchanged"], json!(["found-1"]), "{again:#}");
    assert_eq!(size(&layout(&app, id).await, 0, "os"), 50000, "edits kept");
}

#[tokio::test]
async fn a_change_of_a_roles_tags_rewrites_its_nodes_and_keeps_their_layouts() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let id = node(&app, env, "ctl-1", &["controller"], &[("sda", 200)]).await;
    let edited = with_size(layout(&app, id).await, 0, "image", 6000);
    let (status, saved) = app.put(&format!("/api/v1/nodes/{id}/disks"), &edited).await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    let tags = format!("/api/v1/clusters/{env}/tags");
    app.post(&tags, &json!({"name": "mysql", "instances": 2}))
        .await;
    let (status, changed) = app
        .put(
            &format!("/api/v1/clusters/{env}/roles/controller"),
            &json!({"tags": ["controller", "database", "mysql"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed:#}");
    let stored = app.db.node(id).await.unwrap().unwrap();
    let assigned: Vec<String> = stored
        .spec
        .tags_assigned
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(assigned, ["mysql:1"], "the node was written again");
    assert_eq!(layout(&app, id).await, saved, "with its layout");
}
