//! Plugins and the releases they ship.

use mosaic_core::api::ReleaseSummary;
use mosaic_core::release::Release;
use sqlx::Row;

use super::{Db, DbError};

impl Db {
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
