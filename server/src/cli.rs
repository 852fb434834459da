//! The `mosaic` command line: one subcommand per capability.

use clap::{Parser, Subcommand};

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
}

/// Runs the command and returns the process exit code.
pub async fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Serve(config) => crate::serve(config).await.map(|()| 0),
    }
}
