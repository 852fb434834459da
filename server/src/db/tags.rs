//! Tags created through the API on releases and environments.

use mosaic_core::name::TagName;
use mosaic_core::tag::{TagMeta, TagsMetadata};
use sqlx::Row;

use super::{Db, DbError};

/// Whose tag: a release's or an environment's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagOwner {
    Release(i64),
    Cluster(i64),
}

impl TagOwner {
    fn parts(self) -> (&'static str, i64) {
        match self {
            TagOwner::Release(id) => ("release", id),
            TagOwner::Cluster(id) => ("cluster", id),
        }
    }
}

impl Db {
    /// The owner's tags.
    pub async fn user_tags(&self, owner: TagOwner) -> Result<TagsMetadata, DbError> {
        let (kind, id) = owner.parts();
        let rows = sqlx::query(
            "SELECT name, has_primary FROM tags WHERE owner_kind = $1 AND owner_id = $2 ORDER BY id",
        )
        .bind(kind)
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let name: String = r.try_get("name")?;
                let name =
                    TagName::new(name).map_err(|e| DbError::Corrupt(format!("tags.name: {e}")))?;
                let has_primary = r.try_get::<i64, _>("has_primary")? != 0;
                Ok((name, TagMeta { has_primary }))
            })
            .collect()
    }

    pub async fn insert_tag(
        &self,
        owner: TagOwner,
        name: &str,
        has_primary: bool,
    ) -> Result<(), DbError> {
        let (kind, id) = owner.parts();
        let inserted = sqlx::query(
            "INSERT INTO tags (owner_kind, owner_id, name, has_primary) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (owner_kind, owner_id, name) DO NOTHING",
        )
        .bind(kind)
        .bind(id)
        .bind(name)
        .bind(i64::from(has_primary))
        .execute(&self.pool)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Err(DbError::Conflict(format!("tag '{name}' already exists")));
        }
        Ok(())
    }

    /// Whether the tag existed.
    pub async fn update_tag(
        &self,
        owner: TagOwner,
        name: &str,
        has_primary: bool,
    ) -> Result<bool, DbError> {
        let (kind, id) = owner.parts();
        Ok(sqlx::query(
            "UPDATE tags SET has_primary = $1 WHERE owner_kind = $2 AND owner_id = $3 AND name = $4",
        )
        .bind(i64::from(has_primary))
        .bind(kind)
        .bind(id)
        .bind(name)
        .execute(&self.pool)
        .await?
        .rows_affected()
            > 0)
    }

    /// Whether the tag existed.
    pub async fn delete_tag(&self, owner: TagOwner, name: &str) -> Result<bool, DbError> {
        let (kind, id) = owner.parts();
        Ok(
            sqlx::query("DELETE FROM tags WHERE owner_kind = $1 AND owner_id = $2 AND name = $3")
                .bind(kind)
                .bind(id)
                .bind(name)
                .execute(&self.pool)
                .await?
                .rows_affected()
                > 0,
        )
    }
}
