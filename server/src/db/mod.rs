//! The database: SQLite by default, PostgreSQL when the URL says so. Every
//! query lives in this module's files; the rest of the server calls typed
//! functions. Queries use `$N` parameters, which both back-ends accept.

mod accounts;
mod cluster_row;
mod clusters;
mod generations;
mod hardware;
mod heat;
mod holders;
mod networks;
mod node_row;
mod nodes;
mod plugin_row;
mod plugins;
mod releases;
mod roles;
mod runs;
mod snapshot;
mod tags;
mod throttle;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::migrate::Migrator;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, ConnectOptions};

pub use accounts::{AuditRecord, StoredToken, StoredUser};
pub use cluster_row::StoredCluster;
pub use clusters::{Carry, InsertCluster, NewNetworks, Selection};
pub use generations::{DEFAULT_MAX_AGE, Generations};
pub use networks::{Checked, StoredNetworks};
pub use node_row::StoredNode;
pub use nodes::NodesChanged;
pub use plugin_row::StoredPlugin;
pub use releases::release_summaries;

pub use roles::{EnvironmentRows, RoleVersions, RolesSeen, version_of};
pub use runs::{Batch, HistoryFilter, NewRun, Supervision};
pub use snapshot::Snapshot;
pub use tags::TagOwner;
pub use throttle::Limit;

static SQLITE: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("migrations/postgres");

/// A handle on the database, cheap to clone.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    /// PostgreSQL (else SQLite): a few statements differ.
    postgres: bool,
    /// The installed plugins as last parsed, with their generation.
    plugins: Arc<tokio::sync::Mutex<Option<(i64, SharedPlugins)>>>,
    /// The generations, read at most once per `max_age`.
    freshness: Arc<generations::Freshness>,
    /// The tokens and sessions found valid at the access generation.
    credentials: Arc<generations::Credentials>,
}

/// The installed plugins, parsed once per generation and shared.
pub type SharedPlugins = Arc<Installed>;

/// The installed plugins of one generation, and what callers derived from
/// them (kept as long as the generation is current).
#[derive(Debug)]
pub struct Installed {
    pub plugins: Vec<StoredPlugin>,
    derived: Mutex<HashMap<Slot, Arc<dyn Any + Send + Sync>>>,
}

/// Where a derived value is kept: its type and its key (ids).
type Slot = (TypeId, Vec<i64>);

impl Installed {
    pub fn new(plugins: Vec<StoredPlugin>) -> Installed {
        Installed {
            plugins,
            derived: Mutex::new(HashMap::new()),
        }
    }

    /// What `make` derives from these plugins for `key`, made once.
    pub fn memo<T: Any + Send + Sync>(&self, key: &[i64], make: impl FnOnce() -> T) -> Arc<T> {
        let slot = (TypeId::of::<T>(), key.to_vec());
        if let Some(found) = self.derived.lock().expect("not poisoned").get(&slot) {
            return found.clone().downcast().expect("keyed by type");
        }
        let made = Arc::new(make());
        self.derived
            .lock()
            .expect("not poisoned")
            .insert(slot, made.clone());
        made
    }
}

impl std::ops::Deref for Installed {
    type Target = [StoredPlugin];

    fn deref(&self) -> &[StoredPlugin] {
        &self.plugins
    }
}

/// The versions a change was made on: `If-Match`'s entity-tags (RFC 9110
/// §13.1.1), of which the stored version must be one. Tags the server
/// never issued name no version, so they never match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen(pub Vec<i64>);

impl Seen {
    /// Whether a change made on these versions may apply at `version`.
    pub fn allows(&self, version: i64) -> bool {
        self.0.contains(&version)
    }
}

impl std::fmt::Display for Seen {
    /// `3`, or `3 or 5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let texts: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&texts.join(" or "))
    }
}

/// What a refused change found still in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InUse {
    /// A plugin environments still use (an uninstall), or one a settings
    /// save would switch off while nodes have its roles.
    Plugin,
    /// A node group that still has nodes, or `default`, which an
    /// environment always keeps.
    NodeGroup,
}

