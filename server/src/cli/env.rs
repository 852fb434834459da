//! `mosaic env` and `mosaic node`: environments and their nodes on a
//! running server (docs/cli.md, "The command-line client").

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use mosaic_core::api::Consequences;
use mosaic_core::name::PluginName;

use super::client::{Body, Client, Failure, Remote, done, dry_run, print, with_client};
use super::environments::{environment_id, print_envs};
use super::preview::{not_a_preview, section, task_line};
use crate::out::out;

#[derive(Debug, Subcommand)]
pub enum EnvCommand {
    /// List the environments.
    List(Remote),
    /// Show one environment.
    Show(EnvId),
    /// Create an environment from a release and components.
    Create(EnvCreate),
    /// Delete an environment with its nodes and its tags.
    Delete(EnvId),
    /// Write the environment as an environment file (YAML).
    Export(EnvExport),
    /// Create an environment from an environment file.
    Import(EnvImport),
    /// Change the environment's components (or preview the change).
    Components(EnvComponents),
    /// List the newer installed versions of the plugins it pins.
    Upgrades(super::upgrade::EnvUpgrades),
    /// Move a plugin it pins, or its release plugin, to a newer version
    /// (or preview the move).
    Upgrade(super::upgrade::EnvUpgrade),
    /// Show, download, upload or verify its network configuration.
    Networks(super::networks::EnvNetworks),
    /// Deploy it with kolla-ansible (or what changed, or some actions),
    /// and follow the run.
    Deploy(super::runs::EnvDeploy),
}

