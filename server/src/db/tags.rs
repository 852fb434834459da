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

/// A tag row's `has_primary` and `instances`.
pub(super) fn meta(row: &sqlx::any::AnyRow) -> Result<TagMeta, DbError> {
    let instances = row
        .try_get::<Option<i64>, _>("instances")?
        .map(|n| u32::try_from(n).map_err(|_| DbError::Corrupt(format!("tags.instances {n}"))))
        .transpose()?;
    Ok(TagMeta {
        has_primary: row.try_get::<i64, _>("has_primary")? != 0,
        instances,
    })
}

impl TagOwner {
    /// The owner a row's `owner_kind` and `owner_id` name (of `table`).
    pub(super) fn of_row(row: &sqlx::any::AnyRow, table: &str) -> Result<TagOwner, DbError> {
        let kind: String = row.try_get("owner_kind")?;
        let id: i64 = row.try_get("owner_id")?;
        match kind.as_str() {
            "release" => Ok(TagOwner::Release(id)),
            "cluster" => Ok(TagOwner::Cluster(id)),
            other => Err(DbError::Corrupt(format!("{table}.owner_kind '{other}'"))),
        }
    }

    pub(super) fn parts(self) -> (&'static str, i64) {
        match self {
            TagOwner::Release(id) => ("release", id),
            TagOwner::Cluster(id) => ("cluster", id),
        }
    }
}

/// The tags created on `owner`, in creation order.
pub(super) async fn user_tags_in(
    conn: &mut sqlx::AnyConnection,
    owner: TagOwner,
) -> Result<TagsMetadata, DbError> {
    let (kind, id) = owner.parts();
    let rows = sqlx::query(
        "SELECT name, has_primary, instances FROM tags WHERE owner_kind = $1 AND owner_id = $2 ORDER BY id",
    )
    .bind(kind)
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            let name: String = r.try_get("name")?;
            let name =
                TagName::new(name).map_err(|e| DbError::Corrupt(format!("tags.name: {e}")))?;
            Ok((name, meta(r)?))
        })
        .collect()
}

/// Creates `tags` on `owner` inside a transaction; one that exists is a
/// conflict.
pub(super) async fn insert_tags_in(
    conn: &mut sqlx::AnyConnection,
    owner: TagOwner,
    tags: &TagsMetadata,
) -> Result<(), DbError> {
    let (kind, id) = owner.parts();
    for (name, meta) in tags {
        let inserted = sqlx::query(
            "INSERT INTO tags (owner_kind, owner_id, name, has_primary, instances) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (owner_kind, owner_id, name) DO NOTHING",
        )
        .bind(kind)
        .bind(id)
        .bind(name.as_str())
        .bind(i64::from(meta.has_primary))
        .bind(meta.instances.map(i64::from))
        .execute(&mut *conn)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Err(DbError::Conflict(format!("tag '{name}' already exists")));
        }
    }
    Ok(())
}

impl Db {
    /// The owner's tags.
    pub async fn user_tags(&self, owner: TagOwner) -> Result<TagsMetadata, DbError> {
        let mut conn = self.pool.acquire().await?;
        user_tags_in(&mut conn, owner).await
    }

    pub async fn insert_tag(
        &self,
        owner: TagOwner,
        name: &str,
        meta: TagMeta,
    ) -> Result<(), DbError> {
        let (kind, id) = owner.parts();
        let inserted = sqlx::query(
            "INSERT INTO tags (owner_kind, owner_id, name, has_primary, instances) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (owner_kind, owner_id, name) DO NOTHING",
        )
        .bind(kind)
        .bind(id)
        .bind(name)
        .bind(i64::from(meta.has_primary))
        .bind(meta.instances.map(i64::from))
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
        meta: TagMeta,
    ) -> Result<bool, DbError> {
        let (kind, id) = owner.parts();
        Ok(sqlx::query(
            "UPDATE tags SET has_primary = $1, instances = $5 \
             WHERE owner_kind = $2 AND owner_id = $3 AND name = $4",
        )
        .bind(i64::from(meta.has_primary))
        .bind(kind)
        .bind(id)
        .bind(name)
        .bind(meta.instances.map(i64::from))
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
