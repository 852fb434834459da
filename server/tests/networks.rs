//! Networks through the API (issue 39, SEMANTICS §11): the defaults of a
//! VLAN and a tunnelling environment, saves refused with every problem
//! and nothing stored, concurrent saves, addresses that stay as nodes come
//! and go, node groups, interfaces, and the environment file.

mod support;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{SELECTION, TestApp, test_app};

const NEUTRON: &str = "network_configuration/neutron";

async fn node(app: &TestApp, cluster: i64, body: Value) -> i64 {
    let (status, node) = app
        .post(&format!("/api/v1/clusters/{cluster}/nodes"), &body)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{node:#}");
    node["id"].as_i64().unwrap()
}

async fn config(app: &TestApp, cluster: i64) -> Value {
    let (status, body) = app
        .get(&format!("/api/v1/clusters/{cluster}/{NEUTRON}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    body
}

fn network<'v>(config: &'v Value, name: &str) -> &'v Value {
    config["networks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no network {name} in {config:#}"))
}

fn names(config: &Value) -> Vec<String> {
    config["networks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap().to_owned())
        .collect()
}

async fn addresses(app: &TestApp, node: i64) -> Value {
    let (status, body) = app.get(&format!("/api/v1/nodes/{node}/interfaces")).await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    body["addresses"].clone()
}

fn tunnelling() -> Vec<&'static str> {
    SELECTION
        .iter()
        .map(|c| {
            if *c == "network:neutron:ml2:vlan" {
                "network:neutron:ml2:tun"
            } else {
                *c
            }
        })
        .collect()
}

#[tokio::test]
async fn a_vlan_and_a_tunnelling_environment_get_fuels_defaults() {
    let app = test_app().await;
    let (vlan, _) = app.environment("vlan").await;
    let body = config(&app, vlan).await;
    assert_eq!(
        names(&body),
        [
            "fuelweb_admin",
            "public",
            "management",
            "storage",
            "private"
        ]
    );
    let management = network(&body, "management");
    assert_eq!(management["cidr"], "192.168.0.0/24");
    assert_eq!(management["vlan_start"], 101);
    assert_eq!(management["meta"]["notation"], "cidr");
    assert_eq!(network(&body, "private")["cidr"], Value::Null);
    assert_eq!(
        network(&body, "public")["ip_ranges"],
        json!([["172.16.0.2", "172.16.0.126"]])
    );
    assert_eq!(body["networking_parameters"]["segmentation_type"], "vlan");
    assert_eq!(
        body["networking_parameters"]["vlan_range"],
        json!([1000, 1030])
    );
    assert_eq!(body["management_vip"], "192.168.0.2");
    assert_eq!(body["public_vip"], "172.16.0.3");
    assert_eq!(body["vips"]["management"]["ipaddr"], "192.168.0.2");
    assert_eq!(body["node_groups"][0]["name"], "default");

    let (tun, _) = app.environment_with("tun", &tunnelling()).await;
    let body = config(&app, tun).await;
    assert_eq!(body["networking_parameters"]["segmentation_type"], "tun");
    let private = network(&body, "private");
    assert_eq!(private["cidr"], "192.168.2.0/24");
    assert_eq!(private["vlan_start"], 103);
}

