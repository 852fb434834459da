//! Uploaded Heat template sets.

use std::collections::BTreeMap;

use sqlx::Row;

use super::{Db, DbError};

impl Db {
    pub async fn insert_template_set(
        &self,
        name: &str,
        files: &BTreeMap<String, String>,
    ) -> Result<i64, DbError> {
        let json = serde_json::to_string(files).map_err(|e| DbError::Corrupt(e.to_string()))?;
        Ok(
            sqlx::query(
                "INSERT INTO heat_template_sets (name, files) VALUES ($1, $2) RETURNING id",
            )
            .bind(name)
            .bind(json)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?,
        )
    }

    /// The set's name and files.
    pub async fn template_set(
        &self,
        id: i64,
    ) -> Result<Option<(String, BTreeMap<String, String>)>, DbError> {
        let row = sqlx::query("SELECT name, files FROM heat_template_sets WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let files: String = row.try_get("files")?;
        let files = serde_json::from_str(&files)
            .map_err(|e| DbError::Corrupt(format!("template set {id}: {e}")))?;
        Ok(Some((row.try_get("name")?, files)))
    }
}
