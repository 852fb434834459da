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
mod version;

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::component::Component;
use crate::name::PluginName;
use crate::release::{Graph, Release};
use crate::role::Roles;
use crate::settings::Group;
use crate::tag::{TagsMetadata, deserialize_tags_metadata};
use crate::task::{TaskDef, deserialize_tasks};

pub use files::{Files, Kind, MemoryFiles, PathError, confine, glob, is_glob};
pub use install::{Installed, check_install};
pub use load::{Loaded, load, load_with_limits};
pub use report::{Diagnostic, PluginId, ReleaseId, Report, Severity};
pub use version::Version;

/// A name deployer data (`deployers.yaml`) gives that the deployer's
/// declaration must have: a group of its inventory (a tag's placement, a
/// service's group pattern, `own_roles_under`, an inventory group's
/// children) or one of its globals (a service's `enabled_by`) — with its
/// place, for the install's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployerMention {
    pub deployer: String,
    pub what: Mentioned,
    pub name: String,
    pub file: String,
    pub line: usize,
    pub path: String,
}

/// What a [`DeployerMention`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mentioned {
    Group,
    Global,
}

impl Mentioned {
    /// As a report words it (`group`, `global`).
    pub fn word(self) -> &'static str {
        match self {
            Mentioned::Group => "group",
            Mentioned::Global => "global",
        }
    }
}

/// A package as loaded: metadata, its `releases:` records with their files
/// read in, and the fixed files under their stored names (what the server
/// stores and `mosaic plugin show` prints).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Package {
    pub name: PluginName,
    pub title: String,
    pub version: Version,
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
    /// `environment_config.yaml`: the plugin's settings group.
    #[serde(default, skip_serializing_if = "PluginAttributes::is_empty")]
    pub attributes_metadata: PluginAttributes,
    /// `node_roles.yaml`.
    #[serde(default, skip_serializing_if = "Roles::is_empty")]
    pub roles_metadata: Roles,
    /// `volumes.yaml`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub volumes_metadata: Value,
    /// `deployment_tasks.yaml`.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "deserialize_tasks"
    )]
    pub deployment_tasks: Vec<TaskDef>,
    /// `components.yaml`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components_metadata: Vec<Component>,
    /// An extension's `graphs:` records of `metadata.yaml` (5.0.0): tasks
    /// for graph types, one record per type (SEMANTICS §6.2). Plugins
    /// stored before they were read have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub graphs: Vec<Graph>,
    /// `network_roles.yaml`.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::release::null_as_default"
    )]
    pub network_roles_metadata: Vec<crate::network::NetworkRole>,
    /// `deployers.yaml`: its entries for the deployers of the releases it
    /// extends (SEMANTICS §12).
    #[serde(
        default,
        skip_serializing_if = "crate::deployer::Deployers::is_empty",
        deserialize_with = "crate::release::null_as_default"
    )]
    pub deployers_metadata: crate::deployer::Deployers,
    /// Every group its deployer entries name, where: what an install
    /// checks against the inventories of the releases it extends (known
    /// only as a package is loaded, not stored).
    #[serde(skip)]
    pub deployer_mentions: Vec<DeployerMention>,
    /// `node_tags.yaml`.
    #[serde(
        default,
        skip_serializing_if = "TagsMetadata::is_empty",
        deserialize_with = "deserialize_tags_metadata"
    )]
    pub tags_metadata: TagsMetadata,
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
            name: self.name.to_string(),
            version: self.version.to_string(),
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

    pub fn volume_ids(&self) -> Vec<String> {
        crate::release::volume_ids(&self.volumes_metadata)
    }

    /// The plugin's `graphs:` record of type `kind`.
    pub fn graph(&self, kind: &str) -> Option<&Graph> {
        self.graphs.iter().find(|g| g.kind == kind)
    }
}

/// A plugin's `environment_config.yaml`: `{attributes: {metadata?, attr…}}`,
/// the plugin's settings group.
#[derive(Debug, Clone, PartialEq)]
pub struct PluginAttributes {
    pub group: Group,
}

impl Default for PluginAttributes {
    fn default() -> Self {
        PluginAttributes {
            group: Group::from_json("attributes", "attributes", &Value::Object(Map::new()))
                .expect("an empty group reads"),
        }
    }
}

impl PluginAttributes {
    pub fn is_empty(&self) -> bool {
        self == &PluginAttributes::default()
    }

    pub fn from_json(value: &Value) -> Result<PluginAttributes, crate::restriction::FieldError> {
        match value {
            Value::Null => Ok(PluginAttributes::default()),
            _ => Group::from_json("attributes", "attributes", &value["attributes"])
                .map(|group| PluginAttributes { group }),
        }
    }
}

impl Serialize for PluginAttributes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::new();
        map.insert("attributes".to_owned(), self.group.to_json());
        map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for PluginAttributes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        PluginAttributes::from_json(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// The newest version of each extension plugin that extends `release`,
/// ordered by name: the plugins an environment on `release` can enable,
/// in registry order (SEMANTICS §2.2).
pub fn newest_compatible<'a>(
    release: &Release,
    installed: impl IntoIterator<Item = &'a Package>,
) -> Vec<&'a Package> {
    let mut newest: Vec<&Package> = Vec::new();
    for p in installed
        .into_iter()
        .filter(|p| !p.is_release_plugin() && p.extends(release))
    {
        match newest.iter_mut().find(|q| q.name == p.name) {
            Some(slot) if p.version > slot.version => *slot = p,
            Some(_) => {}
            None => newest.push(p),
        }
    }
    newest.sort_by(|a, b| a.name.cmp(&b.name));
    newest
}

