//! Deployments from the command line (docs/cli.md, "Deployments"): `mosaic
//! env deploy` starts a run (and with `--follow` prints it as it goes:
//! a line per task and host, then each host's counts), `mosaic run`
//! lists, shows, follows, cancels and relaunches runs and prints their
//! history; `mosaic deployer install` makes the deployer's virtual
//! environment. Exit codes as every client command's, and `--follow`
//! exits 1 when the run failed or was canceled.
//!
//! The stream is read with a small Server-Sent Events reader of our own:
//! the client is blocking (`ureq`), and the maintained SSE clients are
//! async ones on another HTTP stack; the format is lines of `field:
//! value` ended by an empty line.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use clap::{Args, Subcommand};
use mosaic_core::api::{HostSummary, Progress, Run, RunEvent, RunPlan, RunStatus, TaskStatus};
use mosaic_core::run::RunView;
use serde_json::{Value, json};

use super::client::{Client, Failure, Remote, print, with_client};
use super::environments::environment_id;
use super::{Format, print_json};
use crate::out::{out, outln};

#[derive(Debug, Args)]
pub struct EnvDeploy {
    /// The environment: its id, or its name.
    env: String,
    /// Deploy what changed since the last successful deployment.
    #[arg(long)]
    changes: bool,
    /// Run these kolla-ansible actions (in order) instead of a whole
    /// deployment: bootstrap-servers, prechecks, pull, deploy,
    /// post-deploy, reconfigure, gather-facts.
    #[arg(long = "action", value_name = "ACTION", value_delimiter = ',')]
    actions: Vec<String>,
    /// Run on these nodes only (ids or names; repeat, or separate with
    /// commas).
    #[arg(long = "limit", value_name = "NODE", value_delimiter = ',')]
    limit: Vec<String>,
    /// `ssh` (default) or `local`: every host's tasks on the Mosaic host
    /// (kolla-ansible's all-in-one way; labs and tests).
    #[arg(long)]
    connection: Option<String>,
    /// Hosts whose removal was carried out as kolla-ansible documents it
    /// (with --changes).
    #[arg(long = "removed", value_name = "HOST", value_delimiter = ',')]
    removed: Vec<String>,
    /// Only say what the run would do.
    #[arg(long)]
    dry_run: bool,
    /// Print the run as it goes, then each host's counts; exit 1 unless it
    /// succeeds.
    #[arg(long)]
    follow: bool,
    /// The deployer.
    #[arg(long, default_value = "kolla-ansible")]
    deployer: String,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Subcommand)]
pub enum RunCommand {
    /// List an environment's runs, newest first.
    List(RunList),
    /// Show a run: its status, steps with their command lines and exit
    /// codes, progress.
    Show(RunId),
    /// Print a run as it goes (from its start), then each host's counts;
    /// exit 1 unless it succeeds.
    Follow(RunId),
    /// Print a run's history: one row per task and host.
    History(RunHistory),
    /// Print what a run did on each host.
    Hosts(RunId),
    /// Print a run's output.
    Stdout(RunId),
    /// Stop a run and everything it started.
    Cancel(RunId),
    /// Run a run's actions again: on every host, or on those that failed.
    Relaunch(RunRelaunch),
}

#[derive(Debug, Args)]
pub struct RunList {
    /// The environment: its id, or its name.
    env: String,
    #[command(flatten)]
    remote: Remote,
}

#[derive(Debug, Args)]
pub struct RunId {
    id: i64,
    #[command(flatten)]
    remote: Remote,
}

/// `mosaic run history --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum HistoryFormat {
    #[default]
    Text,
    Json,
    /// Every row, `task_name` first, a header line (the API's
    /// `Accept: text/csv`).
    Csv,
}

