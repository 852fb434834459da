//! Nodes' hardware from the browser (issue 51): on the Nodes tab an
//! operator chooses a folder of facts — two hosts' Ansible facts as
//! `ansible -m setup --tree` writes them and one host's Ironic inspection
//! data with LLDP — sees the dry run, imports, finds the switch beside the
//! node and filters by it, and opens a node's hardware.

use fantoccini::{Client, Locator};
use serde_json::json;

use super::{click, create_environment, eventually, save_screenshot, text_of};

/// A host's `--tree` file: one NIC at `speed`, 16 GiB, 8 CPUs, one SSD.
fn facts(mac: &str, speed: i64) -> String {
    json!({"ansible_facts": {
        "ansible_interfaces": ["lo", "eth0"],
        "ansible_eth0": {"device": "eth0", "type": "ether", "macaddress": mac, "module": "ixgbe",
                         "pciid": "0000:3b:00.0", "active": true, "speed": speed},
        "ansible_lo": {"device": "lo", "type": "loopback", "active": true},
        "ansible_default_ipv4": {"address": "10.20.0.30"},
        "ansible_date_time": {"iso8601": "2026-12-07T09:00:00Z"},
        "ansible_memtotal_mb": 16384,
        "ansible_processor_vcpus": 8,
        "ansible_system_vendor": "Supermicro",
        "ansible_product_name": "SYS-1029P",
        "ansible_product_serial": "0123456789",
        "ansible_devices": {"nvme0n1": {"sectors": "1875385008", "sectorsize": "512",
                                        "model": "SAMSUNG MZQL2960HCJR", "rotational": "0", "removable": "0"}}
    }, "changed": false})
    .to_string()
}

/// Ironic's inspection data of a host cabled to switch `leaf-a3`.
fn inspection() -> String {
    json!({
        "inventory": {
            "interfaces": [{"name": "eno1", "mac_address": "52:54:00:12:34:01", "ipv4_address": "10.20.0.40",
                            "has_carrier": true, "speed_mbps": 25000}],
            "disks": [{"name": "/dev/sda", "model": "PERC H730P", "size": 599550590976u64, "rotational": true}],
            "memory": {"total": 134830206976u64, "physical_mb": 131072},
            "cpu": {"count": 64, "architecture": "x86_64"},
            "system_vendor": {"product_name": "PowerEdge R640", "serial_number": "4J3KQF2", "manufacturer": "Dell Inc."}
        },
        "all_interfaces": {"eno1": {"mac": "52:54:00:12:34:01", "lldp_processed": {
            "switch_system_name": "leaf-a3", "switch_port_id": "Ethernet1/17"}}}
    })
    .to_string()
}

async fn scroll_to(c: &Client, css: &str) {
    let script = "document.querySelector(arguments[0]).scrollIntoView()";
    c.execute(script, vec![json!(css)]).await.unwrap();
}

async fn count(c: &Client) -> String {
    text_of(c, ".node-count").await
}

#[tokio::test]
async fn an_operator_imports_a_facts_folder_and_reads_a_nodes_hardware() {
    let dir = tempfile::tempdir().unwrap();
    let facts_dir = dir.path().join("facts");
    std::fs::create_dir(&facts_dir).unwrap();
    std::fs::write(facts_dir.join("cmp-1"), facts("52:54:00:aa:00:01", 10000)).unwrap();
    std::fs::write(facts_dir.join("cmp-2"), facts("52:54:00:aa:00:02", -1)).unwrap();
    std::fs::write(facts_dir.join("ctl-1.json"), inspection()).unwrap();

    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    eventually("the node table", || async {
        count(c).await == "No node matches"
    })
    .await;
    click(c, ".open-import").await;
    let folder = c.find(Locator::Css(".import-folder")).await.unwrap();
    folder.send_keys(facts_dir.to_str().unwrap()).await.unwrap();
    eventually("the dry run", || async {
        text_of(c, ".import-summary").await == "3 new nodes, 0 updated, 0 unchanged"
    })
    .await;
    assert!(text_of(c, ".import-created").await.contains("ctl-1"));
    assert_eq!(
        count(c).await,
        "No node matches",
        "a dry run stores nothing"
    );
    scroll_to(c, ".import-hardware").await;
    save_screenshot(c, "hardware-import.png").await;
    super::accessibility::assert_clean(c, "hardware import").await;

    click(c, ".do-import").await;
    eventually("the import", || async {
        text_of(c, ".imported")
            .await
            .starts_with("Imported: 3 new nodes")
    })
    .await;
    eventually("three nodes", || async {
        count(c).await == "Nodes 1–3 of 3"
    })
    .await;
    eventually("the switch beside ctl-1", || async {
        text_of(c, ".nodes-table tbody").await.contains("leaf-a3")
    })
    .await;
    let filter = c.find(Locator::Css(".filter-switch")).await.unwrap();
    filter.select_by_value("leaf-a3").await.unwrap();
    eventually("one node on leaf-a3", || async {
        count(c).await == "Nodes 1–1 of 1 (filtered from 3)"
    })
    .await;
    filter.select_by_value("").await.unwrap();

    // cmp-1's hardware, in its editor.
    click(c, "tr.node-row:nth-of-type(1) .edit-node").await;
    eventually("its NICs", || async {
        text_of(c, ".node-hardware .nics")
            .await
            .contains("10 Gbit/s")
    })
    .await;
    let shown = text_of(c, ".node-hardware").await;
    assert!(
        shown.contains("Ansible facts, found 2026-12-07T09:00:00Z"),
        "{shown}"
    );
    assert!(shown.contains("16.0 GiB"), "{shown}");
    assert!(shown.contains("SAMSUNG MZQL2960HCJR"), "{shown}");
    assert!(shown.contains("52:54:00:aa:00:01"), "{shown}");
    assert!(
        text_of(c, ".interfaces")
            .await
            .contains("52:54:00:aa:00:01, 10 Gbit/s"),
        "the interfaces start from the found NICs"
    );
    scroll_to(c, ".node-hardware").await;
    save_screenshot(c, "node-hardware.png").await;
    super::accessibility::assert_clean(c, "node hardware").await;
    browser.close().await;
}
