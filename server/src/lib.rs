//! Mosaic's server: the axum API over the database, serving the built app,
//! and the `mosaic` command line. Handlers stay thin: they extract, call
//! `mosaic-core` or `db`, and map the answer to HTTP.

pub mod bundled;
pub mod cli;
pub mod db;
pub mod http;

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use axum::Router;
use mosaic_core::component::{Registry, Source};
use mosaic_core::release::Release;
use tower_http::trace::TraceLayer;

use crate::db::Db;
use crate::http::ApiError;

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

/// The component registry of a release: its own components, in order.
pub(crate) fn registry(release: &Release) -> Result<Registry, ApiError> {
    Registry::new([(
        Source(format!("release {} {}", release.name, release.version)),
        release.components.clone(),
    )])
    .map_err(|e| ApiError::Internal(e.into()))
}

/// Settings of `mosaic serve`, each from a flag or its environment variable.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "MOSAIC_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Database URL: `sqlite:PATH` or `postgres://USER:PASSWORD@HOST/DB`.
    /// Default: a SQLite file `mosaic.db` in the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory for Mosaic's own files (the default SQLite database).
    #[arg(long, env = "MOSAIC_DATA_DIR", default_value = "mosaic-data")]
    pub data_dir: PathBuf,
    /// The built browser app (Trunk's output) to serve at `/`.
    #[arg(long, env = "MOSAIC_DIST", default_value = "dist")]
    pub dist: PathBuf,
}

impl ServeConfig {
    fn database_url(&self) -> anyhow::Result<String> {
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
    let plugin = bundled::release_plugin().context("the bundled release plugin is invalid")?;
    if db.install_bundled_once(&plugin).await? {
        tracing::info!(
            "installed the bundled release plugin {} {}",
            plugin.plugin.name,
            plugin.plugin.version
        );
    }
    Ok(db)
}

/// Runs the server until Ctrl-C or SIGTERM.
pub async fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let db = prepare(&config.database_url()?).await?;
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