/// Errors a caller may want to tell apart from "the database failed".
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    NotFound(String),
    /// What cannot go while something still uses it, and why.
    #[error("{1}")]
    InUse(InUse, String),
    /// A plugin that collides with installed ones: every collision.
    #[error("the plugin collides with installed plugins")]
    PluginConflict(Vec<mosaic_core::plugin::Diagnostic>),
    /// The resource changed since the version the request names (412).
    #[error("{0}")]
    Stale(String),
    /// What a change was checked against changed before it was stored:
    /// check it again.
    #[error("{0}")]
    Moved(String),
    #[error(transparent)]
    Sqlx(sqlx::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The environment has a run that has not ended (this one).
    #[error("the environment has a run that has not ended: run {0}")]
    RunActive(i64),
}

impl From<sqlx::Error> for DbError {
    /// A unique constraint that a concurrent request won is a conflict (409),
    /// not a failure; the call sites that know the name say which.
    fn from(e: sqlx::Error) -> DbError {
        match e.as_database_error() {
            Some(d) if d.is_unique_violation() => {
                DbError::Conflict("it exists already (a concurrent request created it)".to_owned())
            }
            Some(d) if d.is_foreign_key_violation() => {
                DbError::Conflict("it refers to something a concurrent request removed".to_owned())
            }
            _ => DbError::Sqlx(e),
        }
    }
}

impl Db {
    /// Connects to `url`, creating a SQLite file if needed, and applies the
    /// embedded migrations.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        install_default_drivers();
        let is_sqlite = url.starts_with("sqlite:");
        let url = if is_sqlite {
            // Create the file when it does not exist, and enforce foreign keys.
            SqliteConnectOptions::from_str(url)
                .with_context(|| format!("invalid SQLite URL '{url}'"))?
                .create_if_missing(true)
                .foreign_keys(true)
                .to_url_lossy()
                .to_string()
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            url.to_owned()
        } else {
            anyhow::bail!("unsupported database URL '{url}': use sqlite:PATH or postgres://…");
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if is_sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    // With write-ahead logging (below), `synchronous = NORMAL`
                    // syncs the log at checkpoints instead of at every commit:
                    // SQLite's recommended setting for WAL, safe from
                    // corruption; a power cut (not a crash of the server) may
                    // lose the last commits. Two syncs per change (its own
                    // and the audit log's) were a third of a node's add. Set
                    // per connection: the URL the options go through above
                    // carries no pragma.
                    if is_sqlite {
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .with_context(|| format!("cannot open database {}", redact(&url)))?;
        if is_sqlite {
            // Write-ahead logging: readers never wait for the writer, and a
            // commit syncs one file. Kept by the database file once set.
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await
                .context("cannot switch the SQLite database to write-ahead logging")?;
        }
        let migrator = if is_sqlite { &SQLITE } else { &POSTGRES };
        migrator
            .run(&pool)
            .await
            .context("cannot apply database migrations")?;
        Ok(Db {
            pool,
            postgres: !is_sqlite,
            plugins: Arc::new(tokio::sync::Mutex::new(None)),
            freshness: Arc::new(generations::Freshness::new(DEFAULT_MAX_AGE)),
            credentials: Arc::default(),
        })
    }

    /// The generations of what is cached, at most `max_age` old.
    pub async fn generations(&self) -> Result<Generations, DbError> {
        self.freshness.current(&self.pool).await
    }
}

impl Db {
    /// Everything environments are made of, in one consistent read.
    pub async fn snapshot(&self) -> Result<Snapshot, DbError> {
        let mut tx = self.pool.begin().await?;
        let snapshot = snapshot::snapshot_in(&mut tx).await?;
        tx.commit().await?;
        Ok(snapshot)
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<(), DbError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_info = &url[scheme + 3..at];
            let user = user_info.split(':').next().unwrap_or_default();
            format!("{}://{user}:***@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn every_sqlite_connection_writes_ahead_and_syncs_at_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("mosaic.db").display());
        let db = super::Db::connect(&url).await.unwrap();
        // More than one connection of the pool: each is set up on its own.
        let mut held = Vec::new();
        for _ in 0..3 {
            let mut conn = db.pool.acquire().await.unwrap();
            let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            assert_eq!((mode.as_str(), sync), ("wal", 1), "1 is NORMAL");
            held.push(conn);
        }
    }

    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(
            super::redact("postgres://me:secret@db:5432/mosaic"),
            "postgres://me:***@db:5432/mosaic"
        );
        assert_eq!(super::redact("sqlite:/tmp/x.db"), "sqlite:/tmp/x.db");
    }
}
