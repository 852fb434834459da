//! The command-line client against a real `mosaic serve`: environments,
//! nodes, the seed's six tag operations and plugins over HTTP, exit codes
//! 0 / 1 / 2, and JSON output equal to the API's.

mod support;

use std::process::Command;

use support::serve::{MOSAIC, start, start_with};

#[test]
fn environments_nodes_and_tags_from_the_command_line() {
    let server = start();
    let releases = server.api("/api/v1/releases");
    let release = releases[0]["id"].to_string();
    let components = "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,\
                      network:neutron:ml2:ovs,storage:block:backend:lvm,storage:object:backend:swift,storage:image:swift";
    let env = server.json(&[
        "env",
        "create",
        "--name",
        "prod",
        "--release",
        &release,
        "--component",
        components,
    ]);
    let id = env["id"].to_string();
    assert_eq!(
        server.json(&["env", "list"]),
        server.api("/api/v1/clusters")
    );
    let (code, table, _) = server.run(&["env", "list"]);
    assert_eq!(code, 0);
    assert!(table.starts_with("ID  NAME"), "{table}");
    assert!(table.contains("prod"), "{table}");
    // Issue 43, point 4: the release by its name and version.
    assert!(table.contains("RELEASE_ID  RELEASE "), "{table}");
    assert!(
        table.contains("OpenStack 2024.1 on Ubuntu 22.04 (2024.1-1.0)"),
        "{table}"
    );
    let (_, plugins, _) = server.run(&["plugin", "list"]);
    assert!(
        plugins.contains("OpenStack 2024.1 on Ubuntu 22.04 (2024.1-1.0)"),
        "{plugins}"
    );

    let node = server.json(&[
        "node", "add", "--env", &id, "--name", "rack1-a", "--role", "compute",
    ]);
    let node_id = node["id"].to_string();
    // The seed's six tag operations, on a release and on an environment.
    server.json(&["tags", "create", "mysql", "--release", &release]);
    server.json(&["tags", "create", "rack", "--env", &id, "--has-primary"]);
    let updated = server.json(&[
        "tags",
        "update",
        "rack",
        "--env",
        &id,
        "--has-primary",
        "false",
    ]);
    assert_eq!(updated["has_primary"], false);
    let assigned = server.json(&["tags", "assign", &node_id, "rack", "mysql:1"]);
    assert!(assigned["tags"].to_string().contains("mysql:1"));
    let listed = server.json(&["tags", "list", "--env", &id]);
    assert_eq!(listed, server.api(&format!("/api/v1/clusters/{id}/tags")));
    // Deleting a carried tag is refused by the server: exit 1, its message.
    let (code, _, err) = server.run(&["tags", "delete", "rack", "--env", &id]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("assigned to node 'rack1-a'"), "{err}");
    server.json(&["tags", "unassign", &node_id, "rack"]);
    let (code, _, err) = server.run(&["tags", "delete", "rack", "--env", &id]);
    assert_eq!(code, 0, "{err}");

    let nodes = server.json(&["node", "list", "--env", &id]);
    assert_eq!(nodes, server.api(&format!("/api/v1/clusters/{id}/nodes")));
    let changed = server.json(&["node", "update", &node_id, "--status", "ready"]);
    assert_eq!(changed["status"], "ready");
    let (code, _, err) = server.run(&["node", "update", &node_id, "--role", "controller,compute"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("invalid_roles"), "{err}");

    // Export, import under another name, delete.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prod.yaml");
    let (code, _, err) = server.run(&["env", "export", &id, "-o", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let copy = server.json(&["env", "import", file.to_str().unwrap(), "--name", "copy"]);
    assert_eq!(copy["name"], "copy");
    let (code, _, _) = server.run(&["node", "delete", &node_id]);
    assert_eq!(code, 0);
    let (code, _, _) = server.run(&["env", "delete", &id]);
    assert_eq!(code, 0);
    let (code, _, err) = server.run(&["env", "show", &id]);
    assert_eq!(code, 1);
    assert!(err.contains("not_found"), "{err}");
}

#[test]
fn networks_and_interfaces_from_the_command_line() {
    let server = start();
    let release = server.api("/api/v1/releases")[0]["id"].to_string();
    let components = "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,\
                      network:neutron:ml2:ovs,storage:block:backend:lvm,storage:object:backend:swift,storage:image:swift";
    let env = server.json(&[
        "env",
        "create",
        "--name",
        "prod",
        "--release",
        &release,
        "--component",
        components,
    ]);
    let id = env["id"].to_string();
    let (code, table, err) = server.run(&["env", "networks", "prod"]);
    assert_eq!(code, 0, "{err}");
    assert!(table.starts_with("NETWORK"), "{table}");
    let management = table.lines().find(|l| l.starts_with("management")).unwrap();
    let cells: Vec<&str> = management.split_whitespace().collect();
    assert_eq!(
        cells,
        [
            "management",
            "default",
            "192.168.0.0/24",
            "101",
            "192.168.0.1-192.168.0.254",
            "2/254"
        ]
    );
    assert!(
        table.lines().next().unwrap().ends_with("USED/CAPACITY"),
        "{table}"
    );
    assert!(table.contains("vlan_range 1000-1030"), "{table}");
    assert_eq!(
        server.json(&["env", "networks", &id]),
        server.api(&format!(
            "/api/v1/clusters/{id}/network_configuration/neutron"
        ))
    );

    // Download, break, verify (exit 1, every problem), upload refused.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("net.yaml");
    let path = file.to_str().unwrap();
    let (code, _, err) = server.run(&["env", "networks", &id, "--download", path]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let broken = text.replacen("cidr: 192.168.1.0/24", "cidr: 192.168.0.0/24", 1);
    std::fs::write(&file, broken).unwrap();
    let (code, _, err) = server.run(&["env", "networks", &id, "--upload", path, "--verify"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("Address space intersection between networks: management, storage"),
        "{err}"
    );
    let (code, _, err) = server.run(&["env", "networks", &id, "--upload", path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("invalid_networks"), "{err}");
    let (code, _, err) = server.run(&["env", "networks", &id, "--verify"]);
    assert_eq!(code, 0, "the stored one has no problem: {err}");

    // A node's interfaces, and networks put on one of its ports.
    let node = server.json(&[
        "node",
        "add",
        "--env",
        &id,
        "--name",
        "ctl-1",
        "--role",
        "controller",
    ]);
    let node_id = node["id"].to_string();
    let url = format!("{}/api/v1/nodes/{node_id}/interfaces", server.url);
    ureq::put(&url)
        .header("authorization", format!("Bearer {}", server.token))
        .header("content-type", "application/json")
        .send(r#"{"interfaces": [{"name": "eth0"}, {"name": "eth1"}, {"name": "eth2"}]}"#)
        .unwrap();
    let (code, out, err) = server.run(&[
        "node",
        "interfaces",
        &node_id,
        "--set",
        "eth2=storage,private",
    ]);
    assert_eq!(code, 0, "{err}");
    let eth2 = out.lines().find(|l| l.starts_with("eth2")).unwrap();
    assert_eq!(
        eth2.split_whitespace().collect::<Vec<_>>(),
        ["eth2", "interface", "storage,private"]
    );
    assert!(out.contains("its own layout"), "{out}");
    assert!(out.contains("management: 192.168.0.3"), "{out}");
    let (code, _, err) = server.run(&["node", "interfaces", &node_id, "--set", "eth9=storage"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no interface or bond of the node"), "{err}");
}

#[test]
fn plugins_over_http_and_the_exit_codes_of_failures() {
    let server = start();
    let plugins = server.json(&["plugin", "list"]);
    assert_eq!(plugins, server.api("/api/v1/plugins"));
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/plugins/v5-example"
    );
    let installed = server.json(&["plugin", "install", fixture]);
    assert_eq!(installed["name"], "storage_demo");
    let (code, _, err) = server.run(&["plugin", "install", fixture]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("already installed"), "{err}");
    let (code, out, err) = server.run(&["plugin", "uninstall", "storage_demo"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("uninstalled"), "{out}");

    // No token: refused (1). No server: a connection error (2).
    let (code, _, err) = server.run(&["env", "list", "--token", ""]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unauthorized"), "{err}");
    let (code, _, err) = server.run(&["env", "list", "--server", "http://127.0.0.1:9"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot reach"), "{err}");
    let (code, _, _) = server.run(&["tags", "list"]);
    assert_eq!(code, 2, "--env or --release is required");
}

#[test]
fn upgrading_an_environments_plugin_from_the_command_line() {
    let server = start();
    let fixture = |name: &str| {
        format!(
            "{}/tests/fixtures/plugins/{name}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    server.json(&["plugin", "install", &fixture("v5-example")]);
    let release = server.api("/api/v1/releases")[0]["id"].to_string();
    let components = "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,\
                      network:neutron:ml2:ovs,storage:block:backend:lvm,storage:object:backend:swift,\
                      storage:image:swift,additional_service:storage_demo";
    let env = server.json(&[
        "env",
        "create",
        "--name",
        "prod",
        "--release",
        &release,
        "--component",
        components,
    ]);
    let id = env["id"].to_string();
    server.json(&["plugin", "install", &fixture("v5-example-2")]);

    let offers = server.json(&["env", "upgrades", "prod"]);
    assert_eq!(
        offers,
        server.api(&format!("/api/v1/clusters/{id}/upgrades"))
    );
    assert_eq!(offers[0]["to"], serde_json::json!(["2.0.0"]));
    let (code, text, err) = server.run(&[
        "env",
        "upgrade",
        "prod",
        "storage_demo",
        "2.0.0",
        "--dry-run",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("+ storage_demo.storage_demo_replicas"),
        "{text}"
    );
    assert!(
        text.contains("~ storage_demo.storage_demo_pool: \"data\" -> \"data2\""),
        "{text}"
    );
    assert!(text.contains("+ storage_demo_gateway"), "{text}");
    assert!(text.contains("Changes made on the release: none"), "{text}");
    let preview = server.json(&["env", "upgrade", &id, "storage_demo", "2.0.0", "--dry-run"]);
    assert_eq!(
        preview["settings"]["added"],
        serde_json::json!(["storage_demo.storage_demo_replicas"])
    );

    // Not installed: refused (1); a missing version: usage (2).
    let (code, _, err) = server.run(&["env", "upgrade", "prod", "storage_demo", "9.0"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not_found"), "{err}");
    let (code, _, _) = server.run(&["env", "upgrade", "prod", "storage_demo"]);
    assert_eq!(code, 2);

    let mut upgraded = server.json(&["env", "upgrade", "prod", "storage_demo", "2.0.0"]);
    let done = upgraded.as_object_mut().unwrap().remove("upgrade").unwrap();
    assert_eq!(done, preview, "the upgrade says what it did");
    assert_eq!(upgraded, server.api(&format!("/api/v1/clusters/{id}")));
    assert_eq!(upgraded["plugins"][0]["version"], "2.0.0");
    assert_eq!(
        server.json(&["env", "upgrades", &id]),
        serde_json::json!([])
    );
}

#[test]
fn changing_an_environments_components_from_the_command_line() {
    let server = start();
    let release = server.api("/api/v1/releases")[0]["id"].to_string();
    let lvm = "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,\
               network:neutron:ml2:ovs,storage:block:backend:lvm,storage:object:backend:swift,storage:image:swift";
    let ceph = lvm.replace("storage:block:backend:lvm", "storage:block:backend:ceph");
    let env = server.json(&[
        "env",
        "create",
        "--name",
        "prod",
        "--release",
        &release,
        "--component",
        lvm,
    ]);
    let id = env["id"].to_string();
    let node = server.json(&[
        "node", "add", "--env", &id, "--name", "block-1", "--role", "cinder",
    ]);

    // A preview by name, for people and as the API's JSON. The change
    // would be refused, so the preview exits 1 as the change does (issue
    // 43, point 7), its reasons on stderr, what it would do on stdout.
    let (code, text, err) = server.run(&["env", "components", "prod", "--set", &ceph, "--dry-run"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("components_in_use") && err.contains("block-1"),
        "{err}"
    );
    assert!(
        text.contains("storage.volumes_lvm: true -> false"),
        "{text}"
    );
    assert!(text.contains("cinder (held by block-1: refused)"), "{text}");
    let (code, text, _) = server.run(&[
        "env",
        "components",
        &id,
        "--set",
        &ceph,
        "--dry-run",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let preview: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        preview["roles"][0],
        serde_json::json!({"role": "cinder", "nodes": ["block-1"]})
    );

    // Refused while the node holds the role: exit 1 naming it.
    let (code, _, err) = server.run(&["env", "components", &id, "--set", &ceph]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("components_in_use") && err.contains("block-1"),
        "{err}"
    );
    let (code, _, err) = server.run(&["env", "components", &id, "--set", "no:such"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("invalid_selection"), "{err}");

    // Without the role it is done, and the environment says so.
    let (code, _, _) = server.run(&["node", "delete", &node["id"].to_string()]);
    assert_eq!(code, 0);
    let changed = server.json(&["env", "components", "prod", "--set", &ceph]);
    assert_eq!(changed, server.api(&format!("/api/v1/clusters/{id}")));
    assert!(
        changed["components"]
            .to_string()
            .contains("storage:block:backend:ceph")
    );

    // Usage and connection errors: exit 2.
    let (code, _, _) = server.run(&["env", "components", &id]);
    assert_eq!(code, 2);
    let out = Command::new(MOSAIC)
        .args([
            "env",
            "components",
            &id,
            "--set",
            &ceph,
            "--server",
            "http://127.0.0.1:9",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn roles_of_a_release_and_an_environment_from_the_command_line() {
    let server = start();
    let release = server.api("/api/v1/releases")[0]["id"].to_string();
    let components = "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,\
                      network:neutron:ml2:ovs,storage:block:backend:lvm,storage:object:backend:swift,storage:image:swift";
    let env = server.json(&[
        "env",
        "create",
        "--name",
        "prod",
        "--release",
        &release,
        "--component",
        components,
    ]);
    let id = env["id"].to_string();

    let edited = server.json(&[
        "roles",
        "update",
        "controller",
        "--env",
        &id,
        "--tag",
        "controller",
        "--tag",
        "database",
    ]);
    assert_eq!(edited["tags_source"], "environment");
    assert_eq!(
        edited["tags"],
        serde_json::json!(["controller", "database"])
    );
    let created = server.json(&[
        "roles",
        "create",
        "messaging",
        "--env",
        &id,
        "--label",
        "Messaging",
        "--tag",
        "rabbitmq",
        "--limits",
        r#"{"max": 2}"#,
    ]);
    assert_eq!(created["created"], "environment");
    assert_eq!(
        server.json(&["roles", "list", "--env", &id]),
        server.api(&format!("/api/v1/clusters/{id}/roles"))
    );
    let mut shown = created.clone();
    assert_eq!(
        shown.as_object_mut().unwrap().remove("instance_tags"),
        Some(serde_json::json!({"nodes": 0, "assigned": 0, "removed": 0}))
    );
    assert_eq!(
        server.json(&["roles", "show", "messaging", "--env", &id]),
        shown
    );
    let on_release = server.json(&[
        "roles",
        "update",
        "compute",
        "--release",
        &release,
        "--tag",
        "compute",
    ]);
    assert_eq!(on_release["tags_source"], "release");
    assert_eq!(
        server.json(&["roles", "list", "--release", &release]),
        server.api(&format!("/api/v1/releases/{release}/roles"))
    );
    let (code, table, _) = server.run(&["roles", "list", "--env", &id]);
    assert_eq!(code, 0);
    assert!(
        table.contains("TAGS_SOURCE") && table.contains("messaging"),
        "{table}"
    );

    // Refusals exit 1, unusable input 2.
    let (code, _, err) = server.run(&[
        "roles",
        "update",
        "controller",
        "--env",
        &id,
        "--tag",
        "nope",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown tag 'nope'"), "{err}");
    let (code, _, err) = server.run(&["roles", "delete", "compute", "--env", &id]);
    assert_eq!(code, 1, "{err}");
    let (code, _, _) = server.run(&["roles", "show", "ghost", "--env", &id]);
    assert_eq!(code, 1);
    let (code, _, _) = server.run(&[
        "roles", "create", "x", "--env", &id, "--label", "X", "--limits", "{",
    ]);
    assert_eq!(code, 2);
    let (code, _, _) = server.run(&["roles", "list"]);
    assert_eq!(code, 2, "--env or --release is required");
    assert_eq!(
        server
            .run(&["roles", "delete", "messaging", "--env", &id])
            .0,
        0
    );
    assert_eq!(
        server
            .run(&["roles", "delete", "controller", "--env", &id])
            .0,
        0
    );
    let restored = server.json(&["roles", "show", "controller", "--env", &id]);
    assert_eq!(restored["tags_source"], "declared");

    let tag = server.json(&["tags", "create", "mysql", "--env", &id, "--instances", "2"]);
    assert_eq!(tag["instances"], 2);
    let tag = server.json(&[
        "tags",
        "update",
        "mysql",
        "--env",
        &id,
        "--has-primary",
        "true",
    ]);
    assert_eq!(tag["instances"], 2, "kept when not given");
}

/// Per-request lines are opt-in: by default a hundred answered requests
/// write none, with `--access-log` each writes one.
#[test]
fn the_access_log_is_opt_in() {
    for (flags, expected) in [(&[][..], 0), (&["--access-log"][..], 20)] {
        let server = start_with(flags, None);
        for _ in 0..20 {
            assert_eq!(server.run(&["env", "list"]).0, 0);
        }
        let log = std::fs::read_to_string(server.dir.path().join("log.txt")).unwrap();
        let lines = log
            .lines()
            .filter(|l| l.contains("GET /api/v1/clusters 200"))
            .count();
        assert_eq!(lines, expected, "{flags:?}: {log}");
    }
}

/// A `--tree` file of a host with one NIC.
fn tree_file(mac: &str) -> String {
    serde_json::json!({"ansible_facts": {
        "ansible_interfaces": ["eth0"],
        "ansible_eth0": {"type": "ether", "macaddress": mac, "module": "ixgbe", "active": true, "speed": 10000},
        "ansible_memtotal_mb": 65536, "ansible_processor_vcpus": 32,
        "ansible_devices": {"sda": {"sectors": "937703088", "sectorsize": "512", "model": "MZ7LH480", "rotational": "0"}}
    }})
    .to_string()
}

#[test]
fn nodes_hardware_from_the_command_line() {
    let server = start();
    let release = server.api("/api/v1/releases")[0]["id"].to_string();
    let env = server.json(&[
        "env", "create", "--name", "lab", "--release", &release, "--component",
        "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,network:neutron:ml2:ovs,storage:block:backend:lvm",
    ]);
    let id = env["id"].to_string();
    let dir = tempfile::tempdir().unwrap();
    let facts = dir.path().join("facts");
    std::fs::create_dir(&facts).unwrap();
    std::fs::write(facts.join("cmp-1"), tree_file("52:54:00:00:0c:01")).unwrap();
    std::fs::write(facts.join("cmp-2"), tree_file("52:54:00:00:0c:02")).unwrap();
    let path = facts.to_str().unwrap();

    let (code, out, err) = server.run(&["node", "import", "--env", &id, path, "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "cmp-1: created\ncmp-2: created\n");
    assert_eq!(
        server.api(&format!("/api/v1/clusters/{id}/nodes")),
        serde_json::json!([])
    );
    let (code, out, err) = server.run(&["node", "import", "--env", &id, path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "cmp-1: created\ncmp-2: created\n");

    // A broken file and a host whose MAC is another's: exit 1, each on stderr.
    std::fs::write(facts.join("broken"), "{").unwrap();
    std::fs::write(facts.join("cmp-3"), tree_file("52:54:00:00:0c:02")).unwrap();
    let (code, _, err) = server.run(&["node", "import", "--env", &id, path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("invalid_import"), "{err}");
    assert!(err.contains("facts/broken: not JSON"), "{err}");
    assert!(err.contains("facts/cmp-3 (cmp-3)"), "{err}");
    let (code, _, err) = server.run(&["node", "import", "--env", &id, path, "--dry-run"]);
    assert_eq!(code, 1, "a dry run that would be refused: {err}");
    assert!(err.contains("would be refused: 3 problems"), "{err}");

    let node = server.api(&format!("/api/v1/clusters/{id}/nodes"))[0]["id"].to_string();
    let (code, out, err) = server.run(&["node", "show", &node]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hardware: Ansible facts, found "), "{out}");
    assert!(out.contains("Memory: 64.0 GiB"), "{out}");
    assert!(
        out.contains("52:54:00:00:0c:01") && out.contains("10 Gbit/s"),
        "{out}"
    );
    assert!(
        out.contains("447.1 GiB") && out.contains("MZ7LH480"),
        "{out}"
    );
    let (code, _, err) = server.run(&["node", "show", "999"]);
    assert_eq!(code, 1);
    assert!(err.contains("not_found"), "{err}");
    let (code, _, err) = server.run(&["node", "import", "--env", &id, "/no/such/dir"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_nodes_disks_from_the_command_line() {
    let server = start();
    let release = server.api("/api/v1/releases")[0]["id"].to_string();
    let env = server.json(&[
        "env", "create", "--name", "lab", "--release", &release, "--component",
        "hypervisor:libvirt:kvm,network:neutron:core:ml2,network:neutron:ml2:vlan,network:neutron:ml2:ovs,storage:block:backend:lvm",
    ]);
    let env = env["id"].to_string();
    let node = server.json(&[
        "node", "add", "--env", &env, "--name", "cmp-1", "--role", "compute",
    ]);
    let id = node["id"].to_string();
    let (code, out, err) = server.run(&["node", "disks", &id]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("no disks known"), "{out}");

    let gib = 1u64 << 30;
    let hardware =
        serde_json::json!({"disks": [{"name": "sda", "size": 100 * gib}], "memory": 4 * gib});
    server.expect(
        "PUT",
        &format!("/api/v1/nodes/{id}/hardware"),
        Some(&hardware),
    );
    let (code, out, err) = server.run(&["node", "disks", &id]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "disk sda: 101772 MB for volumes, boot disk\n  os               24576 MB\n  vm               77196 MB\n"
    );

    // A layout saved from a file, as `--format json` prints it.
    let (code, json, err) = server.run(&["node", "disks", &id, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let mut layout: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(layout, server.api(&format!("/api/v1/nodes/{id}/disks")));
    layout[0]["volumes"][1]["size"] = serde_json::json!(50000);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("layout.json");
    std::fs::write(&file, layout.to_string()).unwrap();
    let (code, out, err) = server.run(&["node", "disks", &id, "--set", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  vm               50000 MB\n"), "{out}");
    assert!(out.contains("  unallocated      27196 MB\n"), "{out}");
    let (code, out, err) = server.run(&["node", "disks", &id, "--defaults"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  vm               77196 MB\n"), "{out}");

    // Refused: every problem on stderr, exit 1; a file that is no layout,
    // or both flags: exit 2.
    layout[0]["volumes"][1]["size"] = serde_json::json!(-1);
    std::fs::write(&file, layout.to_string()).unwrap();
    let (code, _, err) = server.run(&["node", "disks", &id, "--set", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("invalid_disks"), "{err}");
    assert!(
        err.contains("[0].volumes[1].size: The size of volume 'vm'"),
        "{err}"
    );
    std::fs::write(&file, "{\"disks\": 1}").unwrap();
    let (code, _, err) = server.run(&["node", "disks", &id, "--set", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a layout"), "{err}");
    let (code, _, _) = server.run(&["node", "disks", &id, "--defaults", "--set", "x"]);
    assert_eq!(code, 2);
    let (code, _, err) = server.run(&["node", "disks", "999"]);
    assert_eq!(code, 1);
    assert!(err.contains("not_found"), "{err}");
}
