//! The readers over files shaped as real ones are. The shapes come from
//! public samples, written again here (not copied): fboender/ansible-cmdb
//! `example/out/` (`--tree` files of `ansible -m setup`, an unreachable
//! host's record), ansible-core 2.16's `setup` facts of a bonded server,
//! and an Ironic inventory with processed LLDP as metal3-io/metal3-docs
//! `design/host-profiles.md` shows one (ironic-python-agent's
//! `hardware.py` names its fields).

use super::*;

/// A `--tree` file of a VirtualBox guest (ansible-cmdb's
/// `debian.dev.local` shape): one NIC by its driver, a disk and a CD-ROM.
const TREE_VM: &str = r#"{
  "ansible_facts": {
    "ansible_default_ipv4": {"address": "192.168.56.2", "interface": "eth0", "macaddress": "08:00:27:f9:98:a7"},
    "ansible_date_time": {"iso8601": "2015-06-13T15:17:01Z"},
    "ansible_devices": {
      "sda": {"model": "VBOX HARDDISK", "removable": "0", "rotational": "1", "sectors": "209715200",
              "sectorsize": "512", "size": "100.00 GB", "vendor": "ATA", "partitions": {}},
      "sr0": {"model": "CD-ROM", "removable": "1", "rotational": "1", "sectors": "2097151",
              "sectorsize": "512", "size": "1024.00 MB"}
    },
    "ansible_eth0": {"active": true, "device": "eth0", "macaddress": "08:00:27:f9:98:a7",
                     "module": "pcnet32", "mtu": 1500, "type": "ether"},
    "ansible_lo": {"active": true, "device": "lo", "type": "loopback"},
    "ansible_hostname": "dev",
    "ansible_interfaces": ["lo", "eth0"],
    "ansible_memtotal_mb": 496,
    "ansible_processor_vcpus": 1,
    "ansible_product_name": "VirtualBox",
    "ansible_product_serial": "NA",
    "ansible_system_vendor": "innotek GmbH"
  },
  "changed": false
}"#;

/// The fact cache's file of a bonded server (ansible-core 2.16's keys):
/// two NICs in an 802.3ad bond (each reporting the bond's MAC, its own as
/// `perm_macaddress`), a VLAN on the bond, a bridge, a veth, an unused NIC
/// of unknown speed; NVMe disks, a loop and a device-mapper device.
const CACHE_BONDED: &str = r#"{
  "ansible_hostname": "cmp-7",
  "ansible_default_ipv4": {"address": "10.20.0.17", "interface": "bond0.101"},
  "ansible_interfaces": ["lo", "eno1", "eno2", "eno3", "bond0", "bond0.101", "docker0", "veth1a2b3c"],
  "ansible_eno1": {"active": true, "device": "eno1", "macaddress": "3c:fd:fe:aa:00:01", "perm_macaddress": "3c:fd:fe:aa:00:01",
                   "module": "i40e", "pciid": "0000:3b:00.0", "speed": 25000, "type": "ether"},
  "ansible_eno2": {"active": true, "device": "eno2", "macaddress": "3c:fd:fe:aa:00:01", "perm_macaddress": "3c:fd:fe:aa:00:02",
                   "module": "i40e", "pciid": "0000:3b:00.1", "speed": 25000, "type": "ether"},
  "ansible_eno3": {"active": false, "device": "eno3", "macaddress": "3C:FD:FE:AA:00:03",
                   "module": "igb", "pciid": "0000:5e:00.0", "speed": -1, "type": "ether"},
  "ansible_bond0": {"active": true, "device": "bond0", "macaddress": "3c:fd:fe:aa:00:01", "mode": "802.3ad",
                    "slaves": ["eno1", "eno2"], "type": "bonding"},
  "ansible_bond0_101": {"active": true, "device": "bond0.101", "macaddress": "3c:fd:fe:aa:00:01", "type": "ether"},
  "ansible_docker0": {"active": false, "device": "docker0", "interfaces": [], "type": "bridge"},
  "ansible_veth1a2b3c": {"active": true, "device": "veth1a2b3c", "module": "veth", "type": "ether"},
  "ansible_devices": {
    "nvme0n1": {"model": "SAMSUNG MZQL2960HCJR", "removable": "0", "rotational": "0", "sectors": "1875385008",
                "sectorsize": "512", "links": {"ids": ["nvme-SAMSUNG_MZQL2960HCJR_S64FNE0R123456"]}},
    "nvme1n1": {"model": "SAMSUNG MZQL2960HCJR", "removable": "0", "rotational": "0", "sectors": 1875385008,
                "sectorsize": 512},
    "loop0": {"sectors": "8", "sectorsize": "512"},
    "dm-0": {"sectors": "1000", "sectorsize": "512"}
  },
  "ansible_memtotal_mb": 515690,
  "ansible_processor_vcpus": 96,
  "ansible_product_name": "PowerEdge R650",
  "ansible_product_serial": "8XK4ZD3",
  "ansible_system_vendor": "Dell Inc."
}"#;

