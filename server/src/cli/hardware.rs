//! `mosaic node import` and `mosaic node show`: nodes' hardware brought in
//! from Ansible facts or Ironic inspection data (files or directories,
//! sent as one `.tar.gz`), and one node with its hardware.

use std::path::PathBuf;

use clap::Args;
use mosaic_core::api::{ImportReport, NodeHardware};
use mosaic_core::hardware::view::HardwareView;
use serde_json::{Value, json};

use super::client::{Body, Failure, Remote, with_client};
use super::{Format, print_json, print_rows};
use crate::facts;
use crate::out::outln;

#[derive(Debug, Args)]
pub struct NodeImport {
    #[arg(long = "env", value_name = "ID")]
    env: i64,
    /// Facts files, or directories of them (`ansible -m setup --tree DIR`,
    /// a jsonfile fact cache, Ironic inspection data).
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Say what the import would do, storing nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    remote: Remote,
}

/// Imports the files; one line per host, every problem on stderr, exit 1
/// when the import is (or would be) refused.
pub fn import(args: NodeImport) -> i32 {
    let bytes = match facts::pack(&args.paths) {
        Ok(bytes) => bytes,
        Err(message) => {
            eprintln!("mosaic: node import: {message}");
            return 2;
        }
    };
    with_client(&args.remote, |c| {
        let path = format!(
            "/api/v1/clusters/{}/nodes/import{}",
            args.env,
            if args.dry_run { "?dry_run=true" } else { "" }
        );
        let body = Body {
            content_type: "application/gzip",
            bytes,
        };
        let answer = c.json_of("POST", &path, Some(body))?;
        let report: ImportReport = serde_json::from_value(answer.clone())
            .map_err(|e| Failure::Broken(format!("the server's report is not one: {e}")))?;
        if args.remote.format == Format::Json {
            print_json(&answer);
        } else {
            print_report(&report);
        }
        refused(&report)
    })
}

fn print_report(report: &ImportReport) {
    for name in &report.created {
        outln!("{name}: created");
    }
    for updated in &report.updated {
        outln!("{}: updated: {}", updated.node, updated.changes.join(", "));
    }
    for name in &report.unchanged {
        outln!("{name}: unchanged");
    }
}

/// A dry run's problems: each on stderr, and the refusal an import
/// would meet.
fn refused(report: &ImportReport) -> Result<(), Failure> {
    if report.problems.is_empty() {
        return Ok(());
    }
    for p in &report.problems {
        eprintln!("  {p}");
    }
    Err(Failure::Refused(format!(
        "the import would be refused: {}",
        mosaic_core::text::counted(report.problems.len(), "problem")
    )))
}

#[derive(Debug, Args)]
pub struct NodeShow {
    id: i64,
    #[command(flatten)]
    remote: Remote,
}

/// Prints the node and its hardware.
pub fn show(args: NodeShow) -> i32 {
    with_client(&args.remote, |c| {
        let node = c.json("GET", &format!("/api/v1/nodes/{}", args.id), None)?;
        let hardware = match c.json("GET", &format!("/api/v1/nodes/{}/hardware", args.id), None) {
            Ok(h) => Some(h),
            Err(Failure::Missing(_)) => None,
            Err(other) => return Err(other),
        };
        if args.remote.format == Format::Json {
            print_json(&json!({"node": node, "hardware": hardware}));
            return Ok(());
        }
        print_node(&node);
        match hardware {
            None => outln!("no hardware found yet: `mosaic node import`, or declare it"),
            Some(h) => print_hardware(h)?,
        }
        Ok(())
    })
}

fn print_node(node: &Value) {
    let text = |key: &str| super::cell_text(&node[key]);
    outln!("node {} {} ({})", text("id"), text("name"), text("status"));
    outln!("node group: {}", text("node_group"));
    outln!("roles: {}", text("roles"));
    if !node["pending_roles"].as_array().is_none_or(Vec::is_empty) {
        outln!("pending roles: {}", text("pending_roles"));
    }
}

fn print_hardware(answer: Value) -> Result<(), Failure> {
    let read: NodeHardware = serde_json::from_value(answer)
        .map_err(|e| Failure::Broken(format!("the server's hardware is not one: {e}")))?;
    let view = HardwareView::of_node(read);
    outln!("hardware: {}", view.found);
    for (label, value) in &view.facts {
        outln!("{label}: {value}");
    }
    outln!();
    let nics: Vec<Value> = view
        .nics
        .iter()
        .map(|n| json!({"nic": n.name, "mac": n.mac, "speed": n.speed, "state": n.state, "driver": n.driver, "lldp": n.lldp}))
        .collect();
    print_rows(
        Format::Text,
        &nics,
        &["nic", "mac", "speed", "state", "driver", "lldp"],
    );
    for bond in &view.bonds {
        outln!("bond {bond}");
    }
    outln!();
    let disks: Vec<Value> = view
        .disks
        .iter()
        .map(|d| json!({"disk": d.name, "size": d.size, "model": d.model, "kind": d.kind}))
        .collect();
    print_rows(Format::Text, &disks, &["disk", "size", "model", "kind"]);
    Ok(())
}
