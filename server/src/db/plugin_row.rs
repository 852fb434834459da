//! An installed plugin's row and its releases' rows, read into a
//! `StoredPlugin`: how installs and the installed plugins' cache
//! (`plugins`) and the snapshot an uninstall judges (`snapshot`) read
//! them.

use mosaic_core::plugin::{Diagnostic, Package, Record};
use mosaic_core::release::Release;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::DbError;

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

/// A plugin's JSON column that does not read or write, as `what` names
/// it.
pub(super) fn corrupt(what: String) -> impl FnOnce(serde_json::Error) -> DbError {
    move |e| DbError::Corrupt(format!("{what}: {e}"))
}

/// Every installed plugin with its releases, in id order.
pub(super) async fn plugins_in(conn: &mut AnyConnection) -> Result<Vec<StoredPlugin>, DbError> {
    let rows = sqlx::query(
        "SELECT id, name, title, version, package_version, description, data, warnings \
         FROM plugins ORDER BY id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let releases = sqlx::query("SELECT id, plugin_id, data FROM releases ORDER BY id")
        .fetch_all(&mut *conn)
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
