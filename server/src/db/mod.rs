//! The database: SQLite by default, PostgreSQL when the URL says so. Every
//! query lives in this module's files; the rest of the server calls typed
//! functions. Queries use `$N` parameters, which both back-ends accept.

mod accounts;
mod clusters;
mod heat;
mod nodes;
mod plugins;
mod releases;
mod tags;

use std::str::FromStr;

use anyhow::Context;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::migrate::Migrator;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, ConnectOptions};

pub use accounts::{AuditRecord, StoredToken, StoredUser};
pub use clusters::{InsertCluster, StoredCluster};
pub use nodes::StoredNode;
pub use plugins::StoredPlugin;
pub use tags::TagOwner;

static SQLITE: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("migrations/postgres");

/// A handle on the database, cheap to clone.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
}

/// Errors a caller may want to tell apart from "the database failed".
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    NotFound(String),
    /// A plugin an environment still uses.
    #[error("{0}")]
    InUse(String),
    /// A plugin that collides with installed ones: every collision.
    #[error("the plugin collides with installed plugins")]
    PluginConflict(Vec<mosaic_core::plugin::Diagnostic>),
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
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
            .connect(&url)
            .await
            .with_context(|| format!("cannot open database {}", redact(&url)))?;
        let migrator = if is_sqlite { &SQLITE } else { &POSTGRES };
        migrator
            .run(&pool)
            .await
            .context("cannot apply database migrations")?;
        Ok(Db { pool })
    }
}

impl Db {
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
    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(
            super::redact("postgres://me:secret@db:5432/mosaic"),
            "postgres://me:***@db:5432/mosaic"
        );
        assert_eq!(super::redact("sqlite:/tmp/x.db"), "sqlite:/tmp/x.db");
    }
}
