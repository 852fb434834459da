//! Nodes as they are found (SEMANTICS §13) through the API: imports of
//! Ansible facts (as a JSON object of files and as a `.tar.gz`), the dry
//! run, matching on re-import, a renamed NIC keeping its networks, a NIC
//! carrying networks that is gone, broken files refused with nothing
//! stored, hardware declared by hand, and a thousand hosts at once. The
//! facts of this very machine, gathered by real Ansible, are the ignored
//! test at the end (`make runs`).

mod support;

use std::io::Write;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Value, json};
use support::{TestApp, test_app};

/// A host's facts as `ansible -m setup --tree` writes them: `nics` (name,
/// MAC, speed), 8 GiB, 4 CPUs, one disk, reached at `address`.
fn facts(nics: &[(&str, &str, i64)], address: &str, serial: &str) -> Value {
    let names: Vec<&str> = nics.iter().map(|(n, _, _)| *n).collect();
    let mut facts = json!({
        "ansible_interfaces": names,
        "ansible_hostname": "ignored",
        "ansible_default_ipv4": {"address": address},
        "ansible_date_time": {"iso8601": "2026-12-07T10:00:00Z"},
        "ansible_memtotal_mb": 8192,
        "ansible_processor_vcpus": 4,
        "ansible_product_serial": serial,
        "ansible_system_vendor": "QEMU",
        "ansible_devices": {
            "vda": {"sectors": "41943040", "sectorsize": "512", "model": null, "rotational": "1", "removable": "0"},
            "loop0": {"sectors": "0", "sectorsize": "512"}
        }
    });
    for (name, mac, speed) in nics {
        facts[format!("ansible_{name}")] = json!({
            "device": name, "type": "ether", "macaddress": mac, "module": "virtio_net",
            "active": true, "speed": speed, "pciid": "virtio0"
        });
    }
    json!({"ansible_facts": facts, "changed": false})
}

fn import_path(env: i64, dry_run: bool) -> String {
    let query = if dry_run { "?dry_run=true" } else { "" };
    format!("/api/v1/clusters/{env}/nodes/import{query}")
}

/// Imports `files` (name → facts) as a JSON object of files.
async fn import(app: &TestApp, env: i64, files: &Value, dry_run: bool) -> (StatusCode, Value) {
    let text: serde_json::Map<String, Value> = files
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, facts)| (name.clone(), Value::String(facts.to_string())))
        .collect();
    app.post(&import_path(env, dry_run), &Value::Object(text))
        .await
}

async fn nodes(app: &TestApp, env: i64) -> Vec<Value> {
    let (_, nodes) = app.get(&format!("/api/v1/clusters/{env}/nodes")).await;
    nodes.as_array().unwrap().clone()
}

fn by_name<'n>(nodes: &'n [Value], name: &str) -> &'n Value {
    nodes.iter().find(|n| n["name"] == name).unwrap()
}

const MAC1: &str = "52:54:00:00:01:01";
const MAC2: &str = "52:54:00:00:01:02";
const MAC3: &str = "52:54:00:00:02:01";

