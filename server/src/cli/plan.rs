//! `mosaic tags resolve` and `mosaic plan`: which nodes a selector picks,
//! and an environment's deployment plan.

use std::path::{Path, PathBuf};

use clap::Args;
use mosaic_core::environment::{EnvironmentFile, plan_environment};
use mosaic_core::plugin::{Package, load};
use mosaic_core::release::Release;
use mosaic_core::tag::Selector;
use mosaic_core::task::{Plan, PlanError, PlanErrorKind};
use serde::Deserialize;

use super::models::read_yaml;
use super::{Format, print_json};
use crate::{bundled, package};

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
    tags: Vec<String>,
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
                println!("{id}");
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
    #[arg(long, default_value = "default")]
    graph: String,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// A package the environment names, loaded; why not otherwise.
fn load_package(base: &Path, path: &str) -> Result<Package, String> {
    let full = base.join(path);
    let files = package::open(&full).map_err(|e| e.to_string())?;
    let loaded = load(files.as_ref());
    loaded.package.ok_or_else(|| {
        format!(
            "{}: the package is not valid:\n{}",
            full.display(),
            loaded.report
        )
    })
}

/// The release the environment is for, or the plan error saying why not.
fn choose_release(env: &EnvironmentFile, package: &Package) -> Result<Release, Box<PlanError>> {
    let releases: Vec<&Release> = package.releases().collect();
    let names = || {
        releases
            .iter()
            .map(|r| format!("'{}'", r.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (&env.release_name, releases.as_slice()) {
        (_, []) => Err(Box::new(PlanError::new(
            PlanErrorKind::Release,
            format!(
                "{} ships no release (it is not a release plugin)",
                package.source()
            ),
        ))),
        (None, [one]) => Ok((*one).clone()),
        (None, _) => Err(Box::new(PlanError::new(
            PlanErrorKind::Release,
            format!(
                "{} ships several releases ({}); say which with release_name",
                package.source(),
                names()
            ),
        ))),
        (Some(name), _) => releases
            .iter()
            .find(|r| &r.name == name)
            .map(|r| (*r).clone())
            .ok_or_else(|| {
                Box::new(PlanError::new(
                    PlanErrorKind::Release,
                    format!(
                        "{} has no release '{name}' (it has {})",
                        package.source(),
                        names()
                    ),
                ))
            }),
    }
}

pub fn plan(args: PlanArgs) -> i32 {
    let env: EnvironmentFile = match read_yaml(&args.env_file) {
        Ok(env) => env,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let base = args.env_file.parent().unwrap_or(Path::new("."));
    let release_package = match &env.release {
        Some(path) => load_package(base, path),
        None => bundled::load_bundled()
            .package
            .ok_or_else(|| "the bundled release plugin is invalid".to_owned()),
    };
    let mut plugins = Vec::new();
    for path in &env.plugins {
        match load_package(base, path) {
            Ok(p) => plugins.push(p),
            Err(e) => {
                eprintln!("mosaic: {e}");
                return 2;
            }
        }
    }
    let result = match release_package {
        Err(e) => {
            eprintln!("mosaic: {e}");
            return 2;
        }
        Ok(package) => match choose_release(&env, &package) {
            Ok(release) => plan_environment(&env, &release, &plugins, &args.graph),
            Err(error) => Plan {
                nodes: Vec::new(),
                errors: vec![*error],
                warnings: Vec::new(),
                edges: Vec::new(),
                instances: Default::default(),
            },
        },
    };
    match args.format {
        Format::Json => print_json(&result),
        Format::Text => print_text(&result),
    }
    i32::from(!result.errors.is_empty())
}

fn print_text(plan: &Plan) {
    for node in &plan.nodes {
        let name = match &node.id {
            serde_json::Value::String(s) => s.clone(),
            other => format!("node {other}"),
        };
        println!(
            "{name}: {} task{} — tags {}",
            node.tasks.len(),
            if node.tasks.len() == 1 { "" } else { "s" },
            node.tags.join(", ")
        );
        for (i, task) in node.tasks.iter().enumerate() {
            println!("  {:>3}. {task}", i + 1);
        }
    }
    for (name, groups) in &plan.instances {
        for (n, nodes) in groups {
            let ids: Vec<String> = nodes.iter().map(i64::to_string).collect();
            println!("instance {name}:{n}: nodes {}", ids.join(", "));
        }
    }
    for warning in &plan.warnings {
        println!("warning: {warning}");
    }
    for error in &plan.errors {
        let kind = serde_json::to_value(error.kind).unwrap_or_default();
        println!(
            "error ({}): {}",
            kind.as_str().unwrap_or("?"),
            error.message
        );
    }
    println!(
        "{} node{}, {} error{}, {} warning{}",
        plan.nodes.len(),
        if plan.nodes.len() == 1 { "" } else { "s" },
        plan.errors.len(),
        if plan.errors.len() == 1 { "" } else { "s" },
        plan.warnings.len(),
        if plan.warnings.len() == 1 { "" } else { "s" },
    );
}
