//! No lost updates (SEMANTICS §10): concurrent changes all take effect or
//! are refused, never silently overwritten — also with two API replicas on
//! one database (SQLite here, PostgreSQL under `make postgres`).

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use mosaic_server::access::Security;
use mosaic_server::{AppState, app, prepare};
use serde_json::{Value, json};
use support::{Handle, TestApp, test_app, token_for};
use tokio::task::JoinSet;

fn post(uri: &str, body: &Value) -> Request<Body> {
    Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// Environment `name` with `tags` tags of its own (`t0`, `t1`, …) and
/// `nodes` nodes; their ids.
async fn environment(app: &TestApp, name: &str, tags: usize, nodes: usize) -> Vec<i64> {
    let (cluster, _) = app.environment(name).await;
    for t in 0..tags {
        let (status, body) = app
            .post(
                &format!("/api/v1/clusters/{cluster}/tags"),
                &json!({"name": format!("t{t}")}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body:#}");
    }
    let mut ids = Vec::new();
    for _ in 0..nodes {
        let (status, node) = app
            .post(
                &format!("/api/v1/clusters/{cluster}/nodes"),
                &json!({"roles": ["compute"]}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{node:#}");
        ids.push(node["id"].as_i64().unwrap());
    }
    ids
}

/// Assigns tag `t{t}` to every node, all at once, spread over `replicas`.
async fn assign_all(replicas: &[Handle], nodes: &[i64], tags: usize) {
    let mut tasks = JoinSet::new();
    let mut n = 0;
    for &node in nodes {
        for t in 0..tags {
            let handle = replicas[n % replicas.len()].clone();
            n += 1;
            tasks.spawn(async move {
                let request = post(
                    &format!("/api/v1/nodes/{node}/tags"),
                    &json!({"tags": [format!("t{t}")]}),
                );
                handle.send(request).await
            });
        }
    }
    while let Some(answer) = tasks.join_next().await {
        let (status, body) = answer.unwrap();
        assert_eq!(status, StatusCode::OK, "{body:#}");
    }
}

async fn tags_of(app: &TestApp, node: i64) -> Vec<String> {
    let (_, view) = app.get(&format!("/api/v1/nodes/{node}")).await;
    view["tags_added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn fifty_tags_assigned_to_one_node_at_once_are_all_kept() {
    let app = test_app().await;
    let nodes = environment(&app, "prod", 50, 1).await;
    assign_all(&[app.handle()], &nodes, 50).await;
    assert_eq!(tags_of(&app, nodes[0]).await.len(), 50);
    let (_, view) = app.get(&format!("/api/v1/nodes/{}", nodes[0])).await;
    assert_eq!(view["version"], 51);
}

// Two workers, as `mosaic serve` has on this machine: CPU work of one
// request does not hold up the others' database round trips.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_on_one_database_lose_none_of_a_thousand_tag_edits() {
    let app = test_app().await;
    let nodes = environment(&app, "prod", 50, 20).await;
    // A second replica: its own pool on the same database.
    let second = app_on_same_database(&app).await;
    assign_all(&[app.handle(), second], &nodes, 50).await;
    for &node in &nodes {
        let tags = tags_of(&app, node).await;
        assert_eq!(tags.len(), 50, "node {node}: {tags:?}");
    }
}

/// Another app (as another replica would be) on `app`'s database.
async fn app_on_same_database(first: &TestApp) -> Handle {
    let db = prepare(&first.url).await.unwrap();
    let token = token_for(&db, "replica", mosaic_core::access::Role::Admin).await;
    Handle {
        router: app(AppState::new(db, Security::default()), None),
        token,
    }
}

#[tokio::test]
async fn a_node_change_on_an_old_version_is_refused() {
    let app = test_app().await;
    let nodes = environment(&app, "prod", 1, 1).await;
    let uri = format!("/api/v1/nodes/{}", nodes[0]);
    let response = app
        .respond(Request::builder().uri(&uri).body(Body::empty()).unwrap())
        .await;
    // The version, then the digest of the body.
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with("\"1-"), "{etag}");
    app.post(&format!("{uri}/tags"), &json!({"tags": ["t0"]}))
        .await;
    let put = |version: &str| {
        Request::builder()
            .method("PUT")
            .uri(&uri)
            .header("content-type", "application/json")
            .header("if-match", version)
            .body(Body::from(json!({"status": "ready"}).to_string()))
            .unwrap()
    };
    let (status, body) = app.send(put(&etag)).await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{body:#}");
    assert_eq!(body["error"]["code"], "precondition_failed");
    let (status, body) = app.send(put("\"2\"")).await;
    assert_eq!((status, &body["status"]), (StatusCode::OK, &json!("ready")));
    // The tag added in between is still there.
    assert_eq!(tags_of(&app, nodes[0]).await, ["t0"]);
}

// Issue 43, point 3, the other versioned rows: a node's and an
// environment's settings' versions are kept with rows whose ids are never
// given again (SQLite's AUTOINCREMENT, PostgreSQL's identity), so a node or
// an environment deleted and made again under the same name is a new
// resource: an `If-Match` taken on the old one never passes on it.
#[tokio::test]
async fn a_deleted_node_or_environment_made_again_never_takes_an_old_if_match() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let add = format!("/api/v1/clusters/{cluster}/nodes");
    let (_, old) = app.post(&add, &json!({"name": "n1"})).await;
    let old = old["id"].as_i64().unwrap();
    app.delete(&format!("/api/v1/nodes/{old}"), None).await;
    let (_, new) = app.post(&add, &json!({"name": "n1"})).await;
    let new = new["id"].as_i64().unwrap();
    assert_ne!(old, new, "a node id is given again");
    let put = |id: i64, version: &str, body: &Value| {
        Request::builder()
            .method("PUT")
            .uri(format!("/api/v1/nodes/{id}"))
            .header("content-type", "application/json")
            .header("if-match", version)
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let ready = json!({"status": "ready"});
    let (status, _) = app.send(put(old, "\"1\"", &ready)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let settings = |id: i64| format!("/api/v1/clusters/{id}/attributes");
    app.delete(&format!("/api/v1/clusters/{cluster}"), None)
        .await;
    let (again, _) = app.environment("prod").await;
    assert_ne!(cluster, again, "an environment id is given again");
    let patch = json!({"editable": {"access": {"user": {"value": "ops"}}}}).to_string();
    let (status, _) = app
        .call_with(
            "PATCH",
            &settings(cluster),
            Some(&patch),
            &[("if-match", "\"1\"")],
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn racing_creations_of_one_name_answer_409_never_500() {
    let app = test_app().await;
    let (_, releases) = app.get("/api/v1/releases").await;
    let release = releases[0]["id"].as_i64().unwrap();
    let mut tasks = JoinSet::new();
    for _ in 0..20 {
        let handle = app.handle();
        tasks.spawn(async move {
            let body =
                json!({"name": "same", "release_id": release, "components": support::SELECTION});
            handle.send(post("/api/v1/clusters", &body)).await.0
        });
    }
    let mut statuses = Vec::new();
    while let Some(status) = tasks.join_next().await {
        statuses.push(status.unwrap());
    }
    statuses.sort();
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .all(|s| matches!(*s, StatusCode::CREATED | StatusCode::CONFLICT)),
        "{statuses:?}"
    );

    let mut tasks = JoinSet::new();
    for _ in 0..20 {
        let handle = app.handle();
        tasks.spawn(async move {
            handle
                .send(post("/api/v1/clusters/1/tags", &json!({"name": "rack-1"})))
                .await
                .0
        });
    }
    let mut created = 0;
    while let Some(status) = tasks.join_next().await {
        let status = status.unwrap();
        assert!(
            matches!(status, StatusCode::CREATED | StatusCode::CONFLICT),
            "{status}"
        );
        created += usize::from(status == StatusCode::CREATED);
    }
    assert_eq!(created, 1);
}

/// A multi-node environment (at most one controller) with `nodes` nodes
/// without roles: (its id, their ids).
async fn multinode(app: &TestApp, name: &str, nodes: usize) -> (i64, Vec<i64>) {
    let (_, releases) = app.get("/api/v1/releases").await;
    let body = json!({"name": name, "release_id": releases[0]["id"],
                      "components": support::SELECTION, "mode": "multinode"});
    let (status, cluster) = app.post("/api/v1/clusters", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{cluster:#}");
    let cluster = cluster["id"].as_i64().unwrap();
    let mut ids = Vec::new();
    for _ in 0..nodes {
        let uri = format!("/api/v1/clusters/{cluster}/nodes");
        let (status, node) = app.post(&uri, &json!({})).await;
        assert_eq!(status, StatusCode::CREATED, "{node:#}");
        ids.push(node["id"].as_i64().unwrap());
    }
    (cluster, ids)
}

const ONE_CONTROLLER: &str = "Multi-node environments can not have more than 1 controller node.";

/// Sends every request at once, spread over `replicas`; the answers.
async fn all_at_once(
    replicas: &[Handle],
    requests: Vec<Request<Body>>,
) -> Vec<(StatusCode, Value)> {
    let mut tasks = JoinSet::new();
    for (n, request) in requests.into_iter().enumerate() {
        let handle = replicas[n % replicas.len()].clone();
        tasks.spawn(async move { handle.send(request).await });
    }
    let mut answers = Vec::new();
    while let Some(answer) = tasks.join_next().await {
        answers.push(answer.unwrap());
    }
    answers
}

/// Exactly one of `answers` succeeded with `ok`; every other is 400
/// `invalid_roles` with the controller limit's message.
fn exactly_one(answers: &[(StatusCode, Value)], ok: StatusCode) {
    let won = answers.iter().filter(|(status, _)| *status == ok).count();
    assert_eq!(won, 1, "{answers:#?}");
    for (status, body) in answers.iter().filter(|(status, _)| *status != ok) {
        assert_eq!(*status, StatusCode::BAD_REQUEST, "{body:#}");
        assert_eq!(body["error"]["code"], "invalid_roles", "{body:#}");
        assert_eq!(body["error"]["message"], ONE_CONTROLLER);
    }
}

async fn controllers(app: &TestApp, cluster: i64) -> usize {
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{cluster}/nodes")).await;
    nodes
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["roles"]
                .as_array()
                .unwrap()
                .contains(&json!("controller"))
        })
        .count()
}

// Ten adds of a controller at once, over two replicas on one database:
// each checks the maximum after taking the environment's row, so exactly
// one gets in — and the same for ten nodes changed to controllers at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_controllers_at_once_in_a_multinode_environment_leave_exactly_one() {
    let app = test_app().await;
    let (cluster, ids) = multinode(&app, "multi", 10).await;
    let replicas = [app.handle(), app_on_same_database(&app).await];
    let adds = (0..10)
        .map(|_| {
            post(
                &format!("/api/v1/clusters/{cluster}/nodes"),
                &json!({"roles": ["controller"]}),
            )
        })
        .collect();
    exactly_one(&all_at_once(&replicas, adds).await, StatusCode::CREATED);
    assert_eq!(controllers(&app, cluster).await, 1);

    let put_controller = |id: &i64| {
        Request::builder()
            .method("PUT")
            .uri(format!("/api/v1/nodes/{id}"))
            .header("content-type", "application/json")
            .body(Body::from(json!({"roles": ["controller"]}).to_string()))
            .unwrap()
    };
    // The environment has its controller already: all ten are refused.
    let answers = all_at_once(&replicas, ids.iter().map(put_controller).collect()).await;
    assert!(
        answers.iter().all(|(s, _)| *s == StatusCode::BAD_REQUEST),
        "{answers:#?}"
    );
    // In one without: one of ten changes wins.
    let (other, ids) = multinode(&app, "multi-2", 10).await;
    let changes = ids.iter().map(put_controller).collect();
    exactly_one(&all_at_once(&replicas, changes).await, StatusCode::OK);
    assert_eq!(controllers(&app, other).await, 1);
}

// The store's side of it, made to race: every check waits a while after
// reading the counts, so without the environment's row taken first they
// would all read none and all get in.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn checks_of_role_counts_take_turns_on_the_environments_row() {
    use mosaic_core::environment::RoleCounts;
    use mosaic_core::name::RoleName;
    use mosaic_core::tag::NodeTags;
    let app = test_app().await;
    let (cluster, ids) = multinode(&app, "multi", 8).await;
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
    let addressing = std::sync::Arc::new(env.addressing(&env.network_configuration().unwrap().0));
    let controller = RoleName::new("controller").unwrap();
    let none_yet = move |counts: &RoleCounts| {
        let free = counts.get(&controller) == 0;
        std::thread::sleep(std::time::Duration::from_millis(30));
        if free {
            Ok(())
        } else {
            Err(mosaic_server::db::DbError::Conflict("taken".into()))
        }
    };
    let mut tasks = JoinSet::new();
    for _ in 0..8 {
        let (db, check, addressing) = (app.db.clone(), none_yet.clone(), addressing.clone());
        tasks.spawn(async move {
            let spec = NodeTags {
                roles: vec![RoleName::new("controller").unwrap()],
                ..NodeTags::default()
            };
            db.insert_node(cluster, &spec, (version, &addressing), true, check)
                .await
                .is_ok()
        });
    }
    for id in ids {
        let (db, check, addressing) = (app.db.clone(), none_yet.clone(), addressing.clone());
        tasks.spawn(async move {
            db.change_node_roles(id, None, (version, &addressing), true, |node, counts| {
                check(counts)?;
                let mut spec = node.spec.clone();
                spec.roles = vec![RoleName::new("controller").unwrap()];
                Ok::<_, mosaic_server::db::DbError>(spec)
            })
            .await
            .is_ok()
        });
    }
    let mut won = 0;
    while let Some(ok) = tasks.join_next().await {
        won += usize::from(ok.unwrap());
    }
    assert_eq!(won, 1);
    assert_eq!(controllers(&app, cluster).await, 1);
}

/// A components change that takes the `cinder` role away (LVM to Ceph for
/// volumes), racing with nodes given that role: whichever comes first, no
/// node ends up holding a role the components no longer offer.
#[tokio::test]
async fn a_components_change_and_nodes_taking_its_roles_never_both_pass() {
    let app = test_app().await;
    let ceph: Vec<&str> = support::SELECTION
        .iter()
        .map(|c| match *c {
            "storage:block:backend:lvm" => "storage:block:backend:ceph",
            other => other,
        })
        .collect();
    for round in 0..6 {
        let (cluster, _) = app.environment(&format!("race-{round}")).await;
        let mut tasks = JoinSet::new();
        let handle = app.handle();
        let change = json!({"components": ceph});
        tasks.spawn(async move {
            let request = Request::builder()
                .method("PUT")
                .uri(format!("/api/v1/clusters/{cluster}/components"))
                .header("content-type", "application/json")
                .body(Body::from(change.to_string()))
                .unwrap();
            handle.send(request).await.0
        });
        for n in 0..4 {
            let handle = app.handle();
            tasks.spawn(async move {
                let body = json!({"name": format!("block-{n}"), "roles": ["cinder"]});
                let uri = format!("/api/v1/clusters/{cluster}/nodes");
                handle.send(post(&uri, &body)).await.0
            });
        }
        while let Some(status) = tasks.join_next().await {
            let status = status.unwrap();
            assert!(!status.is_server_error(), "{status}");
        }
        let (_, env) = app.get(&format!("/api/v1/clusters/{cluster}")).await;
        let on_ceph = env["components"]
            .as_array()
            .unwrap()
            .contains(&json!("storage:block:backend:ceph"));
        let (_, nodes) = app.get(&format!("/api/v1/clusters/{cluster}/nodes")).await;
        let holders = nodes.as_array().unwrap().len();
        assert!(
            !(on_ceph && holders > 0),
            "round {round}: Ceph chosen and {holders} node(s) hold cinder"
        );
    }
}

/// A release's role changes take turns on the release's row: on SQLite a
/// change that read the roles before another committed could not write
/// (`database is locked`, a 500 schemathesis found), and on PostgreSQL two
/// edits with the same `If-Match` could both pass its check.
#[tokio::test]
async fn role_changes_of_one_release_at_once_all_take_effect_or_are_refused() {
    let app = test_app().await;
    let mut requests = Vec::new();
    for n in 0..12 {
        let body =
            json!({"name": format!("own-{n}"), "label": format!("Own {n}"), "tags": ["rabbitmq"]});
        requests.push(post("/api/v1/releases/1/roles", &body));
    }
    for _ in 0..6 {
        let body = json!({"tags": ["controller", "rabbitmq"]});
        let request = Request::builder()
            .method("PUT")
            .uri("/api/v1/releases/1/roles/controller")
            .header("content-type", "application/json")
            .header("if-match", "\"0\"")
            .body(Body::from(body.to_string()))
            .unwrap();
        requests.push(request);
    }
    let answers = all_at_once(&[app.handle(), app_on_same_database(&app).await], requests).await;
    let created = answers
        .iter()
        .filter(|(status, _)| *status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 12, "{answers:#?}");
    let edited = answers
        .iter()
        .filter(|(status, _)| *status == StatusCode::OK)
        .count();
    assert_eq!(edited, 1, "one edit on version 0 passes: {answers:#?}");
    for (status, body) in &answers {
        assert!(
            matches!(
                *status,
                StatusCode::CREATED | StatusCode::OK | StatusCode::PRECONDITION_FAILED
            ),
            "{status} {body:#}"
        );
    }
}

// Issue 43, point 5: a settings save that switches a plugin off races with
// nodes given that plugin's role, through two replicas: whichever comes
// first, no node ends up holding a role of a plugin that is off. The nodes
// are sent a few milliseconds apart, so that some land while the save is
// being checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switching_a_plugin_off_and_nodes_taking_its_role_never_both_pass() {
    let app = test_app().await;
    let (status, plugin) = app
        .upload(support::archive(&support::plugin_fixture("detach-queue")))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{plugin:#}");
    let replicas = [app.handle(), app_on_same_database(&app).await];
    let switch = |on: bool| json!({"editable": {"detach-queue": {"metadata": {"enabled": on}}}});
    for round in 0..12 {
        let (cluster, _) = app.environment(&format!("race-{round}")).await;
        let attributes = format!("/api/v1/clusters/{cluster}/attributes");
        let (status, body) = app.patch(&attributes, &switch(true)).await;
        assert_eq!(status, StatusCode::OK, "{body:#}");
        let mut tasks = JoinSet::new();
        let (handle, off) = (replicas[round % 2].clone(), switch(false));
        let uri = attributes.clone();
        tasks.spawn(async move {
            let request = Request::builder()
                .method("PATCH")
                .uri(uri)
                .header("content-type", "application/json")
                .body(Body::from(off.to_string()))
                .unwrap();
            handle.send(request).await.0
        });
        for n in 0..6u64 {
            let handle = replicas[(round + 1 + n as usize) % 2].clone();
            tasks.spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(n * 2)).await;
                let body = json!({"name": format!("queue-{n}"), "roles": ["standalone-queue"]});
                let uri = format!("/api/v1/clusters/{cluster}/nodes");
                handle.send(post(&uri, &body)).await.0
            });
        }
        while let Some(status) = tasks.join_next().await {
            let status = status.unwrap();
            assert!(!status.is_server_error(), "{status}");
        }
        let (_, settings) = app.get(&attributes).await;
        let on = settings["editable"]["detach-queue"]["metadata"]["enabled"] == json!(true);
        let (_, nodes) = app.get(&format!("/api/v1/clusters/{cluster}/nodes")).await;
        let holders = nodes.as_array().unwrap().len();
        assert!(
            on || holders == 0,
            "round {round}: the plugin is off and {holders} node(s) hold its role"
        );
    }
}