#[tokio::test]
async fn a_dry_run_says_what_each_host_becomes_then_the_import_makes_it_so() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let files = json!({
        "facts/cmp-1": facts(&[("eth0", MAC1, 10000), ("eth1", MAC2, -1)], "10.20.0.11", "SER-1"),
        "facts/cmp-2": facts(&[("eth0", MAC3, 1000)], "10.20.0.12", "SER-2"),
    });
    let (status, report) = import(&app, env, &files, true).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["created"], json!(["cmp-1", "cmp-2"]));
    assert!(
        nodes(&app, env).await.is_empty(),
        "a dry run stores nothing"
    );

    let (status, report) = import(&app, env, &files, false).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["created"], json!(["cmp-1", "cmp-2"]));
    let listed = nodes(&app, env).await;
    let node = by_name(&listed, "cmp-1");
    assert_eq!(node["status"], "discover");
    assert_eq!(node["roles"], json!([]));
    assert_eq!(node["hardware"]["source"], "ansible");
    assert_eq!(node["hardware"]["found_at"], "2026-12-07T10:00:00Z");
    assert!(
        node.get("interfaces_found").is_none() && node["hardware"].get("disks").is_none(),
        "the list carries no hardware: {node:#}"
    );

    let id = node["id"].as_i64().unwrap();
    let (status, hardware) = app.get(&format!("/api/v1/nodes/{id}/hardware")).await;
    assert_eq!(status, StatusCode::OK, "{hardware:#}");
    assert_eq!(hardware["memory"], 8u64 << 30);
    assert_eq!(hardware["cpus"], 4);
    assert_eq!(
        hardware["disks"],
        json!([{"name": "vda", "size": 41943040u64 * 512, "rotational": true, "removable": false}])
    );
    assert_eq!(hardware["interfaces"][0]["speed_mbps"], 10000);
    assert!(
        hardware["interfaces"][1].get("speed_mbps").is_none(),
        "-1 is unknown"
    );

    let (_, ports) = app.get(&format!("/api/v1/nodes/{id}/interfaces")).await;
    assert_eq!(ports["interfaces"][0]["name"], "eth0");
    assert_eq!(ports["interfaces"][0]["mac"], MAC1);
    assert_eq!(ports["interfaces"][0]["speed_mbps"], 10000);

    let (status, again) = import(&app, env, &files, false).await;
    assert_eq!(status, StatusCode::OK, "{again:#}");
    assert_eq!(again["unchanged"], json!(["cmp-1", "cmp-2"]));
}

#[tokio::test]
async fn a_tar_gz_of_a_facts_directory_is_an_import_too() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let mut archive = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
    for (name, mac) in [("ctl-1", MAC1), ("ctl-2", MAC3)] {
        let text = facts(&[("eth0", mac, 1000)], "10.20.0.5", "").to_string();
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        archive
            .append_data(&mut header, format!("facts/{name}"), text.as_bytes())
            .unwrap();
    }
    let bytes = archive.into_inner().unwrap().finish().unwrap();
    let request = Request::post(import_path(env, false))
        .header("content-type", "application/gzip")
        .body(Body::from(bytes))
        .unwrap();
    let (status, report) = app.send(request).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["created"], json!(["ctl-1", "ctl-2"]));
}

#[tokio::test]
async fn a_gzip_encoded_json_body_is_read_as_it_comes() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let body = json!({"cmp-9": facts(&[("eth0", MAC1, 1000)], "10.0.0.9", "")}).to_string();
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(body.as_bytes()).unwrap();
    let request = Request::post(import_path(env, true))
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(Body::from(gz.finish().unwrap()))
        .unwrap();
    let (status, report) = app.send(request).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["created"], json!(["cmp-9"]));
}