#[derive(Debug, Args)]
pub struct RunHistory {
    id: i64,
    /// Only these nodes (ids; repeat, or separate with commas).
    #[arg(long = "node", value_delimiter = ',')]
    nodes: Vec<i64>,
    /// Only these statuses (ok, changed, failed, skipped, unreachable,
    /// ignored, rescued).
    #[arg(long = "status", value_delimiter = ',')]
    statuses: Vec<String>,
    /// Only these tasks (by name).
    #[arg(long = "task")]
    tasks: Vec<String>,
    #[arg(long, value_enum, default_value_t)]
    format: HistoryFormat,
    /// The Mosaic server to talk to.
    #[arg(long, env = "MOSAIC_SERVER", default_value = "http://127.0.0.1:8080")]
    server: String,
    /// An API token (`mosaic token create`).
    #[arg(long, env = "MOSAIC_TOKEN", hide_env_values = true)]
    token: Option<String>,
}

impl RunHistory {
    fn remote(&self) -> Remote {
        Remote {
            server: self.server.clone(),
            token: self.token.clone(),
            format: if self.format == HistoryFormat::Json {
                Format::Json
            } else {
                Format::Text
            },
        }
    }
}

#[derive(Debug, Args)]
pub struct RunRelaunch {
    id: i64,
    /// Only the hosts that failed or were unreachable.
    #[arg(long)]
    failed: bool,
    #[arg(long)]
    follow: bool,
    #[command(flatten)]
    remote: Remote,
}

pub fn env_deploy(args: EnvDeploy) -> i32 {
    let follow = args.follow;
    let format = args.remote.format;
    let mut outcome = None;
    let code = with_client(&args.remote, |client| {
        let id = environment_id(client, &args.env)?;
        let body = deploy_body(client, id, &args)?;
        let path = format!("/api/v1/clusters/{id}/deployers/{}/runs", args.deployer);
        if args.dry_run {
            let plan = client.json("POST", &format!("{path}?dry_run=true"), Some(&body))?;
            return print_plan(format, &plan);
        }
        let run = client.json("POST", &path, Some(&body))?;
        started(client, run, follow, format, &mut outcome)
    });
    code.max(outcome.unwrap_or(0))
}

/// A run just started: shown, or followed to its end (`outcome` the exit
/// code it gives).
fn started(
    client: &Client,
    run: Value,
    follow: bool,
    format: Format,
    outcome: &mut Option<i32>,
) -> Result<(), Failure> {
    let run_id = run["id"].as_i64().unwrap_or_default();
    if !follow {
        return show_run(format, &run);
    }
    outln!("run {run_id} started: GET /api/v1/runs/{run_id}");
    *outcome = Some(follow_run(client, run_id)?);
    Ok(())
}

/// The request `mosaic env deploy` sends.
fn deploy_body(client: &Client, env: i64, args: &EnvDeploy) -> Result<Value, Failure> {
    let mut body = json!({});
    if args.changes {
        body["changes"] = json!(true);
    }
    if !args.actions.is_empty() {
        body["actions"] = json!(args.actions);
    }
    if !args.limit.is_empty() {
        body["limit"] = json!(node_ids(client, env, &args.limit)?);
    }
    if let Some(connection) = &args.connection {
        body["connection"] = json!(connection);
    }
    if !args.removed.is_empty() {
        body["removed"] = json!(args.removed);
    }
    Ok(body)
}

/// Node ids of `nodes` (ids as they are, names looked up).
fn node_ids(client: &Client, env: i64, nodes: &[String]) -> Result<Vec<i64>, Failure> {
    let mut all: Option<Value> = None;
    nodes
        .iter()
        .map(|node| {
            if let Ok(id) = node.parse() {
                return Ok(id);
            }
            if all.is_none() {
                all = Some(client.json("GET", &format!("/api/v1/clusters/{env}/nodes"), None)?);
            }
            all.iter()
                .filter_map(Value::as_array)
                .flatten()
                .find(|n| n["name"] == node.as_str())
                .and_then(|n| n["id"].as_i64())
                .ok_or_else(|| {
                    Failure::Refused(format!("the environment has no node named '{node}'"))
                })
        })
        .collect()
}

fn print_plan(format: Format, plan: &Value) -> Result<(), Failure> {
    if format == Format::Json {
        print_json(plan);
        return Ok(());
    }
    let plan: RunPlan = serde_json::from_value(plan.clone())
        .map_err(|e| Failure::Broken(format!("the server's answer is not a run's plan: {e}")))?;
    outln!("{} run, {} step(s):", plan.kind.as_str(), plan.steps.len());
    for step in &plan.steps {
        outln!("  {}", step.line());
    }
    outln!("nodes whose status follows the run: {}", plan.nodes.len());
    Ok(())
}

