//! Deployment runs through the API (SEMANTICS §15), with a stand-in
//! runner (`support::runner::stand_in`: a step's events and exit code as
//! the test says, no Ansible), on SQLite and on PostgreSQL (`make
//! postgres`): what a run does to nodes and the environment, "deploy
//! changes", one run at a time, the freeze, cancel, history, hosts,
//! events, the stream, and secrets kept out of everything. Real Ansible
//! runs are `runs.rs`'s.

mod support;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::runner::{Behaviour, PASSWORD, behave, stand_in};
use support::{TestApp, test_app_deploying};

/// An environment of the bundled release (KVM, ML2 VLAN with Open vSwitch,
/// LVM) with a controller and a compute node, their ports declared.
async fn environment(app: &TestApp) -> i64 {
    let (_, releases) = app.get("/api/v1/releases").await;
    let body = json!({"name": "lab", "release_id": releases[0]["id"], "components": [
        "hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:vlan",
        "network:neutron:ml2:ovs", "storage:block:backend:lvm"]});
    let (status, env) = app.post("/api/v1/clusters", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{env}");
    let id = env["id"].as_i64().unwrap();
    node(app, id, "ctl-1", "controller").await;
    node(app, id, "cmp-1", "compute").await;
    id
}

async fn node(app: &TestApp, env: i64, name: &str, role: &str) -> i64 {
    let interfaces = json!({"interfaces": [
        {"name": "eth0", "networks": ["fuelweb_admin"]},
        {"name": "eth1", "networks": ["public", "management", "storage"]},
        {"name": "eth2", "networks": ["private"]}]});
    let body = json!({"name": name, "roles": [role], "interfaces": interfaces});
    let (status, node) = app
        .post(&format!("/api/v1/clusters/{env}/nodes"), &body)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node}");
    node["id"].as_i64().unwrap()
}

fn runs_path(env: i64) -> String {
    format!("/api/v1/clusters/{env}/deployers/kolla-ansible/runs")
}

