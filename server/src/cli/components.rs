//! `mosaic components check` and `mosaic components check-registry`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use mosaic_core::component::{
    Compatibility, ComponentFile, ComponentType, Engine, Evaluation, Matrix, Registry,
    RegistryReport, Severity, State, check_registry, load_registry,
};
use mosaic_core::text::counted;
use mosaic_core::wizard::{Layout, defaults};

use super::{Format, print_json};
use crate::out::{out, outln};

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Evaluate a selection against component lists: validity, and the state
    /// of every component (selected, available, blocked with a repair, dead).
    /// Exit 0 when the selection is valid, 1 when it is not, 2 on bad input.
    Check(CheckArgs),
    /// Report load-time problems of component lists: malformed names and
    /// patterns, patterns that match nothing, mixed requires formats,
    /// duplicate names, dead components, contradictions. Exit 1 on errors.
    CheckRegistry(RegistryArgs),
    /// The compatibility matrix of component lists: what each component
    /// declares or implies towards each other one (X incompatible, R
    /// requires, C compatible), and the dead ones. Exit 2 on bad input.
    Matrix(MatrixArgs),
}

#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// A component list in the components.yaml format; repeat once per file.
    #[arg(long = "registry", value_name = "FILE", required = true, num_args = 1..)]
    registry: Vec<PathBuf>,
    /// The component types a valid selection needs one of each (for dead components).
    #[arg(
        long,
        value_name = "TYPES",
        default_value = "hypervisor,network,storage",
        value_parser = parse_types
    )]
    required_types: RequiredTypes,
    #[arg(long, value_enum, default_value_t = MatrixFormat::Text)]
    format: MatrixFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MatrixFormat {
    Text,
    Json,
    Svg,
}

#[derive(Debug, Args)]
pub struct RegistryArgs {
    /// A component list in the components.yaml format; repeat once per file.
    /// The file name without extension names the source.
    #[arg(long = "registry", value_name = "FILE", required = true, num_args = 1..)]
    registry: Vec<PathBuf>,
    /// The component types a valid selection needs one of each, comma-separated.
    #[arg(
        long,
        value_name = "TYPES",
        default_value = "hypervisor,network,storage",
        value_parser = parse_types
    )]
    required_types: RequiredTypes,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    registry: RegistryArgs,
    /// The selected component names, comma-separated; `''` is an empty
    /// selection. Without it, the `default: true` components.
    #[arg(long, value_name = "NAMES")]
    select: Option<String>,
    /// Judge as the wizard's pane for this component type shows the
    /// selection: earlier panes fixed, this pane's choices kept, later panes
    /// free; repairs may select and change earlier panes. Without it, every
    /// component is judged against the whole selection.
    #[arg(long, value_name = "TYPE", value_parser = parse_type)]
    pane: Option<ComponentType>,
}

fn parse_type(text: &str) -> Result<ComponentType, String> {
    ComponentType::parse(text.trim()).ok_or_else(|| {
        format!(
            "'{text}' is not a component type (hypervisor, network, storage, additional_service)"
        )
    })
}

#[derive(Debug, Clone)]
struct RequiredTypes(Vec<ComponentType>);

fn parse_types(text: &str) -> Result<RequiredTypes, String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(parse_type)
        .collect::<Result<_, _>>()
        .map(RequiredTypes)
}

pub fn run(command: Command) -> i32 {
    match command {
        Command::Check(args) => check(args),
        Command::CheckRegistry(args) => registry(args),
        Command::Matrix(args) => matrix(args),
    }
}

/// Reads and loads the component lists, or says why not (exit 2).
fn load(paths: &[PathBuf]) -> Result<Registry, String> {
    let files = Files::read(paths)?;
    load_registry(&files.component_files()).map_err(|e| e.to_string())
}