fn show_run(format: Format, run: &Value) -> Result<(), Failure> {
    if format == Format::Json {
        print_json(run);
        return Ok(());
    }
    let run: Run = serde_json::from_value(run.clone()).map_err(not_a_run)?;
    outln!(
        "run {} of environment {}: {} {} ({}), by {} at {}",
        run.id,
        run.cluster_id,
        run.kind.as_str(),
        run.status.as_str(),
        run.connection.as_str(),
        run.created_by,
        run.created_at
    );
    if let Some(message) = &run.message {
        outln!("  {message}");
    }
    for step in &run.steps {
        let rc = step.rc.map(|rc| format!(", exit {rc}")).unwrap_or_default();
        outln!(
            "  {}. {} {}{rc}",
            step.index + 1,
            step.action,
            step.status.as_str()
        );
        if !step.argv.is_empty() {
            outln!("     {}", step.argv.join(" "));
        }
    }
    let p = run.progress;
    outln!(
        "  plays {}/{} ({}%)",
        p.plays_started,
        p.plays_total,
        p.percent(run.status.is_final())
    );
    Ok(())
}

fn not_a_run(e: serde_json::Error) -> Failure {
    Failure::Broken(format!("the server's answer is not a run: {e}"))
}

pub fn run(command: RunCommand) -> i32 {
    match command {
        RunCommand::List(args) => with_client(&args.remote, |client| {
            let id = environment_id(client, &args.env)?;
            let runs = client.json("GET", &format!("/api/v1/clusters/{id}/runs"), None)?;
            print(
                args.remote.format,
                &runs,
                &[
                    "id",
                    "kind",
                    "status",
                    "created_by",
                    "created_at",
                    "finished_at",
                    "message",
                ],
            );
            Ok(())
        }),
        RunCommand::Show(args) => with_client(&args.remote, |client| {
            show_run(
                args.remote.format,
                &client.json("GET", &format!("/api/v1/runs/{}", args.id), None)?,
            )
        }),
        RunCommand::Follow(args) => {
            let mut outcome = 0;
            let code = with_client(&args.remote, |client| {
                outcome = follow_run(client, args.id)?;
                Ok(())
            });
            code.max(outcome)
        }
        RunCommand::History(args) => with_client(&args.remote(), |client| history(client, &args)),
        RunCommand::Hosts(args) => with_client(&args.remote, |client| {
            let hosts = client.json("GET", &format!("/api/v1/runs/{}/hosts", args.id), None)?;
            print(args.remote.format, &hosts, &HOST_COLUMNS);
            Ok(())
        }),
        RunCommand::Stdout(args) => with_client(&args.remote, |client| {
            let bytes = client.send("GET", &format!("/api/v1/runs/{}/stdout", args.id), None)?;
            out!("{}", String::from_utf8_lossy(&bytes));
            Ok(())
        }),
        RunCommand::Cancel(args) => with_client(&args.remote, |client| {
            let run = client.json("POST", &format!("/api/v1/runs/{}/cancel", args.id), None)?;
            show_run(args.remote.format, &run)
        }),
        RunCommand::Relaunch(args) => relaunch(args),
    }
}

fn relaunch(args: RunRelaunch) -> i32 {
    let mut outcome = None;
    let format = args.remote.format;
    let code = with_client(&args.remote, |client| {
        let hosts = if args.failed { "failed" } else { "all" };
        let run = client.json(
            "POST",
            &format!("/api/v1/runs/{}/relaunch", args.id),
            Some(&json!({"hosts": hosts})),
        )?;
        started(client, run, args.follow, format, &mut outcome)
    });
    code.max(outcome.unwrap_or(0))
}

const HOST_COLUMNS: [&str; 10] = [
    "host",
    "node_id",
    "ok",
    "changed",
    "failures",
    "unreachable",
    "skipped",
    "ignored",
    "rescued",
    "current_task",
];

