//! Networks in the browser (issue 39, part 8). The Networks tab shows the
//! release's defaults; a storage CIDR typed over management's is flagged
//! before Save (both fields marked, Save disabled), a fixed one saves and
//! is there after a reload; a node group is created and cannot be deleted
//! while a node is in it. In the node table: the node group column and
//! filter, nodes moved to a node group and networks put on a port in one
//! action each, and one node's interfaces edited in its editor.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::components::api;
use super::{click, create_environment, eventually, save_screenshot, text_of};

/// The input of field `key` of network `name` on the card shown.
fn field(name: &str, key: &str) -> String {
    format!("fieldset.network[data-network='{name}'] [data-field='{key}'] input")
}

async fn value(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

async fn invalid(c: &Client, css: &str) -> bool {
    let input = c.find(Locator::Css(css)).await.unwrap();
    input.attr("aria-invalid").await.unwrap().as_deref() == Some("true")
}

async fn enabled(c: &Client, css: &str) -> bool {
    let button = c.find(Locator::Css(css)).await.unwrap();
    button.is_enabled().await.unwrap()
}

async fn type_into(c: &Client, css: &str, text: &str) {
    let input = c.find(Locator::Css(css)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

/// Scrolls the element `css` to the top of the screen, just under the
/// Save bar, which stays at the top while the page scrolls.
async fn show(c: &Client, css: &str) {
    let script = "document.querySelector(arguments[0]).scrollIntoView(); \
                  window.scrollBy(0, -document.querySelector('.networks-bar').offsetHeight - 8)";
    c.execute(script, vec![json!(css)]).await.unwrap();
}

#[tokio::test]
async fn the_networks_tab_flags_an_overlapping_cidr_before_save_and_saves_a_fixed_one() {
    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    click(c, ".tabs a[href='/environments/1/networks']").await;
    let storage = field("storage", "cidr");
    let management = field("management", "cidr");
    text_of(c, &storage).await;
    eventually("the title names the tab", || async {
        c.title().await.unwrap() == "Environment lab · Networks — Mosaic"
    })
    .await;
    // The release's defaults, Fuel's.
    assert_eq!(value(c, &field("public", "cidr")).await, "172.16.0.0/24");
    assert_eq!(value(c, &management).await, "192.168.0.0/24");
    assert_eq!(value(c, &field("management", "vlan_start")).await, "101");
    assert_eq!(value(c, &storage).await, "192.168.1.0/24");
    assert_eq!(value(c, "#param-base_mac").await, "fa:16:3e:00:00:00");
    assert_eq!(
        text_of(c, "[data-vip='management'] .vip-address").await,
        "192.168.0.2"
    );
    assert_eq!(
        text_of(c, ".networks-bar .muted").await,
        "No unsaved changes"
    );
    assert!(!enabled(c, "button.save-networks").await);

    // Storage typed over management: flagged at both, before any Save.
    type_into(c, &storage, "192.168.0.0/24").await;
    eventually("the overlap flagged", || async {
        invalid(c, &storage).await && invalid(c, &management).await
    })
    .await;
    let problem = text_of(c, "fieldset.network[data-network='storage'] .field-problem").await;
    assert!(
        problem.starts_with("Address space intersection between networks:"),
        "{problem}"
    );
    assert!(!enabled(c, "button.save-networks").await, "Save waits");
    let listed = text_of(c, "[data-problems] li").await;
    assert!(listed.starts_with("management, storage: "), "{listed}");
    show(c, "#networks-heading").await;
    save_screenshot(c, "networks.png").await;

    // Fixed: nothing flagged, Save goes, and a reload shows it stored.
    type_into(c, &storage, "192.168.5.0/24").await;
    eventually("nothing flagged", || async {
        !invalid(c, &storage).await && enabled(c, "button.save-networks").await
    })
    .await;
    assert!(!invalid(c, &management).await);
    let ranges = "fieldset.network[data-network='storage'] .network-derived";
    let before = text_of(c, ranges).await;
    assert!(before.starts_with("IP ranges: 192.168.1."), "{before}");
    click(c, "button.save-networks").await;
    text_of(c, "[data-saved]").await;
    // The card's line follows the saved configuration, without a reload.
    eventually("the ranges line follows the Save", || async {
        text_of(c, ranges)
            .await
            .starts_with("IP ranges: 192.168.5.")
    })
    .await;
    c.refresh().await.unwrap();
    text_of(c, &storage).await;
    assert_eq!(value(c, &storage).await, "192.168.5.0/24");
    let stored = api(
        c,
        "GET",
        "/api/v1/clusters/1/network_configuration/neutron",
        Value::Null,
    )
    .await;
    let cidrs: Vec<&Value> = stored["networks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["name"] == "storage")
        .map(|n| &n["cidr"])
        .collect();
    assert_eq!(cidrs, [&json!("192.168.5.0/24")]);

    // Verify asks the server, which checks the nodes' interfaces too.
    click(c, "button.verify-networks").await;
    assert_eq!(
        text_of(c, "[data-verified]").await,
        "Verified: no problem, the nodes' interfaces included."
    );

    // A node group: created, its networks shown, not deleted while a node
    // is in it (the server's 409 said where the button is).
    type_into(c, ".new-group-name", "rack-2").await;
    click(c, "button.create-group").await;
    let rack = "tr.group-row[data-group='rack-2']";
    assert_eq!(text_of(c, &format!("{rack} .group-nodes")).await, "0");
    click(c, &format!("{rack} input.show-group")).await;
    eventually("rack-2's networks shown", || async {
        text_of(c, "#networks-heading").await == "Networks of node group rack-2"
    })
    .await;
    let copy =
        "fieldset.network[data-network='storage'][data-group='rack-2'] [data-field='cidr'] input";
    assert_eq!(value(c, copy).await, "192.168.5.0/24");
    api(
        c,
        "POST",
        "/api/v1/clusters/1/nodes",
        json!({"name": "r2-1", "roles": ["compute"], "node_group": "rack-2"}),
    )
    .await;
    click(c, &format!("{rack} button.delete-group")).await;
    c.accept_alert().await.unwrap();
    let refused = text_of(c, &format!("{rack} .notice-error")).await;
    assert!(refused.contains("still has nodes (r2-1)"), "{refused}");
    browser.close().await;
}

/// Node `id`'s networks by port, as the API says.
async fn layout(c: &Client, id: i64) -> Value {
    let view = api(
        c,
        "GET",
        &format!("/api/v1/nodes/{id}/interfaces"),
        Value::Null,
    )
    .await;
    view["interfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["networks"].clone(),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[tokio::test]
async fn nodes_are_filtered_and_moved_by_node_group_and_their_interfaces_edited() {
    let (_server, browser, _) = create_environment("racks").await;
    let c = &browser.client;
    text_of(c, ".node-count").await;
    api(
        c,
        "POST",
        "/api/v1/clusters/1/node_groups",
        json!({"name": "rack-2"}),
    )
    .await;
    let ports = json!({"interfaces": [{"name": "eth0"}, {"name": "eth1"}, {"name": "eth2"}]});
    let mut ids = Vec::new();
    for (name, group) in [
        ("a-1", "default"),
        ("a-2", "default"),
        ("b-1", "rack-2"),
        ("b-2", "rack-2"),
    ] {
        let node = api(
            c,
            "POST",
            "/api/v1/clusters/1/nodes",
            json!({"name": name, "roles": ["compute"], "node_group": group, "interfaces": ports}),
        )
        .await;
        ids.push(node["id"].as_i64().unwrap());
    }
    c.refresh().await.unwrap();
    text_of(c, "tr.node-row").await;
    assert_eq!(
        text_of(c, &format!("tr[data-node='{}'] .node-group", ids[2])).await,
        "rack-2"
    );

    // One rack by its node group, all of it moved to the default group.
    eventually("the node groups offered", || async {
        c.find(Locator::Css(".filter-group option[value='rack-2']"))
            .await
            .is_ok()
    })
    .await;
    click(c, ".filter-group option[value='rack-2']").await;
    assert_eq!(
        text_of(c, ".node-count").await,
        "Nodes 1–2 of 2 (filtered from 4)"
    );
    click(c, "input.select-all").await;
    click(c, ".bulk-group option[value='default']").await;
    click(c, "button.bulk-move-group").await;
    eventually("the rack moved", || async {
        text_of(c, ".node-count").await == "No node matches (filtered from 4); 2 selected"
    })
    .await;
    click(c, ".filter-group option[value='']").await;
    eventually("every node in the default group", || async {
        let cells = c
            .find_all(Locator::Css("tr.node-row .node-group"))
            .await
            .unwrap();
        let mut all = cells.len() == 4;
        for cell in cells {
            all &= cell.text().await.unwrap_or_default() == "default";
        }
        all
    })
    .await;

    // Storage on eth2 of every node, in one action.
    click(c, "input.select-all").await;
    type_into(c, ".bulk-port", "eth2").await;
    type_into(c, ".bulk-networks", "storage").await;
    click(c, "button.bulk-put-networks").await;
    eventually("storage on eth2", || async {
        layout(c, ids[3]).await["eth2"] == json!(["storage"])
    })
    .await;
    click(c, "button.bulk-clear").await;

    // One node: management moved to eth1 in its editor, then saved.
    let node = ids[0];
    click(c, &format!("tr[data-node='{node}'] button.edit-node")).await;
    let row = ".placement-table tr[data-network='management']";
    text_of(c, &format!("{row} .network-address")).await;
    eventually("its management address shown", || async {
        text_of(c, &format!("{row} .network-address"))
            .await
            .starts_with("192.168.0.")
    })
    .await;
    click(
        c,
        &format!("{row} select.network-port option[value='eth1']"),
    )
    .await;
    click(c, "button.save-interfaces").await;
    eventually("management on eth1", || async {
        layout(c, node).await["eth1"] == json!(["management"])
    })
    .await;
    eventually("the editor says it has a layout of its own", || async {
        text_of(c, ".interfaces-layout").await == "Node group default; a layout of its own."
    })
    .await;
    assert_eq!(
        text_of(c, ".ports-table tr[data-port='eth1'] .port-networks").await,
        "management"
    );
    save_screenshot(c, "interfaces.png").await;
    browser.close().await;
}
