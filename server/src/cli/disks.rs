//! `mosaic node disks`: a node's disk layout (SEMANTICS §14) as Fuel's
//! Configure Disks holds it — per disk the room its volumes share, the
//! boot flag and each volume's size in MB —, its defaults, and a layout
//! saved from a file (the API's simple format) on the node's version.

use std::path::PathBuf;

use clap::Args;
use mosaic_core::api::DiskEntry;
use serde_json::Value;

use super::client::{Client, Failure, Remote, with_client};
use super::{Format, print_json};
use crate::out::outln;

#[derive(Debug, Args)]
pub struct NodeDisks {
    /// The node's id.
    id: i64,
    /// Print the defaults of its roles on its disks (not stored).
    #[arg(long, conflicts_with = "set")]
    defaults: bool,
    /// Save the layout in FILE (JSON: `mosaic node disks ID --format json`'s
    /// shape), made on the node as it is now.
    #[arg(long, value_name = "FILE")]
    set: Option<PathBuf>,
    #[command(flatten)]
    remote: Remote,
}

/// Prints the layout (or its defaults, or the layout saved): one block
/// per disk. Exit 1 when the server refuses (every problem on stderr), 2
/// for a file that cannot be read as a layout.
pub fn disks(args: NodeDisks) -> i32 {
    let sent = match &args.set {
        Some(path) => match read_layout(path) {
            Ok(layout) => Some(layout),
            Err(message) => {
                eprintln!("mosaic: node disks: {message}");
                return 2;
            }
        },
        None => None,
    };
    with_client(&args.remote, |c| {
        let path = format!("/api/v1/nodes/{}/disks", args.id);
        let answer = match &sent {
            Some(layout) => save(c, args.id, &path, layout)?,
            None if args.defaults => c.json("GET", &format!("{path}/defaults"), None)?,
            None => c.json("GET", &path, None)?,
        };
        if args.remote.format == Format::Json {
            print_json(&answer);
            return Ok(());
        }
        let layout: Vec<DiskEntry> = serde_json::from_value(answer)
            .map_err(|e| Failure::Broken(format!("the server's layout is not one: {e}")))?;
        print_layout(&layout);
        Ok(())
    })
}

/// A layout file: the API's simple format.
fn read_layout(path: &std::path::Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    serde_json::from_value::<Vec<DiskEntry>>(value.clone()).map_err(|e| {
        format!(
            "{} is not a layout (a list of disks, each with its volumes): {e}",
            path.display()
        )
    })?;
    Ok(value)
}

/// Saves `layout` on the node's version as read now: a change made
/// meanwhile refuses it (412) rather than being overwritten unseen.
fn save(c: &Client, id: i64, path: &str, layout: &Value) -> Result<Value, Failure> {
    let node = c.json("GET", &format!("/api/v1/nodes/{id}"), None)?;
    let version = node["version"]
        .as_i64()
        .ok_or_else(|| Failure::Broken("the server's node has no version".into()))?;
    c.json_at("PUT", path, layout, version)
}

fn print_layout(layout: &[DiskEntry]) {
    if layout.is_empty() {
        outln!("no disks known: import the node's hardware (`mosaic node import`) or declare it");
        return;
    }
    let width = layout
        .iter()
        .flat_map(|d| &d.volumes)
        .map(|v| v.name.len())
        .chain(["unallocated".len()])
        .max()
        .unwrap_or(0);
    for (i, disk) in layout.iter().enumerate() {
        if i > 0 {
            outln!();
        }
        let boot = if disk.bootable { ", boot disk" } else { "" };
        let name = match disk.name.is_empty() || disk.name == disk.id {
            true => disk.id.clone(),
            false => format!("{} ({})", disk.id, disk.name),
        };
        outln!("disk {name}: {} MB for volumes{boot}", disk.size);
        for v in &disk.volumes {
            let keep = if v.keep_data { "  (data kept)" } else { "" };
            outln!("  {:<width$}  {:>9} MB{keep}", v.name, v.size);
        }
        let unallocated = disk.size - disk.volumes.iter().map(|v| v.size).sum::<i64>();
        if unallocated > 0 {
            outln!("  {:<width$}  {:>9} MB", "unallocated", unallocated);
        }
    }
}