fn history(client: &Client, args: &RunHistory) -> Result<(), Failure> {
    let mut query = Vec::new();
    let join = |items: Vec<String>| items.join(",");
    if !args.nodes.is_empty() {
        query.push(format!(
            "nodes={}",
            join(args.nodes.iter().map(i64::to_string).collect())
        ));
    }
    if !args.statuses.is_empty() {
        query.push(format!("statuses={}", join(args.statuses.clone())));
    }
    if !args.tasks.is_empty() {
        let tasks: Vec<String> = args
            .tasks
            .iter()
            .map(|t| {
                percent_encoding::utf8_percent_encode(t, percent_encoding::NON_ALPHANUMERIC)
                    .to_string()
            })
            .collect();
        query.push(format!("tasks={}", tasks.join(",")));
    }
    let path = format!("/api/v1/runs/{}/history?{}", args.id, query.join("&"));
    if args.format == HistoryFormat::Csv {
        let bytes = client.send("GET", &format!("{path}&format=csv"), None)?;
        out!("{}", String::from_utf8_lossy(&bytes));
        return Ok(());
    }
    let rows = client.json("GET", &format!("{path}&limit=10000"), None)?;
    print(
        args.remote().format,
        &rows,
        &[
            "task_name",
            "host",
            "node_id",
            "status",
            "step",
            "time_start",
            "time_end",
        ],
    );
    Ok(())
}

/// Follows run `id` from its first event to its end, printing a line per
/// step and per task result, then each host's counts; the exit code the
/// run's end gives (0 successful, 1 otherwise).
fn follow_run(client: &Client, id: i64) -> Result<i32, Failure> {
    let run: Run =
        serde_json::from_value(client.json("GET", &format!("/api/v1/runs/{id}"), None)?)
            .map_err(not_a_run)?;
    let fresh = Run {
        last_seq: 0,
        progress: Progress {
            plays_started: 0,
            ..run.progress
        },
        ..run
    };
    let mut view = RunView::new(fresh, Vec::new());
    let mut attempts = 0;
    while !view.run.status.is_final() {
        match read_stream(client, id, &mut view) {
            Ok(()) => attempts = 0,
            Err(e) if attempts < 10 => {
                attempts += 1;
                eprintln!(
                    "mosaic: the stream broke ({e}); reading on from event {}",
                    view.run.last_seq
                );
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
            Err(e) => return Err(Failure::Broken(e)),
        }
    }
    let hosts: Vec<HostSummary> =
        serde_json::from_value(client.json("GET", &format!("/api/v1/runs/{id}/hosts"), None)?)
            .map_err(|e| Failure::Broken(format!("the server's answer is not a host list: {e}")))?;
    outln!("");
    let rows: Vec<Value> = hosts
        .iter()
        .map(|h| serde_json::to_value(h).expect("hosts serialize"))
        .collect();
    super::print_rows(Format::Text, &rows, &HOST_COLUMNS[..9]);
    let message = view
        .run
        .message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    outln!("run {id} {}{message}", view.run.status.as_str());
    Ok(if view.run.status == RunStatus::Successful {
        0
    } else {
        1
    })
}

/// Reads run `id`'s stream after what `view` holds until its `end` (or
/// the connection breaks), folding and printing each event.
fn read_stream(client: &Client, id: i64, view: &mut RunView) -> Result<(), String> {
    let path = format!("/api/v1/runs/{id}/stream");
    let reader = client
        .stream(&path, view.run.last_seq)
        .map_err(|f| match f {
            Failure::Refused(m)
            | Failure::Missing(m)
            | Failure::Broken(m)
            | Failure::Previewed(m, _) => m,
        })?;
    let mut message = SseMessage::default();
    let mut width = 0;
    for line in BufReader::new(reader).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if !line.is_empty() {
            message.add(&line);
            continue;
        }
        let done = std::mem::take(&mut message);
        if done.event.as_deref() == Some("end") {
            let run: Run = serde_json::from_str(&done.data).map_err(|e| e.to_string())?;
            view.run.status = run.status;
            view.run.message = run.message;
            return Ok(());
        }
        if done.data.is_empty() {
            continue;
        }
        let event: RunEvent = serde_json::from_str(&done.data).map_err(|e| e.to_string())?;
        if view.apply(&event) {
            print_event(view, &event, &mut width);
        }
    }
    Err("the stream ended before the run did".to_owned())
}

