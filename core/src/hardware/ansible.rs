//! Ansible's facts read into a node's hardware (SEMANTICS §13): a file of
//! `ansible -m setup --tree DIR` (`{"ansible_facts": …}`) or of the
//! jsonfile fact cache (the facts themselves), as ansible-core 2.15–2.16
//! writes them. NICs are the physical ones (a PCI address or a driver of
//! a device, not a bridge, a bond, a VLAN, a loopback or a virtual
//! device); a bond's slaves report the bond's MAC, so a NIC's MAC is its
//! `perm_macaddress` when it has one; a speed of -1 is unknown; a disk's
//! size is `sectors × 512` (the `size` text is not read; see
//! [`SYSFS_SECTOR`]) and loop,
//! RAM, device-mapper, zram, NBD, optical and floppy devices are no disks.

use std::net::Ipv4Addr;

use serde_json::{Map, Value};

use super::model::{
    Disk, Found, FoundBond, FoundNic, Hardware, LinkState, ReadProblem, System, normal_mac,
};

/// Drivers of devices that are not NICs.
const VIRTUAL_DRIVERS: [&str; 10] = [
    "veth",
    "dummy",
    "ifb",
    "tun",
    "bridge",
    "macvlan",
    "ipvlan",
    "vxlan",
    "openvswitch",
    "geneve",
];

/// The unit of `sectors`: Linux's `/sys/block/X/size`, which counts
/// 512-byte sectors whatever the disk's logical block size (`sectorsize`):
/// `sectors × sectorsize` would make a 4Kn disk eight times its size.
/// Ansible's own `size` text is `sectors × 512` too (its `linux.py`).
const SYSFS_SECTOR: u64 = 512;

/// Names of devices that are not disks, by prefix.
const NOT_DISKS: [&str; 8] = ["loop", "ram", "dm-", "zram", "nbd", "sr", "fd", "md"];

/// Whether `value` is a facts file: a tree's (`ansible_facts`), or the
/// fact cache's (facts at the top).
pub fn is_facts(value: &Map<String, Value>) -> bool {
    value.contains_key("ansible_facts")
        || value.contains_key("unreachable")
        || value.keys().any(|k| k.starts_with("ansible_"))
}

/// The host of facts file `file` (its name is the host's inventory name).
pub fn read(file: &str, value: &Map<String, Value>) -> Result<Found, ReadProblem> {
    let host = base_name(file);
    let problem = |message: String| ReadProblem {
        file: file.to_owned(),
        host: Some(host.clone()),
        message,
    };
    if value.get("unreachable").and_then(Value::as_bool) == Some(true) {
        let why = value
            .get("msg")
            .and_then(Value::as_str)
            .unwrap_or("no reason given");
        return Err(problem(format!(
            "the host was unreachable when its facts were gathered: {why}"
        )));
    }
    if value.get("failed").and_then(Value::as_bool) == Some(true) {
        let why = value
            .get("msg")
            .and_then(Value::as_str)
            .unwrap_or("no reason given");
        return Err(problem(format!("gathering its facts failed: {why}")));
    }
    let facts = match value.get("ansible_facts") {
        Some(Value::Object(facts)) => facts,
        Some(_) => return Err(problem("`ansible_facts` is not an object".to_owned())),
        None => value,
    };
    if !facts.contains_key("ansible_interfaces") && !facts.contains_key("ansible_devices") {
        return Err(problem(
            "these facts have neither ansible_interfaces nor ansible_devices: gather them with the setup module's default subsets".to_owned(),
        ));
    }
    Ok(Found {
        file: file.to_owned(),
        name: host,
        host_name: text(facts, "ansible_hostname"),
        address: facts
            .get("ansible_default_ipv4")
            .and_then(|d| d.get("address"))
            .and_then(Value::as_str)
            .and_then(|a| a.parse::<Ipv4Addr>().ok()),
        found_at: facts
            .get("ansible_date_time")
            .and_then(|d| d.get("iso8601"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        source: super::model::HardwareSource::Ansible,
        hardware: hardware(facts),
    })
}

/// A file's name without its directories (and the fact cache's prefix).
fn base_name(file: &str) -> String {
    file.rsplit('/').next().unwrap_or(file).to_owned()
}

fn text(facts: &Map<String, Value>, key: &str) -> Option<String> {
    facts
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

fn hardware(facts: &Map<String, Value>) -> Hardware {
    let (interfaces, bonds) = interfaces(facts);
    Hardware {
        interfaces,
        bonds,
        disks: disks(facts),
        memory: facts
            .get("ansible_memtotal_mb")
            .and_then(Value::as_u64)
            .map(|mb| mb.saturating_mul(1 << 20)),
        cpus: facts
            .get("ansible_processor_vcpus")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok()),
        system: System {
            vendor: text(facts, "ansible_system_vendor"),
            product: text(facts, "ansible_product_name"),
            serial: text(facts, "ansible_product_serial"),
        },
    }
}

/// The interface facts of `name` (`ansible_eth0`, dashes as underscores).
fn interface<'f>(facts: &'f Map<String, Value>, name: &str) -> Option<&'f Map<String, Value>> {
    facts
        .get(&format!("ansible_{}", name.replace(['-', ':', '.'], "_")))
        .and_then(Value::as_object)
}