/// Ironic's introspection data (its `inventory`, and the processed LLDP
/// inspection keeps under `all_interfaces`).
const IRONIC: &str = r#"{
  "inventory": {
    "hostname": "ctl-2",
    "interfaces": [
      {"name": "eth0", "mac_address": "52:54:00:12:34:01", "ipv4_address": "192.168.111.21", "has_carrier": true,
       "speed_mbps": 10000, "vendor": "0x8086", "product": "0x1572"},
      {"name": "eth1", "mac_address": "52:54:00:12:34:02", "has_carrier": false, "speed_mbps": 0}
    ],
    "disks": [
      {"name": "/dev/sda", "model": "PERC H730P", "size": 599550590976, "rotational": true,
       "wwn": "0x61866da0c6a51b00", "by_path": "/dev/disk/by-path/pci-0000:03:00.0-scsi-0:2:0:0"},
      {"name": "/dev/sdb", "model": "PERC H730P", "size": 1999844147200, "rotational": false}
    ],
    "memory": {"total": 134830206976, "physical_mb": 131072},
    "cpu": {"model_name": "Intel(R) Xeon(R) Gold 6130", "count": 64, "architecture": "x86_64"},
    "system_vendor": {"product_name": "PowerEdge R640", "serial_number": "4J3KQF2", "manufacturer": "Dell Inc."},
    "boot": {"current_boot_mode": "uefi", "pxe_interface": "52:54:00:12:34:01"}
  },
  "all_interfaces": {
    "eth0": {"ip": "192.168.111.21", "mac": "52:54:00:12:34:01",
             "lldp_processed": {"switch_chassis_id": "64:64:9b:31:12:00", "switch_port_id": "Ethernet1/17",
                                "switch_system_name": "leaf-a3", "switch_port_vlans": [{"id": 101, "name": "mgmt"}, {"id": 102}]}}
  }
}"#;

fn found(file: &str, text: &str) -> Found {
    read(file, text).unwrap_or_else(|p| panic!("{file}: {}", p.message))
}

#[test]
fn a_tree_file_gives_its_nic_disk_memory_cpus_and_machine() {
    let host = found("facts/dev.local", TREE_VM);
    assert_eq!(
        (host.name.as_str(), host.host_name.as_deref()),
        ("dev.local", Some("dev"))
    );
    assert_eq!(host.source, HardwareSource::Ansible);
    assert_eq!(host.address, Some("192.168.56.2".parse().unwrap()));
    assert_eq!(host.found_at.as_deref(), Some("2015-06-13T15:17:01Z"));
    let hw = &host.hardware;
    let nics: Vec<(&str, Option<&str>, LinkState)> = hw
        .interfaces
        .iter()
        .map(|n| (n.name.as_str(), n.mac.as_deref(), n.state))
        .collect();
    assert_eq!(nics, [("eth0", Some("08:00:27:f9:98:a7"), LinkState::Up)]);
    assert_eq!(hw.disks.len(), 1, "the CD-ROM is no disk");
    assert_eq!(hw.disks[0].size, 209_715_200 * 512);
    assert!(hw.disks[0].rotational && !hw.disks[0].removable);
    assert_eq!(hw.memory, Some(496 << 20));
    assert_eq!(hw.cpus, Some(1));
    assert_eq!(hw.system.product.as_deref(), Some("VirtualBox"));
    assert_eq!(hw.system.real_serial(), None, "NA is a placeholder");
}

#[test]
fn a_bonded_servers_nics_have_their_own_macs_and_virtual_devices_are_left_out() {
    let host = found("cache/cmp-7", CACHE_BONDED);
    let hw = &host.hardware;
    let nics: Vec<(&str, &str, Option<u32>)> = hw
        .interfaces
        .iter()
        .map(|n| (n.name.as_str(), n.mac.as_deref().unwrap(), n.speed_mbps))
        .collect();
    assert_eq!(
        nics,
        [
            ("eno1", "3c:fd:fe:aa:00:01", Some(25_000)),
            ("eno2", "3c:fd:fe:aa:00:02", Some(25_000)),
            ("eno3", "3c:fd:fe:aa:00:03", None),
        ]
    );
    assert_eq!(hw.interfaces[0].pci.as_deref(), Some("0000:3b:00.0"));
    assert_eq!(hw.interfaces[2].state, LinkState::Down);
    assert_eq!(
        hw.bonds,
        [FoundBond {
            name: "bond0".into(),
            mode: Some("802.3ad".into()),
            slaves: vec!["eno1".into(), "eno2".into()],
        }]
    );
    let disks: Vec<(&str, u64)> = hw.disks.iter().map(|d| (d.name.as_str(), d.size)).collect();
    assert_eq!(
        disks,
        [
            ("nvme0n1", 1_875_385_008 * 512),
            ("nvme1n1", 1_875_385_008 * 512)
        ]
    );
    assert_eq!(
        hw.disks[0].extra,
        ["disk/by-id/nvme-SAMSUNG_MZQL2960HCJR_S64FNE0R123456"]
    );
    assert!(!hw.disks[0].rotational);
    assert_eq!(hw.system.real_serial(), Some("8XK4ZD3"));
    assert_eq!(host.address, Some("10.20.0.17".parse().unwrap()));
}

