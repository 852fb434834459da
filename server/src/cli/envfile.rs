//! Reading an environment file with the packages it names — the release
//! plugin (or the bundled one) and the listed extension plugins — for
//! `mosaic plan` and `mosaic settings check`.

use std::path::Path;

use mosaic_core::environment::{Base, Environment, EnvironmentError, EnvironmentFile, Spec};
use mosaic_core::name::PluginName;
use mosaic_core::plugin::{Package, ReleaseChoice, choose_release, load};
use mosaic_core::release::Release;
use mosaic_core::tag::TagsMetadata;

use super::models::read_yaml;
use crate::{bundled, package};

/// An environment file and what it names, read.
pub struct Loaded {
    pub file: EnvironmentFile,
    pub release_package: Package,
    /// The listed plugins, in the file's order.
    pub plugins: Vec<Package>,
}

/// A package the file names, loaded; why not otherwise.
fn load_package(base: &Path, path: &str) -> Result<Package, String> {
    let full = base.join(path);
    let files = package::open(&full).map_err(|e| e.to_string())?;
    let loaded = load(files.as_ref());
    loaded.package.ok_or_else(|| {
        format!(
            "{}: the package is not valid:\n{}",
            full.display(),
            loaded.report
        )
    })
}

/// Reads `path` and every package it names; the message (ready for stderr)
/// when something cannot be read.
pub fn read(path: &Path) -> Result<Loaded, String> {
    let file: EnvironmentFile = read_yaml(path)?;
    let base = path.parent().unwrap_or(Path::new("."));
    let release_package = match &file.release {
        Some(release) => load_package(base, release),
        None => bundled::load_bundled()
            .package
            .ok_or_else(|| "the bundled release plugin is invalid".to_owned()),
    }
    .map_err(|e| format!("mosaic: {e}"))?;
    let plugins = file
        .plugins
        .iter()
        .map(|p| load_package(base, p.name()).map_err(|e| format!("mosaic: {e}")))
        .collect::<Result<_, _>>()?;
    Ok(Loaded {
        file,
        release_package,
        plugins,
    })
}

impl Loaded {
    /// The release the file is for.
    pub fn release(&self) -> Result<&Release, String> {
        let releases: Vec<&Release> = self.release_package.releases().collect();
        if releases.is_empty() {
            return Err(format!(
                "{} ships no release (it is not a release plugin)",
                self.release_package.source()
            ));
        }
        choose_release(
            &releases,
            |r| r.name.as_str(),
            self.file.release_name.as_deref(),
        )
        .copied()
        .map_err(|e| match e {
            ReleaseChoice::Several(names) => format!(
                "{} ships several releases ({names}); say which with release_name",
                self.release_package.source()
            ),
            other => format!("{}: {other}", self.release_package.source()),
        })
    }

    /// The environment the file describes (its listed plugins switched on).
    pub fn spec(&self) -> Spec {
        let names: Vec<PluginName> = self.plugins.iter().map(|p| p.name.clone()).collect();
        self.file.spec("environment", &names)
    }

    pub fn environment<'a>(
        &'a self,
        release: &'a Release,
        spec: &'a Spec,
        no_tags: &'a TagsMetadata,
    ) -> Result<Environment<'a>, EnvironmentError> {
        Environment::new(
            Base {
                release,
                plugins: &self.plugins,
                release_tags: no_tags,
                release_roles: mosaic_core::role_layer::RoleLayer::none(),
            },
            spec,
        )
    }
}
