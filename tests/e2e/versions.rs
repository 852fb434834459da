//! Versions over time (issue 32): an environment on `storage_demo` 1.0.0
//! stays on it when 2.0.0 is installed; its page offers the upgrade, the
//! preview shows the new setting, the task that stops running and the
//! changes made on the release (carried, or not and why: issue 43),
//! Upgrade applies it and says what it did not carry, and 1.0.0, pinned by
//! nobody any more, can be uninstalled.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::components::{api, show};
use super::{
    WAIT, Who, choose_file, click, eventually, open_page_as, repo_root, save_screenshot, tarball,
    text_of,
};

const WITH_DEMO: [&str; 8] = [
    "hypervisor:libvirt:kvm",
    "network:neutron:core:ml2",
    "network:neutron:ml2:vlan",
    "network:neutron:ml2:ovs",
    "storage:block:backend:lvm",
    "storage:object:backend:swift",
    "storage:image:swift",
    "additional_service:storage_demo",
];

/// Uploads the fixture plugin `name` on the Plugins page, and waits for
/// its row of `version`.
async fn upload(c: &Client, name: &str, version: &str) {
    let dir = repo_root().join("server/tests/fixtures/plugins").join(name);
    let (_keep, archive) = tarball(&dir);
    choose_file(c, "[data-page='plugins'] input.plugin-upload", &archive).await;
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Css(&format!(
            "[data-plugin='storage_demo'][data-version='{version}']"
        )))
        .await
        .unwrap_or_else(|e| panic!("storage_demo {version} listed: {e}"));
}

#[tokio::test]
async fn an_environment_is_upgraded_from_its_page_after_a_preview() {
    let (server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    upload(c, "v5-example", "1.0.0").await;
    let release = api(c, "GET", "/api/v1/releases", Value::Null).await[0]["id"].clone();
    let env = api(
        c,
        "POST",
        "/api/v1/clusters",
        json!({"name": "demo", "release_id": release, "components": WITH_DEMO}),
    )
    .await;
    let id = env["id"].as_i64().unwrap();
    let nodes = format!("/api/v1/clusters/{id}/nodes");
    let node = api(
        c,
        "POST",
        &nodes,
        json!({"name": "demo-1", "roles": ["storage_demo"]}),
    )
    .await;
    let node = node["id"].as_i64().unwrap();
    // Changes made on the release (issue 43): a tag created there, and a
    // role of its own under the name the next version declares.
    let on_release = format!("/api/v1/releases/{release}");
    api(
        c,
        "POST",
        &format!("{on_release}/tags"),
        json!({"name": "rack"}),
    )
    .await;
    let gateway = json!({"name": "storage_demo_gateway", "label": "Gateway", "tags": ["rack"]});
    api(c, "POST", &format!("{on_release}/roles"), gateway).await;
    upload(c, "v5-example-2", "2.0.0").await;
    // 1.0.0 is pinned by the environment.
    let v1 = "[data-plugin='storage_demo'][data-version='1.0.0']";
    assert!(text_of(c, v1).await.contains("demo"));

    c.goto(&format!("{}/environments/{id}", server.url))
        .await
        .unwrap();
    let offer = text_of(c, "[data-upgrades] [data-plugin='storage_demo']").await;
    assert!(offer.contains("storage_demo 1.0.0 → 2.0.0"), "{offer}");
    click(
        c,
        "[data-upgrades] button.preview-upgrade[data-version='2.0.0']",
    )
    .await;
    let added = text_of(
        c,
        "[data-part='settings'] [data-key='storage_demo.storage_demo_replicas']",
    )
    .await;
    assert_eq!(added, "Added: storage_demo.storage_demo_replicas");
    let task = c
        .find(Locator::Css("[data-part='tasks'] li"))
        .await
        .unwrap();
    assert_eq!(
        task.attr("data-nodes").await.unwrap(),
        Some(node.to_string())
    );
    assert_eq!(
        task.attr("data-removed").await.unwrap().as_deref(),
        Some("storage_demo-post-deployment")
    );

    // The changes made on the release: carried, or not and why.
    let rack = text_of(c, "[data-part='release'] [data-key='tag:rack']").await;
    assert_eq!(rack, "Carried: tag rack");
    let own = text_of(
        c,
        "[data-part='release'] [data-key='role:storage_demo_gateway']",
    )
    .await;
    assert_eq!(
        own,
        "Not carried: role storage_demo_gateway — the new version declares a role 'storage_demo_gateway' itself"
    );

    super::accessibility::assert_clean(c, "the upgrade preview").await;
    // The whole preview on the screen, its last section included.
    show(c, "[data-consequences]").await;
    save_screenshot(c, "upgrade-preview.png").await;

    click(c, "#apply-upgrade").await;
    let upgraded = text_of(c, "[data-upgraded]").await;
    assert!(
        upgraded.contains("role 'storage_demo_gateway' is not carried"),
        "{upgraded}"
    );
    eventually("the offer gone", || async {
        c.find(Locator::Css("[data-upgrades]")).await.is_err()
    })
    .await;
    let cluster = api(c, "GET", &format!("/api/v1/clusters/{id}"), Value::Null).await;
    assert_eq!(
        cluster["plugins"],
        json!([{"name": "storage_demo", "version": "2.0.0"}])
    );

    // Nobody pins 1.0.0: it can go.
    click(c, ".nav a[href='/plugins']").await;
    let button = format!("{v1} button.uninstall");
    click(c, &button).await;
    eventually("the confirmation step", || async {
        text_of(c, &button).await == "Confirm uninstall"
    })
    .await;
    click(c, &button).await;
    eventually("storage_demo 1.0.0 gone", || async {
        c.find(Locator::Css(v1)).await.is_err()
    })
    .await;
    text_of(c, "[data-plugin='storage_demo'][data-version='2.0.0']").await;
    browser.close().await;
}
