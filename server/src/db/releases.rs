//! Plugins and the releases they ship.

use mosaic_core::api::ReleaseSummary;
use mosaic_core::release::{Release, ReleasePlugin};
use sqlx::Row;

use super::{Db, DbError};

const BUNDLED_FACT: &str = "bundled_release_installed";

impl Db {
    /// Installs a release plugin and its releases in one transaction.
    pub async fn install_release_plugin(&self, plugin: &ReleasePlugin) -> Result<i64, DbError> {
        let mut tx = self.pool.begin().await?;
        let exists = sqlx::query("SELECT id FROM plugins WHERE name = $1 AND version = $2")
            .bind(&plugin.plugin.name)
            .bind(&plugin.plugin.version)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_some() {
            return Err(DbError::Conflict(format!(
                "plugin {} {} is already installed",
                plugin.plugin.name, plugin.plugin.version
            )));
        }
        let plugin_id: i64 = sqlx::query(
            "INSERT INTO plugins (name, title, version) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(&plugin.plugin.name)
        .bind(&plugin.plugin.title)
        .bind(&plugin.plugin.version)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        for release in &plugin.releases {
            let data =
                serde_json::to_string(release).map_err(|e| DbError::Corrupt(e.to_string()))?;
            sqlx::query(
                "INSERT INTO releases (plugin_id, name, version, operating_system, description, state, data) \
                 VALUES ($1, $2, $3, $4, $5, 'available', $6)",
            )
            .bind(plugin_id)
            .bind(&release.name)
            .bind(&release.version)
            .bind(&release.operating_system)
            .bind(&release.description)
            .bind(data)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(plugin_id)
    }

    /// Installs the bundled release plugin the first time the database is
    /// used; once uninstalled it stays uninstalled. Returns whether it did.
    pub async fn install_bundled_once(&self, plugin: &ReleasePlugin) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        // Claim the fact first: with several replicas starting at once, only
        // the one whose insert succeeds installs.
        let claimed = sqlx::query(
            "INSERT INTO facts (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(BUNDLED_FACT)
        .bind(&plugin.plugin.version)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        tx.commit().await?;
        if !claimed {
            return Ok(false);
        }
        match self.install_release_plugin(plugin).await {
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

    pub async fn releases(&self) -> Result<Vec<ReleaseSummary>, DbError> {
        let rows = sqlx::query(
            "SELECT id, name, version, operating_system, state, description, data FROM releases ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let id: i64 = row.try_get("id")?;
                let data: String = row.try_get("data")?;
                let release: Release = serde_json::from_str(&data)
                    .map_err(|e| DbError::Corrupt(format!("release {id}: {e}")))?;
                Ok(ReleaseSummary {
                    id,
                    name: row.try_get("name")?,
                    version: row.try_get("version")?,
                    operating_system: row.try_get("operating_system")?,
                    state: row.try_get("state")?,
                    description: row.try_get("description")?,
                    required_component_types: release.required_component_types,
                })
            })
            .collect()
    }

    /// The release with `id`, as core reads it.
    pub async fn release(&self, id: i64) -> Result<Option<Release>, DbError> {
        let row = sqlx::query("SELECT data FROM releases WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let data: String = row.try_get("data")?;
        serde_json::from_str(&data)
            .map(Some)
            .map_err(|e| DbError::Corrupt(format!("release {id}: {e}")))
    }
}