#[test]
fn ironic_inspection_gives_its_nics_with_lldp_disks_memory_and_machine() {
    let host = found("introspection/9a1f.json", IRONIC);
    assert_eq!(
        (host.name.as_str(), host.source),
        ("ctl-2", HardwareSource::Ironic)
    );
    assert_eq!(host.address, Some("192.168.111.21".parse().unwrap()));
    let hw = &host.hardware;
    assert_eq!(hw.interfaces[0].speed_mbps, Some(10_000));
    assert_eq!(
        hw.interfaces[0].lldp,
        Some(Lldp {
            switch: Some("leaf-a3".into()),
            port: Some("Ethernet1/17".into()),
            vlans: vec![101, 102],
        })
    );
    assert_eq!(
        (hw.interfaces[1].state, hw.interfaces[1].speed_mbps),
        (LinkState::Down, None)
    );
    assert_eq!(hw.disks[0].name, "sda");
    assert_eq!(
        hw.disks[0].by_path.as_deref(),
        Some("disk/by-path/pci-0000:03:00.0-scsi-0:2:0:0")
    );
    assert_eq!(hw.disks[1].size, 1_999_844_147_200);
    assert_eq!((hw.memory, hw.cpus), (Some(134_830_206_976), Some(64)));
    assert_eq!(hw.system.serial.as_deref(), Some("4J3KQF2"));
    // `baremetal node inventory save`: the same inventory, LLDP under
    // `plugin_data`.
    let value: serde_json::Value = serde_json::from_str(IRONIC).unwrap();
    let saved = serde_json::json!({"inventory": value["inventory"], "plugin_data": {"all_interfaces": value["all_interfaces"]}});
    assert_eq!(
        found("node.json", &saved.to_string()).hardware,
        host.hardware
    );
}

#[test]
fn a_file_that_says_no_host_is_a_problem_naming_it() {
    let unreachable = r#"{"changed": false, "msg": "Failed to connect to the host via ssh: ", "unreachable": true}"#;
    let problem = read("facts/dead.dev.local", unreachable).unwrap_err();
    assert_eq!(problem.host.as_deref(), Some("dead.dev.local"));
    assert!(
        problem.message.contains("unreachable"),
        "{}",
        problem.message
    );
    for (text, says) in [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (r#"{"hello": "world"}"#, "neither Ansible's facts"),
        (
            r#"{"ansible_facts": {"ansible_os_family": "Debian"}}"#,
            "neither ansible_interfaces nor ansible_devices",
        ),
        (
            r#"{"inventory": {"hostname": "x"}}"#,
            "neither interfaces nor disks",
        ),
    ] {
        let problem = read("f", text).unwrap_err();
        assert!(
            problem.message.contains(says),
            "{text}: {}",
            problem.message
        );
        assert_eq!(problem.file, "f");
    }
}

#[test]
fn a_host_of_thousands_of_disks_is_no_machine() {
    let devices: serde_json::Map<String, serde_json::Value> = (0..1100)
        .map(|i| {
            (
                format!("sd{i}"),
                serde_json::json!({"sectors": "8", "sectorsize": "512"}),
            )
        })
        .collect();
    let text = serde_json::json!({"ansible_facts": {"ansible_devices": devices}}).to_string();
    let problem = read("facts/odd", &text).unwrap_err();
    assert!(
        problem.message.starts_with("1100 disks"),
        "{}",
        problem.message
    );
}

#[test]
fn a_4kn_disk_is_its_size_not_eight_times_it() {
    // sysfs counts 512-byte sectors whatever the logical block size.
    let text = r#"{"ansible_facts": {"ansible_interfaces": [], "ansible_devices": {
        "sdb": {"sectors": "7814037168", "sectorsize": "4096", "rotational": "1"}}}}"#;
    let host = found("facts/stor-1", text);
    assert_eq!(host.hardware.disks[0].size, 7_814_037_168 * 512);
}

#[test]
fn hidden_files_and_files_in_hidden_directories_are_no_facts() {
    for (path, hidden) in [
        (".DS_Store", true),
        ("facts/.DS_Store", true),
        (".git/config", true),
        ("facts/.cache/ctl-1.json", true),
        ("ctl-1.json", false),
        ("facts/ctl-1.json", false),
        ("./ctl-1.json", false),
        ("facts/ctl.1.json", false),
    ] {
        assert_eq!(super::hidden(path), hidden, "{path}");
    }
}