/// The physical NICs and the bonds, in `ansible_interfaces`' order by
/// name.
fn interfaces(facts: &Map<String, Value>) -> (Vec<FoundNic>, Vec<FoundBond>) {
    let mut names: Vec<&str> = facts
        .get("ansible_interfaces")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    names.sort_unstable();
    let mut nics = Vec::new();
    let mut bonds = Vec::new();
    for name in &names {
        let Some(data) = interface(facts, name) else {
            continue;
        };
        let kind = data.get("type").and_then(Value::as_str).unwrap_or_default();
        if kind == "bonding" {
            bonds.push(FoundBond {
                name: (*name).to_owned(),
                mode: data.get("mode").and_then(Value::as_str).map(str::to_owned),
                slaves: data
                    .get("slaves")
                    .and_then(Value::as_array)
                    .map(|s| {
                        s.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default(),
            });
        } else if is_nic(name, kind, data, &names) {
            nics.push(nic(name, data));
        }
    }
    (nics, bonds)
}

/// Whether interface `name` is a physical NIC: Ethernet or InfiniBand, not
/// a VLAN of another interface, and a device (a PCI address, or a driver
/// that is no virtual device's).
fn is_nic(name: &str, kind: &str, data: &Map<String, Value>, all: &[&str]) -> bool {
    if !matches!(kind, "ether" | "infiniband") {
        return false;
    }
    let vlan = name
        .rsplit_once('.')
        .is_some_and(|(parent, tag)| all.contains(&parent) && tag.parse::<u16>().is_ok());
    if vlan {
        return false;
    }
    let pci = data.get("pciid").and_then(Value::as_str).is_some();
    let driver = data.get("module").and_then(Value::as_str);
    pci || driver.is_some_and(|d| !VIRTUAL_DRIVERS.contains(&d))
}

fn nic(name: &str, data: &Map<String, Value>) -> FoundNic {
    let mac = ["perm_macaddress", "macaddress"]
        .iter()
        .find_map(|key| data.get(*key).and_then(Value::as_str).and_then(normal_mac));
    FoundNic {
        name: name.to_owned(),
        mac,
        speed_mbps: data
            .get("speed")
            .and_then(Value::as_i64)
            .filter(|s| *s > 0)
            .and_then(|s| u32::try_from(s).ok()),
        state: if data.get("active").and_then(Value::as_bool) == Some(true) {
            LinkState::Up
        } else {
            LinkState::Down
        },
        driver: data
            .get("module")
            .and_then(Value::as_str)
            .map(str::to_owned),
        pci: data.get("pciid").and_then(Value::as_str).map(str::to_owned),
        lldp: None,
    }
}

/// A number Ansible writes as text or as a number.
fn number(value: Option<&Value>) -> Option<u64> {
    match value? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn flag(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::String(s)) if s == "1")
        || value.and_then(Value::as_bool) == Some(true)
}

/// The disks of `ansible_devices`, by name.
fn disks(facts: &Map<String, Value>) -> Vec<Disk> {
    let Some(devices) = facts.get("ansible_devices").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut disks: Vec<Disk> = devices
        .iter()
        .filter(|(name, _)| !NOT_DISKS.iter().any(|p| name.starts_with(p)))
        .filter_map(|(name, device)| {
            let size = number(device.get("sectors"))?.checked_mul(SYSFS_SECTOR)?;
            (size > 0).then(|| Disk {
                name: name.clone(),
                size,
                model: device
                    .get("model")
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(str::to_owned),
                by_path: None,
                extra: device
                    .get("links")
                    .and_then(|l| l.get("ids"))
                    .and_then(Value::as_array)
                    .map(|ids| {
                        ids.iter()
                            .filter_map(Value::as_str)
                            .map(|id| format!("disk/by-id/{id}"))
                            .collect()
                    })
                    .unwrap_or_default(),
                rotational: flag(device.get("rotational")),
                removable: flag(device.get("removable")),
            })
        })
        .collect();
    disks.sort_by(|a, b| a.name.cmp(&b.name));
    disks
}
