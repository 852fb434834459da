//! Ironic's inspection data read into a node's hardware (SEMANTICS §13):
//! `baremetal introspection data save` (a dict with `inventory`, the
//! processed interfaces under `all_interfaces`) or `baremetal node
//! inventory save` (`{inventory, plugin_data}`). The inventory is
//! ironic-python-agent's: `interfaces` (each with `mac_address`,
//! `has_carrier`, `speed_mbps` in newer agents), `disks` (sizes in
//! bytes), `memory.total` (bytes), `cpu.count`, `system_vendor`; LLDP is
//! read when inspection processed it (`lldp_processed`: the switch's
//! name, the port, the VLANs).

use std::net::Ipv4Addr;

use serde_json::{Map, Value};

use super::model::{
    Disk, Found, FoundNic, Hardware, HardwareSource, LinkState, Lldp, ReadProblem, System,
    normal_mac,
};

/// Whether `value` is Ironic's inspection data.
pub fn is_inspection(value: &Map<String, Value>) -> bool {
    value.get("inventory").is_some_and(Value::is_object)
}

/// The host of inspection data file `file`.
pub fn read(file: &str, value: &Map<String, Value>) -> Result<Found, ReadProblem> {
    let inventory = value
        .get("inventory")
        .and_then(Value::as_object)
        .expect("is_inspection holds");
    let processed = value
        .get("all_interfaces")
        .or_else(|| {
            value
                .get("plugin_data")
                .and_then(|p| p.get("all_interfaces"))
        })
        .and_then(Value::as_object);
    let file_name = file.rsplit('/').next().unwrap_or(file);
    let stem = file_name
        .strip_suffix(".json")
        .unwrap_or(file_name)
        .to_owned();
    let host_name = text(inventory.get("hostname"));
    let interfaces = interfaces(inventory, processed);
    if interfaces.is_empty() && disks(inventory).is_empty() {
        return Err(ReadProblem {
            file: file.to_owned(),
            host: host_name.clone().or(Some(stem)),
            message: "the inventory has neither interfaces nor disks".to_owned(),
        });
    }
    Ok(Found {
        file: file.to_owned(),
        name: host_name.clone().unwrap_or(stem),
        host_name,
        address: address(inventory),
        found_at: None,
        source: HardwareSource::Ironic,
        hardware: Hardware {
            interfaces,
            bonds: Vec::new(),
            disks: disks(inventory),
            memory: inventory
                .get("memory")
                .and_then(|m| m.get("total"))
                .and_then(Value::as_u64),
            cpus: inventory
                .get("cpu")
                .and_then(|c| c.get("count"))
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok()),
            system: system(inventory),
        },
    })
}

fn text(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

fn list<'v>(
    inventory: &'v Map<String, Value>,
    key: &str,
) -> impl Iterator<Item = &'v Map<String, Value>> {
    inventory
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

fn interfaces(
    inventory: &Map<String, Value>,
    processed: Option<&Map<String, Value>>,
) -> Vec<FoundNic> {
    let mut nics: Vec<FoundNic> = list(inventory, "interfaces")
        .filter_map(|i| {
            let name = text(i.get("name"))?;
            let lldp = processed
                .and_then(|p| p.get(&name))
                .and_then(|p| p.get("lldp_processed"))
                .and_then(Value::as_object)
                .map(lldp);
            Some(FoundNic {
                mac: i
                    .get("mac_address")
                    .and_then(Value::as_str)
                    .and_then(normal_mac),
                speed_mbps: i
                    .get("speed_mbps")
                    .and_then(Value::as_u64)
                    .filter(|s| *s > 0)
                    .and_then(|s| u32::try_from(s).ok()),
                state: if i.get("has_carrier").and_then(Value::as_bool) == Some(false) {
                    LinkState::Down
                } else {
                    LinkState::Up
                },
                driver: text(i.get("driver")),
                pci: text(i.get("pci_address")),
                lldp,
                name,
            })
        })
        .collect();
    nics.sort_by(|a, b| a.name.cmp(&b.name));
    nics
}

/// inspection's processed LLDP: the switch's name (its chassis id without
/// one), the port, the VLANs.
fn lldp(processed: &Map<String, Value>) -> Lldp {
    Lldp {
        switch: text(processed.get("switch_system_name"))
            .or_else(|| text(processed.get("switch_chassis_id"))),
        port: text(processed.get("switch_port_id"))
            .or_else(|| text(processed.get("switch_port_description"))),
        vlans: processed
            .get("switch_port_vlans")
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(|vlan| vlan.get("id").and_then(Value::as_u64))
                    .filter_map(|id| u16::try_from(id).ok())
                    .collect()
            })
            .unwrap_or_default(),
    }
}

fn disks(inventory: &Map<String, Value>) -> Vec<Disk> {
    let mut disks: Vec<Disk> = list(inventory, "disks")
        .filter_map(|d| {
            let path = text(d.get("name"))?;
            let name = path.strip_prefix("/dev/").unwrap_or(&path).to_owned();
            let size = d.get("size").and_then(Value::as_u64).filter(|s| *s > 0)?;
            Some(Disk {
                name,
                size,
                model: text(d.get("model")),
                by_path: text(d.get("by_path"))
                    .map(|p| p.strip_prefix("/dev/").unwrap_or(&p).to_owned()),
                extra: text(d.get("wwn"))
                    .map(|w| vec![format!("disk/by-id/wwn-{w}")])
                    .unwrap_or_default(),
                rotational: d
                    .get("rotational")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                removable: false,
            })
        })
        .collect();
    disks.sort_by(|a, b| a.name.cmp(&b.name));
    disks
}

fn system(inventory: &Map<String, Value>) -> System {
    let vendor = inventory.get("system_vendor");
    System {
        vendor: text(vendor.and_then(|v| v.get("manufacturer"))),
        product: text(vendor.and_then(|v| v.get("product_name"))),
        serial: text(vendor.and_then(|v| v.get("serial_number"))),
    }
}

/// The address the host booted from: its PXE interface's, else the first
/// interface's that has one.
fn address(inventory: &Map<String, Value>) -> Option<Ipv4Addr> {
    let pxe = inventory
        .get("boot")
        .and_then(|b| b.get("pxe_interface"))
        .and_then(Value::as_str)
        .and_then(normal_mac);
    let with_address =
        |i: &&Map<String, Value>| i.get("ipv4_address").and_then(Value::as_str).is_some();
    let mut candidates = list(inventory, "interfaces").filter(with_address);
    let chosen = match &pxe {
        Some(mac) => list(inventory, "interfaces")
            .filter(with_address)
            .find(|i| {
                i.get("mac_address")
                    .and_then(Value::as_str)
                    .and_then(normal_mac)
                    .as_ref()
                    == Some(mac)
            })
            .or_else(|| candidates.next()),
        None => candidates.next(),
    }?;
    chosen.get("ipv4_address")?.as_str()?.parse().ok()
}
