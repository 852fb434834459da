//! An environment handed to kolla-ansible through the API (issue 40): the
//! deployers a release declares, the export with its files and hosts, its
//! archive, and the refusals with every problem.

mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::json;
use support::{SELECTION, TestApp, test_app};

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

#[tokio::test]
async fn an_environment_exports_for_kolla_ansible_with_its_hosts_placed() {
    let app = test_app().await;
    let (cluster, _) = app.environment("prod").await;
    let (status, list) = app
        .get(&format!("/api/v1/clusters/{cluster}/deployers"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        list,
        json!([{"name": "kolla-ansible", "series": "18", "openstack_release": "2024.1"}])
    );
    for name in ["ctl-1", "ctl-2", "ctl-3"] {
        node(&app, cluster, name, &["controller"]).await;
    }
    let compute = node(&app, cluster, "cmp-1", &["compute"]).await;
    let (status, export) = app
        .get(&format!(
            "/api/v1/clusters/{cluster}/deployers/kolla-ansible"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{export:#}");
    assert_eq!(export["series"], "18");
    let inventory = export["files"]["inventory"].as_str().unwrap();
    assert!(
        inventory.contains("[rabbitmq]\nctl-1\nctl-2\nctl-3\n"),
        "{inventory}"
    );
    assert!(
        inventory.contains("[compute]\ncmp-1 ansible_host="),
        "{inventory}"
    );
    assert!(
        export["files"]["globals.yml"]
            .as_str()
            .unwrap()
            .contains("kolla_internal_vip_address: 192.168.0.2")
    );
    assert!(
        export["files"]["README.md"]
            .as_str()
            .unwrap()
            .contains("kolla-genpwd")
    );
    let host = export["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["node"] == compute)
        .unwrap();
    assert!(
        host["groups"]
            .as_array()
            .unwrap()
            .contains(&json!("nova-compute"))
            || host["groups"]
                .as_array()
                .unwrap()
                .contains(&json!("compute"))
    );
    assert_eq!(host["vars"]["ansible_host"], "192.168.0.6");

    let response = app
        .respond(
            Request::get(format!(
                "/api/v1/clusters/{cluster}/deployers/kolla-ansible/archive"
            ))
            .body(Body::empty())
            .unwrap(),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"prod-kolla-ansible.tar.gz\""
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    let names: Vec<String> = archive
        .entries()
        .unwrap()
        .map(|e| e.unwrap().path().unwrap().display().to_string())
        .collect();
    assert!(
        names.contains(&"prod-kolla-ansible/inventory".to_owned()),
        "{names:?}"
    );
    assert!(
        names.contains(&"prod-kolla-ansible/config/neutron/ml2_conf.ini".to_owned()),
        "{names:?}"
    );

    let (status, body) = app
        .get(&format!("/api/v1/clusters/{cluster}/deployers/juju"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body:#}");
    assert_eq!(body["error"]["code"], "unknown_deployer");
}

#[tokio::test]
async fn contrail_and_a_node_named_bad_name_are_refused_together() {
    let app = test_app().await;
    let contrail: Vec<&str> = SELECTION
        .iter()
        .filter(|c| !c.starts_with("network:"))
        .copied()
        .chain(["network:neutron:core:contrail"])
        .collect();
    let (cluster, _) = app.environment_with("overlay", &contrail).await;
    let bad = node(&app, cluster, "bad name", &["controller"]).await;
    let (problems, body) = app.export_refused(cluster).await;
    assert!(
        problems
            .iter()
            .any(|p| p["component"] == "network:neutron:core:contrail"),
        "{body:#}"
    );
    assert!(problems.iter().any(|p| p["node"] == bad), "{body:#}");
    // Each says the tab of the environment's page that fixes it.
    for problem in problems {
        let (kind, tab) = if problem["component"].is_string() {
            ("unsupported_component", "components")
        } else {
            ("host_name", "nodes")
        };
        assert_eq!(problem["kind"], kind, "{problem:#}");
        assert_eq!(problem["fixed_on"], tab, "{problem:#}");
    }
    let (status, _) = app
        .get(&format!(
            "/api/v1/clusters/{cluster}/deployers/kolla-ansible/archive"
        ))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
}
