//! Configure Disks in the browser (issue 52): compute nodes whose disks
//! (100 and 200 GiB) and memory are declared through the API. On one node,
//! from its editor: a Base System smaller than its minimum is refused as
//! the operator types, with Fuel's message and Apply disabled; a valid
//! change is applied and found again after a reload; Load Defaults and
//! Cancel Changes change the draft only. The same on three nodes
//! selected, from the bulk bar: one layout given to the three.
//! Then a role change warns before Save that it resets the layout, and
//! says it did.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::components::api;
use super::{click, create_environment, eventually, save_screenshot, text_of};

const GIB: u64 = 1 << 30;

/// Adds compute node `name` with sda (100 GiB), sdb (200 GiB) and 16 GiB
/// of memory declared: its id.
async fn compute_node(c: &Client, name: &str) -> i64 {
    let node = api(
        c,
        "POST",
        "/api/v1/clusters/1/nodes",
        json!({"name": name, "roles": ["compute"]}),
    )
    .await;
    let id = node["id"].as_i64().unwrap();
    let hardware = json!({
        "disks": [{"name": "sda", "size": 100 * GIB}, {"name": "sdb", "size": 200 * GIB}],
        "memory": 16 * GIB,
    });
    api(c, "PUT", &format!("/api/v1/nodes/{id}/hardware"), hardware).await;
    id
}

/// Volume `volume`'s size on disk `disk` of node `id`, as the API says.
async fn size_on(c: &Client, id: i64, disk: &str, volume: &str) -> i64 {
    let disks = api(c, "GET", &format!("/api/v1/nodes/{id}/disks"), Value::Null).await;
    disks
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == disk)
        .and_then(|d| {
            d["volumes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["name"] == volume)
        })
        .and_then(|v| v["size"].as_i64())
        .unwrap_or_else(|| panic!("no {volume} on {disk} of node {id}: {disks}"))
}

/// The node's volume `volume`'s minimum over all its disks.
async fn minimum(c: &Client, id: i64, volume: &str) -> i64 {
    let volumes = api(
        c,
        "GET",
        &format!("/api/v1/nodes/{id}/volumes"),
        Value::Null,
    )
    .await;
    volumes
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == volume)
        .and_then(|v| v["min_size"].as_i64())
        .unwrap_or_else(|| panic!("no {volume} in {volumes}"))
}

/// The number field of `volume` on `disk` in the panel `panel`.
fn field(panel: &str, disk: &str, volume: &str) -> String {
    format!(
        "{panel} .disk-box[data-disk='{disk}'] .volume-row[data-volume='{volume}'] .volume-size"
    )
}

/// Types `text` over what the field `css` holds, key by key.
async fn type_over(c: &Client, css: &str, text: &str) {
    let input = c.find(Locator::Css(css)).await.unwrap();
    input.send_keys(&(Key::Control + "a")).await.unwrap();
    input.send_keys(text).await.unwrap();
}

async fn value_of(c: &Client, css: &str) -> String {
    let input = c.find(Locator::Css(css)).await.unwrap();
    input.prop("value").await.unwrap().unwrap_or_default()
}

async fn enabled(c: &Client, css: &str) -> bool {
    let button = c.find(Locator::Css(css)).await.unwrap();
    button.is_enabled().await.unwrap()
}

/// Scrolls `panel` to the top of the window, under the bulk bar stuck
/// there (as the app does when it opens).
async fn under_the_bar(c: &Client, panel: &str) {
    let script = "const panel = document.querySelector(arguments[0]);
        panel.scrollIntoView();
        window.scrollBy(0, -(document.querySelector('.bulk-bar').offsetHeight + 8));";
    c.execute(script, vec![json!(panel)]).await.unwrap();
}

/// The Nodes tab again, once its table shows `count`.
async fn reload(c: &Client, count: &str) {
    c.refresh().await.unwrap();
    eventually(count, || async { text_of(c, ".node-count").await == count }).await;
}

/// In `panel`: virtual storage made `room` MB smaller on sda (the Base
/// System fills its minimum, and virtual storage the rest), then a Base
/// System below its minimum `min` there is refused as it is typed, with
/// Fuel's message, Apply disabled.
async fn too_small_is_refused(c: &Client, panel: &str, room: i64, min: i64) {
    let vm = field(panel, "sda", "vm");
    let smaller = value_of(c, &vm).await.parse::<i64>().unwrap() - room;
    type_over(c, &vm, &smaller.to_string()).await;
    eventually("the room unallocated", || async {
        text_of(
            c,
            &format!("{panel} .disk-box[data-disk='sda'] .unallocated"),
        )
        .await
            == format!("Unallocated {room} MB")
    })
    .await;
    let row = format!("{panel} .disk-box[data-disk='sda'] .volume-row[data-volume='os']");
    assert_eq!(
        value_of(c, &format!("{row} .volume-size")).await,
        min.to_string()
    );
    type_over(c, &format!("{row} .volume-size"), "1000").await;
    let message = format!("The size is too small. Allocate at least {min} MB.");
    eventually("Fuel's message", || async {
        text_of(c, &format!("{row} .volume-error")).await == message
    })
    .await;
    assert!(
        !enabled(c, &format!("{panel} .apply-disks")).await,
        "Apply disabled"
    );
}

/// The nodes of the test and what their layouts start with.
struct Lab {
    ids: [i64; 4],
    /// The Base System's minimum.
    min: i64,
    /// Virtual storage on sda by default.
    vm: i64,
}

/// Opens node `id`'s editor and its Configure disks, once the disks show.
async fn open_node_disks(c: &Client, id: i64) -> &'static str {
    click(c, &format!("tr[data-node='{id}'] .edit-node")).await;
    click(c, ".node .open-disks").await;
    let panel = ".node .configure-disks";
    text_of(c, &field(panel, "sda", "os")).await;
    panel
}

