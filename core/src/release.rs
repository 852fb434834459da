//! Releases, as shipped by release plugins: a `metadata.yaml` whose
//! `releases:` list has `is_release: true` records, each pointing at its data
//! files through `*_path` keys (SEMANTICS §7.2).
//!
//! This module reads what the wizard needs — the release's identity and its
//! components — through the [`Files`] trait, so it stays free of IO.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::component::{Component, ComponentType, DEFAULT_REQUIRED_TYPES};
use crate::yaml::{self, LoadError};

/// Read access to the files of one package, by path relative to its root.
pub trait Files {
    /// The text of `path`, or why it cannot be read.
    fn read(&self, path: &str) -> Result<String, String>;
}

/// An in-memory package: relative path → contents.
impl Files for BTreeMap<String, String> {
    fn read(&self, path: &str) -> Result<String, String> {
        self.get(path)
            .cloned()
            .ok_or_else(|| "no such file in the package".to_owned())
    }
}

/// The plugin that ships one or more releases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginInfo {
    pub name: String,
    pub title: String,
    pub version: String,
}

/// A release as stored and served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Release {
    pub name: String,
    pub version: String,
    pub operating_system: String,
    pub description: String,
    pub required_component_types: Vec<ComponentType>,
    pub components: Vec<Component>,
    /// Role name → role metadata (`roles_path`), in file order.
    #[serde(default)]
    pub roles_metadata: serde_json::Value,
    /// Environment attributes and their defaults (`attributes_path`).
    #[serde(default)]
    pub attributes_metadata: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReleasePlugin {
    pub plugin: PluginInfo,
    pub releases: Vec<Release>,
}

#[derive(Deserialize)]
struct RawMetadata {
    name: String,
    title: String,
    version: String,
    #[serde(default)]
    releases: Vec<RawRecord>,
}

#[derive(Deserialize)]
struct RawRecord {
    #[serde(default)]
    is_release: bool,
    release_name: Option<String>,
    name: Option<String>,
    #[serde(default)]
    description: String,
    #[serde(alias = "os")]
    operating_system: Option<String>,
    version: Option<String>,
    components_path: Option<String>,
    roles_path: Option<String>,
    attributes_path: Option<String>,
    required_component_types: Option<Vec<ComponentType>>,
}

const METADATA: &str = "metadata.yaml";

/// A path inside the package: relative, without `..`.
fn confined(key: &str, path: &str) -> Result<String, LoadError> {
    let leaves = path.starts_with('/') || path.split('/').any(|s| s == "..");
    if leaves {
        return Err(LoadError::new(
            METADATA,
            format!("{key}: '{path}' leaves the package root"),
        ));
    }
    Ok(path.trim_start_matches("./").to_owned())
}

/// Loads the releases a release plugin defines.
pub fn load_release_plugin(files: &dyn Files) -> Result<ReleasePlugin, LoadError> {
    let text = files
        .read(METADATA)
        .map_err(|e| LoadError::new(METADATA, e))?;
    let raw: RawMetadata = yaml::parse(METADATA, &text)?;
    let mut releases = Vec::new();
    for (n, record) in raw.releases.into_iter().enumerate() {
        if !record.is_release {
            continue;
        }
        let field = |value: Option<String>, key: &str| {
            value.ok_or_else(|| {
                LoadError::new(
                    METADATA,
                    format!("releases[{n}]: missing required key '{key}'"),
                )
            })
        };
        let components = match record.components_path {
            Some(path) => {
                let path = confined("components_path", &path)?;
                let text = files.read(&path).map_err(|e| LoadError::new(&path, e))?;
                yaml::parse::<Option<Vec<Component>>>(&path, &text)?.unwrap_or_default()
            }
            None => Vec::new(),
        };
        let data = |key: &str, path: Option<String>| -> Result<serde_json::Value, LoadError> {
            let Some(path) = path else {
                return Ok(serde_json::Value::Null);
            };
            let path = confined(key, &path)?;
            let text = files.read(&path).map_err(|e| LoadError::new(&path, e))?;
            yaml::parse::<serde_json::Value>(&path, &text)
        };
        let roles_metadata = data("roles_path", record.roles_path)?;
        let attributes_metadata = data("attributes_path", record.attributes_path)?;
        releases.push(Release {
            name: field(record.release_name.or(record.name), "release_name")?,
            version: field(record.version, "version")?,
            operating_system: field(record.operating_system, "operating_system")?,
            description: record.description,
            required_component_types: record
                .required_component_types
                .unwrap_or_else(|| DEFAULT_REQUIRED_TYPES.to_vec()),
            components,
            roles_metadata,
            attributes_metadata,
        });
    }
    Ok(ReleasePlugin {
        plugin: PluginInfo {
            name: raw.name,
            title: raw.title,
            version: raw.version,
        },
        releases,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    const META: &str = "name: r\ntitle: R\nversion: '1.0.0'\nreleases:\n  - is_release: true\n    release_name: Stack\n    os: ubuntu\n    version: '1.0'\n    components_path: components.yaml\n";

    #[test]
    fn loads_records_and_their_components() {
        let fs = package(&[
            (METADATA, META),
            ("components.yaml", "- name: hypervisor:kvm\n"),
        ]);
        let plugin = load_release_plugin(&fs).unwrap();
        assert_eq!(plugin.plugin.name, "r");
        let release = &plugin.releases[0];
        assert_eq!(
            (release.name.as_str(), release.operating_system.as_str()),
            ("Stack", "ubuntu")
        );
        assert_eq!(release.components[0].name.as_str(), "hypervisor:kvm");
        assert_eq!(release.required_component_types, DEFAULT_REQUIRED_TYPES);
    }

    #[test]
    fn errors_name_the_file_that_is_wrong() {
        let fs = package(&[
            (METADATA, META),
            ("components.yaml", "- name: hypervisor:kvm\n- name: bad\n"),
        ]);
        let err = load_release_plugin(&fs).unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("components.yaml", Some(2)));
        let fs = package(&[(METADATA, META)]);
        assert_eq!(
            load_release_plugin(&fs).unwrap_err().file,
            "components.yaml"
        );
    }

    #[test]
    fn paths_stay_inside_the_package() {
        let meta = META.replace("components.yaml", "../../etc/passwd");
        let err = load_release_plugin(&package(&[(METADATA, &meta)])).unwrap_err();
        assert!(err.message.contains("leaves the package root"), "{err}");
    }
}
