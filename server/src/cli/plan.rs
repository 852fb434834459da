//! `mosaic tags resolve`, `mosaic plan` and `mosaic graphs`: which nodes a
//! selector picks, an environment's plan of a graph type, and its graph
//! types.

use std::path::PathBuf;

use clap::Args;
use mosaic_core::api::node_name;
use mosaic_core::environment::Environment;
use mosaic_core::name::{GraphType, TagName};
use mosaic_core::tag::{Selector, TagsMetadata};
use mosaic_core::task::{Plan, PlanError, PlanErrorKind};
use mosaic_core::text::counted;
use serde::Deserialize;

use super::models::read_yaml;
use super::{Format, envfile, print_json, print_rows};
use crate::out::outln;

#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// A YAML/JSON list of {id, tags: [...]} (effective tags).
    #[arg(long, value_name = "FILE")]
    nodes: PathBuf,
    /// Selector entries: a tag, `*`, `master` or `/regex/` (anchored at the
    /// start). A node is picked when any entry matches any of its tags.
    #[arg(long = "selector", value_name = "SEL", required = true, num_args = 1..)]
    selectors: Vec<String>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Deserialize)]
struct TaggedNode {
    id: serde_json::Value,
    #[serde(default)]
    tags: Vec<TagName>,
}

pub fn resolve(args: ResolveArgs) -> i32 {
    let selector = match Selector::parse(&args.selectors) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("mosaic: {e}");
            return 2;
        }
    };
    let nodes: Vec<TaggedNode> = match read_yaml::<Option<Vec<TaggedNode>>>(&args.nodes) {
        Ok(nodes) => nodes.unwrap_or_default(),
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let picked: Vec<&serde_json::Value> = nodes
        .iter()
        .filter(|n| selector.matches(&n.tags))
        .map(|n| &n.id)
        .collect();
    match args.format {
        Format::Json => print_json(&serde_json::json!({ "nodes": picked })),
        Format::Text => {
            for id in picked {
                outln!("{id}");
            }
        }
    }
    0
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The environment file (docs/environment-file.md).
    env_file: PathBuf,
    /// The graph type to plan.
    #[arg(long, default_value = GraphType::DEPLOYMENT)]
    graph: String,
    /// Also list each task on a node that waits for tasks on other nodes.
    #[arg(long)]
    cross: bool,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn plan(args: PlanArgs) -> i32 {
    let loaded = match envfile::read(&args.env_file) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let result = on_environment(&loaded, |env| env.plan_with(&args.graph, args.cross))
        .unwrap_or_else(Plan::failed);
    match args.format {
        Format::Json => print_json(&result),
        Format::Text => print_text(&result),
    }
    i32::from(!result.errors.is_empty())
}

/// `f` of the environment `loaded` describes; why there is none, as a
/// plan's error.
fn on_environment<T>(
    loaded: &envfile::Loaded,
    f: impl FnOnce(&Environment<'_>) -> T,
) -> Result<T, PlanError> {
    let spec = loaded.spec();
    let no_tags = TagsMetadata::new();
    let release = loaded
        .release()
        .map_err(|message| PlanError::new(PlanErrorKind::Release, message))?;
    match loaded.environment(release, &spec, &no_tags) {
        Ok(env) => Ok(f(&env)),
        Err(e) => Err(PlanError::new(
            PlanErrorKind::InvalidEnvironment,
            e.to_string(),
        )),
    }
}

#[derive(Debug, Args)]
pub struct GraphsArgs {
    /// The environment file (docs/environment-file.md).
    env_file: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Prints the environment's graph types, as `GET …/graphs` answers.
pub fn graphs(args: GraphsArgs) -> i32 {
    let loaded = match envfile::read(&args.env_file) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    match on_environment(&loaded, |env| env.graphs()) {
        Ok(graphs) => {
            let rows: Vec<serde_json::Value> = graphs
                .iter()
                .map(|g| serde_json::to_value(g).expect("graph summaries serialize"))
                .collect();
            print_rows(args.format, &rows, &["type", "name", "tasks", "sources"]);
            0
        }
        Err(e) => {
            eprintln!("mosaic: {}", e.message);
            2
        }
    }
}

fn print_text(plan: &Plan) {
    for node in &plan.nodes {
        let name = match &node.id {
            serde_json::Value::String(s) => s.clone(),
            other => format!("node {other}"),
        };
        outln!(
            "{name}: {} — tags {}",
            counted(node.tasks.len(), "task"),
            node.tags
                .iter()
                .map(TagName::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (i, task) in node.tasks.iter().enumerate() {
            outln!("  {:>3}. {task}", i + 1);
        }
    }
    for wait in plan.cross.iter().flatten() {
        let after: Vec<String> = wait
            .after
            .iter()
            .map(|a| format!("{}@{}", a.task, node_name(&a.node)))
            .collect();
        outln!(
            "cross-node wait: {}@{} after {}",
            wait.task,
            node_name(&wait.node),
            after.join(", ")
        );
    }
    for skipped in &plan.skipped {
        outln!("skipped {}: {}", skipped.id, skipped.reason);
    }
    for (name, groups) in &plan.instances {
        for (n, nodes) in groups {
            let ids: Vec<String> = nodes.iter().map(i64::to_string).collect();
            outln!("instance {name}:{n}: nodes {}", ids.join(", "));
        }
    }
    for warning in &plan.warnings {
        outln!("warning: {warning}");
    }
    for error in &plan.errors {
        let kind = serde_json::to_value(error.kind).unwrap_or_default();
        outln!(
            "error ({}): {}",
            kind.as_str().unwrap_or("?"),
            error.message
        );
    }
    outln!(
        "{}, {}, {}",
        counted(plan.nodes.len(), "node"),
        counted(plan.errors.len(), "error"),
        counted(plan.warnings.len(), "warning"),
    );
}
