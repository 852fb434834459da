//! `mosaic heat`: template capabilities — find, summarize, resolve an
//! environment's `requires`, and list the choices that remain.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use mosaic_core::heat::{
    self, Capabilities, Resolution, is_template, matches_filters, parse_environment, summarize,
    template_capabilities,
};
use mosaic_core::yaml::LoadError;
use serde_json::json;

use super::{Format, print_json};
use crate::out::outln;
use crate::package::DirFiles;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Templates whose capabilities match every -c KEY=VALUE (files, or
    /// directories: their direct children, all descendants with -r).
    CapabilitiesFind(FindArgs),
    /// Summarize templates: every capability's values, and which files
    /// declare each resource_type.
    TemplateCapabilities(SummaryArgs),
    /// Resolve an environment: one template per resource type from its
    /// lists, by `requires`. Exit 1 when some type does not resolve.
    Resolve(EnvArgs),
    /// The resource types that still have more than one valid template.
    /// Exit 1 only when some requirement cannot be satisfied.
    Choices(EnvArgs),
}

#[derive(Debug, Args)]
pub struct FindArgs {
    /// Search directories recursively.
    #[arg(short = 'r', long)]
    recursive: bool,
    /// A capability that must match (`deployment=puppet`); repeatable.
    #[arg(
        short = 'c',
        long = "capability",
        value_name = "KEY=VALUE",
        required = true
    )]
    capabilities: Vec<String>,
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Args)]
pub struct SummaryArgs {
    #[arg(short = 'f', long = "file", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Args)]
pub struct EnvArgs {
    #[arg(short = 'e', long = "environment", value_name = "ENV_FILE")]
    environment: PathBuf,
    /// Templates must stay inside this directory (default: the
    /// environment file's directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn run(command: Command) -> i32 {
    let result = match command {
        Command::CapabilitiesFind(args) => find(args),
        Command::TemplateCapabilities(args) => summary(args),
        Command::Resolve(args) => environment(args, false),
        Command::Choices(args) => environment(args, true),
    };
    result.unwrap_or_else(|message| {
        eprintln!("{message}");
        2
    })
}

fn read_capabilities(path: &Path) -> Result<Option<Capabilities>, String> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("mosaic: cannot read {name}: {e}"))?;
    template_capabilities(&name, &text).map_err(|e| e.to_string())
}

/// The template files under `path`, sorted.
fn templates(path: &Path, recursive: bool) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        if !path.exists() {
            return Err(format!(
                "mosaic: {}: no such file or directory",
                path.display()
            ));
        }
        return Ok(vec![path.to_owned()]);
    }
    let depth = if recursive { usize::MAX } else { 1 };
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(path)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_template(&e.file_name().to_string_lossy()))
        .map(|e| e.into_path())
        .collect();
    found.sort();
    Ok(found)
}

fn find(args: FindArgs) -> Result<i32, String> {
    let filters: Vec<(String, String)> = args
        .capabilities
        .iter()
        .map(|c| {
            c.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .ok_or_else(|| format!("mosaic: -c {c}: expected KEY=VALUE"))
        })
        .collect::<Result<_, _>>()?;
    let mut matched = Vec::new();
    for path in &args.paths {
        for template in templates(path, args.recursive)? {
            if matches_filters(read_capabilities(&template)?.as_ref(), &filters) {
                matched.push(template.display().to_string());
            }
        }
    }
    matched.sort();
    matched.dedup();
    match args.format {
        Format::Json => print_json(&json!({ "templates": matched })),
        Format::Text => matched.iter().for_each(|t| outln!("{t}")),
    }
    Ok(0)
}

fn summary(args: SummaryArgs) -> Result<i32, String> {
    let mut loaded = Vec::new();
    for file in &args.files {
        loaded.push((file.display().to_string(), read_capabilities(file)?));
    }
    let summary = summarize(loaded.iter().map(|(f, c)| (f.as_str(), c.as_ref())));
    match args.format {
        Format::Json => print_json(&summary),
        Format::Text => {
            for (key, values) in &summary.capabilities {
                outln!("{key}: {}", values.join(", "));
            }
            for (kind, files) in &summary.resource_types {
                outln!("{kind}: {}", files.join(", "));
            }
        }
    }
    Ok(0)
}

fn environment(args: EnvArgs, only_choices: bool) -> Result<i32, String> {
    let name = args.environment.display().to_string();
    let text = std::fs::read_to_string(&args.environment)
        .map_err(|e| format!("mosaic: cannot read {name}: {e}"))?;
    let env = parse_environment(&name, &text).map_err(|e| e.to_string())?;
    let dir = args
        .environment
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir = dir
        .canonicalize()
        .map_err(|e| format!("mosaic: {}: {e}", dir.display()))?;
    let root = match &args.root {
        Some(root) => root
            .canonicalize()
            .map_err(|e| format!("mosaic: {}: {e}", root.display()))?,
        None => dir.clone(),
    };
    let base = dir
        .strip_prefix(&root)
        .map_err(|_| {
            format!(
                "mosaic: the environment file {name} is not inside the root {}",
                root.display()
            )
        })?
        .to_string_lossy()
        .replace('\\', "/");
    let files = DirFiles::new(&root).map_err(|e| format!("mosaic: {e}"))?;
    let resolved = if only_choices {
        heat::choices(&env, &base, &files)
    } else {
        heat::resolve(&env, &base, &files)
    }
    .map_err(|e: LoadError| e.to_string())?;
    print_resolution(&resolved, only_choices, args.format);
    Ok(i32::from(!resolved.errors.is_empty()))
}

fn print_resolution(r: &Resolution, only_choices: bool, format: Format) {
    match format {
        Format::Json if only_choices => {
            print_json(&json!({ "choices": r.choices, "errors": r.errors }))
        }
        Format::Json => print_json(&json!({
            "resource_registry": r.resource_registry,
            "errors": r.errors,
        })),
        Format::Text => {
            if only_choices {
                for choice in &r.choices {
                    outln!(
                        "{}: choose one of {}",
                        choice.resource_type,
                        choice.candidates.join(", ")
                    );
                }
            } else {
                for (kind, file) in &r.resource_registry {
                    outln!("{kind}: {file}");
                }
            }
            for error in &r.errors {
                outln!("error: {}", error.message);
                for c in &error.candidates {
                    let mark = if c.matched { "matches" } else { "fails" };
                    outln!("  {} {mark}: {}", c.file, c.reasons.join("; "));
                }
            }
        }
    }
}
