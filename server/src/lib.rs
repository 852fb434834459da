//! Mosaic's server: the axum API over the database, serving the built app,
//! and the `mosaic` command line. Handlers stay thin: they extract, call
//! `mosaic-core` or `db`, and map the answer to HTTP.

pub mod bundled;
pub mod cli;
pub mod db;
pub mod environment;
pub mod http;
pub mod install;
pub mod package;

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use axum::Router;
use tower_http::trace::TraceLayer;

use crate::db::Db;

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
}

/// The whole HTTP application. `dist` is the Trunk build served at `/`.
pub fn app(state: AppState, dist: Option<PathBuf>) -> Router {
    http::router(dist.as_deref())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Where the database is: a flag or its environment variable.
#[derive(Debug, Clone, clap::Args)]
pub struct DbConfig {
    /// Database URL: `sqlite:PATH` or `postgres://USER:PASSWORD@HOST/DB`.
    /// Default: a SQLite file `mosaic.db` in the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory for Mosaic's own files (the default SQLite database).
    #[arg(long, env = "MOSAIC_DATA_DIR", default_value = "mosaic-data")]
    pub data_dir: PathBuf,
}

/// Settings of `mosaic serve`, each from a flag or its environment variable.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "MOSAIC_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    #[command(flatten)]
    pub db: DbConfig,
    /// The built browser app (Trunk's output) to serve at `/`.
    #[arg(long, env = "MOSAIC_DIST", default_value = "dist")]
    pub dist: PathBuf,
}

impl DbConfig {
    pub fn database_url(&self) -> anyhow::Result<String> {
        if let Some(url) = &self.database_url {
            return Ok(url.clone());
        }
        std::fs::create_dir_all(&self.data_dir)
            .with_context(|| format!("cannot create data directory {}", self.data_dir.display()))?;
        Ok(format!(
            "sqlite:{}",
            self.data_dir.join("mosaic.db").display()
        ))
    }
}

/// Opens (and migrates) the database and installs the bundled release the
/// first time.
pub async fn prepare(database_url: &str) -> anyhow::Result<Db> {
    let db = Db::connect(database_url).await?;
    let loaded = bundled::load_bundled();
    let Some(package) = loaded.package else {
        anyhow::bail!("the bundled release plugin is invalid:\n{}", loaded.report);
    };
    let warnings: Vec<_> = loaded.report.diagnostics;
    match db.install_bundled_once(&package, &warnings).await {
        Ok(true) => tracing::info!(
            "installed the bundled release plugin {} {}",
            package.name,
            package.version
        ),
        Ok(false) => {}
        // Someone installed a release plugin that clashes with ours: theirs stays.
        Err(db::DbError::PluginConflict(problems)) => {
            for problem in problems {
                tracing::warn!("the bundled release plugin is not installed: {problem}");
            }
        }
        Err(e) => return Err(e.into()),
    }
    Ok(db)
}

/// Runs the server until Ctrl-C or SIGTERM.
pub async fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let db = prepare(&config.db.database_url()?).await?;
    let dist = if config.dist.join("index.html").is_file() {
        Some(config.dist.clone())
    } else {
        tracing::warn!(
            "no built app at {} (index.html missing): serving the API only; run `make app`",
            config.dist.display()
        );
        None
    };
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("cannot listen on {}", config.bind))?;
    let local = listener.local_addr()?;
    tracing::info!("Mosaic is listening on http://{local}");
    // A line scripts and tests can wait for.
    println!("mosaic: listening on http://{local}");
    axum::serve(listener, app(AppState { db }, dist))
        .with_graceful_shutdown(shutdown())
        .await?;
    Ok(())
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
