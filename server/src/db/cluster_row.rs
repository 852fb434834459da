//! An environment's row: its columns with its release and the release's
//! plugin, read into a `StoredCluster`. What changes an environment
//! (`clusters`) and what reads it whole (`roles`, `snapshot`) read it so.

use mosaic_core::api::{Cluster, PinnedPlugin, ReleasePlugin};
use mosaic_core::name::{EnvironmentStatus, Mode, PluginName};
use mosaic_core::plugin::Pins;
use mosaic_core::settings::Edits;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::DbError;

/// An environment's row.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCluster {
    pub cluster: Cluster,
    /// The operator's settings changes.
    pub settings: Edits,
    /// Incremented by every settings change.
    pub settings_version: i64,
    /// The versions it pins; `None` for a row stored before versions were
    /// pinned and not pinned since ([`Db::pin`](super::Db::pin)).
    pub pins: Option<Pins>,
    /// Its network configuration without the VIPs' addresses (those are
    /// rows of their own); `None` before its networks were built.
    pub networks: Option<mosaic_core::network::NetworkConfiguration>,
    /// Moved on by every change of the network configuration.
    pub networks_version: i64,
}

impl StoredCluster {
    /// The versions it pins (none for a row not pinned yet).
    pub fn pinned(&self) -> Pins {
        self.pins.clone().unwrap_or_default()
    }
}

/// Every column of an environment, with the release plugin that its
/// release comes from: `SELECT` it `FROM` [`TABLES`].
pub(super) const COLUMNS: &str = "c.id, c.name, c.release_id, c.components, c.mode, c.status, c.settings, \
     c.settings_version, c.plugins, c.networks, c.networks_version, \
     p.name AS release_plugin, p.version AS release_plugin_version, \
     r.name AS release_name, r.version AS release_version";
pub(super) const TABLES: &str = "clusters c LEFT JOIN releases r ON r.id = c.release_id \
     LEFT JOIN plugins p ON p.id = r.plugin_id";

fn corrupt(what: &str) -> impl Fn(serde_json::Error) -> DbError + '_ {
    move |e| DbError::Corrupt(format!("clusters.{what}: {e}"))
}

pub(super) fn stored(row: &AnyRow) -> Result<StoredCluster, DbError> {
    let components: String = row.try_get("components")?;
    let mode: String = row.try_get("mode")?;
    let settings: String = row.try_get("settings")?;
    let pins: Option<String> = row.try_get("plugins")?;
    let pins: Option<Pins> = pins
        .map(|p| serde_json::from_str(&p))
        .transpose()
        .map_err(corrupt("plugins"))?;
    let release_plugin: Option<String> = row.try_get("release_plugin")?;
    let plugin_version: Option<String> = row.try_get("release_plugin_version")?;
    let release = match (release_plugin, plugin_version) {
        (Some(plugin), Some(version)) => Some(ReleasePlugin {
            plugin: PluginName::new(plugin)
                .map_err(|e| DbError::Corrupt(format!("plugins.name: {e}")))?,
            version,
            name: row.try_get("release_name")?,
            release_version: row.try_get("release_version")?,
        }),
        _ => None,
    };
    Ok(StoredCluster {
        cluster: Cluster {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            release_id: row.try_get("release_id")?,
            components: serde_json::from_str(&components).map_err(corrupt("components"))?,
            mode: Mode::parse(&mode)
                .map_err(|e| DbError::Corrupt(format!("clusters.mode: {e}")))?,
            plugins: PinnedPlugin::list(pins.as_ref().unwrap_or(&Pins::new())),
            release,
            status: EnvironmentStatus::parse(&row.try_get::<String, _>("status")?)
                .map_err(|e| DbError::Corrupt(format!("clusters.status: {e}")))?,
        },
        settings: serde_json::from_str(&settings).map_err(corrupt("settings"))?,
        settings_version: row.try_get("settings_version")?,
        pins,
        networks: row
            .try_get::<Option<String>, _>("networks")?
            .map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(corrupt("networks"))?,
        networks_version: row.try_get("networks_version")?,
    })
}
