//! `mosaic env networks` and `mosaic node interfaces`: an environment's
//! networks as a table, downloaded, uploaded or verified (Fuel's `fuel
//! network --download/--upload/--verify`), and a node's interfaces with
//! the networks on them and its addresses (docs/cli.md).

use mosaic_core::api::{ConfigurationView, NetworkProblem};
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::client::{Client, Failure, Remote, done, with_client};
use super::environments::environment_id;
use super::{Format, print_json, print_rows};
use crate::out::outln;

#[derive(Debug, Args)]
pub struct EnvNetworks {
    /// The environment: its id, or its name.
    env: String,
    /// Write the configuration to FILE (YAML; JSON for a `.json` file).
    #[arg(long, value_name = "FILE", conflicts_with = "upload")]
    download: Option<PathBuf>,
    /// Save the configuration FILE holds (YAML or JSON, as downloaded).
    #[arg(long, value_name = "FILE")]
    upload: Option<PathBuf>,
    /// Check the configuration (with --upload: FILE's, saving nothing):
    /// every problem on stderr and exit 1, or exit 0.
    #[arg(long)]
    verify: bool,
    #[command(flatten)]
    remote: Remote,
}

const COLUMNS: &[&str] = &[
    "network",
    "node_group",
    "cidr",
    "gateway",
    "vlan",
    "ranges",
    "used/capacity",
];

pub fn networks(args: &EnvNetworks) -> i32 {
    with_client(&args.remote, |c| {
        let id = environment_id(c, &args.env)?;
        let path = format!("/api/v1/clusters/{id}/network_configuration/neutron");
        let body = args.upload.as_deref().map(read).transpose()?;
        if args.verify {
            return verify(
                c,
                &path,
                body.unwrap_or_else(|| json!({})),
                args.remote.format,
            );
        }
        if let Some(file) = &args.download {
            let answer = c.json("GET", &path, None)?;
            write(file, &answer)?;
            done(args.remote.format, &format!("wrote {}", file.display()));
            return Ok(());
        }
        let answer = match body {
            Some(body) => c.json("PUT", &path, Some(&body))?,
            None => c.json("GET", &path, None)?,
        };
        table(&answer, args.remote.format)
    })
}

fn table(answer: &Value, format: Format) -> Result<(), Failure> {
    if format == Format::Json {
        print_json(answer);
        return Ok(());
    }
    let view: ConfigurationView = serde_json::from_value(answer.clone()).map_err(|e| {
        Failure::Broken(format!(
            "the server's answer is not a network configuration: {e}"
        ))
    })?;
    let rows: Vec<Value> = view
        .rows()
        .iter()
        .map(|r| serde_json::to_value(r).unwrap_or_default())
        .collect();
    print_rows(format, &rows, COLUMNS);
    Ok(())
}

/// Every problem of `body` on stderr (exit 1), or none (exit 0).
fn verify(client: &Client, path: &str, body: Value, format: Format) -> Result<(), Failure> {
    let answer = client.json("PUT", &format!("{path}/verify"), Some(&body))?;
    if format == Format::Json {
        print_json(&answer);
    }
    let problems: Vec<NetworkProblem> = serde_json::from_value(answer["problems"].clone())
        .map_err(|e| Failure::Broken(format!("the server's answer is not a verification: {e}")))?;
    if problems.is_empty() {
        done(format, "the network configuration has no problem");
        return Ok(());
    }
    let lines: Vec<String> = problems.iter().map(line).collect();
    Err(Failure::Refused(format!(
        "{} problem{}:\n{}",
        problems.len(),
        mosaic_core::text::plural(problems.len()),
        lines.join("\n")
    )))
}

/// A problem on one line (its message's own line breaks as spaces), with
/// the networks and fields it concerns.
fn line(problem: &NetworkProblem) -> String {
    let mut place: Vec<String> = Vec::new();
    if !problem.networks.is_empty() {
        let ids: Vec<String> = problem.networks.iter().map(ToString::to_string).collect();
        place.push(format!("network {}", ids.join(", ")));
    }
    if !problem.fields.is_empty() {
        place.push(problem.fields.join(", "));
    }
    let message = problem.message.replace('\n', " ");
    match place.is_empty() {
        true => format!("  {message}"),
        false => format!("  [{}] {message}", place.join("; ")),
    }
}

fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
}

fn read(path: &Path) -> Result<Value, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Broken(format!("cannot read {}: {e}", path.display())))?;
    if is_json(path) {
        return serde_json::from_str(&text)
            .map_err(|e| Failure::Broken(format!("{}: {e}", path.display())));
    }
    mosaic_core::yaml::parse(&path.display().to_string(), &text)
        .map_err(|e| Failure::Broken(e.to_string()))
}

fn write(path: &Path, value: &Value) -> Result<(), Failure> {
    let text = match is_json(path) {
        true => serde_json::to_string_pretty(value).unwrap_or_default() + "\n",
        false => mosaic_core::yaml::to_string(value),
    };
    std::fs::write(path, text)
        .map_err(|e| Failure::Broken(format!("cannot write {}: {e}", path.display())))
}

#[derive(Debug, Args)]
pub struct NodeInterfaces {
    id: i64,
    /// Put networks on a port: `eth0=management,storage` (repeat for
    /// several ports); the networks named move there.
    #[arg(long = "set", value_name = "PORT=NET,NET…")]
    set: Vec<String>,
    #[command(flatten)]
    remote: Remote,
}

pub fn interfaces(args: &NodeInterfaces) -> i32 {
    with_client(&args.remote, |c| {
        let path = format!("/api/v1/nodes/{}/interfaces", args.id);
        if !args.set.is_empty() {
            let ports = ports(&args.set)?;
            let node = c.json("GET", &format!("/api/v1/nodes/{}", args.id), None)?;
            let cluster = node["cluster_id"].as_i64().unwrap_or_default();
            let body = json!({"nodes": [args.id], "interfaces": ports});
            c.json(
                "POST",
                &format!("/api/v1/clusters/{cluster}/nodes/bulk"),
                Some(&body),
            )?;
        }
        let answer = c.json("GET", &path, None)?;
        if args.remote.format == Format::Json {
            print_json(&answer);
            return Ok(());
        }
        print_interfaces(&answer);
        Ok(())
    })
}

/// `--set` values as port → networks.
fn ports(set: &[String]) -> Result<Value, Failure> {
    let mut out = serde_json::Map::new();
    for item in set {
        let Some((port, nets)) = item.split_once('=') else {
            return Err(Failure::Broken(format!(
                "--set {item}: write PORT=NETWORK,NETWORK…"
            )));
        };
        let nets: Vec<&str> = nets
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        out.insert(port.trim().to_owned(), json!(nets));
    }
    Ok(Value::Object(out))
}

fn print_interfaces(answer: &Value) {
    let ports = |key: &str| answer[key].as_array().cloned().unwrap_or_default();
    let rows: Vec<Value> = ports("interfaces")
        .into_iter()
        .map(|p| json!({"port": p["name"], "kind": "interface", "mac": p["mac"], "networks": p["networks"]}))
        .chain(ports("bonds").into_iter().map(|b| {
            let slaves = b["slaves"].as_array().map(|s| s.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("+"));
            json!({"port": b["name"], "kind": format!("bond {} ({})", b["mode"].as_str().unwrap_or_default(), slaves.unwrap_or_default()), "networks": b["networks"]})
        }))
        .collect();
    if rows.is_empty() {
        outln!(
            "no interfaces declared (node group {})",
            answer["node_group"].as_str().unwrap_or_default()
        );
    } else {
        print_rows(Format::Text, &rows, &["port", "kind", "mac", "networks"]);
    }
    let layout = if answer["default_layout"] == true {
        "the default layout"
    } else {
        "its own layout"
    };
    outln!(
        "node group {}, {layout}",
        answer["node_group"].as_str().unwrap_or_default()
    );
    for (network, ip) in answer["addresses"].as_object().into_iter().flatten() {
        outln!("{network}: {}", ip.as_str().unwrap_or_default());
    }
}