/// One Server-Sent Events message as read so far.
#[derive(Debug, Default)]
struct SseMessage {
    event: Option<String>,
    data: String,
}

impl SseMessage {
    fn add(&mut self, line: &str) {
        if line.starts_with(':') {
            return;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => {
                if !self.data.is_empty() {
                    self.data.push('\n');
                }
                self.data.push_str(value);
            }
            _ => {}
        }
    }
}

/// The line an event is, when it is one worth a line (host names padded to
/// the longest seen so far, `width`).
fn print_event(view: &RunView, event: &RunEvent, width: &mut usize) {
    let step = view.run.steps.get(event.step as usize);
    match event.event.as_str() {
        "step_start" => {
            let action = step.map_or("?".to_owned(), |s| s.action.to_string());
            outln!(
                "== step {}/{}: {action}",
                event.step + 1,
                view.run.steps.len()
            );
        }
        "step_end" => {
            let status = step.map_or("?", |s| s.status.as_str());
            outln!("== step {} {status}", event.step + 1);
        }
        _ => {
            let Some(status) = event.status else {
                return;
            };
            let host = event.host.as_deref().unwrap_or("?");
            let task = event.task.as_deref().unwrap_or_default();
            *width = (*width).max(host.len());
            let width = *width;
            match (&event.message, status) {
                (Some(m), TaskStatus::Failed | TaskStatus::Unreachable) => {
                    outln!(
                        "{:<11} {host:<width$}  {task}: {}",
                        status.as_str(),
                        m.replace('\n', " ")
                    );
                }
                _ => outln!("{:<11} {host:<width$}  {task}", status.as_str()),
            }
        }
    }
}

/// `mosaic deployer install`.
#[derive(Debug, Subcommand)]
pub enum DeployerCommand {
    /// Make the virtual environment a deployer runs in (kolla-ansible of the
    /// bundled release's series, ansible-core, ansible-runner, PyPI's
    /// `ansible` with the collections kolla-ansible needs; every package
    /// pinned by the release), under the data directory, where `mosaic
    /// serve` finds it. Nothing is done when it is there.
    Install(DeployerInstall),
}

#[derive(Debug, Args)]
pub struct DeployerInstall {
    /// The deployer (`kolla-ansible`).
    deployer: String,
    /// Mosaic's data directory (as `mosaic serve`'s).
    #[arg(long, env = "MOSAIC_DATA_DIR", default_value = "mosaic-data")]
    data_dir: PathBuf,
    /// The Python to make it with (3.10 to 3.12 for kolla-ansible 18).
    #[arg(long, default_value = "python3")]
    python: PathBuf,
    /// pip's package index (default: pip's own configuration, PyPI unless
    /// it names another).
    #[arg(long)]
    index_url: Option<String>,
}

pub fn deployer(command: DeployerCommand) -> i32 {
    let DeployerCommand::Install(args) = command;
    let loaded = crate::bundled::load_bundled();
    let Some(package) = loaded.package else {
        eprintln!(
            "mosaic: the bundled release plugin is invalid:\n{}",
            loaded.report
        );
        return 2;
    };
    let runtime = package
        .releases()
        .find_map(|r| r.deployers_metadata.get(&args.deployer)?.runtime.clone());
    let Some(runtime) = runtime else {
        eprintln!(
            "mosaic: the bundled release pins no runtime for a deployer '{}'",
            args.deployer
        );
        return 2;
    };
    let install = crate::deploy::runtime::Install {
        data_dir: &args.data_dir,
        deployer: &args.deployer,
        runtime: &runtime,
        python: &args.python,
        index_url: args.index_url.as_deref(),
    };
    // A line per step on stderr; the directory on stdout (for scripts).
    match crate::deploy::runtime::install(&install, &mut std::io::stderr()) {
        Ok(dir) => {
            outln!("{}", dir.display());
            0
        }
        Err(e) => {
            eprintln!("mosaic: {e:#}");
            1
        }
    }
}