/// The versions an environment pins (SEMANTICS §7.6): the version of each
/// extension plugin it has switched on, by name. Stored as `{name: version}`.
pub type Pins = BTreeMap<PluginName, Version>;

/// The extension plugins an environment on `release` with `pins` is made
/// of, ordered by name: each pinned plugin in its pinned version, every
/// other compatible plugin in its newest version (what the environment
/// could switch on). A pin whose version is not installed, or not
/// compatible with `release`, is not honoured: that plugin takes its newest
/// version (an uninstall refuses to remove a pinned version, so only data
/// changed behind Mosaic's back gets there).
pub fn pinned_or_newest<'a>(
    release: &Release,
    installed: impl IntoIterator<Item = &'a Package> + Clone,
    pins: &Pins,
) -> Vec<&'a Package> {
    let mut plugins = newest_compatible(release, installed.clone());
    for slot in &mut plugins {
        let Some(version) = pins.get(&slot.name) else {
            continue;
        };
        if let Some(pinned) = installed.clone().into_iter().find(|p| {
            p.name == slot.name
                && &p.version == version
                && !p.is_release_plugin()
                && p.extends(release)
        }) {
            *slot = pinned;
        }
    }
    plugins
}

/// `package`'s release record of the same release line as `release`:
/// the same `release_name` and operating system (SEMANTICS §7.6).
pub fn same_release<'a>(package: &'a Package, release: &Release) -> Option<&'a Release> {
    package.releases().find(|r| {
        r.name == release.name
            && r.operating_system
                .eq_ignore_ascii_case(&release.operating_system)
    })
}

/// Whether `release`, shipped by `package`, is the newest installed record
/// of its release line: no newer installed version of `package` ships one
/// of the same line (what names a release without its version means).
pub fn newest_of_line<'a>(
    package: &Package,
    release: &Release,
    installed: impl IntoIterator<Item = &'a Package>,
) -> bool {
    !installed.into_iter().any(|p| {
        p.name == package.name && p.version > package.version && same_release(p, release).is_some()
    })
}

/// `GET /api/v1/clusters/{id}/upgrades`: a plugin the environment pins
/// (its release plugin included) and the newer installed versions it could
/// move to, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpgradeOffer {
    pub plugin: PluginName,
    pub from: String,
    pub to: Vec<String>,
}

/// The upgrades an environment on `release` (shipped by `release_plugin`)
/// pinning `pins` could make (SEMANTICS §7.6): for its release plugin and
/// each pinned plugin with newer installed versions — of the same release
/// line for the release plugin, compatible with `release` for the others —
/// those versions, oldest first. The release plugin first, then by name.
pub fn upgrades<'a>(
    release_plugin: &Package,
    release: &Release,
    pins: &Pins,
    installed: impl IntoIterator<Item = &'a Package> + Clone,
) -> Vec<UpgradeOffer> {
    let newer = |name: &PluginName, from: &Version, fits: &dyn Fn(&Package) -> bool| {
        let mut to: Vec<&Version> = installed
            .clone()
            .into_iter()
            .filter(|p| &p.name == name && &p.version > from && fits(p))
            .map(|p| &p.version)
            .collect();
        to.sort();
        (!to.is_empty()).then(|| UpgradeOffer {
            plugin: name.clone(),
            from: from.to_string(),
            to: to.into_iter().map(ToString::to_string).collect(),
        })
    };
    let own = newer(&release_plugin.name, &release_plugin.version, &|p| {
        same_release(p, release).is_some()
    });
    let extensions = pins.iter().filter_map(|(name, version)| {
        newer(name, version, &|p| {
            !p.is_release_plugin() && p.extends(release)
        })
    });
    own.into_iter().chain(extensions).collect()
}

/// Why a release cannot be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReleaseChoice {
    #[error("no release is installed")]
    None,
    #[error("several releases are available ({0}); say which with release_name")]
    Several(String),
    #[error("no release is named '{wanted}' (there are: {available})")]
    Unknown { wanted: String, available: String },
}

/// The release named `wanted`, or the only one when none is named.
pub fn choose_release<'a, T>(
    releases: &'a [T],
    name_of: impl Fn(&T) -> &str,
    wanted: Option<&str>,
) -> Result<&'a T, ReleaseChoice> {
    let names = || {
        releases
            .iter()
            .map(|r| format!("'{}'", name_of(r)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (wanted, releases) {
        (_, []) => Err(ReleaseChoice::None),
        (Some(wanted), _) => releases
            .iter()
            .find(|r| name_of(r) == wanted)
            .ok_or_else(|| ReleaseChoice::Unknown {
                wanted: wanted.to_owned(),
                available: names(),
            }),
        (None, [one]) => Ok(one),
        (None, _) => Err(ReleaseChoice::Several(names())),
    }
}
