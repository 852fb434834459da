//! Plugin packages (SEMANTICS §7): loading a package through the [`Files`]
//! trait, `*_path` resolution, the schema of every file kind, the
//! validation [`Report`], and the checks an install makes against what is
//! already installed. A release plugin is a package whose `releases:`
//! records carry `is_release: true`.

mod files;
mod install;
mod load;
mod report;
mod schema;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::component::Component;
use crate::release::Release;

pub use files::{Files, Kind, MemoryFiles, PathError, confine, glob, is_glob};
pub use install::{Installed, check_install};
pub use load::{Loaded, load, load_with_limits};
pub use report::{Diagnostic, PluginId, ReleaseId, Report, Severity};

/// A package as loaded: metadata, its `releases:` records with their files
/// read in, and the fixed files under their stored names (what the server
/// stores and `mosaic plugin show` prints).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Package {
    pub name: String,
    pub title: String,
    pub version: String,
    pub package_version: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub licenses: Vec<String>,
    #[serde(default)]
    pub authors: Vec<String>,
    #[serde(default)]
    pub homepage: String,
    #[serde(default)]
    pub groups: Vec<String>,
    #[serde(default)]
    pub is_hotpluggable: bool,
    pub releases: Vec<Record>,
    /// `environment_config.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub attributes_metadata: Value,
    /// `node_roles.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub roles_metadata: Value,
    /// `volumes.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub volumes_metadata: Value,
    /// `deployment_tasks.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub deployment_tasks: Value,
    /// `components.yaml`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components_metadata: Vec<Component>,
    /// `network_roles.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub network_roles_metadata: Value,
    /// `node_tags.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub tags_metadata: Value,
    /// `node_config.yaml`, `nic_config.yaml`, `bond_config.yaml` (5.0.0).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub node_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub nic_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub bond_attributes_metadata: Value,
}

/// One `releases:` record.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Record {
    Release(Box<Release>),
    Extension(Compatibility),
}

impl<'de> Deserialize<'de> for Record {
    /// By `is_release`, so that a release record's own errors surface
    /// instead of it quietly reading as an extension record.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = Value::deserialize(deserializer)?;
        if value["is_release"].as_bool() == Some(true) {
            serde_json::from_value(value).map(|r| Record::Release(Box::new(r)))
        } else {
            serde_json::from_value(value).map(Record::Extension)
        }
        .map_err(D::Error::custom)
    }
}

/// An extension record: the releases the plugin works with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compatibility {
    pub operating_system: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mode: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_scripts_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository_path: Option<String>,
}

impl Compatibility {
    /// Same OS (ignoring case), and the release's version starts with the
    /// record's (SEMANTICS §7.2).
    pub fn matches(&self, release: &Release) -> bool {
        self.operating_system
            .eq_ignore_ascii_case(&release.operating_system)
            && release.version.starts_with(&self.version)
    }
}

impl Package {
    pub fn id(&self) -> PluginId {
        PluginId {
            name: self.name.clone(),
            version: self.version.clone(),
            package_version: self.package_version.clone(),
        }
    }

    /// The releases the package ships.
    pub fn releases(&self) -> impl Iterator<Item = &Release> {
        self.releases.iter().filter_map(|r| match r {
            Record::Release(release) => Some(&**release),
            Record::Extension(_) => None,
        })
    }

    /// The extension records.
    pub fn compatibility(&self) -> impl Iterator<Item = &Compatibility> {
        self.releases.iter().filter_map(|r| match r {
            Record::Extension(c) => Some(c),
            Record::Release(_) => None,
        })
    }

    pub fn is_release_plugin(&self) -> bool {
        self.releases().next().is_some()
    }

    /// Whether this extension plugin works with `release`.
    pub fn extends(&self, release: &Release) -> bool {
        self.compatibility().any(|c| c.matches(release))
    }

    /// Where components, roles and volumes come from, in messages:
    /// "plugin contrail 4.0.1".
    pub fn source(&self) -> String {
        format!("plugin {} {}", self.name, self.version)
    }

    pub fn role_names(&self) -> Vec<String> {
        crate::release::keys(&self.roles_metadata)
    }

    pub fn volume_ids(&self) -> Vec<String> {
        crate::release::volume_ids(&self.volumes_metadata)
    }
}
