//! Plugins and the releases they ship: install (checked against what is
//! installed and stored in one transaction), list, uninstall.

use mosaic_core::plugin::{Diagnostic, Installed, Package, Record, Severity, check_install};
use mosaic_core::release::Release;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Db, DbError};

const BUNDLED_FACT: &str = "bundled_release_installed";
/// A row every install updates first: concurrent installs (several API
/// replicas on one PostgreSQL, or SQLite's writers) take turns on it, so
/// each one checks collisions against everything installed before it.
const INSTALL_LOCK: &str = "plugin_install_lock";

/// An installed plugin with the ids of its releases.
#[derive(Debug, Clone)]
pub struct StoredPlugin {
    pub id: i64,
    pub package: Package,
    pub release_ids: Vec<i64>,
    pub warnings: Vec<Diagnostic>,
}

impl StoredPlugin {
    /// The stored releases with their ids.
    pub fn releases(&self) -> impl Iterator<Item = (i64, &Release)> {
        self.release_ids
            .iter()
            .copied()
            .zip(self.package.releases())
    }
}

fn corrupt(what: String) -> impl FnOnce(serde_json::Error) -> DbError {
    move |e| DbError::Corrupt(format!("{what}: {e}"))
}

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
        let installed: Vec<Package> = plugins_in(&mut tx)
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
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
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
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
            release_ids.push(release_id);
        }
        tx.commit().await?;
        Ok(StoredPlugin {
            id,
            package: package.clone(),
            release_ids,
            warnings: notes,
        })
    }

    /// Installs the bundled release plugin the first time the database is
    /// used; once uninstalled it stays uninstalled. Returns whether it did.
    pub async fn install_bundled_once(
        &self,
        package: &Package,
        warnings: &[Diagnostic],
    ) -> Result<bool, DbError> {
        // Claim the fact first: with several replicas starting at once, only
        // the one whose insert succeeds installs.
        let claimed = sqlx::query(
            "INSERT INTO facts (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(BUNDLED_FACT)
        .bind(package.version.as_str())
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1;
        if !claimed {
            return Ok(false);
        }
        match self.install_plugin(package, warnings).await {
            Ok(_) => Ok(true),
            Err(e) => {
                // Give the next start another chance.
                sqlx::query("DELETE FROM facts WHERE key = $1")
                    .bind(BUNDLED_FACT)
                    .execute(&self.pool)
                    .await?;
                Err(e)
            }
        }
    }

    /// Every installed plugin, in install order.
    pub async fn plugins(&self) -> Result<Vec<StoredPlugin>, DbError> {
        let mut tx = self.pool.begin().await?;
        let plugins = plugins_in(&mut tx).await?;
        tx.commit().await?;
        Ok(plugins)
    }

    pub async fn plugin(&self, id: i64) -> Result<Option<StoredPlugin>, DbError> {
        Ok(self.plugins().await?.into_iter().find(|p| p.id == id))
    }

    /// Removes a plugin and its releases (the caller has checked that no
    /// environment uses it).
    pub async fn delete_plugin(&self, id: i64) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        take_install_turn(&mut tx).await?;
        sqlx::query("DELETE FROM releases WHERE plugin_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let deleted = sqlx::query("DELETE FROM plugins WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if deleted == 0 {
            return Err(DbError::NotFound(format!("plugin {id} is not installed")));
        }
        tx.commit().await?;
        Ok(())
    }
}

/// Waits for this transaction's turn to install or uninstall.
async fn take_install_turn(tx: &mut Transaction<'_, Any>) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO facts (key, value) VALUES ($1, '') \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(INSTALL_LOCK)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn plugins_in(tx: &mut Transaction<'_, Any>) -> Result<Vec<StoredPlugin>, DbError> {
    let rows = sqlx::query(
        "SELECT id, name, title, version, package_version, description, data, warnings \
         FROM plugins ORDER BY id",
    )
    .fetch_all(&mut **tx)
    .await?;
    let releases = sqlx::query("SELECT id, plugin_id, data FROM releases ORDER BY id")
        .fetch_all(&mut **tx)
        .await?;
    rows.iter()
        .map(|row| stored_plugin(row, &releases))
        .collect()
}

fn stored_plugin(row: &AnyRow, releases: &[AnyRow]) -> Result<StoredPlugin, DbError> {
    let id: i64 = row.try_get("id")?;
    let data: String = row.try_get("data")?;
    let warnings: String = row.try_get("warnings")?;
    let mut ids = Vec::new();
    let mut own = Vec::new();
    for release in releases {
        if release.try_get::<i64, _>("plugin_id")? == id {
            let release_id: i64 = release.try_get("id")?;
            let data: String = release.try_get("data")?;
            let parsed: Release =
                serde_json::from_str(&data).map_err(corrupt(format!("release {release_id}")))?;
            ids.push(release_id);
            own.push(Record::Release(Box::new(parsed)));
        }
    }
    let mut package: Package = if data == "{}" {
        // Installed before packages were stored whole: the row and its
        // releases are all there is.
        serde_json::from_value(serde_json::json!({
            "name": row.try_get::<String, _>("name")?,
            "title": row.try_get::<String, _>("title")?,
            "version": row.try_get::<String, _>("version")?,
            "package_version": row.try_get::<String, _>("package_version")?,
            "description": row.try_get::<String, _>("description")?,
            "releases": []
        }))
        .map_err(corrupt(format!("plugin {id}")))?
    } else {
        serde_json::from_str(&data).map_err(corrupt(format!("plugin {id}")))?
    };
    // The releases table is what environments refer to; its rows win.
    if !own.is_empty() {
        package
            .releases
            .retain(|r| matches!(r, Record::Extension(_)));
        package.releases.extend(own);
    }
    Ok(StoredPlugin {
        id,
        package,
        release_ids: ids,
        warnings: serde_json::from_str(&warnings)
            .map_err(corrupt(format!("plugin {id} warnings")))?,
    })
}
