//! `mosaic roles check` (files), and the roles on a server
//! (`role_changes.rs`).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use mosaic_core::name::PluginName;
use mosaic_core::role::{NodeRoles, RolesReport, check_roles, parse_roles};

use super::models::{read_models, read_yaml};
use super::{Format, print_json};
use crate::out::out;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check nodes' roles (conflicts, restrictions, unknown roles) and every
    /// role's limits. Exit 0 when all is well, 1 on any node or limit error,
    /// 2 on unreadable or malformed input.
    Check(CheckArgs),
    /// A release's or an environment's roles on a server, with where each
    /// one's tags come from.
    List(super::role_changes::RoleList),
    /// One role of a release or an environment on a server.
    Show(super::role_changes::RoleShow),
    /// Create a role on a release or an environment.
    Create(super::role_changes::RoleCreate),
    /// Replace a role's tags on a release or an environment.
    Update(super::role_changes::RoleUpdate),
    /// Undo a role's change on a release or an environment (a role created
    /// there is deleted).
    Delete(super::role_changes::RoleDelete),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A roles_metadata map (a release's, or a plugin's node_roles.yaml).
    #[arg(long, value_name = "FILE")]
    roles: PathBuf,
    /// YAML {settings: …, cluster: …, release: …, version: …}.
    #[arg(long, value_name = "FILE")]
    models: PathBuf,
    /// A list of {id, roles: [...], pending_deletion?: bool}.
    #[arg(long, value_name = "FILE")]
    nodes: PathBuf,
    /// The roles are plugin NAME's: they get the implicit "plugin disabled"
    /// restriction (settings:NAME.metadata.enabled != true).
    #[arg(long, value_name = "NAME")]
    plugin: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn run(command: Command) -> i32 {
    use super::role_changes as remote;
    match command {
        Command::Check(args) => check(args),
        Command::List(args) => remote::list(args),
        Command::Show(args) => remote::show(args),
        Command::Create(args) => remote::create(args),
        Command::Update(args) => remote::update(args),
        Command::Delete(args) => remote::delete(args),
    }
}

fn check(args: CheckArgs) -> i32 {
    let loaded = (|| {
        let value: serde_json::Value = read_yaml(&args.roles)?;
        let mut roles =
            parse_roles(&value).map_err(|e| format!("{}: {e}", args.roles.display()))?;
        if let Some(plugin) = &args.plugin {
            let plugin =
                PluginName::new(plugin.as_str()).map_err(|e| format!("mosaic: --plugin: {e}"))?;
            roles = roles.into_iter().map(|r| r.provided_by(&plugin)).collect();
        }
        let models = read_models(&args.models)?;
        let nodes: Vec<NodeRoles> =
            read_yaml::<Option<Vec<NodeRoles>>>(&args.nodes)?.unwrap_or_default();
        Ok::<_, String>((roles, models, nodes))
    })();
    let (roles, models, nodes) = match loaded {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let report = check_roles(&roles, &models, &nodes);
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => out!("{}", render(&report)),
    }
    if report.has_errors() { 1 } else { 0 }
}

fn render(report: &RolesReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for node in &report.nodes {
        let status = if node.errors.is_empty() {
            "ok"
        } else {
            "errors"
        };
        let _ = writeln!(out, "node {}: {status}", node.id);
        for e in &node.errors {
            let _ = writeln!(out, "  {}", e.message);
        }
    }
    for limit in &report.limits {
        let status = if limit.valid { "ok" } else { "error" };
        let _ = writeln!(out, "role {} ({} nodes): {status}", limit.role, limit.count);
        for e in &limit.errors {
            let _ = writeln!(out, "  error: {e}");
        }
        for w in &limit.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
    }
    if !report.hidden_roles.is_empty() {
        let hidden: Vec<&str> = report.hidden_roles.iter().map(|r| r.as_str()).collect();
        let _ = writeln!(out, "hidden roles: {}", hidden.join(", "));
    }
    out
}
