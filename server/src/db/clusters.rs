//! Environments (clusters).

use mosaic_core::api::Cluster;
use mosaic_core::tag::NodeTags;
use sqlx::Row;

use super::{Db, DbError};

pub struct InsertCluster<'a> {
    pub name: &'a str,
    pub release_id: i64,
    pub components: &'a [String],
    pub mode: &'a str,
}

impl Db {
    pub async fn insert_cluster(&self, new: InsertCluster<'_>) -> Result<Cluster, DbError> {
        self.insert_cluster_with(new, &[], &[]).await
    }

    /// Stores an environment with its own tags and its nodes, together or
    /// not at all (an import).
    pub async fn insert_cluster_with(
        &self,
        new: InsertCluster<'_>,
        tags: &[(String, bool)],
        nodes: &[NodeTags],
    ) -> Result<Cluster, DbError> {
        let components =
            serde_json::to_string(new.components).map_err(|e| DbError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query("SELECT id FROM clusters WHERE name = $1")
            .bind(new.name)
            .fetch_optional(&mut *tx)
            .await?;
        if taken.is_some() {
            return Err(DbError::Conflict(format!(
                "an environment named '{}' already exists",
                new.name
            )));
        }
        let id: i64 = sqlx::query(
            "INSERT INTO clusters (name, release_id, components, mode) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(new.name)
        .bind(new.release_id)
        .bind(components)
        .bind(new.mode)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        for (name, has_primary) in tags {
            sqlx::query(
                "INSERT INTO tags (owner_kind, owner_id, name, has_primary) VALUES ('cluster', $1, $2, $3)",
            )
            .bind(id)
            .bind(name)
            .bind(i64::from(*has_primary))
            .execute(&mut *tx)
            .await?;
        }
        for node in nodes {
            super::nodes::insert_node_in(&mut tx, id, None, node).await?;
        }
        tx.commit().await?;
        Ok(Cluster {
            id,
            name: new.name.to_owned(),
            release_id: new.release_id,
            components: new.components.to_vec(),
            mode: new.mode.to_owned(),
        })
    }

    pub async fn clusters(&self) -> Result<Vec<Cluster>, DbError> {
        let rows =
            sqlx::query("SELECT id, name, release_id, components, mode FROM clusters ORDER BY id")
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|row| {
                let components: String = row.try_get("components")?;
                Ok(Cluster {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
                    release_id: row.try_get("release_id")?,
                    components: serde_json::from_str(&components)
                        .map_err(|e| DbError::Corrupt(e.to_string()))?,
                    mode: row.try_get("mode")?,
                })
            })
            .collect()
    }
}

impl Db {
    pub async fn cluster(&self, id: i64) -> Result<Option<Cluster>, DbError> {
        Ok(self.clusters().await?.into_iter().find(|c| c.id == id))
    }
}