async fn start(app: &TestApp, env: i64, body: Value) -> Value {
    let (status, run) = app.post(&runs_path(env), &body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{run}");
    run
}

/// Run `id` once it ended.
async fn ended(app: &TestApp, id: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, run) = app.get(&format!("/api/v1/runs/{id}")).await;
        let status = run["status"].as_str().unwrap_or_default();
        if ["successful", "failed", "canceled", "error"].contains(&status) {
            return run;
        }
        assert!(Instant::now() < deadline, "run {id} did not end: {run}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

async fn statuses(app: &TestApp, env: i64) -> Vec<(String, String)> {
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_owned(),
                n["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn environment_status(app: &TestApp, env: i64) -> String {
    let (_, cluster) = app.get(&format!("/api/v1/clusters/{env}")).await;
    cluster["status"].as_str().unwrap().to_owned()
}

fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// An ansible-runner job event line.
fn job(counter: i64, event: &str, data: Value) -> String {
    json!({"counter": counter, "event": event, "created": "2026-12-07T10:00:00+00:00",
        "stdout": format!("{event} {}", data["host"].as_str().unwrap_or_default()), "event_data": data})
    .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_first_deployment_makes_its_nodes_ready_and_the_environment_operational() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    assert_eq!(environment_status(&app, env).await, "new");
    let (status, plan) = app
        .post(&format!("{}?dry_run=true", runs_path(env)), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{plan}");
    let actions: Vec<&str> = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "bootstrap-servers",
            "prechecks",
            "pull",
            "deploy",
            "post-deploy"
        ]
    );
    let (_, runs) = app.get(&format!("/api/v1/clusters/{env}/runs")).await;
    assert_eq!(runs, json!([]), "a dry run starts nothing");

    let run = start(&app, env, json!({})).await;
    let run = ended(&app, run["id"].as_i64().unwrap()).await;
    assert_eq!(run["status"], "successful", "{run}");
    for step in run["steps"].as_array().unwrap() {
        assert_eq!(step["status"], "successful");
        assert_eq!(step["rc"], 0);
        assert_eq!(step["argv"][0], "ansible-playbook");
    }
    assert_eq!(
        run["steps"][3]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| *a == "kolla_action=deploy")
            .count(),
        1
    );
    assert_eq!(run["progress"]["plays_total"], 3 + 3 + 3 + 1 + 1);
    assert_eq!(
        statuses(&app, env).await,
        owned(&[("ctl-1", "ready"), ("cmp-1", "ready")])
    );
    assert_eq!(environment_status(&app, env).await, "operational");
    assert!(
        run["files"]["globals.yml"].as_str().unwrap().len() == 64,
        "each file with its SHA-256"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn deploy_changes_deploys_what_changed_since_the_last_deployment() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    let changes = json!({"changes": true});
    let run = start(&app, env, changes.clone()).await;
    assert_eq!(run["kind"], "deploy", "no deployment yet: the whole of it");
    ended(&app, run["id"].as_i64().unwrap()).await;

    let dry = format!("{}?dry_run=true", runs_path(env));
    let (status, body) = app.post(&dry, &changes).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_changes")),
        "{body}"
    );

    // A new compute: bootstrapped, checked, pulled and deployed with the
    // control nodes.
    let added = node(&app, env, "cmp-2", "compute").await;
    let (status, plan) = app.post(&dry, &changes).await;
    assert_eq!(status, StatusCode::OK, "{plan}");
    let steps: Vec<(String, String)> = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["action"].as_str().unwrap().to_owned(),
                s["limit"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(","),
            )
        })
        .collect();
    let limit = "ctl-1,cmp-2";
    assert_eq!(
        steps,
        owned(&[
            ("bootstrap-servers", limit),
            ("prechecks", limit),
            ("pull", limit),
            ("deploy", limit)
        ])
    );
    assert_eq!(plan["changes"]["added"], json!(["cmp-2"]));
    let run = start(&app, env, changes.clone()).await;
    assert_eq!(
        run["status"]
            .as_str()
            .map(|s| s == "pending" || s == "running"),
        Some(true)
    );
    let run = ended(&app, run["id"].as_i64().unwrap()).await;
    assert_eq!(run["status"], "successful");
    assert!(
        run["steps"][0]["argv"]
            .as_array()
            .unwrap()
            .contains(&json!("ctl-1,cmp-2"))
    );

    // A setting changed: a reconfigure everywhere.
    let debug = json!({"editable": {"common": {"debug": {"value": true}}}});
    let (status, body) = app
        .call(
            "PATCH",
            &format!("/api/v1/clusters/{env}/attributes"),
            Some(&debug.to_string()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, plan) = app.post(&dry, &changes).await;
    assert_eq!(status, StatusCode::OK, "{plan}");
    assert_eq!(
        plan["steps"],
        json!([{"action": "reconfigure", "limit": []}])
    );
    assert_eq!(plan["changes"]["files"], json!(["globals.yml"]));
    let run = start(&app, env, changes.clone()).await;
    ended(&app, run["id"].as_i64().unwrap()).await;

    // A node removed: refused with kolla-ansible's steps, until confirmed.
    let (status, _) = app
        .call("DELETE", &format!("/api/v1/nodes/{added}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = app.post(&dry, &changes).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("hosts_removed")),
        "{body}"
    );
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("stop --yes-i-really-really-mean-it --limit cmp-2"),
        "{message}"
    );
    let confirmed = json!({"changes": true, "removed": ["cmp-2"]});
    let (status, body) = app.post(&dry, &confirmed).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_changes")),
        "{body}"
    );
}

