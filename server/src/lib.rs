//! Mosaic's server: the axum API over the database, serving the built app,
//! and the `mosaic` command line. Handlers stay thin: they extract, call
//! `mosaic-core` or `db`, and map the answer to HTTP.

pub mod access;
pub mod bundled;
pub mod cli;
pub mod db;
pub mod deploy;
pub mod environment;
pub mod error;
pub mod facts;
pub mod http;
pub mod install;
mod out;
pub mod package;
mod retry;
pub mod timestamp;

use mosaic_core::api::ErrorCode;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::response::IntoResponse;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::access::{Security, SecurityHeaders, SignInThrottle};
use crate::db::Db;
use crate::out::outln;

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub security: Arc<Security>,
    /// Failed sign-ins: counted in the database on PostgreSQL (every
    /// replica's), in this replica's memory on SQLite.
    pub sign_in_throttle: Arc<SignInThrottle>,
    /// The deployment runs this server drives (SEMANTICS §15).
    pub deployments: Arc<deploy::Deployments>,
}

impl AppState {
    /// A server that runs no deployments.
    pub fn new(db: Db, security: Security) -> AppState {
        AppState::with_deployments(db, security, deploy::Deployments::disabled())
    }

    pub fn with_deployments(
        db: Db,
        security: Security,
        deployments: deploy::Deployments,
    ) -> AppState {
        AppState {
            sign_in_throttle: Arc::new(SignInThrottle::for_database(&db)),
            db,
            security: Arc::new(security),
            deployments: Arc::new(deployments),
        }
    }
}

/// How long one request may take before it is answered 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);

