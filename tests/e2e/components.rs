//! An environment's Components tab (issue 31 part 3): an environment with
//! KVM, ML2 and LVM moved to Ceph for volumes. The preview lists the
//! settings that change and the tasks that stop and start on the nodes
//! concerned; while a `cinder` node holds the role the change makes
//! unavailable, the preview and Save are refused alike, naming it; without
//! it the change is stored and the plan follows.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::{click, eventually, open_page, save_screenshot, text_of};

const LVM: [&str; 7] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "network:neutron:ml2:ovs",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
    "storage:image:swift",
];

/// `fetch(url, {method, body})` in the signed-in page: its JSON answer.
pub(super) async fn api(c: &Client, method: &str, url: &str, body: Value) -> Value {
    let script = "const [method, url, body, done] = arguments;
        const init = {method, headers: {'content-type': 'application/json'}};
        if (body !== null) init.body = JSON.stringify(body);
        fetch(url, init)
          .then(async r => done({status: r.status, body: r.status === 204 ? null : await r.json()}))
          .catch(e => done({status: 0, body: String(e)}));";
    let answer = c
        .execute_async(script, vec![json!(method), json!(url), body])
        .await
        .unwrap();
    assert!(
        answer["status"]
            .as_u64()
            .is_some_and(|s| (200..300).contains(&s)),
        "{method} {url}: {answer}"
    );
    answer["body"].clone()
}

/// The tasks the preview lists for the group holding node `id`: (added, removed).
async fn task_change(c: &Client, id: i64) -> (String, String) {
    for item in c
        .find_all(Locator::Css("[data-part='tasks'] li"))
        .await
        .unwrap()
    {
        let nodes = item.attr("data-nodes").await.unwrap().unwrap_or_default();
        if nodes.split(',').any(|n| n == id.to_string()) {
            let added = item.attr("data-added").await.unwrap().unwrap_or_default();
            let removed = item.attr("data-removed").await.unwrap().unwrap_or_default();
            return (added, removed);
        }
    }
    (String::new(), String::new())
}

/// Scrolls the element `css` to the top of the screen.
pub(super) async fn show(c: &Client, css: &str) {
    let script = "document.querySelector(arguments[0]).scrollIntoView()";
    c.execute(script, vec![json!(css)]).await.unwrap();
}

fn node_tasks(plan: &Value, id: i64) -> Vec<String> {
    plan["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["id"] == id)
        .flat_map(|n| n["tasks"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn an_environment_moves_from_lvm_to_ceph_through_the_components_tab() {
    let (_server, browser) = open_page("/").await;
    let c = &browser.client;
    text_of(c, "h1").await;
    let releases = api(c, "GET", "/api/v1/releases", Value::Null).await;
    let release = releases[0]["id"].clone();
    let env = api(
        c,
        "POST",
        "/api/v1/clusters",
        json!({"name": "lvm", "release_id": release, "components": LVM}),
    )
    .await;
    let id = env["id"].as_i64().unwrap();
    let nodes = format!("/api/v1/clusters/{id}/nodes");
    let mut ids = Vec::new();
    for (name, role) in [("ctl", "controller"), ("cmp", "compute"), ("blk", "cinder")] {
        let node = api(c, "POST", &nodes, json!({"name": name, "roles": [role]})).await;
        ids.push(node["id"].as_i64().unwrap());
    }
    let (ctl, cmp, blk) = (ids[0], ids[1], ids[2]);

    c.goto(&format!("{}/environments/{id}/components", _server.url))
        .await
        .unwrap();
    eventually("the environment's selection shown", || async {
        super::state(c, "storage:block:backend:lvm").await == "selected"
    })
    .await;
    // Ceph RBD excludes LVM: blocked, with the wizard's repair as its Fix.
    let fix = "[data-component='storage:block:backend:ceph'] button.fix";
    let repair = text_of(c, fix).await;
    assert_eq!(repair, "Fix: deselect LVM");
    click(c, fix).await;
    eventually("Ceph chosen in place of LVM", || async {
        super::state(c, "storage:block:backend:ceph").await == "selected"
            && super::state(c, "storage:block:backend:lvm").await != "selected"
    })
    .await;
    click(c, "#preview-components").await;
    let lvm = text_of(c, "[data-setting='storage.volumes_lvm']").await;
    assert_eq!(lvm, "storage.volumes_lvm: true → false");
    let ceph = text_of(c, "[data-setting='storage.volumes_ceph']").await;
    assert_eq!(ceph, "storage.volumes_ceph: false → true");
    let roles = text_of(c, "[data-role='cinder']").await;
    assert!(roles.contains("held by blk"), "{roles}");
    // The change would be refused: the preview says so as Save would
    // (issue 43), under what it would do.
    let refused = text_of(c, "[data-refused]").await;
    assert!(refused.contains("'blk' holds 'cinder'"), "{refused}");
    let (_, stopped) = task_change(c, blk).await;
    assert!(stopped.contains("top-role-cinder"), "{stopped}");
    let (started, _) = task_change(c, cmp).await;
    assert!(started.contains("ceph-compute"), "{started}");
    let (started, _) = task_change(c, ctl).await;
    assert!(started.contains("ceph-mon"), "{started}");
    show(c, "[data-consequences]").await;
    save_screenshot(c, "components-preview.png").await;

    // Refused while blk holds the cinder role, naming it; nothing stored.
    click(c, "#save-components").await;
    let refused = text_of(c, "[data-refused]").await;
    assert!(
        refused.contains("node 'blk' holds the role 'cinder'"),
        "{refused}"
    );
    show(c, "[data-refused]").await;
    save_screenshot(c, "components-refused.png").await;
    let stored = api(c, "GET", &format!("/api/v1/clusters/{id}"), Value::Null).await;
    assert!(stored["components"].to_string().contains("backend:lvm"));

    // Without the node, Save goes and the plan follows.
    api(c, "DELETE", &format!("/api/v1/nodes/{blk}"), Value::Null).await;
    click(c, "#save-components").await;
    text_of(c, "[data-saved]").await;
    let stored = api(c, "GET", &format!("/api/v1/clusters/{id}"), Value::Null).await;
    assert!(
        stored["components"].to_string().contains("backend:ceph"),
        "{stored}"
    );
    let plan = api(
        c,
        "GET",
        &format!("/api/v1/clusters/{id}/plan"),
        Value::Null,
    )
    .await;
    assert!(node_tasks(&plan, cmp).contains(&"ceph-compute".to_owned()));
    for node in [ctl, cmp] {
        assert!(!node_tasks(&plan, node).contains(&"top-role-cinder".to_owned()));
    }
    browser.close().await;
}