/// Two starts of one run at once, through `a` and `b` (one server, or two
/// replicas): one starts (202), the other is refused (409
/// `deployment_running`); the run started.
async fn at_once(a: &support::Handle, b: &support::Handle, env: i64) -> Value {
    let path = runs_path(env);
    let request = || {
        Request::post(&path)
            .header("content-type", "application/json")
            .body(Body::from(r#"{"actions": ["deploy"]}"#))
            .unwrap()
    };
    let (one, two) = tokio::join!(a.send(request()), b.send(request()));
    let mut codes = [one.0, two.0];
    codes.sort();
    assert_eq!(
        codes,
        [StatusCode::ACCEPTED, StatusCode::CONFLICT],
        "{} {}",
        one.1,
        two.1
    );
    let (refused, started) = if one.0 == StatusCode::CONFLICT {
        (one.1, two.1)
    } else {
        (two.1, one.1)
    };
    assert_eq!(refused["error"]["code"], "deployment_running");
    started
}

#[tokio::test(flavor = "multi_thread")]
async fn one_run_at_a_time_and_what_it_deploys_stays_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    behave(
        &venv,
        &Behaviour {
            seconds: 30,
            ..Behaviour::default()
        },
    );
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    let started = at_once(&app.handle(), &app.handle(), env).await;
    let id = started["id"].as_i64().unwrap();

    assert_eq!(
        statuses(&app, env).await,
        owned(&[("ctl-1", "deploying"), ("cmp-1", "deploying")])
    );
    assert_eq!(environment_status(&app, env).await, "deployment");
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    let node = nodes[0]["id"].as_i64().unwrap();
    for (method, path, body) in [
        (
            "PUT",
            format!("/api/v1/nodes/{node}"),
            json!({"roles": ["compute"]}),
        ),
        (
            "PATCH",
            format!("/api/v1/clusters/{env}/attributes"),
            json!({"editable": {}}),
        ),
        ("DELETE", format!("/api/v1/clusters/{env}"), json!(null)),
    ] {
        let (status, answer) = app.call(method, &path, Some(&body.to_string())).await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("deployment_running")),
            "{method} {path}"
        );
    }
    let (status, _) = app.get(&format!("/api/v1/clusters/{env}")).await;
    assert_eq!(status, StatusCode::OK, "reads go on");

    let started = Instant::now();
    let (status, run) = app
        .post(&format!("/api/v1/runs/{id}/cancel"), &json!(null))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{run}");
    let run = ended(&app, id).await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "canceled in {:?}",
        started.elapsed()
    );
    assert_eq!(run["status"], "canceled");
    assert_eq!(run["steps"][0]["status"], "canceled");
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    assert_eq!(nodes[0]["status"], "error");
    assert_eq!(nodes[0]["error_type"], "deploy");
    assert_eq!(environment_status(&app, env).await, "error");
    let (status, body) = app
        .post(&format!("/api/v1/runs/{id}/cancel"), &json!(null))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, _) = app
        .call(
            "PUT",
            &format!("/api/v1/nodes/{node}"),
            Some(r#"{"status": "ready"}"#),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "the run ended: nodes change again");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_step_ends_the_run_and_its_history_and_hosts_say_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let task = |host: &str| json!({"host": host, "play": "Apply role mariadb", "task": "Check", "role": "mariadb", "start": "s", "end": "e"});
    let mut failed = task("ctl-1");
    failed["res"] = json!({"msg": format!("cannot use {PASSWORD}")});
    let mut ok = task("cmp-1");
    ok["res"] = json!({"changed": true});
    let events = vec![
        job(
            1,
            "playbook_on_play_start",
            json!({"play": "Apply role mariadb"}),
        ),
        job(2, "runner_on_start", task("ctl-1")),
        job(3, "runner_on_failed", failed),
        job(4, "runner_on_ok", ok),
        job(
            5,
            "playbook_on_stats",
            json!({"ok": {"cmp-1": 1}, "changed": {"cmp-1": 1}, "failures": {"ctl-1": 1}}),
        ),
    ];
    behave(
        &venv,
        &Behaviour {
            rc: 2,
            events,
            ..Behaviour::default()
        },
    );
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    let run = start(&app, env, json!({})).await;
    let id = run["id"].as_i64().unwrap();
    let run = ended(&app, id).await;
    assert_eq!(run["status"], "failed");
    assert_eq!(
        run["message"],
        "bootstrap-servers failed (exit code 2) on ctl-1"
    );
    let steps: Vec<&str> = run["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        ["failed", "skipped", "skipped", "skipped", "skipped"]
    );
    // ctl-1 failed; cmp-1 never saw the later steps: as it was.
    assert_eq!(
        statuses(&app, env).await,
        owned(&[("ctl-1", "error"), ("cmp-1", "discover")])
    );
    assert_eq!(environment_status(&app, env).await, "error");

    let (_, history) = app.get(&format!("/api/v1/runs/{id}/history")).await;
    let rows: Vec<(&str, &str, &str)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["task_name"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                r["step"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Check", "failed", "bootstrap-servers"),
            ("Check", "changed", "bootstrap-servers")
        ]
    );
    assert_eq!(history[0]["message"], "cannot use ********");
    let (_, failures) = app
        .get(&format!(
            "/api/v1/runs/{id}/history?statuses=failed,unreachable"
        ))
        .await;
    assert_eq!(failures.as_array().unwrap().len(), 1);
    let (status, _) = app
        .get(&format!("/api/v1/runs/{id}/history?statuses=broken"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let node = history[0]["node_id"].as_i64().unwrap();
    let (_, mine) = app
        .get(&format!("/api/v1/runs/{id}/history?nodes={node}"))
        .await;
    assert_eq!(mine.as_array().unwrap().len(), 1);

    let request = Request::get(format!("/api/v1/runs/{id}/history"))
        .header("accept", "text/csv")
        .body(Body::empty())
        .unwrap();
    let (status, csv) = app.text(request).await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "task_name,node_id,status,time_start,time_end,play,role,step,host,message"
    );
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].starts_with(&format!(
        "Check,{node},failed,s,e,Apply role mariadb,mariadb,bootstrap-servers,ctl-1,"
    )));

    let (_, hosts) = app.get(&format!("/api/v1/runs/{id}/hosts")).await;
    assert_eq!(
        hosts,
        json!([
            {"host": "cmp-1", "node_id": hosts[0]["node_id"], "ok": 1, "changed": 1, "failures": 0, "unreachable": 0, "skipped": 0, "ignored": 0, "rescued": 0, "current_task": null},
            {"host": "ctl-1", "node_id": node, "ok": 0, "changed": 0, "failures": 1, "unreachable": 0, "skipped": 0, "ignored": 0, "rescued": 0, "current_task": null},
        ])
    );

    // Events in order, after a sequence; the output as one text.
    let (_, events) = app.get(&format!("/api/v1/runs/{id}/events")).await;
    let names: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "step_start",
            "playbook_on_play_start",
            "runner_on_start",
            "runner_on_failed",
            "runner_on_ok",
            "playbook_on_stats",
            "step_end",
            "run_end"
        ]
    );
    let seqs: Vec<i64> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=8).collect::<Vec<_>>());
    let (_, after) = app.get(&format!("/api/v1/runs/{id}/events?after=6")).await;
    assert_eq!(after.as_array().unwrap().len(), 2);
    let (status, stdout) = app
        .text(
            Request::get(format!("/api/v1/runs/{id}/stdout"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(stdout.contains("runner_on_failed ctl-1\n"), "{stdout}");

    // Relaunching the failed hosts: the same actions on ctl-1 alone.
    behave(&venv, &Behaviour::default());
    let (status, again) = app
        .post(
            &format!("/api/v1/runs/{id}/relaunch"),
            &json!({"hosts": "failed"}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{again}");
    assert_eq!(again["steps"][0]["limit"], json!(["ctl-1"]));
    let again = ended(&app, again["id"].as_i64().unwrap()).await;
    assert_eq!(again["status"], "successful");
    assert_eq!(
        statuses(&app, env).await,
        owned(&[("ctl-1", "ready"), ("cmp-1", "discover")])
    );
    assert_eq!(environment_status(&app, env).await, "partially_deployed");
}

/// Reads the SSE body of `request` until its `end` event: each event's
/// (id, event name, data).
async fn read_stream(
    app: &TestApp,
    request: Request<Body>,
) -> Vec<(Option<String>, Option<String>, String)> {
    let response = app.respond(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !text.contains("event: end") {
        assert!(Instant::now() < deadline, "no end: {text}");
        let frame = tokio::time::timeout(Duration::from_secs(30), body.frame())
            .await
            .unwrap();
        let Some(frame) = frame else { break };
        if let Ok(data) = frame.unwrap().into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
    text.split("\n\n")
        .filter(|m| !m.trim().is_empty() && !m.starts_with(':'))
        .map(|m| {
            let field = |name: &str| {
                m.lines()
                    .find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_owned))
            };
            (
                field("id"),
                field("event"),
                field("data").unwrap_or_default(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_stream_sends_every_event_once_and_resumes_after_the_last_one_received() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let events: Vec<String> = (1..=40)
        .map(|i| {
            job(
                i,
                "runner_on_ok",
                json!({"host": "ctl-1", "task": format!("task {i}"), "res": {"changed": false}}),
            )
        })
        .collect();
    behave(
        &venv,
        &Behaviour {
            seconds: 1,
            events,
            ..Behaviour::default()
        },
    );
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    let run = start(&app, env, json!({"actions": ["gather-facts"]})).await;
    let id = run["id"].as_i64().unwrap();
    let whole = read_stream(
        &app,
        Request::get(format!("/api/v1/runs/{id}/stream"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    let (end, messages) = whole.split_last().unwrap();
    assert_eq!(end.1.as_deref(), Some("end"));
    let ended: Value = serde_json::from_str(&end.2).unwrap();
    assert_eq!(ended["status"], "successful");
    let ids: Vec<i64> = messages
        .iter()
        .map(|m| m.0.as_ref().unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        ids,
        (1..=ids.len() as i64).collect::<Vec<_>>(),
        "every event, once, in order"
    );
    assert_eq!(
        ids.len(),
        1 + 40 + 2,
        "step_start, the 40 results, step_end and run_end"
    );

    // Resumed after event 20: the rest, none twice.
    let resumed = Request::get(format!("/api/v1/runs/{id}/stream"))
        .header("last-event-id", "20")
        .body(Body::empty())
        .unwrap();
    let rest = read_stream(&app, resumed).await;
    let ids: Vec<i64> = rest
        .iter()
        .filter_map(|m| m.0.as_ref()?.parse().ok())
        .collect();
    assert_eq!(ids, (21..=43).collect::<Vec<_>>());
    let bad = Request::get(format!("/api/v1/runs/{id}/stream"))
        .header("last-event-id", "x")
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(bad).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread")]
async fn runs_are_refused_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    for (body, code, status) in [
        (
            json!({"actions": ["launch"]}),
            "bad_request",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"actions": []}),
            "bad_request",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"limit": [999]}),
            "bad_request",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"changes": true, "actions": ["deploy"]}),
            "bad_request",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"connection": "telnet"}),
            "bad_request",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (got, answer) = app.post(&runs_path(env), &body).await;
        assert_eq!(
            (got, answer["error"]["code"].as_str()),
            (status, Some(code)),
            "{body}: {answer}"
        );
    }
    let (status, answer) = app
        .post(
            &format!("/api/v1/clusters/{env}/deployers/fuel/runs"),
            &json!({}),
        )
        .await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown_deployer"))
    );
    let (status, _) = app.get("/api/v1/runs/999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Without a virtual environment on the server: what to run.
    let bare = support::test_app().await;
    let env = environment(&bare).await;
    let (status, answer) = bare.post(&runs_path(env), &json!({})).await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("deployer_not_installed")),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn secrets_stay_in_the_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUtS2V5TWF0ZXJpYWw\n-----END OPENSSH PRIVATE KEY-----";
    let line = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUtS2V5TWF0ZXJpYWw";
    let leak =
        json!({"host": "ctl-1", "task": "Leak", "res": {"msg": format!("{PASSWORD} and {line}")}});
    let mut event: Value = serde_json::from_str(&job(1, "runner_on_failed", leak)).unwrap();
    event["stdout"] = json!(format!("fatal: [ctl-1]: {PASSWORD}"));
    behave(
        &venv,
        &Behaviour {
            rc: 2,
            events: vec![event.to_string()],
            ..Behaviour::default()
        },
    );
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    let path = format!("/api/v1/clusters/{env}/deployers/kolla-ansible/ssh_key");
    let viewer = support::token_for(&app.db, "viewer", mosaic_core::access::Role::Viewer).await;
    let auth = format!("Bearer {viewer}");
    let body = json!({"private_key": key}).to_string();
    let (status, _) = app
        .call_with("PUT", &path, Some(&body), &[("authorization", &auth)])
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, answer) = app
        .call(
            "PUT",
            &path,
            Some(&json!({"private_key": "ssh-rsa AAAA"}).to_string()),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, _) = app.call("PUT", &path, Some(&body)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, runner) = app
        .get(&format!(
            "/api/v1/clusters/{env}/deployers/kolla-ansible/runner"
        ))
        .await;
    assert_eq!(
        (runner["installed"].as_bool(), runner["ssh_key"].as_bool()),
        (Some(true), Some(true)),
        "{runner}"
    );

    let run = start(&app, env, json!({"actions": ["deploy"]})).await;
    let id = run["id"].as_i64().unwrap();
    ended(&app, id).await;
    let key_file = app
        .dir()
        .join(format!("data/environments/{env}/kolla-ansible/ssh_key"));
    let passwords = app.dir().join(format!(
        "data/environments/{env}/kolla-ansible/passwords.yml"
    ));
    use std::os::unix::fs::PermissionsExt;
    for file in [&key_file, &passwords] {
        let mode = std::fs::metadata(file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{}", file.display());
    }
    let mut said = String::new();
    for uri in [
        format!("/api/v1/runs/{id}"),
        format!("/api/v1/runs/{id}/events"),
        format!("/api/v1/runs/{id}/history"),
        format!("/api/v1/runs/{id}/hosts"),
        format!("/api/v1/runs/{id}/stdout"),
        format!("/api/v1/clusters/{env}/deployers/kolla-ansible"),
        "/api/v1/audit".to_owned(),
    ] {
        said.push_str(
            &app.text(Request::get(uri).body(Body::empty()).unwrap())
                .await
                .1,
        );
    }
    assert!(
        said.contains("********"),
        "the leak was masked, not dropped"
    );
    for secret in [PASSWORD, line] {
        assert!(!said.contains(secret), "{secret} in an answer");
    }
    let stored: Vec<String> = sqlx::query_scalar("SELECT body FROM run_events")
        .fetch_all(&any_pool(&app.url).await)
        .await
        .unwrap();
    assert!(!stored.concat().contains(PASSWORD) && !stored.concat().contains(line));
    let kept = std::fs::read_to_string(app.dir().join(format!("data/runs/{id}/stdout"))).unwrap();
    assert!(
        !kept.contains(PASSWORD) && kept.contains("********"),
        "{kept}"
    );
}

async fn any_pool(url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(url).await.unwrap()
}

/// Another replica on `first`'s database: its own pool, its own
/// supervisor, the same data directory.
async fn second_replica(first: &TestApp, venv: &std::path::Path) -> support::Handle {
    let db = mosaic_server::prepare(&first.url).await.unwrap();
    let token = support::token_for(&db, "replica", mosaic_core::access::Role::Admin).await;
    let deployments = mosaic_server::deploy::Deployments::new(
        Some(first.dir().join("data")),
        Some(venv.to_path_buf()),
    );
    let state = mosaic_server::AppState::with_deployments(
        db,
        mosaic_server::access::Security::default(),
        deployments,
    );
    support::Handle {
        router: mosaic_server::app(state, None),
        token,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_replicas_starting_at_once_start_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    behave(
        &venv,
        &Behaviour {
            seconds: 2,
            ..Behaviour::default()
        },
    );
    let app = test_app_deploying(&venv).await;
    let second = second_replica(&app, &venv).await;
    let env = environment(&app).await;
    at_once(&app.handle(), &second, env).await;
    let (_, runs) = app.get(&format!("/api/v1/clusters/{env}/runs")).await;
    let run = ended(&app, runs[0]["id"].as_i64().unwrap()).await;
    assert_eq!(
        run["status"], "successful",
        "driven to its end by the replica that started it"
    );
}

/// The jsonfile fact cache's file of a host with `nics` (name, MAC).
fn cached_facts(nics: &[(&str, &str)]) -> String {
    let mut facts = json!({
        "ansible_interfaces": nics.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "ansible_memtotal_mb": 32768,
        "ansible_processor_vcpus": 16,
        "ansible_devices": {"sda": {"sectors": "937703088", "sectorsize": "512", "rotational": "0"}},
        "_ansible_facts_gathered": true
    });
    for (name, mac) in nics {
        facts[format!("ansible_{name}")] = json!({"device": name, "type": "ether", "macaddress": mac, "module": "ixgbe", "active": true, "speed": 10000});
    }
    facts.to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_facts_a_run_gathers_become_its_nodes_hardware() {
    let dir = tempfile::tempdir().unwrap();
    let venv = stand_in(dir.path());
    let nics = [
        ("eth0", "52:54:00:0f:00:01"),
        ("eth1", "52:54:00:0f:00:02"),
        ("eth2", "52:54:00:0f:00:03"),
    ];
    behave(
        &venv,
        &Behaviour {
            facts: vec![
                ("ctl-1".to_owned(), cached_facts(&nics)),
                (
                    "stranger".to_owned(),
                    cached_facts(&[("eth0", "52:54:00:0f:00:09")]),
                ),
            ],
            ..Behaviour::default()
        },
    );
    let app = test_app_deploying(&venv).await;
    let env = environment(&app).await;
    let run = start(&app, env, json!({"actions": ["gather-facts"]})).await;
    let run = ended(&app, run["id"].as_i64().unwrap()).await;
    assert_eq!(run["status"], "successful", "{run:#}");

    let (_, nodes) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    let nodes = nodes.as_array().unwrap();
    assert_eq!(nodes.len(), 2, "a host that is no node stays none");
    let ctl = nodes.iter().find(|n| n["name"] == "ctl-1").unwrap();
    assert_eq!(ctl["hardware"]["source"], "ansible", "{ctl:#}");
    let id = ctl["id"].as_i64().unwrap();
    let (_, hardware) = app.get(&format!("/api/v1/nodes/{id}/hardware")).await;
    assert_eq!(hardware["memory"], 32u64 << 30);
    let (_, ports) = app.get(&format!("/api/v1/nodes/{id}/interfaces")).await;
    let eth1 = ports["interfaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "eth1")
        .unwrap();
    assert_eq!(eth1["mac"], "52:54:00:0f:00:02");
    assert_eq!(
        eth1["networks"],
        json!(["public", "management", "storage"]),
        "the networks stay where they were"
    );
    let cmp = nodes.iter().find(|n| n["name"] == "cmp-1").unwrap();
    assert!(cmp.get("hardware").is_none(), "cmp-1 gathered nothing");
}