fn matrix(args: MatrixArgs) -> i32 {
    let registry = match load(&args.registry) {
        Ok(registry) => registry,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let engine = Engine::new(registry, &args.required_types.0);
    let matrix = Matrix::of(&engine);
    match args.format {
        MatrixFormat::Json => print_json(&matrix),
        MatrixFormat::Text => out!("{}", matrix.to_text()),
        MatrixFormat::Svg => outln!("{}", matrix.to_svg(engine.registry())),
    }
    0
}

struct Files {
    /// (source, path, text)
    entries: Vec<(String, String, String)>,
}

impl Files {
    fn read(paths: &[PathBuf]) -> Result<Files, String> {
        let mut entries = Vec::new();
        for path in paths {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("mosaic: cannot read {}: {e}", path.display()))?;
            let source = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            entries.push((source, path.display().to_string(), text));
        }
        Ok(Files { entries })
    }

    fn component_files(&self) -> Vec<ComponentFile<'_>> {
        self.entries
            .iter()
            .map(|(source, path, text)| ComponentFile { source, path, text })
            .collect()
    }
}

fn check(args: CheckArgs) -> i32 {
    let registry = match load(&args.registry.registry) {
        Ok(registry) => registry,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let names: Vec<String> = match &args.select {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect(),
        None => {
            let layout = Layout::new(&registry);
            let selection = defaults(&registry, &layout);
            (0..registry.len())
                .filter(|&i| selection[i])
                .map(|i| registry.get(i).name.to_string())
                .collect()
        }
    };
    let engine = Engine::new(registry, &args.registry.required_types.0);
    let evaluation = match args.pane {
        Some(pane) => engine.evaluate_pane(&names, pane),
        None => engine.evaluate(&names),
    };
    match args.registry.format {
        Format::Json => print_json(&evaluation),
        Format::Text => out!("{}", render_check(&evaluation)),
    }
    if evaluation.valid { 0 } else { 1 }
}

fn render_check(e: &Evaluation) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let verdict = match (e.valid, e.completable) {
        (true, _) => "valid",
        (false, true) => "not valid yet (it can be completed)",
        (false, false) => "not valid (it cannot be completed)",
    };
    let _ = writeln!(out, "selection: {verdict}");
    for v in &e.violations {
        let kind = serde_json::to_value(v.kind).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}: {}",
            kind.as_str().unwrap_or_default(),
            v.message
        );
    }
    let _ = writeln!(out, "components:");
    let width = e.components.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for c in &e.components {
        let (mark, state) = match c.state {
            State::Selected => ("[x]", "selected"),
            State::Available => ("[ ]", "available"),
            State::Blocked => ("[-]", "blocked"),
            State::Dead => ("[!]", "dead"),
        };
        let mut detail = match c.compatibility {
            Some(Compatibility::Compatible) => "compatible".to_owned(),
            Some(Compatibility::Untested) => {
                format!("untested with {}", c.untested_with.join(", "))
            }
            None => String::new(),
        };
        if !c.reasons.is_empty() {
            detail = c
                .reasons
                .iter()
                .map(|r| r.message.trim_end_matches('.'))
                .collect::<Vec<_>>()
                .join("; ");
        }
        if let Some(repair) = &c.repair {
            let mut fix = Vec::new();
            if !repair.select.is_empty() {
                fix.push(format!("select {}", repair.select.join(", ")));
            }
            if !repair.deselect.is_empty() {
                fix.push(format!("deselect {}", repair.deselect.join(", ")));
            }
            let _ = write!(detail, " (fix: {})", fix.join(", "));
        }
        let _ = writeln!(out, "  {mark} {:<width$}  {state:<9}  {detail}", c.name);
    }
    out
}

fn registry(args: RegistryArgs) -> i32 {
    let files = match Files::read(&args.registry) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let report = check_registry(&files.component_files(), &args.required_types.0);
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => out!("{}", render_registry(&report)),
    }
    if report.errors > 0 { 1 } else { 0 }
}

fn render_registry(report: &RegistryReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for p in &report.problems {
        let severity = match p.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let place = match (&p.file, p.line) {
            (Some(file), Some(line)) => format!("{file}:{line}: "),
            (Some(file), None) => format!("{file}: "),
            _ => String::new(),
        };
        let _ = writeln!(out, "{place}{severity}: {}", p.message);
    }
    let _ = writeln!(
        out,
        "{}, {}",
        counted(report.errors, "error"),
        counted(report.warnings, "warning")
    );
    out
}
