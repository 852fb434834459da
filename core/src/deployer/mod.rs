//! Handing an environment to a deployer (SEMANTICS §12): what a release
//! declares of the deployer it is deployed with — the series, its
//! inventory skeleton, which of the deployer's groups each tag places, the
//! `globals.yml` values and configuration overrides that follow from
//! components, settings and networks, and what has no equivalent there —
//! as data (`deployers.yaml`), to which plugins add their own entries —,
//! and which deployers Mosaic knows the particulars of ([`Known`]). The
//! export that evaluates this data is `crate::export`.

mod disks;
mod expression;

use std::collections::BTreeMap;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::component::Pattern;
use crate::name::RoleName;

pub use disks::{DiskUse, Prepare};
pub use expression::{Expression, GroupPattern, Part, Template, TemplateError, parts};

/// A release's or a plugin's `deployers.yaml`: deployer name → its
/// declaration, in the order written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deployers(pub Vec<Deployer>);

impl Deployers {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&Deployer> {
        self.0.iter().find(|d| d.name == name)
    }
}

/// The deployers Mosaic knows the particulars of: what is theirs alone
/// and written as code, not data — the host variables their inventory
/// takes and the README of what to run (`crate::export`'s `kolla`), and
/// how they are run (`crate::run`). A release declares only these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Known {
    KollaAnsible,
}

impl Known {
    pub const ALL: [Known; 1] = [Known::KollaAnsible];

    /// The known deployer of that name.
    pub fn named(name: &str) -> Option<Known> {
        Known::ALL.into_iter().find(|k| k.name() == name)
    }

    /// As `deployers.yaml` names it.
    pub fn name(self) -> &'static str {
        match self {
            Known::KollaAnsible => "kolla-ansible",
        }
    }

    /// Every known name, for a message (`kolla-ansible`).
    pub fn names() -> String {
        let names: Vec<&str> = Known::ALL.iter().map(|k| k.name()).collect();
        names.join(", ")
    }
}

/// One deployer's declaration. A release gives all of it; a plugin only
/// what concerns its own components, roles, tags and settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deployer {
    /// The key it is declared under (`kolla-ansible`).
    #[serde(skip)]
    pub name: String,
    /// How its files write a boolean: `[true's, false's]` (kolla-ansible's
    /// `globals.yml`: `["yes", "no"]`); as YAML's `true`/`false` without
    /// it. A value may say otherwise ([`Computed::booleans`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booleans: Option<[String; 2]>,
    /// The deployer's series (`18`: kolla-ansible 18).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub series: String,
    /// The OpenStack release that series deploys (`2024.1`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub openstack_release: String,
    /// The series' inventory skeleton: every group, in order, with its
    /// children (or the hosts it lists as such).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inventory: Vec<InventoryGroup>,
    /// Tag → the groups it places: each lists exactly the nodes carrying
    /// the tag, its primary first.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, Vec<Placement>>,
    /// The groups a role of one's own is put under (`common`, `baremetal`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub own_roles_under: Vec<String>,
    /// The services the deployer runs, and on which hosts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<DeployedService>,
    /// `globals.yml`'s values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globals: Vec<Computed>,
    /// Configuration files the export writes: file → section → key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<Override>,
    /// What has no equivalent there, and why.
    #[serde(default, skip_serializing_if = "Unsupported::is_empty")]
    pub unsupported: Unsupported,
    /// Settings that have no effect there: a warning when their condition
    /// holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_effect: Vec<SettingRule>,
    /// The volumes of the disk layouts the deployer uses, and how they are
    /// prepared before it runs (SEMANTICS §14, the hand-off).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disks: Vec<DiskUse>,
    /// What runs the deployer (release only): the Python packages of its
    /// virtual environment, every one pinned (SEMANTICS §15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<Runtime>,
}

/// The virtual environment a deployer runs in: the Python versions it
/// takes and every package, pinned (`NAME==VERSION`), from PyPI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Runtime {
    /// The Python versions it runs on (`3.10`, `3.11`, …).
    pub python: Vec<String>,
    /// Every package, pinned.
    pub requirements: Vec<String>,
}

impl Runtime {
    /// The version pinned for package `name` (compared as pip does: case
    /// and `-`/`_`/`.` aside).
    pub fn pinned(&self, name: &str) -> Option<&str> {
        let norm = |n: &str| n.to_ascii_lowercase().replace(['_', '.'], "-");
        self.requirements.iter().find_map(|r| {
            let (package, version) = r.split_once("==")?;
            (norm(package.trim()) == norm(name)).then_some(version.trim())
        })
    }
}

/// A group of the inventory skeleton.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InventoryGroup {
    pub group: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
    /// Host lines the series writes as they are (`localhost
    /// ansible_connection=local`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
}

/// A service the deployer runs: on a host in one of `groups` (`a:&b`: in
/// both, Ansible's intersection), when the global `enabled_by` is true and
/// `when` holds (always without either). A service given twice runs where
/// either entry puts it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployedService {
    pub service: String,
    pub groups: Vec<GroupPattern>,
    /// The global of `globals` that switches it on, as the deployer gates
    /// it (kolla-ansible's `enable_ironic`): the release's or the plugin's
    /// own, checked at install.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Expression>,
}

