//! The `mosaic` command line: one subcommand per capability. Every command
//! returns its exit code; errors that stop a command print
//! `mosaic: message` (or `file:line: message`) on stderr and exit 2.

mod access;
mod client;
mod components;
mod deploy;
mod disks;
mod env;
mod envfile;
mod environments;
mod expr;
mod hardware;
mod heat;
mod models;
mod networks;
mod plan;
mod plugin;
mod preview;
mod role_changes;
mod roles;
mod runs;
mod settings;
mod tags;
mod upgrade;

use clap::{Parser, Subcommand, ValueEnum};

use crate::ServeConfig;
use crate::out::outln;

#[derive(Debug, Parser)]
#[command(
    name = "mosaic",
    version,
    about = "Compose OpenStack deployments from plugins."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP API and serve the browser app.
    Serve(ServeConfig),
    /// Check component registries and selections.
    #[command(subcommand)]
    Components(components::Command),
    /// Evaluate restriction expressions.
    #[command(subcommand)]
    Expr(expr::Command),
    /// Roles: check files (conflicts, restrictions, limits), or a release's or
    /// an environment's roles on a server (list, show, create, update, delete).
    #[command(subcommand)]
    Roles(roles::Command),
    /// Plugin packages: validate, show, create, build, install.
    #[command(subcommand)]
    Plugin(plugin::Command),
    /// Tags: of releases, environments and nodes on a server; which nodes a
    /// task selector picks.
    #[command(subcommand)]
    Tags(TagsCommand),
    /// Environments on a server: list, show, create, delete, export, import.
    #[command(subcommand)]
    Env(env::EnvCommand),
    /// Nodes on a server: list, add, update, delete.
    #[command(subcommand)]
    Node(env::NodeCommand),
    /// An environment's deployment plan: each node's tasks in order, with
    /// task conflicts, cycles and unknown dependencies. Exit 1 on errors, 2
    /// on unreadable input.
    Plan(plan::PlanArgs),
    /// An environment's graph types: each with its name, how many tasks its
    /// plan considers and where they come from. Exit 2 on unreadable input.
    Graphs(plan::GraphsArgs),
    /// Heat template capabilities: find, summarize, resolve, choices.
    #[command(subcommand)]
    Heat(heat::Command),
    /// Environment settings: the effective values of an environment file,
    /// every problem, and each node's role problems.
    #[command(subcommand)]
    Settings(settings::Command),
    /// Accounts: create and list users (against the serve database).
    #[command(subcommand)]
    User(access::UserCommand),
    /// API tokens for scripts: create, list, revoke.
    #[command(subcommand)]
    Token(access::TokenCommand),
    /// The audit log: every successful change, newest first.
    Audit(access::AuditArgs),
    /// Deployment runs on a server: list, show, follow, history, hosts,
    /// output, cancel, relaunch.
    #[command(subcommand)]
    Run(runs::RunCommand),
    /// What a deployer runs in on this machine: `install` makes it.
    #[command(subcommand)]
    Deployer(runs::DeployerCommand),
}

#[derive(Debug, Subcommand)]
pub enum TagsCommand {
    /// Print the nodes a selector picks, in input order.
    Resolve(plan::ResolveArgs),
    /// List a release's or an environment's tags.
    List(tags::TagList),
    /// Create a tag on a release or an environment.
    Create(tags::TagCreate),
    /// Change whether a tag has a primary.
    Update(tags::TagUpdate),
    /// Delete a tag (refused while nodes carry it).
    Delete(tags::TagDelete),
    /// Assign tags to a node.
    Assign(tags::TagAssign),
    /// Unassign tags from a node.
    Unassign(tags::TagAssign),
}

/// `--format` of the commands that report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Runs the command and returns the process exit code.
pub async fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Serve(config) => crate::serve(config).await.map(|()| 0),
        Command::Components(command) => Ok(components::run(command)),
        Command::Expr(command) => Ok(expr::run(command)),
        Command::Roles(command) => Ok(roles::run(command)),
        Command::Plugin(command) => Ok(plugin::run(command).await),
        Command::Tags(command) => Ok(tags_command(command)),
        Command::Env(command) => Ok(env::env(command)),
        Command::Node(command) => Ok(env::node(command)),
        Command::Plan(args) => Ok(plan::plan(args)),
        Command::Graphs(args) => Ok(plan::graphs(args)),
        Command::Heat(command) => Ok(heat::run(command)),
        Command::Settings(command) => Ok(settings::run(command)),
        Command::User(command) => Ok(access::user(command).await),
        Command::Token(command) => Ok(access::token(command).await),
        Command::Audit(args) => Ok(access::audit(args).await),
        Command::Run(command) => Ok(runs::run(command)),
        Command::Deployer(command) => Ok(runs::deployer(command)),
    }
}

fn tags_command(command: TagsCommand) -> i32 {
    match command {
        TagsCommand::Resolve(args) => plan::resolve(args),
        TagsCommand::List(args) => tags::list(args),
        TagsCommand::Create(args) => tags::create(args),
        TagsCommand::Update(args) => tags::update(args),
        TagsCommand::Delete(args) => tags::delete(args),
        TagsCommand::Assign(args) => tags::assign(args, false),
        TagsCommand::Unassign(args) => tags::assign(args, true),
    }
}

/// Prints `value` as pretty JSON on stdout.
fn print_json<T: serde::Serialize>(value: &T) {
    outln!(
        "{}",
        serde_json::to_string_pretty(value).expect("reports serialize")
    );
}

/// A value as a table cell: strings bare, lists joined by commas, nothing
/// for null.
fn cell_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        serde_json::Value::Array(items) => {
            items.iter().map(cell_text).collect::<Vec<_>>().join(",")
        }
        other => other.to_string(),
    }
}

/// Rows as JSON, or as aligned text columns.
pub(crate) fn print_rows(format: Format, rows: &[serde_json::Value], columns: &[&str]) {
    if format == Format::Json {
        print_json(&rows);
        return;
    }
    let cell = |row: &serde_json::Value, c: &str| cell_text(&row[c]);
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| {
            rows.iter()
                .map(|r| cell(r, c).len())
                .max()
                .unwrap_or(0)
                .max(c.len())
        })
        .collect();
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(text, w)| format!("{text:<w$}"))
            .collect();
        outln!("{}", padded.join("  ").trim_end());
    };
    line(columns.iter().map(|c| c.to_uppercase()).collect());
    for row in rows {
        line(columns.iter().map(|c| cell(row, c)).collect());
    }
}
