//! Roles over time through the API (issue 33, SEMANTICS §5.1): a role's
//! tags replaced on an environment and a release, roles of one's own, the
//! plan following them, and instance tags spread by rule.

mod support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, test_app};

/// Adds a ready node with `roles` to environment `cluster`: its id.
async fn node(app: &TestApp, cluster: i64, roles: &[&str]) -> i64 {
    let (status, node) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"roles": roles, "status": "ready"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    node["id"].as_i64().unwrap()
}

/// The nodes of the plan of `cluster` that run a RabbitMQ task.
async fn rabbitmq_nodes(app: &TestApp, cluster: i64) -> Vec<i64> {
    let (status, plan) = app.get(&format!("/api/v1/clusters/{cluster}/plan")).await;
    assert_eq!(status, StatusCode::OK, "{plan:#}");
    plan["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t.as_str().unwrap().contains("rabbitmq"))
        })
        .map(|n| n["id"].as_i64().unwrap_or_else(|| panic!("{n:#}")))
        .collect()
}

async fn role(app: &TestApp, uri: &str, name: &str) -> Value {
    let (status, roles) = app.get(uri).await;
    assert_eq!(status, StatusCode::OK, "{roles:#}");
    roles
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no role {name} in {roles:#}"))
}

#[tokio::test]
async fn rabbitmq_moves_off_the_controllers_of_one_environment_to_a_role_of_its_own() {
    let app = test_app().await;
    let (cluster, release) = app.environment("one").await;
    let (other, _) = app.environment("other").await;
    let controllers = [
        node(&app, cluster, &["controller"]).await,
        node(&app, cluster, &["controller"]).await,
        node(&app, cluster, &["controller"]).await,
    ];
    let other_controller = node(&app, other, &["controller"]).await;
    assert_eq!(rabbitmq_nodes(&app, cluster).await, controllers);
    let held = format!("/api/v1/clusters/{cluster}/roles");
    assert_eq!(role(&app, &held, "controller").await["nodes"], 3);
    let held = format!("/api/v1/releases/{release}/roles");
    assert_eq!(role(&app, &held, "controller").await["nodes"], 4);

    let roles = format!("/api/v1/clusters/{cluster}/roles");
    let (status, edited) = app
        .put(
            &format!("{roles}/controller"),
            &json!({"tags": ["controller", "database", "keystone", "neutron"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{edited:#}");
    assert_eq!(edited["tags_source"], "environment");
    assert_eq!(
        edited["tags"],
        json!(["controller", "database", "keystone", "neutron"])
    );
    assert_eq!(rabbitmq_nodes(&app, cluster).await, Vec::<i64>::new());

    let (status, created) = app
        .post(
            &roles,
            &json!({"name": "messaging", "label": "Messaging", "tags": ["rabbitmq"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created:#}");
    assert_eq!(created["created"], "environment");
    let messaging = node(&app, cluster, &["messaging"]).await;
    assert_eq!(rabbitmq_nodes(&app, cluster).await, [messaging]);

    // The release's other environment is unchanged.
    assert_eq!(rabbitmq_nodes(&app, other).await, [other_controller]);
    let untouched = role(
        &app,
        &format!("/api/v1/clusters/{other}/roles"),
        "controller",
    )
    .await;
    assert_eq!(untouched["tags_source"], "declared");
    assert!(
        untouched["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("rabbitmq"))
    );

    // A role nodes hold is not deleted; the edit is undone.
    let (status, body) = app.delete(&format!("{roles}/messaging"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body:#}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("node-"),
        "{body:#}"
    );
    let (status, _) = app.delete(&format!("{roles}/controller"), None).await;
    assert_eq!(status, StatusCode::OK);
    let restored = role(&app, &roles, "controller").await;
    assert_eq!(restored["tags_source"], "declared");
    let mut expected = controllers.to_vec();
    expected.push(messaging);
    assert_eq!(rabbitmq_nodes(&app, cluster).await, expected);
}

#[tokio::test]
async fn changes_of_roles_are_refused_with_their_reasons() {
    let app = test_app().await;
    let (cluster, _) = app.environment("one").await;
    let roles = format!("/api/v1/clusters/{cluster}/roles");
    let cases: Vec<(&str, &str, String, Value, StatusCode, &str)> = vec![
        (
            "unknown tag",
            "PUT",
            format!("{roles}/controller"),
            json!({"tags": ["nope"]}),
            StatusCode::BAD_REQUEST,
            "unknown_tag",
        ),
        (
            "unknown role",
            "PUT",
            format!("{roles}/ghost"),
            json!({"tags": []}),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "bad name",
            "POST",
            roles.clone(),
            json!({"name": "Bad Name", "label": "B", "tags": []}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "a name taken",
            "POST",
            roles.clone(),
            json!({"name": "compute", "label": "C", "tags": []}),
            StatusCode::CONFLICT,
            "conflict",
        ),
        (
            "unknown tag in a new role",
            "POST",
            roles.clone(),
            json!({"name": "x", "label": "X", "tags": ["nope"]}),
            StatusCode::BAD_REQUEST,
            "unknown_tag",
        ),
        (
            "a declared role",
            "DELETE",
            format!("{roles}/compute"),
            Value::Null,
            StatusCode::CONFLICT,
            "conflict",
        ),
    ];
    for (what, method, uri, body, status, code) in cases {
        let body = (!body.is_null()).then(|| body.to_string());
        let (got, answer) = app.call(method, &uri, body.as_deref()).await;
        assert_eq!(got, status, "{what}: {answer:#}");
        assert_eq!(answer["error"]["code"], code, "{what}: {answer:#}");
    }
}

#[tokio::test]
async fn a_release_edit_reaches_its_environments_unless_they_have_their_own() {
    let app = test_app().await;
    let (one, release) = app.environment("one").await;
    let (two, _) = app.environment("two").await;
    let (status, _) = app
        .put(
            &format!("/api/v1/clusters/{two}/roles/compute"),
            &json!({"tags": ["compute"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let uri = format!("/api/v1/releases/{release}/roles/compute");
    let (status, edited) = app
        .put(&uri, &json!({"tags": ["compute", "neutron"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{edited:#}");
    assert_eq!(edited["tags_source"], "release");
    let listed = role(
        &app,
        &format!("/api/v1/releases/{release}/roles"),
        "compute",
    )
    .await;
    let mut shown = edited.clone();
    shown.as_object_mut().unwrap().remove("instance_tags");
    assert_eq!(listed, shown);
    let seen = role(&app, &format!("/api/v1/clusters/{one}/roles"), "compute").await;
    assert_eq!(
        (seen["tags_source"].clone(), seen["tags"].clone()),
        (json!("release"), json!(["compute", "neutron"]))
    );
    let own = role(&app, &format!("/api/v1/clusters/{two}/roles"), "compute").await;
    assert_eq!(
        (own["tags_source"].clone(), own["tags"].clone()),
        (json!("environment"), json!(["compute"]))
    );
    let (status, undone) = app.delete(&uri, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(undone["tags_source"], "declared");
    let seen = role(&app, &format!("/api/v1/clusters/{one}/roles"), "compute").await;
    assert_eq!(seen["tags_source"], "declared");
}

/// Instance tags of the controllers after a bulk change giving them the role.
async fn bulk_controllers(app: &TestApp, cluster: i64, hand: Option<&str>) -> Vec<String> {
    let nodes = [
        node(app, cluster, &[]).await,
        node(app, cluster, &[]).await,
        node(app, cluster, &[]).await,
    ];
    if let Some(tag) = hand {
        let (status, body) = app
            .post(
                &format!("/api/v1/nodes/{}/tags", nodes[2]),
                &json!({"tags": [tag]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body:#}");
    }
    let (status, changed) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes/bulk"),
            &json!({"nodes": nodes, "add_roles": ["controller"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed:#}");
    changed
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let tags: Vec<&str> = n["tags"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|t| t.as_str())
                .filter(|t| t.starts_with("mysql:"))
                .collect();
            tags.join(",")
        })
        .collect()
}

#[tokio::test]
async fn a_bulk_change_spreads_instance_tags_in_node_order() {
    let app = test_app().await;
    let mut results = Vec::new();
    for (name, hand) in [("first", None), ("second", Some("mysql:2"))] {
        let (cluster, _) = app.environment(name).await;
        let tags = format!("/api/v1/clusters/{cluster}/tags");
        let (status, tag) = app
            .post(&tags, &json!({"name": "mysql", "instances": 2}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{tag:#}");
        assert_eq!(tag["instances"], 2);
        let (status, _) = app
            .put(
                &format!("/api/v1/clusters/{cluster}/roles/controller"),
                &json!({"tags": ["controller", "database", "mysql"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        results.push(bulk_controllers(&app, cluster, hand).await);
    }
    assert_eq!(
        results,
        [
            ["mysql:1", "mysql:2", "mysql:1"],
            ["mysql:1", "mysql:1", "mysql:2"]
        ]
    );
}

async fn export(app: &TestApp, cluster: i64) -> String {
    let (status, file) = app
        .text(
            axum::http::Request::get(format!("/api/v1/clusters/{cluster}/environment"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{file}");
    file
}

#[tokio::test]
async fn a_single_node_gets_its_instance_and_export_import_export_is_identical() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    app.post(
        &format!("/api/v1/clusters/{cluster}/tags"),
        &json!({"name": "mysql", "instances": 2}),
    )
    .await;
    let roles = format!("/api/v1/clusters/{cluster}/roles");
    let (status, _) = app
        .put(
            &format!("{roles}/controller"),
            &json!({"tags": ["controller", "mysql"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .post(&roles, &json!({"name": "messaging", "label": "Messaging", "tags": ["rabbitmq"], "limits": {"max": 2}}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let first = node(&app, cluster, &["controller"]).await;
    let second = node(&app, cluster, &[]).await;
    let (status, changed) = app
        .put(
            &format!("/api/v1/nodes/{second}"),
            &json!({"roles": ["controller"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed:#}");
    node(&app, cluster, &["messaging"]).await;
    // Added one at a time, more controllers keep spreading: mysql:1 (a
    // tie goes to the smallest), then mysql:2.
    for expected in ["mysql:1", "mysql:2"] {
        let id = node(&app, cluster, &["controller"]).await;
        let (_, added) = app.get(&format!("/api/v1/nodes/{id}")).await;
        assert!(
            added["tags"].as_array().unwrap().contains(&json!(expected)),
            "{added:#}"
        );
    }
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{cluster}/nodes")).await;
    assert!(
        nodes[0]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("mysql:1")),
        "{first}: {nodes:#}"
    );
    assert!(
        nodes[1]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("mysql:2")),
        "{nodes:#}"
    );

    let file = export(&app, cluster).await;
    assert!(
        file.contains("roles:") && file.contains("messaging"),
        "{file}"
    );
    let (status, imported) = app
        .send(
            axum::http::Request::post("/api/v1/clusters/import?name=copy")
                .header("content-type", "application/yaml")
                .body(axum::body::Body::from(file.clone()))
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported:#}");
    let copy = imported["id"].as_i64().unwrap();
    assert_eq!(export(&app, copy).await, file);
    let own = role(&app, &format!("/api/v1/clusters/{copy}/roles"), "messaging").await;
    assert_eq!(own["created"], "environment");
}

#[tokio::test]
async fn a_tags_instances_stay_when_only_its_primary_changes() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let tags = format!("/api/v1/clusters/{cluster}/tags");
    app.post(&tags, &json!({"name": "mysql", "instances": 2}))
        .await;
    let (status, tag) = app
        .put(&format!("{tags}/mysql"), &json!({"has_primary": true}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (tag["has_primary"].clone(), tag["instances"].clone()),
        (json!(true), json!(2))
    );
    let (_, tag) = app
        .put(
            &format!("{tags}/mysql"),
            &json!({"has_primary": true, "instances": 3}),
        )
        .await;
    assert_eq!(tag["instances"], 3);
    let (_, tag) = app
        .put(
            &format!("{tags}/mysql"),
            &json!({"has_primary": true, "instances": null}),
        )
        .await;
    assert!(tag.get("instances").is_none(), "{tag:#}");
    let (status, _) = app
        .put(
            &format!("{tags}/mysql"),
            &json!({"has_primary": true, "instances": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// Another replica (its own pool) on `app`'s database.
async fn replica(app: &TestApp) -> support::Handle {
    let db = mosaic_server::prepare(&app.url).await.unwrap();
    let token = support::token_for(&db, "replica", mosaic_core::access::Role::Admin).await;
    support::Handle {
        router: mosaic_server::app(
            mosaic_server::AppState::new(db, mosaic_server::access::Security::default()),
            None,
        ),
        token,
    }
}

fn put_tags(
    uri: &str,
    tags: &[&str],
    if_match: Option<&str>,
) -> axum::http::Request<axum::body::Body> {
    let mut request = axum::http::Request::builder()
        .method("PUT")
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(version) = if_match {
        request = request.header("if-match", version);
    }
    request
        .body(axum::body::Body::from(json!({ "tags": tags }).to_string()))
        .unwrap()
}

#[tokio::test]
async fn concurrent_edits_of_one_role_through_two_replicas_lose_nothing() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let replicas = [app.handle(), replica(&app).await];
    let uri = format!("/api/v1/clusters/{cluster}/roles/controller");
    let sets: [&[&str]; 2] = [&["controller", "database"], &["controller", "keystone"]];

    // Without If-Match: every edit is applied, the last one stays.
    let mut edits = tokio::task::JoinSet::new();
    for round in 0..10 {
        for (i, handle) in replicas.iter().enumerate() {
            let (handle, uri, set) = (handle.clone(), uri.clone(), sets[i]);
            edits.spawn(async move { (round, handle.send(put_tags(&uri, set, None)).await) });
        }
    }
    while let Some(done) = edits.join_next().await {
        let (round, (status, body)) = done.unwrap();
        assert_eq!(status, StatusCode::OK, "round {round}: {body:#}");
    }
    let now = role(
        &app,
        &format!("/api/v1/clusters/{cluster}/roles"),
        "controller",
    )
    .await;
    assert!(sets.iter().any(|s| now["tags"] == json!(s)), "{now:#}");

    // With If-Match on the same version: one is applied, the other 412.
    let response = replicas[0]
        .respond(put_tags(&uri, &["controller"], None))
        .await;
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let mut edits = tokio::task::JoinSet::new();
    for (i, handle) in replicas.iter().enumerate() {
        let (handle, uri, set, etag) = (handle.clone(), uri.clone(), sets[i], etag.clone());
        edits.spawn(async move { handle.send(put_tags(&uri, set, Some(&etag))).await });
    }
    let mut statuses = Vec::new();
    while let Some(done) = edits.join_next().await {
        let (status, body) = done.unwrap();
        if status == StatusCode::PRECONDITION_FAILED {
            assert_eq!(body["error"]["code"], "precondition_failed");
        }
        statuses.push(status);
    }
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::PRECONDITION_FAILED]);
}

#[tokio::test]
async fn a_tag_a_role_change_names_cannot_be_deleted() {
    let app = test_app().await;
    let (cluster, release) = app.environment("prod").await;
    for owner in [
        format!("/api/v1/releases/{release}"),
        format!("/api/v1/clusters/{cluster}"),
    ] {
        let (status, _) = app
            .post(&format!("{owner}/tags"), &json!({"name": "rack"}))
            .await;
        assert_eq!(status, StatusCode::CREATED);
        let (status, _) = app
            .put(
                &format!("{owner}/roles/compute"),
                &json!({"tags": ["compute", "rack"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = app.delete(&format!("{owner}/tags/rack"), None).await;
        assert_eq!(status, StatusCode::CONFLICT, "{owner}: {body:#}");
        let (status, _) = app.delete(&format!("{owner}/roles/compute"), None).await;
        assert_eq!(status, StatusCode::OK);
        let (status, body) = app.delete(&format!("{owner}/tags/rack"), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{owner}: {body:#}");
    }
}

#[tokio::test]
async fn the_tags_list_shows_each_instances_nodes() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let tags = format!("/api/v1/clusters/{cluster}/tags");
    app.post(&tags, &json!({"name": "mysql", "instances": 2}))
        .await;
    app.put(
        &format!("/api/v1/clusters/{cluster}/roles/controller"),
        &json!({"tags": ["controller", "mysql"]}),
    )
    .await;
    bulk_controllers(&app, cluster, None).await;
    let (_, list) = app.get(&tags).await;
    let mysql = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "mysql")
        .unwrap();
    assert_eq!(
        mysql["instance_nodes"],
        json!([{"number": 1, "nodes": ["node-1", "node-3"]}, {"number": 2, "nodes": ["node-2"]}])
    );
}

/// `method uri` with `If-Match: etag` (and a JSON `body`): the status and
/// the answer's `ETag`.
async fn conditional(
    app: &TestApp,
    (method, uri): (&str, &str),
    body: Option<Value>,
    etag: Option<&str>,
) -> (StatusCode, Option<String>) {
    let mut request = axum::http::Request::builder().method(method).uri(uri);
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    if let Some(etag) = etag {
        request = request.header("if-match", etag);
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let response = app
        .respond(request.body(axum::body::Body::from(body)).unwrap())
        .await;
    let etag = response
        .headers()
        .get("etag")
        .map(|v| v.to_str().unwrap().to_owned());
    (response.status(), etag)
}

// Issue 43, point 3: a role's version goes on through a delete and a
// re-create, so an `If-Match` taken before the delete never matches the
// role made again — on an environment and on a release, for an edit of a
// declared role and for a role of one's own.
#[tokio::test]
async fn a_roles_version_never_repeats_after_a_delete_and_a_re_create() {
    let app = test_app().await;
    let (cluster, release) = app.environment("prod").await;
    for owner in [
        format!("/api/v1/clusters/{cluster}"),
        format!("/api/v1/releases/{release}"),
    ] {
        // An edit of a declared role, undone, then made again.
        let uri = format!("{owner}/roles/compute");
        let tags = || Some(json!({"tags": ["compute"]}));
        let (status, first) = conditional(&app, ("PUT", &uri), tags(), None).await;
        assert_eq!(status, StatusCode::OK, "{owner}");
        let first = first.unwrap();
        let (status, _) = conditional(&app, ("DELETE", &uri), None, Some(&first)).await;
        assert!(status.is_success(), "{owner}: {status}");
        let (status, again) = conditional(&app, ("PUT", &uri), tags(), None).await;
        assert_eq!(status, StatusCode::OK, "{owner}");
        assert_ne!(again, Some(first.clone()), "{owner}: the version repeats");
        let (status, _) = conditional(&app, ("PUT", &uri), tags(), Some(&first)).await;
        assert_eq!(
            status,
            StatusCode::PRECONDITION_FAILED,
            "{owner}: a stale If-Match"
        );
        let (status, _) = conditional(&app, ("DELETE", &uri), None, Some(&first)).await;
        assert_eq!(
            status,
            StatusCode::PRECONDITION_FAILED,
            "{owner}: a stale If-Match"
        );

        // A role of one's own, deleted, then created again.
        let create = || Some(json!({"name": "queue", "label": "Queue", "tags": ["rabbitmq"]}));
        let (status, first) =
            conditional(&app, ("POST", &format!("{owner}/roles")), create(), None).await;
        assert_eq!(status, StatusCode::CREATED, "{owner}");
        let first = first.unwrap();
        let queue = format!("{owner}/roles/queue");
        let (status, _) = conditional(&app, ("DELETE", &queue), None, Some(&first)).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{owner}");
        let (status, again) =
            conditional(&app, ("POST", &format!("{owner}/roles")), create(), None).await;
        assert_eq!(status, StatusCode::CREATED, "{owner}");
        assert_ne!(again, Some(first.clone()), "{owner}: the version repeats");
        let (status, _) = conditional(&app, ("PUT", &queue), tags(), Some(&first)).await;
        assert_eq!(
            status,
            StatusCode::PRECONDITION_FAILED,
            "{owner}: a stale If-Match"
        );
    }
}

/// The instance tags (`mysql:N`) stored on each of `nodes`, as the
/// database holds them.
async fn assigned(app: &TestApp, nodes: &[i64]) -> Vec<Vec<String>> {
    let mut all = Vec::new();
    for &id in nodes {
        let node = app.db.node(id).await.unwrap().unwrap();
        all.push(
            node.spec
                .tags_assigned
                .iter()
                .map(ToString::to_string)
                .collect(),
        );
    }
    all
}

// Issue 43, point 2: a role edit — on a release or on an environment —
// assigns and removes instance tags on every node holding the role, at
// once and in its own transaction, and says how many; a dry run counts
// them and stores nothing.
#[tokio::test]
async fn a_role_edit_gives_and_takes_instance_tags_on_every_holder_at_once() {
    let app = test_app().await;
    let (one, release) = app.environment("one").await;
    let (two, _) = app.environment("two").await;
    let (status, _) = app
        .post(
            &format!("/api/v1/releases/{release}/tags"),
            &json!({"name": "mysql", "instances": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let ones = [
        node(&app, one, &["controller"]).await,
        node(&app, one, &["controller"]).await,
        node(&app, one, &["controller"]).await,
    ];
    let twos = [node(&app, two, &["controller"]).await];
    let all: Vec<i64> = ones.iter().chain(&twos).copied().collect();

    let on_release = format!("/api/v1/releases/{release}/roles/controller");
    let with_mysql = json!({"tags": ["controller", "database", "mysql"]});
    let (status, preview) = app
        .put(&format!("{on_release}?dry_run=true"), &with_mysql)
        .await;
    assert_eq!(status, StatusCode::OK, "{preview:#}");
    assert_eq!(
        preview["instance_tags"],
        json!({"nodes": 4, "assigned": 4, "removed": 0})
    );
    assert_eq!(preview["tags"], with_mysql["tags"]);
    assert_eq!(assigned(&app, &all).await, vec![Vec::<String>::new(); 4]);
    let listed = role(
        &app,
        &format!("/api/v1/releases/{release}/roles"),
        "controller",
    )
    .await;
    assert_eq!(
        listed["tags_source"], "declared",
        "a dry run stores nothing"
    );

    let (status, edited) = app.put(&on_release, &with_mysql).await;
    assert_eq!(status, StatusCode::OK, "{edited:#}");
    assert_eq!(edited["instance_tags"], preview["instance_tags"]);
    assert_eq!(
        assigned(&app, &all).await,
        [["mysql:1"], ["mysql:2"], ["mysql:1"], ["mysql:1"]]
    );
    assert!(export(&app, one).await.contains("mysql:2"));

    // The set without the tag takes the instances away at once.
    let (status, edited) = app
        .put(&on_release, &json!({"tags": ["controller", "database"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{edited:#}");
    assert_eq!(
        edited["instance_tags"],
        json!({"nodes": 4, "assigned": 0, "removed": 4})
    );
    assert_eq!(assigned(&app, &all).await, vec![Vec::<String>::new(); 4]);

    // On an environment: its holders only, and undoing it counts too.
    let on_one = format!("/api/v1/clusters/{one}/roles/controller");
    let (status, edited) = app.put(&on_one, &with_mysql).await;
    assert_eq!(status, StatusCode::OK, "{edited:#}");
    assert_eq!(
        edited["instance_tags"],
        json!({"nodes": 3, "assigned": 3, "removed": 0})
    );
    assert_eq!(
        assigned(&app, &all).await,
        [vec!["mysql:1"], vec!["mysql:2"], vec!["mysql:1"], vec![]]
    );
    let (status, undone) = app.delete(&on_one, None).await;
    assert_eq!(status, StatusCode::OK, "{undone:#}");
    assert_eq!(undone["tags_source"], "release");
    assert_eq!(
        undone["instance_tags"],
        json!({"nodes": 3, "assigned": 0, "removed": 3})
    );
}