impl DeployedService {
    /// Whether a host in `groups` is in one of its groups.
    pub fn maps_to(&self, groups: &[String]) -> bool {
        self.groups.iter().any(|pattern| pattern.matches(groups))
    }

    /// The groups its patterns name.
    pub fn group_names(&self) -> impl Iterator<Item = &str> {
        self.groups
            .iter()
            .flat_map(|p| p.groups().iter().map(String::as_str))
    }
}

/// A group a tag places: always (written as the group's name), or only
/// `when` its condition holds (`{group, when}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "PlacementForm", into = "PlacementForm")]
pub struct Placement {
    pub group: String,
    pub when: Option<Expression>,
}

/// How a [`Placement`] is written.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum PlacementForm {
    Always(String),
    When {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when: Option<Expression>,
    },
}

impl From<PlacementForm> for Placement {
    fn from(form: PlacementForm) -> Placement {
        match form {
            PlacementForm::Always(group) => Placement { group, when: None },
            PlacementForm::When { group, when } => Placement { group, when },
        }
    }
}

impl From<Placement> for PlacementForm {
    fn from(p: Placement) -> PlacementForm {
        match p.when {
            None => PlacementForm::Always(p.group),
            when => PlacementForm::When {
                group: p.group,
                when,
            },
        }
    }
}

/// A value worked out from the environment: an expression's value, or a
/// template — a string whose `{…}` parts are expressions, or a list or map
/// of such strings —; written only `when` its condition holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Computed {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Expression>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Expression>,
    /// How a boolean value is written when not as the deployer's
    /// [`Deployer::booleans`]: `[true's, false's]`, as the series documents
    /// the value's valid options (kolla-ansible's `openstack_logging_debug`:
    /// `["True", "False"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booleans: Option<[String; 2]>,
}

/// One key of a configuration file the export writes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Override {
    /// Relative to the export's directory (`config/neutron/ml2_conf.ini`).
    pub file: String,
    pub section: String,
    #[serde(flatten)]
    pub key: Computed,
}

/// What has no equivalent in a deployer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unsupported {
    /// Components (names or `*` patterns) an environment may not choose.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<Reasoned<Pattern>>,
    /// Roles no node may hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<Reasoned<RoleName>>,
    /// Settings that may not have a value (their `when` holds).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingRule>,
}

impl Unsupported {
    pub fn is_empty(&self) -> bool {
        self.components.is_empty() && self.roles.is_empty() && self.settings.is_empty()
    }
}

/// A name and why it has no equivalent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reasoned<N> {
    pub name: N,
    pub reason: String,
}

/// A setting (`group.attr`), the condition under which it matters, and
/// why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingRule {
    pub setting: String,
    pub when: Expression,
    pub reason: String,
}

impl Serialize for Deployers {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for deployer in &self.0 {
            map.serialize_entry(&deployer.name, deployer)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Deployers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = Deployers;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of deployer names to their declarations")
            }
            fn visit_unit<E>(self) -> Result<Deployers, E> {
                Ok(Deployers::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Deployers, A::Error> {
                let mut out = Vec::new();
                while let Some((name, mut deployer)) = map.next_entry::<String, Deployer>()? {
                    deployer.name = name;
                    out.push(deployer);
                }
                Ok(Deployers(out))
            }
        }
        d.deserialize_any(Ordered)
    }
}

impl Deployer {
    /// This declaration with a plugin's entries for the same deployer
    /// added: its tags, globals, overrides, services, what it says has no
    /// equivalent and the volumes it uses (a tag, global or volume the
    /// release declares is the release's).
    pub fn with(&self, extension: &Deployer) -> Deployer {
        let mut merged = self.clone();
        for (tag, groups) in &extension.tags {
            merged
                .tags
                .entry(tag.clone())
                .or_insert_with(|| groups.clone());
        }
        for global in &extension.globals {
            if !merged.globals.iter().any(|g| g.name == global.name) {
                merged.globals.push(global.clone());
            }
        }
        merged.overrides.extend(extension.overrides.iter().cloned());
        merged.services.extend(extension.services.iter().cloned());
        let u = &extension.unsupported;
        merged
            .unsupported
            .components
            .extend(u.components.iter().cloned());
        merged.unsupported.roles.extend(u.roles.iter().cloned());
        merged
            .unsupported
            .settings
            .extend(u.settings.iter().cloned());
        merged.no_effect.extend(extension.no_effect.iter().cloned());
        for use_ in &extension.disks {
            if !merged.disks.iter().any(|d| d.volume == use_.volume) {
                merged.disks.push(use_.clone());
            }
        }
        merged
    }
}

/// What `GET /clusters/{id}/deployers` lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployerSummary {
    pub name: String,
    pub series: String,
    pub openstack_release: String,
}