/// Applies what `panel` holds, once Apply may be clicked; `said`: the
/// notice then.
async fn apply(c: &Client, panel: &str, said: &str) {
    eventually("Apply enabled", || async {
        enabled(c, &format!("{panel} .apply-disks")).await
    })
    .await;
    click(c, &format!("{panel} .apply-disks")).await;
    eventually(said, || async {
        text_of(c, &format!("{panel} .disks-applied")).await == said
    })
    .await;
}

#[tokio::test]
async fn an_operator_configures_the_disks_of_one_node_then_of_three() {
    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    let ids = [
        compute_node(c, "cmp-1").await,
        compute_node(c, "cmp-2").await,
        compute_node(c, "cmp-3").await,
        compute_node(c, "cmp-4").await,
    ];
    let lab = Lab {
        ids,
        min: minimum(c, ids[0], "os").await,
        vm: size_on(c, ids[0], "sda", "vm").await,
    };
    reload(c, "Nodes 1–4 of 4").await;
    one_node(c, &lab).await;
    three_nodes(c, &lab).await;
    a_role_change_resets(c, &lab).await;
    browser.close().await;
}

/// One node, from its editor: 10,000 MB taken from virtual storage, 4,000
/// of them given to the Base System; after a reload, Load Defaults and
/// Cancel Changes.
async fn one_node(c: &Client, lab: &Lab) {
    let (id, min) = (lab.ids[0], lab.min);
    let panel = open_node_disks(c, id).await;
    let os = field(panel, "sda", "os");
    assert_eq!(count_disks(c, panel).await, 2);
    too_small_is_refused(c, panel, 10_000, min).await;
    type_over(c, &os, &(min + 4_000).to_string()).await;
    apply(c, panel, "Disk configuration applied.").await;
    assert_eq!(size_on(c, id, "sda", "os").await, min + 4_000);
    assert_eq!(size_on(c, id, "sda", "vm").await, lab.vm - 10_000);

    reload(c, "Nodes 1–4 of 4").await;
    let panel = open_node_disks(c, id).await;
    assert_eq!(value_of(c, &os).await, (min + 4_000).to_string());
    let unallocated = format!("{panel} .disk-box[data-disk='sda'] .unallocated");
    assert_eq!(text_of(c, &unallocated).await, "Unallocated 6000 MB");
    // Load Defaults: Fuel's allocation again, in the draft only; Cancel
    // Changes: the layout stored.
    click(c, &format!("{panel} .load-defaults")).await;
    eventually("the defaults", || async {
        value_of(c, &os).await == min.to_string()
    })
    .await;
    assert!(enabled(c, &format!("{panel} .apply-disks")).await);
    click(c, &format!("{panel} .cancel-disks")).await;
    eventually("the layout stored", || async {
        value_of(c, &os).await == (min + 4_000).to_string()
    })
    .await;
    assert_eq!(size_on(c, id, "sda", "os").await, min + 4_000);
    click(c, &format!("{panel} .close-disks")).await;
}

/// Three nodes, from the bulk bar: 20,000 MB taken from virtual storage,
/// 5,000 given to the Base System, on the three and not on the fourth;
/// the screenshot.
async fn three_nodes(c: &Client, lab: &Lab) {
    let min = lab.min;
    for id in &lab.ids[1..] {
        click(c, &format!("tr[data-node='{id}'] .select-node")).await;
    }
    click(c, ".bulk-configure-disks").await;
    let panel = ".node-table > .configure-disks";
    assert_eq!(
        text_of(c, &format!("{panel} h3")).await,
        "Configure disks on 3 nodes"
    );
    let os = field(panel, "sda", "os");
    text_of(c, &os).await;
    too_small_is_refused(c, panel, 20_000, min).await;
    under_the_bar(c, panel).await;
    save_screenshot(c, "configure-disks.png").await;
    super::accessibility::assert_clean(c, "configure disks").await;
    type_over(c, &os, &(min + 5_000).to_string()).await;
    apply(
        c,
        panel,
        "Disk configuration applied to the selected nodes.",
    )
    .await;
    for id in &lab.ids[1..] {
        assert_eq!(size_on(c, *id, "sda", "os").await, min + 5_000, "node {id}");
        let vm = size_on(c, *id, "sda", "vm").await;
        assert_eq!(vm, lab.vm - 20_000, "node {id}");
    }
    let first = size_on(c, lab.ids[0], "sda", "os").await;
    assert_eq!(first, min + 4_000, "cmp-1 was not selected");
    reload(c, "Nodes 1–4 of 4").await;
    let panel = open_node_disks(c, lab.ids[3]).await;
    let os = field(panel, "sda", "os");
    assert_eq!(value_of(c, &os).await, (min + 5_000).to_string());
}

/// A role change lays cmp-4 out again: said before Save, and after.
async fn a_role_change_resets(c: &Client, lab: &Lab) {
    click(c, ".node input[data-role='cinder']").await;
    assert_eq!(
        text_of(c, ".node .disks-reset-warning").await,
        "When you change the node role, disk configuration will be reset to default."
    );
    click(c, ".node .save-roles").await;
    eventually("the reset said", || async {
        text_of(c, ".node .disks-reset").await
            == "The disk configuration of cmp-4 was reset to default."
    })
    .await;
    let os = size_on(c, lab.ids[3], "sda", "os").await;
    assert_eq!(os, lab.min, "cmp-4 laid out again");
}

async fn count_disks(c: &Client, panel: &str) -> usize {
    c.find_all(Locator::Css(&format!("{panel} .disk-box")))
        .await
        .unwrap()
        .len()
}
