//! Plugins and the releases they ship: install (checked against what is
//! installed and stored in one transaction), list, uninstall.

use mosaic_core::plugin::{Diagnostic, Installed, Package, Severity, check_install};
use sqlx::{AnyConnection, Row};

use std::sync::Arc;

use super::generations::{Generation, generations_in, next_generation};
use super::plugin_row::{StoredPlugin, corrupt, plugins_in};
use super::{Db, DbError, SharedPlugins};

const BUNDLED_FACT: &str = "bundled_release_installed";
/// A row every install updates first: concurrent installs (several API
/// replicas on one PostgreSQL, or SQLite's writers) take turns on it, so
/// each one checks collisions against everything installed before it.
const INSTALL_LOCK: &str = "plugin_install_lock";

impl Db {
    /// Stores `package`: the plugin row and one row per release it ships,
    /// together or not at all. Refused with every collision found when it
    /// clashes with installed plugins (SEMANTICS §7.5).
    pub async fn install_plugin(
        &self,
        package: &Package,
        warnings: &[Diagnostic],
    ) -> Result<StoredPlugin, DbError> {
        let mut tx = self.pool.begin().await?;
        take_install_turn(&mut tx).await?;
        let stored = install_in(&mut tx, package, warnings).await?;
        tx.commit().await?;
        self.freshness.expire();
        Ok(stored)
    }

    /// Installs the bundled release plugin the first time the database is
    /// used; once uninstalled it stays uninstalled. Returns whether it did.
    /// The fact that it was installed and the install are one transaction:
    /// a server stopped in between leaves neither.
    pub async fn install_bundled_once(
        &self,
        package: &Package,
        warnings: &[Diagnostic],
    ) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        // With several replicas starting at once, they take turns here; the
        // first installs, the others then find the fact.
        take_install_turn(&mut tx).await?;
        let done = sqlx::query("SELECT value FROM facts WHERE key = $1")
            .bind(BUNDLED_FACT)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if done {
            return Ok(false);
        }
        install_in(&mut tx, package, warnings).await?;
        sqlx::query("INSERT INTO facts (key, value) VALUES ($1, $2)")
            .bind(BUNDLED_FACT)
            .bind(package.version.as_str())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        self.freshness.expire();
        Ok(true)
    }

    /// Every installed plugin, in install order: parsed again only when an
    /// install or uninstall (here or on another replica) moved the
    /// generation on.
    pub async fn plugins(&self) -> Result<SharedPlugins, DbError> {
        let generation = self.generations().await?.plugins;
        // One request parses; the others wait for it and share the result.
        let mut cache = self.plugins.lock().await;
        if let Some((cached, plugins)) = cache.as_ref()
            && *cached >= generation
        {
            return Ok(plugins.clone());
        }
        loop {
            let mut tx = self.pool.begin().await?;
            let at = generations_in(&mut tx).await?.plugins;
            let plugins = Arc::new(super::Installed::new(plugins_in(&mut tx).await?));
            let after = generations_in(&mut tx).await?.plugins;
            tx.commit().await?;
            // An install in between: read again.
            if after == at {
                *cache = Some((at, plugins.clone()));
                return Ok(plugins);
            }
        }
    }

    pub async fn plugin(&self, id: i64) -> Result<Option<StoredPlugin>, DbError> {
        Ok(self.plugins().await?.iter().find(|p| p.id == id).cloned())
    }

    /// Removes plugin `id` and its releases when `check` allows it, judged
    /// on everything installed and stored as this transaction sees it: no
    /// environment can start using the plugin between the check and the
    /// removal (SQLite: the install turn is the database's write lock;
    /// PostgreSQL: the environment tables are locked against writers).
    pub async fn uninstall_plugin(
        &self,
        id: i64,
        check: impl FnOnce(&StoredPlugin, &super::Snapshot) -> Result<(), DbError>,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        take_install_turn(&mut tx).await?;
        if self.postgres {
            sqlx::query("LOCK TABLE clusters, nodes, tags IN SHARE MODE")
                .execute(&mut *tx)
                .await?;
        }
        let snapshot = super::snapshot::snapshot_in(&mut tx).await?;
        let plugin = snapshot
            .plugins
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| DbError::NotFound(format!("plugin {id} is not installed")))?;
        check(plugin, &snapshot)?;
        next_generation(&mut tx, Generation::Plugins).await?;
        sqlx::query("DELETE FROM releases WHERE plugin_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM plugins WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        self.freshness.expire();
        Ok(())
    }
}

/// Stores `package` on `conn` (inside a transaction that took the install
/// turn): refused with every collision found when it clashes with
/// installed plugins (SEMANTICS §7.5).
async fn install_in(
    conn: &mut AnyConnection,
    package: &Package,
    warnings: &[Diagnostic],
) -> Result<StoredPlugin, DbError> {
    let installed: Vec<Package> = plugins_in(conn)
        .await?
        .into_iter()
        .map(|p| p.package)
        .collect();
    let problems = check_install(
        package,
        Installed {
            plugins: &installed,
        },
    );
    let (errors, mut notes): (Vec<_>, Vec<_>) = problems
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    if !errors.is_empty() {
        return Err(DbError::PluginConflict(errors));
    }
    notes.extend(warnings.iter().cloned());
    let kind = if package.is_release_plugin() {
        "release"
    } else {
        "extension"
    };
    let data = serde_json::to_string(package).map_err(corrupt("plugin".into()))?;
    let warnings_json = serde_json::to_string(&notes).map_err(corrupt("warnings".into()))?;
    let id: i64 = sqlx::query(
        "INSERT INTO plugins (name, title, version, package_version, description, kind, data, warnings) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(package.name.as_str())
    .bind(&package.title)
    .bind(package.version.as_str())
    .bind(&package.package_version)
    .bind(&package.description)
    .bind(kind)
    .bind(data)
    .bind(warnings_json)
    .fetch_one(&mut *conn)
    .await?
    .try_get(0)?;
    next_generation(conn, Generation::Plugins).await?;
    let mut release_ids = Vec::new();
    for release in package.releases() {
        let data = serde_json::to_string(release).map_err(corrupt("release".into()))?;
        let release_id: i64 = sqlx::query(
            "INSERT INTO releases (plugin_id, name, version, operating_system, description, state, data) \
             VALUES ($1, $2, $3, $4, $5, 'available', $6) RETURNING id",
        )
        .bind(id)
        .bind(&release.name)
        .bind(&release.version)
        .bind(&release.operating_system)
        .bind(&release.description)
        .bind(data)
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
        release_ids.push(release_id);
    }
    Ok(StoredPlugin {
        id,
        package: package.clone(),
        release_ids,
        warnings: notes,
    })
}

/// Waits for this transaction's turn to install or uninstall.
async fn take_install_turn(conn: &mut AnyConnection) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO facts (key, value) VALUES ($1, '') \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(INSTALL_LOCK)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
