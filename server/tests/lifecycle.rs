//! Admins at scale: deleting environments and nodes, bulk changes to many
//! nodes (all or nothing), tags that cannot be deleted while nodes carry
//! them, export → import with release tags, and reinstalling the bundled
//! release. Run on SQLite and on PostgreSQL (`make postgres`).

mod support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, test_app};

/// `count` nodes named `rack{r}-{i}`, ten to a rack, with `roles`.
async fn nodes(app: &TestApp, cluster: i64, count: usize, roles: &[&str]) -> Vec<i64> {
    let mut ids = Vec::new();
    for i in 0..count {
        let (status, node) = app
            .post(
                &format!("/api/v1/clusters/{cluster}/nodes"),
                &json!({"name": format!("rack{}-{i}", i / 10), "roles": roles}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{node:#}");
        ids.push(node["id"].as_i64().unwrap());
    }
    ids
}

fn names(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v[field].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_bulk_change_tags_a_rack_at_once_or_changes_nothing() {
    let app = test_app().await;
    let (cluster, release) = app.environment("prod").await;
    let ids = nodes(&app, cluster, 30, &["compute"]).await;
    let (status, _) = app
        .post(
            &format!("/api/v1/releases/{release}/tags"),
            &json!({"name": "mysql"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let rack1: Vec<i64> = ids[10..20].to_vec();
    let uri = format!("/api/v1/clusters/{cluster}/nodes/bulk");
    let (status, changed) = app
        .post(
            &uri,
            &json!({"nodes": rack1, "add_tags": ["rabbitmq", "mysql:1"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed:#}");
    assert_eq!(changed.as_array().unwrap().len(), 10);
    assert!(changed[0]["tags"].to_string().contains("mysql:1"));
    assert_eq!(changed[0]["version"], 2);

    // One node of the selection cannot take the role: nothing changes.
    let (_, controller) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"name": "ctl-1", "roles": ["controller"]}),
        )
        .await;
    let ctl = controller["id"].as_i64().unwrap();
    let (status, refused) = app
        .post(
            &uri,
            &json!({"nodes": [ids[0], ctl], "add_roles": ["compute"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["code"], "invalid_nodes");
    let problems = refused["error"]["problems"].as_array().unwrap();
    assert!(problems.iter().all(|p| p["node"] == ctl), "{problems:?}");
    assert_eq!(problems[0]["name"], "ctl-1");
    let (_, still) = app.get(&format!("/api/v1/nodes/{}", ids[0])).await;
    assert_eq!(still["roles"], json!(["compute"]));

    // Unknown tags are refused once; a node of another environment is named.
    let (status, unknown) = app
        .post(&uri, &json!({"nodes": [ids[0]], "add_tags": ["galera"]}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(unknown["error"]["code"], "unknown_tag");
    let (status, elsewhere) = app
        .post(
            &uri,
            &json!({"nodes": [ids[0], 999], "add_tags": ["rabbitmq"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(elsewhere["error"]["problems"][0]["node"], 999);
    let (_, untouched) = app.get(&format!("/api/v1/nodes/{}", ids[0])).await;
    assert_eq!(untouched["version"], 1);

    // The pre-deployment checks name the nodes concerned.
    let (status, checks) = app.get(&format!("/api/v1/clusters/{cluster}/checks")).await;
    assert_eq!(status, StatusCode::OK);
    let controllers = checks
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["kind"] == "role_limit" && c["message"].as_str().unwrap().contains("3 controller")
        })
        .unwrap_or_else(|| panic!("{checks:#}"));
    assert_eq!(controllers["severity"], "warning");
    assert_eq!(controllers["nodes"], json!([ctl]));

    // Removing a tag some nodes lack leaves those alone.
    let (status, removed) = app
        .post(&uri, &json!({"nodes": ids, "remove_tags": ["rabbitmq"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{removed:#}");
    // The ten that had it, and the controller, whose role's rabbitmq is
    // now the primary one: its view changed with them.
    let removed = removed.as_array().unwrap();
    assert_eq!(removed.len(), 11);
    let controller = removed.iter().find(|n| n["id"] == ctl).unwrap();
    assert!(
        controller["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("primary-rabbitmq")),
        "{controller:#}"
    );
}

#[tokio::test]
async fn tags_cannot_be_deleted_while_nodes_carry_them() {
    let app = test_app().await;
    let (cluster, release) = app.environment("prod").await;
    let ids = nodes(&app, cluster, 2, &["compute"]).await;
    app.post(
        &format!("/api/v1/clusters/{cluster}/tags"),
        &json!({"name": "rack"}),
    )
    .await;
    app.post(
        &format!("/api/v1/releases/{release}/tags"),
        &json!({"name": "mysql"}),
    )
    .await;
    let assign = format!("/api/v1/nodes/{}/tags", ids[0]);
    let (status, _) = app
        .post(&assign, &json!({"tags": ["rack", "mysql:2"]}))
        .await;
    assert_eq!(status, StatusCode::OK);

    let (_, views) = app.get(&format!("/api/v1/clusters/{cluster}/tags")).await;
    let rack = views
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "rack")
        .unwrap();
    assert_eq!(rack["nodes"], 1);
    let (status, refused) = app
        .delete(&format!("/api/v1/clusters/{cluster}/tags/rack"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        refused["error"]["message"],
        "tag 'rack' is assigned to node 'rack0-0': unassign it first"
    );
    let (status, refused) = app
        .delete(&format!("/api/v1/releases/{release}/tags/mysql"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'rack0-0 (prod)'"),
        "{refused:#}"
    );
    let (_, release_views) = app.get(&format!("/api/v1/releases/{release}/tags")).await;
    let mysql = release_views
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "mysql")
        .unwrap();
    assert_eq!(mysql["nodes"], 1, "{mysql}");

    app.delete(&assign, Some(&json!({"tags": ["rack", "mysql:2"]})))
        .await;
    let (status, _) = app
        .delete(&format!("/api/v1/clusters/{cluster}/tags/rack"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app
        .delete(&format!("/api/v1/releases/{release}/tags/mysql"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn an_export_with_a_release_tag_imports_where_that_tag_is_gone() {
    let app = test_app().await;
    let (cluster, release) = app.environment("prod").await;
    let ids = nodes(&app, cluster, 1, &["compute"]).await;
    app.post(
        &format!("/api/v1/releases/{release}/tags"),
        &json!({"name": "mysql", "has_primary": true}),
    )
    .await;
    app.post(
        &format!("/api/v1/nodes/{}/tags", ids[0]),
        &json!({"tags": ["mysql:1"]}),
    )
    .await;
    let (status, file) = app
        .text(
            axum::http::Request::get(format!("/api/v1/clusters/{cluster}/environment"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(file.contains("mysql"), "{file}");
    // The release tag goes with the environment; the file still imports.
    let (status, _) = app
        .delete(&format!("/api/v1/clusters/{cluster}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app
        .delete(&format!("/api/v1/releases/{release}/tags/mysql"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, imported) = app
        .send(
            axum::http::Request::post("/api/v1/clusters/import?name=copy")
                .header("content-type", "application/yaml")
                .body(axum::body::Body::from(file))
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported:#}");
    let copy = imported["id"].as_i64().unwrap();
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{copy}/nodes")).await;
    assert!(nodes[0]["tags"].to_string().contains("mysql:1"));
}

#[tokio::test]
async fn environments_and_nodes_are_deleted_and_the_bundled_release_comes_back() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let ids = nodes(&app, cluster, 3, &["compute"]).await;
    app.post(
        &format!("/api/v1/clusters/{cluster}/tags"),
        &json!({"name": "rack"}),
    )
    .await;
    let (status, _) = app.delete(&format!("/api/v1/nodes/{}", ids[0]), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, gone) = app.delete(&format!("/api/v1/nodes/{}", ids[0]), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{gone:#}");
    let (_, left) = app.get(&format!("/api/v1/clusters/{cluster}/nodes")).await;
    assert_eq!(names(&left, "name"), ["rack0-1", "rack0-2"]);

    // The bundled release cannot go while the environment uses it.
    let (_, plugins) = app.get("/api/v1/plugins").await;
    let bundled = plugins[0]["id"].as_i64().unwrap();
    let (status, _) = app
        .delete(&format!("/api/v1/plugins/{bundled}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = app
        .delete(&format!("/api/v1/clusters/{cluster}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app.get(&format!("/api/v1/nodes/{}", ids[1])).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app
        .delete(&format!("/api/v1/clusters/{cluster}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, _) = app
        .delete(&format!("/api/v1/plugins/{bundled}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, releases) = app.get("/api/v1/releases").await;
    assert_eq!(releases, json!([]));
    let (status, again) = app.post("/api/v1/plugins/bundled", &json!(null)).await;
    assert_eq!(status, StatusCode::CREATED, "{again:#}");
    assert_eq!(again["kind"], "release");
    let (status, twice) = app.post("/api/v1/plugins/bundled", &json!(null)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{twice:#}");
    // A name can be used again once its environment is gone.
    app.environment("prod").await;
}

#[tokio::test]
async fn a_bulk_change_answers_the_nodes_whose_primary_tags_moved_with_it() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let ids = nodes(&app, cluster, 2, &["controller"]).await;
    let uri = format!("/api/v1/clusters/{cluster}/nodes/bulk");
    let (status, changed) = app
        .post(
            &uri,
            &json!({"nodes": [ids[0]], "remove_roles": ["controller"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed:#}");
    // The second controller is the primary now: its row must change too.
    assert_eq!(names(&changed, "name"), ["rack0-0", "rack0-1"]);
    assert!(
        changed[1]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("primary-controller")),
        "{changed:#}"
    );
}