#[tokio::test]
async fn a_new_node_lands_in_the_rack_whose_management_network_holds_its_address() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let (status, group) = app
        .post(
            &format!("/api/v1/clusters/{env}/node_groups"),
            &json!({"name": "rack-2"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{group:#}");
    let (_, config) = app
        .get(&format!(
            "/api/v1/clusters/{env}/network_configuration/neutron"
        ))
        .await;
    let management = config["networks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "management" && n["group_id"] == group["id"])
        .unwrap()
        .clone();
    // The rack's own management network (a new group's starts as the
    // default group's).
    let uri = format!("/api/v1/clusters/{env}/network_configuration/neutron");
    let change = json!({"networks": [{"id": management["id"], "cidr": "10.30.2.0/24", "gateway": "10.30.2.1"}]});
    let (status, saved) = app.put(&uri, &change).await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    let address = "10.30.2.21";
    let files = json!({"r2-1": facts(&[("eth0", MAC1, 1000)], address, "")});
    let (status, report) = import(&app, env, &files, false).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    let listed = nodes(&app, env).await;
    assert_eq!(by_name(&listed, "r2-1")["node_group"], "rack-2");
}

#[tokio::test]
async fn a_renamed_nic_keeps_its_networks_and_a_lost_one_carrying_them_refuses_the_import() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let first =
        json!({"cmp-1": facts(&[("eth0", MAC1, 1000), ("eth1", MAC2, 1000)], "10.0.0.1", "")});
    let (status, _) = import(&app, env, &first, false).await;
    assert_eq!(status, StatusCode::OK);
    let id = nodes(&app, env).await[0]["id"].as_i64().unwrap();
    let ports = json!({"interfaces": [
        {"name": "eth0", "networks": ["fuelweb_admin", "management"]},
        {"name": "eth1", "networks": ["storage", "private"]}]});
    let (status, saved) = app
        .put(&format!("/api/v1/nodes/{id}/interfaces"), &ports)
        .await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");

    // eth1 comes back as ens4, with its MAC: its networks go with it.
    let renamed =
        json!({"cmp-1": facts(&[("eth0", MAC1, 1000), ("ens4", MAC2, 25000)], "10.0.0.1", "")});
    let (status, report) = import(&app, env, &renamed, false).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["updated"][0]["node"], "cmp-1");
    assert!(
        report["updated"][0]["changes"]
            .as_array()
            .unwrap()
            .contains(&json!("NIC eth1 renamed ens4")),
        "{report:#}"
    );
    let (_, now) = app.get(&format!("/api/v1/nodes/{id}/interfaces")).await;
    let ens4 = now["interfaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "ens4")
        .unwrap();
    assert_eq!(ens4["networks"], json!(["storage", "private"]), "{now:#}");

    // ens4 is gone: it carries storage, so nothing is stored.
    let before = nodes(&app, env).await;
    let lost = json!({"cmp-1": facts(&[("eth0", MAC1, 1000)], "10.0.0.1", "")});
    let (status, refused) = import(&app, env, &lost, false).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["code"], "invalid_import");
    let problem = &refused["error"]["problems"][0];
    assert_eq!(problem["file"], "cmp-1");
    assert!(
        problem["message"]
            .as_str()
            .unwrap()
            .contains("'ens4' carrying"),
        "{refused:#}"
    );
    assert_eq!(nodes(&app, env).await, before, "nothing stored");
}

#[tokio::test]
async fn broken_files_are_refused_each_by_name_and_nothing_is_stored() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let files = json!({
        "facts/good": facts(&[("eth0", MAC1, 1000)], "10.0.0.1", "").to_string(),
        "facts/broken": "{\"ansible_facts\": ",
        "facts/down": json!({"unreachable": true, "msg": "Failed to connect to the host via ssh", "changed": false}).to_string(),
        "facts/twin-a": facts(&[("eth0", MAC3, 1000)], "10.0.0.2", "").to_string(),
        "facts/twin-b": facts(&[("eth0", MAC3, 1000)], "10.0.0.3", "").to_string(),
    });
    let (status, refused) = app.post(&import_path(env, false), &files).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["code"], "invalid_import");
    let problems = refused["error"]["problems"].as_array().unwrap();
    let said = |file: &str, words: &str| {
        problems
            .iter()
            .any(|p| p["file"] == file && p["message"].as_str().unwrap().contains(words))
    };
    assert!(said("facts/broken", "not JSON"), "{refused:#}");
    assert!(said("facts/down", "unreachable"), "{refused:#}");
    assert!(said("facts/twin-b", MAC3), "{refused:#}");
    assert!(nodes(&app, env).await.is_empty(), "nothing stored");

    let (status, dry) = app.post(&import_path(env, true), &files).await;
    assert_eq!(status, StatusCode::OK, "a dry run answers: {dry:#}");
    assert_eq!(dry["problems"].as_array().unwrap().len(), problems.len());

    for (body, words) in [
        (json!([1, 2]), "not a JSON object of files"),
        (json!({}), "no file"),
    ] {
        let (status, refused) = app.post(&import_path(env, false), &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains(words),
            "{refused:#}"
        );
    }
}

