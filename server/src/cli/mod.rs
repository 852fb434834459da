//! The `mosaic` command line: one subcommand per capability. Every command
//! returns its exit code; errors that stop a command print
//! `mosaic: message` (or `file:line: message`) on stderr and exit 2.

mod access;
mod components;
mod envfile;
mod expr;
mod heat;
mod models;
mod plan;
mod plugin;
mod roles;
mod settings;

use clap::{Parser, Subcommand, ValueEnum};

use crate::ServeConfig;

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
    /// Check node roles: conflicts, restrictions and limits.
    #[command(subcommand)]
    Roles(roles::Command),
    /// Plugin packages: validate, show, create, build, install.
    #[command(subcommand)]
    Plugin(plugin::Command),
    /// Tags: which nodes a task selector picks.
    #[command(subcommand)]
    Tags(TagsCommand),
    /// An environment's deployment plan: each node's tasks in order, with
    /// task conflicts, cycles and unknown dependencies. Exit 1 on errors, 2
    /// on unreadable input.
    Plan(plan::PlanArgs),
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
}

#[derive(Debug, Subcommand)]
pub enum TagsCommand {
    /// Print the nodes a selector picks, in input order.
    Resolve(plan::ResolveArgs),
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
        Command::Tags(TagsCommand::Resolve(args)) => Ok(plan::resolve(args)),
        Command::Plan(args) => Ok(plan::plan(args)),
        Command::Heat(command) => Ok(heat::run(command)),
        Command::Settings(command) => Ok(settings::run(command)),
        Command::User(command) => Ok(access::user(command).await),
        Command::Token(command) => Ok(access::token(command).await),
        Command::Audit(args) => Ok(access::audit(args).await),
    }
}

/// Prints `value` as pretty JSON on stdout.
fn print_json<T: serde::Serialize>(value: &T) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("reports serialize")
    );
}