#[tokio::test]
async fn a_save_with_overlapping_cidrs_is_refused_naming_both_and_stores_nothing() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let before = config(&app, cluster).await;
    let (management, storage) = (
        network(&before, "management")["id"].clone(),
        network(&before, "storage")["id"].clone(),
    );
    let uri = format!("/api/v1/clusters/{cluster}/{NEUTRON}");
    let change = json!({"networks": [
        {"id": storage, "cidr": "192.168.0.0/24"},
        {"id": management, "vlan_start": 1005}
    ]});
    let (status, body) = app.put(&uri, &change).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(body["error"]["code"], "invalid_networks");
    let problems = body["error"]["problems"].as_array().unwrap();
    let overlap = problems
        .iter()
        .find(|p| {
            p["message"] == "Address space intersection between networks:\nmanagement, storage"
        })
        .unwrap_or_else(|| panic!("{body:#}"));
    assert_eq!(overlap["networks"], json!([management, storage]));
    assert_eq!(overlap["fields"], json!(["cidr"]));
    assert!(
        problems
            .iter()
            .any(|p| p["fields"] == json!(["vlan_start", "vlan_range"])),
        "every problem at once: {body:#}"
    );
    assert_eq!(config(&app, cluster).await, before, "nothing stored");

    // Verify answers the same problems, 200, and stores nothing either.
    let (status, verified) = app.put(&format!("{uri}/verify"), &change).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        verified["problems"].as_array().unwrap().len(),
        problems.len()
    );
    let (status, verified) = app.put(&format!("{uri}/verify"), &json!({})).await;
    assert_eq!(
        (status, verified),
        (StatusCode::OK, json!({"problems": []}))
    );

    // The segmentation is the components'.
    let (status, body) = app
        .put(
            &uri,
            &json!({"networking_parameters": {"segmentation_type": "tun"}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert_eq!(
        body["error"]["problems"][0]["fields"],
        json!(["segmentation_type"])
    );

    // A fixed one saves.
    let (status, saved) = app
        .put(
            &uri,
            &json!({"networks": [{"id": storage, "cidr": "10.9.0.0/24"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    assert_eq!(network(&saved, "storage")["cidr"], "10.9.0.0/24");
    assert_eq!(
        network(&saved, "storage")["ip_ranges"],
        json!([["10.9.0.1", "10.9.0.254"]])
    );
}

#[tokio::test]
async fn of_two_concurrent_saves_on_one_version_one_is_refused_412() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let uri = format!("/api/v1/clusters/{cluster}/{NEUTRON}");
    let response = app
        .respond(
            axum::http::Request::get(&uri)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let version = etag.trim_matches('"').split('-').next().unwrap().to_owned();
    let body = config(&app, cluster).await;
    let storage = network(&body, "storage")["id"].clone();
    let save = |cidr: &'static str| {
        let handle = app.handle();
        let (uri, version) = (uri.clone(), version.clone());
        let body = json!({"networks": [{"id": storage, "cidr": cidr}]}).to_string();
        async move {
            let request = axum::http::Request::put(&uri)
                .header("content-type", "application/json")
                .header("if-match", format!("\"{version}\""))
                .body(axum::body::Body::from(body))
                .unwrap();
            handle.send(request).await.0
        }
    };
    let (a, b) = tokio::join!(save("10.1.0.0/24"), save("10.2.0.0/24"));
    let mut statuses = [a, b];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::PRECONDITION_FAILED]);
}

#[tokio::test]
async fn addresses_stay_when_a_node_in_the_middle_is_deleted() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(node(&app, cluster, json!({"roles": ["controller"]})).await);
    }
    let compute = node(&app, cluster, json!({"roles": ["compute"]})).await;
    let first = addresses(&app, ids[0]).await;
    let third = addresses(&app, ids[2]).await;
    assert_eq!(first["management"], "192.168.0.3");
    assert_eq!(first["public"], "172.16.0.4");
    assert_eq!(
        addresses(&app, compute).await.get("public"),
        None,
        "no public address for a compute"
    );
    let (status, _) = app.delete(&format!("/api/v1/nodes/{}", ids[1]), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let new = node(&app, cluster, json!({"roles": ["controller"]})).await;
    assert_eq!(addresses(&app, ids[0]).await, first);
    assert_eq!(addresses(&app, ids[2]).await, third);
    let mut seen = std::collections::BTreeSet::new();
    for id in [ids[0], ids[2], compute, new] {
        for (network, ip) in addresses(&app, id).await.as_object().unwrap() {
            assert!(
                seen.insert((network.clone(), ip.to_string())),
                "{ip} given twice on {network}"
            );
        }
    }
    let body = config(&app, cluster).await;
    assert_eq!(
        network(&body, "management")["used"],
        6,
        "four nodes and two VIPs"
    );
}

#[tokio::test]
async fn a_node_group_cannot_be_deleted_while_nodes_are_in_it() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let uri = format!("/api/v1/clusters/{cluster}/node_groups");
    let (status, group) = app.post(&uri, &json!({"name": "rack-2"})).await;
    assert_eq!(status, StatusCode::CREATED, "{group:#}");
    let (status, again) = app.post(&uri, &json!({"name": "rack-2"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again:#}");
    assert_eq!(again["error"]["code"], "node_group_exists");
    let (status, bad) = app.post(&uri, &json!({"name": "rack 2"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:#}");
    let group = group["id"].as_i64().unwrap();
    let body = config(&app, cluster).await;
    let copies: Vec<&Value> = body["networks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["name"] == "management")
        .collect();
    assert_eq!(copies.len(), 2);
    assert_eq!(
        copies[0]["gateway"], "192.168.0.1",
        "two groups need gateways"
    );
    assert_eq!(copies[1]["group_id"], group);
    let (status, checks) = app.get(&format!("/api/v1/clusters/{cluster}/checks")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !checks
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["kind"] == "network"),
        "a new group leaves a valid configuration valid: {checks:#}"
    );

    let id = node(
        &app,
        cluster,
        json!({"roles": ["compute"], "node_group": "rack-2"}),
    )
    .await;
    let (_, shown) = app.get(&format!("/api/v1/nodes/{id}")).await;
    assert_eq!(shown["node_group"], "rack-2");
    let (status, refused) = app
        .delete(&format!("/api/v1/node_groups/{group}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused:#}");
    assert_eq!(refused["error"]["code"], "node_group_in_use");
    let (status, moved) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes/bulk"),
            &json!({"nodes": [id], "node_group": "default"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{moved:#}");
    let (status, _) = app
        .delete(&format!("/api/v1/node_groups/{group}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(names(&config(&app, cluster).await).len(), 5);
    let (_, groups) = app.get(&uri).await;
    let default = groups[0]["id"].as_i64().unwrap();
    let (status, kept) = app
        .delete(&format!("/api/v1/node_groups/{default}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(kept["error"]["code"], "node_group_in_use");
    let (status, unknown) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes"),
            &json!({"node_group": "rack-9"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{unknown:#}");
}

#[tokio::test]
async fn interfaces_take_the_default_layout_until_networks_are_put_on_them() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let id = node(
        &app,
        cluster,
        json!({"roles": ["controller"], "interfaces": {"interfaces": [
            {"name": "eth0", "mac": "52:54:00:00:00:01"}, {"name": "eth1"}, {"name": "eth2"}
        ]}}),
    )
    .await;
    let uri = format!("/api/v1/nodes/{id}/interfaces");
    let (_, shown) = app.get(&uri).await;
    assert_eq!(shown["default_layout"], true);
    assert_eq!(shown["interfaces"][0]["networks"], json!(["fuelweb_admin"]));
    assert_eq!(
        shown["interfaces"][1]["networks"],
        json!(["public", "management", "storage", "private"])
    );
    assert_eq!(shown["addresses"]["management"], "192.168.0.3");

    let (status, bad) = app
        .put(&uri, &json!({"interfaces": [{"name": "eth0"}], "bonds": [{"name": "bond0", "mode": "802.3ad", "slaves": ["eth0"]}]}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:#}");
    assert_eq!(bad["error"]["code"], "invalid_interfaces");

    let (status, bulk) = app
        .post(
            &format!("/api/v1/clusters/{cluster}/nodes/bulk"),
            &json!({"nodes": [id], "interfaces": {"eth2": ["storage"]}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{bulk:#}");
    let (_, shown) = app.get(&uri).await;
    assert_eq!(shown["default_layout"], false);
    assert_eq!(shown["interfaces"][2]["networks"], json!(["storage"]));
    assert_eq!(
        shown["interfaces"][1]["networks"],
        json!(["public", "management", "private"])
    );

    // Two untagged networks on one port: Fuel's message.
    let (status, bad) = app
        .put(&uri, &json!({"interfaces": [{"name": "eth0", "networks": ["fuelweb_admin", "public", "management", "storage", "private"]}]}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:#}");
    assert!(
        bad["error"]["problems"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("Some untagged networks"),
        "{bad:#}"
    );
}

#[tokio::test]
async fn every_node_gets_a_public_address_when_the_setting_says_so() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let compute = node(&app, cluster, json!({"roles": ["compute"]})).await;
    assert_eq!(addresses(&app, compute).await.get("public"), None);
    let (status, body) = app
        .patch(
            &format!("/api/v1/clusters/{cluster}/attributes"),
            &json!({"editable": {"public_network_assignment": {"assign_to_all_nodes": {"value": true}}}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    assert_eq!(addresses(&app, compute).await["public"], "172.16.0.4");
}

#[tokio::test]
async fn a_components_change_rebuilds_the_private_network_and_says_so_first() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let uri = format!("/api/v1/clusters/{cluster}/components");
    let (status, preview) = app
        .put(
            &format!("{uri}?dry_run=true"),
            &json!({"components": tunnelling()}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{preview:#}");
    assert_eq!(
        preview["networks"],
        json!({"added": ["private"], "removed": ["private"]})
    );
    let (status, body) = app.put(&uri, &json!({"components": tunnelling()})).await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    let body = config(&app, cluster).await;
    assert_eq!(network(&body, "private")["cidr"], "192.168.2.0/24");
    assert_eq!(body["networking_parameters"]["segmentation_type"], "tun");
}

#[tokio::test]
async fn a_shortfall_of_addresses_is_a_check_naming_network_group_need_and_capacity() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    let body = config(&app, cluster).await;
    let public = network(&body, "public")["id"].clone();
    let uri = format!("/api/v1/clusters/{cluster}/{NEUTRON}");
    let (status, body) = app
        .put(
            &uri,
            &json!({"networks": [{"id": public, "ip_ranges": [["172.16.0.2", "172.16.0.6"]]}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body:#}");
    for _ in 0..4 {
        node(&app, cluster, json!({"roles": ["controller"]})).await;
    }
    let (_, checks) = app.get(&format!("/api/v1/clusters/{cluster}/checks")).await;
    let messages: Vec<&str> = checks
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "network")
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.contains(&"public: Not enough IP addresses in network 'public' of node group 'default': 6 needed, 5 available"),
        "{checks:#}"
    );
}

#[tokio::test]
async fn the_environment_file_carries_groups_networks_interfaces_and_addresses() {
    let app = test_app().await;
    let (cluster, _) = app.environment("env").await;
    app.post(
        &format!("/api/v1/clusters/{cluster}/node_groups"),
        &json!({"name": "rack-2"}),
    )
    .await;
    let body = config(&app, cluster).await;
    let storage = network(&body, "storage")["id"].clone();
    app.put(
        &format!("/api/v1/clusters/{cluster}/{NEUTRON}"),
        &json!({"networks": [{"id": storage, "vlan_start": 202}]}),
    )
    .await;
    node(&app, cluster, json!({"roles": ["controller"], "interfaces": {"interfaces": [{"name": "eth0"}, {"name": "eth1"}]}})).await;
    node(
        &app,
        cluster,
        json!({"roles": ["compute"], "node_group": "rack-2"}),
    )
    .await;
    let export = |id: i64| {
        let handle = app.handle();
        async move {
            let request = axum::http::Request::get(format!("/api/v1/clusters/{id}/environment"))
                .body(axum::body::Body::empty())
                .unwrap();
            handle.text(request).await.1
        }
    };
    let file = export(cluster).await;
    assert!(file.contains("rack-2"), "{file}");
    assert!(file.contains("vlan_start: 202"), "{file}");
    assert!(file.contains("eth1"), "{file}");
    let request = axum::http::Request::post("/api/v1/clusters/import?name=copy")
        .header("content-type", "application/yaml")
        .body(axum::body::Body::from(file.clone()))
        .unwrap();
    let (status, copy) = app.send(request).await;
    assert_eq!(status, StatusCode::CREATED, "{copy:#}");
    let again = export(copy["id"].as_i64().unwrap()).await;
    assert_eq!(again, file, "export, import, export: the same file");

    // A file whose networks overlap is refused, nothing stored.
    let broken = file.replacen("cidr: 192.168.1.0/24", "cidr: 192.168.0.0/24", 1);
    let request = axum::http::Request::post("/api/v1/clusters/import?name=broken")
        .header("content-type", "application/yaml")
        .body(axum::body::Body::from(broken))
        .unwrap();
    let (status, body) = app.send(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:#}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Address space intersection"),
        "{body:#}"
    );
    let (_, list) = app.get("/api/v1/clusters").await;
    assert_eq!(list.as_array().unwrap().len(), 2);
}

/// A release whose networking parameters do not read (one stored before
/// the install checked them) is the release's problem: 409
/// `invalid_release` naming it, not a 500; its export names no tab of the
/// environment as where it is fixed.
#[tokio::test]
async fn a_release_whose_networking_data_does_not_read_is_named() {
    use sqlx::{Connection, Executor, Row};
    let app = test_app().await;
    let (cluster, release) = app.environment("env").await;
    sqlx::any::install_default_drivers();
    let mut connection = sqlx::AnyConnection::connect(&app.url).await.unwrap();
    let row = sqlx::query("SELECT name, data FROM releases WHERE id = $1")
        .bind(release)
        .fetch_one(&mut connection)
        .await
        .unwrap();
    let name: String = row.get("name");
    let mut data: Value = serde_json::from_str(&row.get::<String, _>("data")).unwrap();
    data["networks_metadata"]["neutron"]["config"]["vlan_range"] = json!("wide");
    sqlx::query("UPDATE releases SET data = $1 WHERE id = $2")
        .bind(data.to_string())
        .bind(release)
        .execute(&mut connection)
        .await
        .unwrap();
    // As another replica's change of the plugins would, so that this one
    // reads the release again.
    connection
        .execute("UPDATE generations SET value = value + 1 WHERE name = 'plugins'")
        .await
        .unwrap();
    tokio::time::sleep(mosaic_server::db::DEFAULT_MAX_AGE * 2).await;

    let (status, body) = app
        .get(&format!("/api/v1/clusters/{cluster}/{NEUTRON}"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body:#}");
    assert_eq!(body["error"]["code"], "invalid_release");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains(&name), "{message}");

    let (problems, body) = app.export_refused(cluster).await;
    assert_eq!(problems.len(), 1, "{body:#}");
    assert!(problems[0].get("fixed_on").is_none(), "{body:#}");
    assert!(
        problems[0]["message"].as_str().unwrap().contains(&name),
        "{body:#}"
    );
}