#[tokio::test]
async fn hardware_is_declared_by_hand_only_for_a_node_no_import_found() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let (_, node) = app
        .post(
            &format!("/api/v1/clusters/{env}/nodes"),
            &json!({"name": "hand"}),
        )
        .await;
    let id = node["id"].as_i64().unwrap();
    let uri = format!("/api/v1/nodes/{id}/hardware");
    let (status, none) = app.get(&uri).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{none:#}");

    let declared = json!({
        "interfaces": [{"name": "eth0", "mac": "52:54:00:AA:BB:01", "speed_mbps": 10000}],
        "disks": [{"name": "sda", "size": 480103981056u64}],
        "memory": 68719476736u64, "cpus": 16, "system": {"vendor": "Dell Inc."}
    });
    let (status, stale) = app
        .call_with(
            "PUT",
            &uri,
            Some(&declared.to_string()),
            &[("if-match", "\"99\"")],
        )
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{stale:#}");
    let (status, saved) = app.put(&uri, &declared).await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    assert_eq!(saved["source"], "declared");
    assert_eq!(saved["interfaces"][0]["mac"], "52:54:00:aa:bb:01");
    let (_, shown) = app.get(&format!("/api/v1/nodes/{id}")).await;
    assert_eq!(shown["hardware"]["source"], "declared");
    assert_eq!(shown["interfaces"], 1, "its interfaces follow the NICs");

    let bad = json!({"interfaces": [{"name": "eth0", "mac": "nope"}], "disks": [{"name": "sda", "size": 0}]});
    let (status, refused) = app.put(&uri, &bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    assert_eq!(refused["error"]["code"], "invalid_hardware");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("interfaces[0].mac") && message.contains("disks[0].size"),
        "{message}"
    );
    let (status, unknown) = app.put(&uri, &json!({"memroy": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{unknown:#}");

    // Once an import found it, the machine says what it is.
    let files = json!({"hand": facts(&[("eth0", "52:54:00:aa:bb:01", 1000)], "10.0.0.1", "")});
    let (status, report) = import(&app, env, &files, false).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["updated"][0]["node"], "hand", "matched by MAC");
    let (status, refused) = app.put(&uri, &declared).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused:#}");
}

#[tokio::test]
async fn a_thousand_hosts_are_one_import() {
    let app = test_app().await;
    let (env, _) = app.environment("lab").await;
    let files: serde_json::Map<String, Value> = (0..1000)
        .map(|i| {
            let mac = format!("52:54:{:02x}:{:02x}:00:01", i / 256, i % 256);
            let name = format!("facts/host-{i:04}");
            (
                name,
                facts(&[("eth0", &mac, 25000)], "10.0.0.1", &format!("SER-{i}")),
            )
        })
        .collect();
    let (status, report) = import(&app, env, &Value::Object(files), false).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(report["created"].as_array().unwrap().len(), 1000);
    assert_eq!(nodes(&app, env).await.len(), 1000);
}

/// What Linux says of this machine's NICs (those with a device: no
/// loopback, bridge, ifb or veth), by name with their MACs.
fn sys_nics() -> Vec<(String, String)> {
    let mut nics: Vec<(String, String)> = std::fs::read_dir("/sys/class/net")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().join("device").exists())
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let own = e.path().join("bonding_slave/perm_hwaddr");
            let mac = std::fs::read_to_string(&own)
                .or_else(|_| std::fs::read_to_string(e.path().join("address")))
                .unwrap();
            (name, mac.trim().to_lowercase())
        })
        .collect();
    nics.sort();
    nics
}

/// What Linux says of this machine's disks: every block device that is
/// not a loop, RAM, device-mapper, zram, NBD, optical, floppy or MD one
/// and has a size, with its size in bytes (sysfs counts 512-byte sectors).
fn sys_disks() -> Vec<(String, u64)> {
    let not_disks = ["loop", "ram", "dm-", "zram", "nbd", "sr", "fd", "md"];
    let mut disks: Vec<(String, u64)> = std::fs::read_dir("/sys/block")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let sectors: u64 = std::fs::read_to_string(e.path().join("size"))
                .ok()?
                .trim()
                .parse()
                .ok()?;
            let disk = !not_disks.iter().any(|p| name.starts_with(p)) && sectors > 0;
            disk.then_some((name, sectors * 512))
        })
        .collect();
    disks.sort();
    disks
}