/// The whole HTTP application. `dist` is the Trunk build served at `/`.
/// From the outside in: the access log, the security headers, the host
/// check, a panic answered 500 (the server keeps serving), the time limit,
/// then the routes.
pub fn app(state: AppState, dist: Option<PathBuf>) -> Router {
    let headers = SecurityHeaders::new(&access::content_security_policy(dist.as_deref()));
    http::router(&state, dist.as_deref())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(CatchPanicLayer::custom(panicked))
        .layer(from_fn_with_state(state.clone(), access::check_host))
        .layer(axum::middleware::map_response(
            move |mut response: axum::response::Response| {
                let headers = headers.clone();
                async move {
                    for (name, value) in headers.0 {
                        response.headers_mut().insert(name, value);
                    }
                    response
                }
            },
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// A handler that panicked: logged, answered 500 with the error body.
fn panicked(panic: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    tracing::error!("a request panicked: {what}");
    error::ApiError::Coded(
        StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::Internal,
        "internal server error; see the server log".to_owned(),
    )
    .into_response()
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
    /// A host name (with or without `:port`) the server answers to; repeat
    /// for several. Default: the bind address and localhost on its port.
    /// Requests naming another host are refused (DNS rebinding).
    #[arg(
        long = "allowed-host",
        env = "MOSAIC_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    pub allowed_hosts: Vec<String>,
    /// A directory on the server whose packages admins may install by
    /// path (`POST /api/v1/plugins {"path"}`); without it, only uploads.
    #[arg(long, env = "MOSAIC_PLUGIN_DIR")]
    pub plugin_dir: Option<PathBuf>,
    /// The largest upload (plugin archive, Heat template set), in MiB.
    #[arg(long, env = "MOSAIC_MAX_UPLOAD_MIB", default_value_t = 64)]
    pub max_upload_mib: usize,
    /// Mark the session cookie `Secure` (when a proxy serves Mosaic over HTTPS).
    #[arg(long, env = "MOSAIC_SECURE_COOKIE")]
    pub secure_cookie: bool,
    /// The virtual environment deployment runs use (kolla-ansible,
    /// ansible-runner); default: the one `mosaic deployer install` made
    /// in the data directory for the release's pins.
    #[arg(long, env = "MOSAIC_DEPLOYER_VENV")]
    pub deployer_venv: Option<PathBuf>,
    /// Log a line per request answered (the access log). Off by default:
    /// under load it is most of the log. Refusals, server errors and the
    /// audit trail are logged either way. `MOSAIC_LOG=mosaic_access=info`
    /// (or `RUST_LOG`) turns it on too.
    #[arg(long, env = "MOSAIC_ACCESS_LOG")]
    pub access_log: bool,
}

/// The target of the access log's lines (a request answered), so that a
/// log filter can name it.
pub const ACCESS_LOG: &str = "mosaic_access";

/// The log filter: `MOSAIC_LOG`, else `RUST_LOG`, else `info` without the
/// access log unless `access_log`.
pub fn log_filter(access_log: bool) -> String {
    let from_env = std::env::var("MOSAIC_LOG").or_else(|_| std::env::var("RUST_LOG"));
    match from_env {
        Ok(filter) => filter,
        Err(_) if access_log => format!("info,{ACCESS_LOG}=info"),
        Err(_) => format!("info,{ACCESS_LOG}=off"),
    }
}

impl ServeConfig {
    /// The protection settings these flags describe, for a server
    /// listening on `local` (the bind address with its port chosen, when
    /// `--bind` asked for port 0).
    pub fn security(&self, local: SocketAddr) -> Security {
        let allowed = if self.allowed_hosts.is_empty() {
            vec![local.to_string(), format!("localhost:{}", local.port())]
        } else {
            self.allowed_hosts.clone()
        };
        Security {
            allowed_hosts: Some(allowed),
            plugin_dir: self.plugin_dir.clone(),
            max_upload: self.max_upload_mib.saturating_mul(1 << 20),
            secure_cookie: self.secure_cookie,
        }
    }
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
    let pinned = environment::pin_unpinned(&db).await?;
    if pinned > 0 {
        tracing::info!("pinned the plugin versions of {pinned} environment(s)");
    }
    let built = environment::build_networks(&db).await?;
    if built > 0 {
        tracing::info!("gave {built} environment(s) their networks and addresses");
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
    // Before listening: whoever connects first can already sign in.
    first_admin(&db, &config.db.data_dir, config.bind).await?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("cannot listen on {}", config.bind))?;
    let local = listener.local_addr()?;
    tracing::info!("Mosaic is listening on http://{local}");
    // A line scripts and tests can wait for.
    outln!("mosaic: listening on http://{local}");
    let security = config.security(local);
    if config.bind.ip().is_unspecified() && config.allowed_hosts.is_empty() {
        tracing::warn!(
            "listening on every address, but answering only to {:?}: add --allowed-host NAME for the names clients use",
            security.allowed_hosts.as_deref().unwrap_or_default()
        );
    }
    let deployments = deploy::Deployments::new(
        Some(config.db.data_dir.clone()),
        config.deployer_venv.clone(),
    );
    let state = AppState::with_deployments(db.clone(), security, deployments);
    // Runs a stopped server left are taken up (their runners may still run).
    state.deployments.resume(db);
    // The peer's address reaches the handlers (sign-in throttling).
    let service = app(state, dist).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(shutdown())
        .await?;
    Ok(())
}

/// With no user at all, creates `admin` with a random password, printed
/// once and written to `<data-dir>/initial-admin-password` (mode 0600).
async fn first_admin(db: &Db, data_dir: &std::path::Path, local: SocketAddr) -> anyhow::Result<()> {
    // Every later start: no password to make and hash (the insert below
    // still settles a race between replicas starting on an empty database).
    if db.has_users().await? {
        return Ok(());
    }
    let password = access::secret::new_password()?;
    let hash = {
        let password = password.clone();
        tokio::task::spawn_blocking(move || access::secret::hash_password(&password)).await??
    };
    if !db.create_first_admin(&hash, timestamp::now()).await? {
        return Ok(());
    }
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create data directory {}", data_dir.display()))?;
    let file = data_dir.join("initial-admin-password");
    write_private(&file, &format!("{password}\n"))
        .with_context(|| format!("cannot write {}", file.display()))?;
    outln!(
        "mosaic: created the user 'admin' with the password {password}\n\
         mosaic: (also in {}); sign in at http://{local} and add users with `mosaic user create`",
        file.display()
    );
    Ok(())
}

/// Writes `text` to `path`, readable by its owner only.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    #[cfg(unix)]
    file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    file.write_all(text.as_bytes())
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

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    use super::*;

    async fn boom() -> &'static str {
        panic!("a[]]")
    }

    #[tokio::test]
    async fn a_panic_is_answered_500_with_the_error_body_and_serving_goes_on() {
        let router: Router = Router::new()
            .route("/boom", axum::routing::get(boom))
            .route("/fine", axum::routing::get(|| async { "ok" }))
            .layer(CatchPanicLayer::custom(panicked));
        let get = |uri: &str| Request::builder().uri(uri).body(Body::empty()).unwrap();
        let response = router.clone().oneshot(get("/boom")).await.unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["error"]["code"], "internal");
        let response = router.oneshot(get("/fine")).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
}
