use clap::Parser;
use mosaic_server::cli::Command;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() {
    let cli = mosaic_server::cli::Cli::parse();
    let access_log = matches!(&cli.command, Command::Serve(config) if config.access_log);
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::new(mosaic_server::log_filter(access_log)))
        .with_writer(std::io::stderr)
        .init();
    match mosaic_server::cli::run(cli).await {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("mosaic: {e:#}");
            std::process::exit(2);
        }
    }
}