/// This very machine's facts, gathered by real Ansible (the ansible-core
/// of the deployer's virtual environment, `MOSAIC_DEPLOYER_VENV`) over a
/// local connection — a play that changes nothing — imported, and checked
/// against what Linux says in `/sys` and `/proc`.
#[tokio::test]
#[ignore = "needs the deployer's virtual environment: make runs"]
async fn this_machines_facts_gathered_by_ansible_are_what_linux_says() {
    let venv = std::env::var("MOSAIC_DEPLOYER_VENV")
        .expect("MOSAIC_DEPLOYER_VENV: the deployer's virtual environment (make runs sets it)");
    let venv = std::path::Path::new(&venv);
    let tree = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(venv.join("bin/ansible"))
        .args([
            "localhost",
            "-c",
            "local",
            "-i",
            "localhost,",
            "-m",
            "setup",
            "--tree",
        ])
        .arg(tree.path())
        .arg("-e")
        .arg(format!(
            "ansible_python_interpreter={}",
            venv.join("bin/python").display()
        ))
        .env("ANSIBLE_NOCOLOR", "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(tree.path().join("localhost")).unwrap();

    let app = test_app().await;
    let (env, _) = app.environment("this").await;
    let files = json!({"facts/localhost": text});
    let (status, report) = app.post(&import_path(env, false), &files).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["created"], json!(["localhost"]));
    let id = nodes(&app, env).await[0]["id"].as_i64().unwrap();
    let (_, hardware) = app.get(&format!("/api/v1/nodes/{id}/hardware")).await;

    let nics: Vec<(String, String)> = hardware["interfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_owned(),
                n["mac"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(nics, sys_nics(), "{hardware:#}");
    let disks: Vec<(String, u64)> = hardware["disks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["name"].as_str().unwrap().to_owned(),
                d["size"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(disks, sys_disks(), "{hardware:#}");
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert_eq!(
        hardware["memory"],
        (kib / 1024) << 20,
        "Ansible's MiB, in bytes"
    );
    let cpus = std::fs::read_to_string("/proc/cpuinfo")
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    assert_eq!(hardware["cpus"], cpus);
}

/// A node's `meta` as Fuel's agent reported it, in the shape of two nodes
/// of fuel-web's `nailgun/fixtures/sample_environment.json` (rewritten
/// here: a Supermicro server — its placeholder serial, two igb NICs, one
/// of unknown speed, four disks and two zero-size virtual devices — and a
/// laptop, a MAC in mixed case).
fn fuel_meta(server: bool) -> Value {
    if server {
        json!({
            "cpu": {"real": 2, "total": 24},
            "interfaces": [
                {"name": "eth0", "mac": "00:25:90:6a:b1:10", "current_speed": 1000, "max_speed": 1000, "driver": "igb", "bus_info": "0000:01:00.0"},
                {"name": "eth1", "mac": "00:25:90:6a:b1:11", "current_speed": null, "max_speed": 1000, "driver": "igb", "bus_info": "0000:02:00.0"}
            ],
            "disks": [
                {"name": "sda", "model": "TOSHIBA MK1002TS", "size": 1000204886016u64},
                {"name": "sdb", "model": "TOSHIBA MK1002TS", "size": 1000204886016u64},
                {"name": "sdc", "model": "TOSHIBA MK1002TS", "size": 1000204886016u64},
                {"name": "sdd", "model": "TOSHIBA MK1002TS", "size": 1000204886016u64},
                {"name": "sde", "model": "Virtual Floppy0", "size": 0},
                {"name": "sdf", "model": "Virtual HDisk0", "size": 0}
            ],
            "system": {"manufacturer": "Supermicro", "product": "X9DRW", "serial": "0123456789"},
            "memory": {"total": 137455730688u64}
        })
    } else {
        json!({
            "cpu": {"real": 1, "total": 8},
            "interfaces": [
                {"name": "eth0", "mac": "24:b6:fd:53:63:00", "current_speed": 10, "driver": "igb", "bus_info": "0000:04:00.0"},
                {"name": "wlan0", "mac": "58:91:cF:2a:c4:1b", "current_speed": null, "driver": "igb", "bus_info": "0000:03:00.0"}
            ],
            "disks": [{"name": "sda", "model": "WDC WD3200BPVT-7", "size": 320072933376u64}],
            "system": {"manufacturer": "80AD", "product": "Inspiron N5110", "serial": "044ED881"},
            "memory": {"total": 8589934592u64}
        })
    }
}

/// Fuel's `meta` in §13's shape, field by field.
fn from_fuel(meta: &Value) -> Value {
    let nics: Vec<Value> = meta["interfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let mut nic = json!({"name": i["name"], "mac": i["mac"], "driver": i["driver"], "pci": i["bus_info"]});
            if let Some(speed) = i["current_speed"].as_u64() {
                nic["speed_mbps"] = json!(speed);
            }
            nic
        })
        .collect();
    let disks: Vec<Value> = meta["disks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| json!({"name": d["name"], "size": d["size"], "model": d["model"]}))
        .collect();
    json!({
        "interfaces": nics, "disks": disks,
        "memory": meta["memory"]["total"], "cpus": meta["cpu"]["total"],
        "system": {"vendor": meta["system"]["manufacturer"], "product": meta["system"]["product"], "serial": meta["system"]["serial"]}
    })
}

#[tokio::test]
async fn the_shapes_fuels_agent_reported_are_declared_hardware() {
    let app = test_app().await;
    let (env, _) = app.environment("fuel").await;
    let mut ids = Vec::new();
    for name in ["srv08", "lab-10"] {
        let (_, node) = app
            .post(
                &format!("/api/v1/clusters/{env}/nodes"),
                &json!({"name": name}),
            )
            .await;
        ids.push(node["id"].as_i64().unwrap());
    }
    // Fuel kept zero-size virtual devices as disks; Mosaic names them.
    let server = from_fuel(&fuel_meta(true));
    let uri = format!("/api/v1/nodes/{}/hardware", ids[0]);
    let (status, refused) = app.put(&uri, &server).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused:#}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("disks[4].size: 0 bytes") && message.contains("disks[5].size: 0 bytes"),
        "{message}"
    );
    let mut real = server.clone();
    real["disks"].as_array_mut().unwrap().truncate(4);
    let (status, saved) = app.put(&uri, &real).await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    assert_eq!(saved["cpus"], 24);
    assert!(saved["interfaces"][1].get("speed_mbps").is_none());

    let laptop = from_fuel(&fuel_meta(false));
    let uri = format!("/api/v1/nodes/{}/hardware", ids[1]);
    let (status, saved) = app.put(&uri, &laptop).await;
    assert_eq!(status, StatusCode::OK, "{saved:#}");
    assert_eq!(
        saved["interfaces"][1]["mac"], "58:91:cf:2a:c4:1b",
        "one spelling"
    );

    // Its Ansible facts come later: the placeholder serial tells nothing,
    // the MAC does.
    let files = json!({"srv08-renamed": facts(&[("eth0", "00:25:90:6a:b1:10", 1000), ("eth1", "00:25:90:6a:b1:11", 1000)], "10.0.0.8", "0123456789")});
    let (status, report) = import(&app, env, &files, true).await;
    assert_eq!(status, StatusCode::OK, "{report:#}");
    assert_eq!(report["updated"][0]["node"], "srv08", "{report:#}");
}
