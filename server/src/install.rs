//! Installing a plugin package: load and validate it with core, then store
//! it (the store checks collisions in the same transaction). Shared by the
//! HTTP API, `mosaic plugin install` and the bundled release.

use mosaic_core::component::{Registry, Source};
use mosaic_core::plugin::{Files, Report, Severity, load};
use mosaic_core::release::Release;

use crate::db::{Db, DbError, StoredPlugin};

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The package has validation errors.
    #[error("the plugin package is not valid: {}", .0.summary())]
    Invalid(Box<Report>),
    /// It collides with installed plugins.
    #[error("the plugin collides with installed plugins: {}", .0.summary())]
    Conflict(Box<Report>),
    #[error(transparent)]
    Db(DbError),
}

/// Validates and installs the package `files` holds. The report's warnings
/// are kept with the plugin.
pub async fn install(
    db: &Db,
    files: &(dyn Files + Sync),
) -> Result<(StoredPlugin, Report), InstallError> {
    let loaded = load(files);
    let Some(package) = loaded.package.filter(|_| !loaded.report.has_errors()) else {
        return Err(InstallError::Invalid(Box::new(loaded.report)));
    };
    let warnings: Vec<_> = loaded
        .report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .cloned()
        .collect();
    match db.install_plugin(&package, &warnings).await {
        Ok(stored) => {
            let report = Report::new(
                loaded.report.plugin,
                loaded.report.releases,
                stored.warnings.clone(),
            );
            Ok((stored, report))
        }
        Err(DbError::PluginConflict(mut diagnostics)) => {
            diagnostics.extend(warnings);
            Err(InstallError::Conflict(Box::new(Report::new(
                loaded.report.plugin,
                loaded.report.releases,
                diagnostics,
            ))))
        }
        Err(e) => Err(InstallError::Db(e)),
    }
}

/// Numeric parts of a version, for "newest wins".
fn version_key(version: &str) -> Vec<u64> {
    version
        .split(['.', '-'])
        .map(|p| p.parse().unwrap_or(0))
        .collect()
}

/// The release with `id` and its component registry: the release's
/// components, then those of every installed extension plugin compatible
/// with it — the newest version of each plugin only (SEMANTICS §2.2).
pub fn release_registry(
    plugins: &[StoredPlugin],
    id: i64,
) -> Option<Result<(Release, Registry), String>> {
    let release = plugins
        .iter()
        .flat_map(|p| p.releases())
        .find(|(rid, _)| *rid == id)
        .map(|(_, r)| r.clone())?;
    let mut newest: Vec<&StoredPlugin> = Vec::new();
    for plugin in plugins
        .iter()
        .filter(|p| !p.package.is_release_plugin() && p.package.extends(&release))
    {
        match newest
            .iter_mut()
            .find(|p| p.package.name == plugin.package.name)
        {
            Some(slot) => {
                if version_key(&plugin.package.version) > version_key(&slot.package.version) {
                    *slot = plugin;
                }
            }
            None => newest.push(plugin),
        }
    }
    let sources = std::iter::once((
        Source(format!("release {} {}", release.name, release.version)),
        release.components_metadata.clone(),
    ))
    .chain(newest.iter().map(|p| {
        (
            Source(p.package.source()),
            p.package.components_metadata.clone(),
        )
    }));
    Some(
        Registry::new(sources)
            .map(|registry| (release, registry))
            .map_err(|e| e.to_string()),
    )
}
