//! `mosaic settings check ENV_FILE`: an environment file's effective
//! settings (defaults, the binds of its components, the plugins they switch
//! on, then its own settings), every settings problem, and each node's role
//! problems against those settings.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use mosaic_core::role::NodeErrorKind;
use mosaic_core::settings::Problem;
use mosaic_core::tag::TagsMetadata;
use serde::Serialize;
use serde_json::{Map, Value};

use super::envfile;
use super::{Format, print_json};
use crate::out::out;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check an environment file's settings and its nodes' roles. Exit 0
    /// when there is no problem, 1 when there is, 2 when the file or a
    /// package cannot be read.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The environment file (docs/environment-file.md).
    env_file: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// The JSON answer (the contract of `--format json`).
#[derive(Debug, Serialize)]
struct Report {
    settings: Map<String, Value>,
    plugins: Map<String, Value>,
    problems: Vec<Problem>,
    nodes: Vec<NodeProblems>,
}

#[derive(Debug, Serialize)]
struct NodeProblems {
    id: i64,
    problems: Vec<String>,
}

pub fn run(command: Command) -> i32 {
    let Command::Check(args) = command;
    let loaded = match envfile::read(&args.env_file) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let release = match loaded.release() {
        Ok(release) => release,
        Err(message) => {
            eprintln!("mosaic: {message}");
            return 2;
        }
    };
    let spec = loaded.spec();
    let no_tags = TagsMetadata::new();
    let env = match loaded.environment(release, &spec, &no_tags) {
        Ok(env) => env,
        Err(e) => {
            eprintln!("mosaic: {}: {e}", args.env_file.display());
            return 2;
        }
    };
    let mut problems: Vec<Problem> = env
        .selection_violations()
        .into_iter()
        .map(|v| Problem::new("components", v.message))
        .collect();
    problems.extend(env.settings_problems());
    let nodes: Vec<NodeProblems> = env
        .node_role_errors()
        .into_iter()
        .map(|(node, errors)| NodeProblems {
            id: node.id,
            problems: errors
                .into_iter()
                .map(|e| match e.kind {
                    NodeErrorKind::UnknownRole => format!("Role '{}' does not exist.", e.roles[0]),
                    _ => e.message,
                })
                .collect(),
        })
        .collect();
    let report = Report {
        settings: env.settings().values(),
        plugins: env
            .plugin_states()
            .into_iter()
            .map(|(name, on)| (name.to_string(), Value::Bool(on)))
            .collect(),
        problems,
        nodes,
    };
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => out!("{}", render(&report)),
    }
    let clean = report.problems.is_empty() && report.nodes.iter().all(|n| n.problems.is_empty());
    if clean { 0 } else { 1 }
}

fn render(report: &Report) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (name, on) in &report.plugins {
        let _ = writeln!(
            out,
            "plugin {name}: {}",
            if on == &Value::Bool(true) {
                "enabled"
            } else {
                "disabled"
            }
        );
    }
    for p in &report.problems {
        let _ = writeln!(out, "{}: {}", p.path, p.message);
    }
    for node in &report.nodes {
        let status = if node.problems.is_empty() {
            "ok"
        } else {
            "problems"
        };
        let _ = writeln!(out, "node {}: {status}", node.id);
        for p in &node.problems {
            let _ = writeln!(out, "  {p}");
        }
    }
    let count =
        report.problems.len() + report.nodes.iter().map(|n| n.problems.len()).sum::<usize>();
    let _ = writeln!(out, "{count} problem{}", if count == 1 { "" } else { "s" });
    out
}