#[derive(Debug, Args)]
pub struct EnvId {
    id: i64,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct EnvCreate {
    #[arg(long)]
    name: String,
    /// The release's id (`GET /api/v1/releases`).
    #[arg(long)]
    release: i64,
    /// A chosen component; repeat, or separate with commas.
    #[arg(long = "component", value_name = "C", value_delimiter = ',')]
    components: Vec<String>,
    /// `ha_compact` (default) or `multinode`.
    #[arg(long)]
    mode: Option<String>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct EnvExport {
    /// The environment: its id, or its name.
    env: String,
    /// Export for a deployer (`kolla-ansible`) instead of as an
    /// environment file: its files are written under `-o DIR`.
    #[arg(long, value_name = "DEPLOYER")]
    to: Option<String>,
    /// Write to FILE (the environment file) or under DIR (with --to)
    /// instead of stdout.
    #[arg(short, long, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct EnvImport {
    /// An environment file (YAML or JSON).
    file: PathBuf,
    #[arg(long)]
    name: String,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct EnvComponents {
    /// The environment: its id, or its name.
    env: String,
    /// The new selection: every component, separated with commas.
    #[arg(
        long = "set",
        value_name = "NAME,NAME…",
        value_delimiter = ',',
        required = true,
        num_args = 1
    )]
    components: Vec<String>,
    /// Show what the change would do, and change nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    remote: Remote,
}

pub fn env(command: EnvCommand) -> i32 {
    match command {
        EnvCommand::List(remote) => with_client(&remote, |c| {
            print_envs(remote.format, &c.json("GET", "/api/v1/clusters", None)?);
            Ok(())
        }),
        EnvCommand::Show(args) => with_client(&args.remote, |c| {
            let env = c.json("GET", &format!("/api/v1/clusters/{}", args.id), None)?;
            print_envs(args.remote.format, &env);
            Ok(())
        }),
        EnvCommand::Create(args) => with_client(&args.remote, |c| create(c, &args)),
        EnvCommand::Delete(args) => with_client(&args.remote, |c| {
            c.json("DELETE", &format!("/api/v1/clusters/{}", args.id), None)?;
            done(
                args.remote.format,
                &format!("deleted environment {}", args.id),
            );
            Ok(())
        }),
        EnvCommand::Export(args) => with_client(&args.remote, |c| export(c, &args)),
        EnvCommand::Import(args) => with_client(&args.remote, |c| import(c, &args)),
        EnvCommand::Components(args) => with_client(&args.remote, |c| components(c, &args)),
        EnvCommand::Upgrades(args) => {
            with_client(args.remote(), |c| super::upgrade::upgrades(c, &args))
        }
        EnvCommand::Upgrade(args) => {
            with_client(args.remote(), |c| super::upgrade::upgrade(c, &args))
        }
        EnvCommand::Networks(args) => super::networks::networks(&args),
        EnvCommand::Deploy(args) => super::runs::env_deploy(args),
    }
}

fn create(client: &Client, args: &EnvCreate) -> Result<(), Failure> {
    let mut body =
        json!({"name": args.name, "release_id": args.release, "components": args.components});
    if let Some(mode) = &args.mode {
        body["mode"] = json!(mode);
    }
    let env = client.json("POST", "/api/v1/clusters", Some(&body))?;
    print_envs(args.remote.format, &env);
    Ok(())
}

fn export(client: &Client, args: &EnvExport) -> Result<(), Failure> {
    let id = environment_id(client, &args.env)?;
    if let Some(deployer) = &args.to {
        return super::deploy::export(
            client,
            id,
            deployer,
            args.output.as_deref(),
            args.remote.format,
        );
    }
    let bytes = client.send("GET", &format!("/api/v1/clusters/{id}/environment"), None)?;
    match &args.output {
        Some(path) => std::fs::write(path, &bytes)
            .map_err(|e| Failure::Broken(format!("cannot write {}: {e}", path.display()))),
        None => {
            out!("{}", String::from_utf8_lossy(&bytes));
            Ok(())
        }
    }
}

fn import(client: &Client, args: &EnvImport) -> Result<(), Failure> {
    let bytes = std::fs::read(&args.file)
        .map_err(|e| Failure::Broken(format!("cannot read {}: {e}", args.file.display())))?;
    let json = args.file.extension().is_some_and(|e| e == "json");
    let body = Body {
        content_type: if json {
            "application/json"
        } else {
            "application/yaml"
        },
        bytes,
    };
    let name: String = url_encode(&args.name);
    let env = client.json_of(
        "POST",
        &format!("/api/v1/clusters/import?name={name}"),
        Some(body),
    )?;
    print_envs(args.remote.format, &env);
    Ok(())
}

fn components(client: &Client, args: &EnvComponents) -> Result<(), Failure> {
    let id = environment_id(client, &args.env)?;
    let body = json!({"components": args.components});
    let path = format!("/api/v1/clusters/{id}/components");
    if args.dry_run {
        let path = format!("{path}?dry_run=true");
        return dry_run(
            client,
            ("PUT", &path, Some(&body)),
            args.remote.format,
            |v| {
                let consequences: Consequences =
                    serde_json::from_value(v).map_err(not_a_preview)?;
                Ok(preview(&consequences))
            },
        );
    }
    let answer = client.json("PUT", &path, Some(&body))?;
    print_envs(args.remote.format, &answer);
    done(
        args.remote.format,
        &format!("changed the components of environment {id}"),
    );
    Ok(())
}

/// A dry run's consequences for people: settings, plugins, roles, tasks.
fn preview(c: &Consequences) -> String {
    let mut out = String::new();
    let mut section = |title: &str, lines: Vec<String>| section(&mut out, title, lines);
    section(
        "Settings",
        c.settings
            .iter()
            .map(|s| format!("{}: {} -> {}", s.path, s.before, s.after))
            .collect(),
    );
    let names = |ps: &[PluginName]| ps.iter().map(ToString::to_string).collect::<Vec<_>>();
    let plugins = [("on", &c.plugins.enabled), ("off", &c.plugins.disabled)];
    section(
        "Plugins",
        plugins
            .iter()
            .filter(|(_, ps)| !ps.is_empty())
            .map(|(how, ps)| format!("switched {how}: {}", names(ps).join(", ")))
            .collect(),
    );
    section(
        "Roles that become unavailable",
        c.roles
            .iter()
            .map(|r| match r.nodes.as_slice() {
                [] => r.role.to_string(),
                nodes => format!("{} (held by {}: refused)", r.role, nodes.join(", ")),
            })
            .collect(),
    );
    section("Tasks", c.tasks.iter().map(task_line).collect());
    section("Networks", c.networks.lines());
    out
}

/// `text` for a URL query: unreserved characters as they are, the rest
/// percent-encoded.
fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[derive(Debug, Subcommand)]
pub enum NodeCommand {
    /// List an environment's nodes.
    List(NodeList),
    /// Add a node to an environment.
    Add(NodeAdd),
    /// Change a node's roles or status.
    Update(NodeUpdate),
    /// Delete a node.
    Delete(NodeId),
    /// Show a node's interfaces, the networks on them and its addresses;
    /// put networks on its ports.
    Interfaces(super::networks::NodeInterfaces),
    /// Import nodes' hardware from Ansible facts or Ironic inspection data
    /// (files or directories): each host matched to its node or added.
    Import(super::hardware::NodeImport),
    /// Show a node and its hardware (NICs, bonds, disks, memory, CPUs).
    Show(super::hardware::NodeShow),
    /// Show a node's disk layout (or its defaults); save one from a file.
    Disks(super::disks::NodeDisks),
}

#[derive(Debug, Args)]
pub struct NodeList {
    #[arg(long = "env", value_name = "ID")]
    env: i64,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct NodeAdd {
    #[arg(long = "env", value_name = "ID")]
    env: i64,
    #[arg(long)]
    name: Option<String>,
    /// A role; repeat, or separate with commas.
    #[arg(long = "role", value_name = "R", value_delimiter = ',')]
    roles: Vec<String>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct NodeUpdate {
    id: i64,
    /// The node's roles from now on; repeat, or separate with commas.
    #[arg(long = "role", value_name = "R", value_delimiter = ',')]
    roles: Option<Vec<String>>,
    /// `discover`, `provisioned`, `ready` or `error`.
    #[arg(long)]
    status: Option<String>,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct NodeId {
    id: i64,
    #[command(flatten)]
    remote: Remote,
}

const NODE_COLUMNS: &[&str] = &["id", "name", "status", "roles", "tags"];

pub fn node(command: NodeCommand) -> i32 {
    match command {
        NodeCommand::List(args) => with_client(&args.remote, |c| {
            let nodes = c.json("GET", &format!("/api/v1/clusters/{}/nodes", args.env), None)?;
            print(args.remote.format, &nodes, NODE_COLUMNS);
            Ok(())
        }),
        NodeCommand::Add(args) => with_client(&args.remote, |c| {
            let mut body = json!({"roles": non_empty(&args.roles)});
            if let Some(name) = &args.name {
                body["name"] = json!(name);
            }
            let node = c.json(
                "POST",
                &format!("/api/v1/clusters/{}/nodes", args.env),
                Some(&body),
            )?;
            print(args.remote.format, &node, NODE_COLUMNS);
            Ok(())
        }),
        NodeCommand::Update(args) => update(args),
        NodeCommand::Interfaces(args) => super::networks::interfaces(&args),
        NodeCommand::Import(args) => super::hardware::import(args),
        NodeCommand::Show(args) => super::hardware::show(args),
        NodeCommand::Disks(args) => super::disks::disks(args),
        NodeCommand::Delete(args) => with_client(&args.remote, |c| {
            c.json("DELETE", &format!("/api/v1/nodes/{}", args.id), None)?;
            done(args.remote.format, &format!("deleted node {}", args.id));
            Ok(())
        }),
    }
}

/// The names given, without empty ones (`--role ''` means none).
fn non_empty(names: &[String]) -> Vec<&String> {
    names.iter().filter(|n| !n.is_empty()).collect()
}

fn update(args: NodeUpdate) -> i32 {
    if args.roles.is_none() && args.status.is_none() {
        eprintln!("mosaic: node update: give --role or --status");
        return 2;
    }
    with_client(&args.remote, |c| {
        let mut body = json!({});
        if let Some(roles) = &args.roles {
            body["roles"] = json!(non_empty(roles));
        }
        if let Some(status) = &args.status {
            body["status"] = json!(status);
        }
        let node = c.json("PUT", &format!("/api/v1/nodes/{}", args.id), Some(&body))?;
        print(args.remote.format, &node, NODE_COLUMNS);
        Ok(())
    })
}
