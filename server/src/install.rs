//! Installing a plugin package: load and validate it with core, then store
//! it (the store checks collisions in the same transaction). Shared by the
//! HTTP API, `mosaic plugin install` and the bundled release.

use mosaic_core::plugin::{Files, Report, Severity, load};

use crate::db::{Db, DbError, StoredPlugin};
use crate::environment::plugin_users;

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
/// are kept with the plugin. Validation is CPU work: it runs on the
/// blocking pool, not on the async workers.
pub async fn install(
    db: &Db,
    files: Box<dyn Files + Send + Sync>,
) -> Result<(StoredPlugin, Report), InstallError> {
    let loaded = tokio::task::spawn_blocking(move || load(files.as_ref()))
        .await
        .map_err(|e| InstallError::Db(DbError::Corrupt(format!("validation failed: {e}"))))?;
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

/// Uninstalls plugin `id`, unless an environment uses it (created from one
/// of its releases, with it switched on, or with nodes carrying its roles),
/// judged inside the uninstall's own transaction.
pub async fn uninstall(db: &Db, id: i64) -> Result<(), DbError> {
    db.uninstall_plugin(id, |plugin, snapshot| {
        let users = plugin_users(snapshot, plugin)?;
        if users.is_empty() {
            return Ok(());
        }
        let quoted: Vec<String> = users.iter().map(ToString::to_string).collect();
        Err(DbError::InUse(
            crate::db::InUse::Plugin,
            format!(
                "{} is used by the environment{} {}; delete {} first",
                plugin.package.source(),
                if users.len() == 1 { "" } else { "s" },
                quoted.join(", "),
                if users.len() == 1 { "it" } else { "them" },
            ),
        ))
    })
    .await
}
