//! Environment settings (SEMANTICS §9, Fuel's Settings tab): the release's
//! groups plus one group per plugin, their values — defaults, then the
//! binds of the chosen components, then the plugins those components need
//! switched on, then the operator's edits — and the one check of them that
//! the browser runs as the operator types and the server runs on saving.

mod check;
mod entry;
mod patch;
pub mod regex;
mod tree;
pub mod view;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use check::{AttrState, Evaluation, GroupState};
pub use entry::{Input, control_disabled, text_of, typed};
pub use patch::PatchAttributes;
pub use tree::{
    AttrType, Attribute, Choice, Group, GroupMeta, Pattern, SettingsTree, is_generated,
};

use crate::expr::JsonModels;

/// The operator's changes, as environment files and exports carry them:
/// `{group: {attr: value}}`, and `{group: {enabled: bool}}` for a group
/// with an on/off switch (a plugin's, or a toggleable one).
pub type Edits = Map<String, Value>;

/// One problem of the settings, by `group.attr`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl Problem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The models besides `settings` that restrictions read (SEMANTICS §3.1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Context {
    pub cluster: Value,
    pub release: Value,
    pub version: Value,
    pub networking_parameters: Value,
}

/// The settings of one environment: the tree with every value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    pub tree: SettingsTree,
}

/// A plugin's group as the plugin declares it, and how it is labelled.
#[derive(Debug, Clone, Copy)]
pub struct PluginGroup<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub version: &'a str,
    /// `environment_config.yaml`'s `attributes` (metadata and attributes).
    pub attributes: &'a Group,
}

impl Settings {
    /// The defaults: the release's groups, then each plugin's group,
    /// switched off.
    pub fn defaults(release: &SettingsTree, plugins: &[PluginGroup<'_>]) -> Settings {
        let mut tree = release.clone();
        for plugin in plugins {
            let mut group = plugin.attributes.clone();
            group.name = plugin.name.to_owned();
            let meta = plugin_metadata(plugin, group.meta.restrictions.clone());
            group.meta = meta;
            tree.groups.push(group);
        }
        Settings { tree }
    }

    /// Reads the whole tree with values (an `editable` document).
    pub fn from_editable(editable: &Value) -> Result<Settings, crate::restriction::FieldError> {
        SettingsTree::from_json("editable", editable).map(|tree| Settings { tree })
    }

    pub fn to_editable(&self) -> Value {
        self.tree.to_json()
    }

    /// The value of `group.attr`.
    pub fn value(&self, group: &str, attr: &str) -> Option<&Value> {
        self.tree.group(group)?.attribute(attr).map(|a| &a.value)
    }

    /// Whether group `group` is switched on (`None`: it has no switch).
    pub fn enabled(&self, group: &str) -> Option<bool> {
        self.tree.group(group)?.meta.enabled
    }

    pub fn set_enabled(&mut self, group: &str, on: bool) -> bool {
        match self.tree.group_mut(group) {
            Some(g) if g.meta.switchable || g.meta.enabled.is_some() => {
                g.meta.enabled = Some(on);
                true
            }
            _ => false,
        }
    }

    /// Applies a `settings:` bind: `group.attr.value` sets a value,
    /// `group.metadata.enabled` a switch. Returns whether the path named
    /// something it could set.
    pub fn apply_bind(&mut self, path: &str, value: &Value) -> bool {
        match BindTarget::parse(path) {
            Some(BindTarget::Switch(group)) => value
                .as_bool()
                .is_some_and(|on| self.set_enabled(group, on)),
            Some(BindTarget::Value(group, attr)) => {
                match self
                    .tree
                    .group_mut(group)
                    .and_then(|g| g.attribute_mut(attr))
                {
                    Some(a) => {
                        a.value = value.clone();
                        true
                    }
                    None => false,
                }
            }
            None => false,
        }
    }

    /// Applies the operator's edits; names that are not settings are problems.
    pub fn apply_edits(&mut self, edits: &Edits) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (group_name, changes) in edits {
            let Some(group) = self.tree.group_mut(group_name) else {
                problems.push(Problem::new(
                    group_name.clone(),
                    "there is no such settings group",
                ));
                continue;
            };
            let Some(changes) = changes.as_object() else {
                problems.push(Problem::new(
                    group_name.clone(),
                    "must map attribute names to values",
                ));
                continue;
            };
            for (attr, value) in changes {
                let path = format!("{group_name}.{attr}");
                if attr == "enabled" && group.meta.switchable {
                    match value.as_bool() {
                        Some(on) => group.meta.enabled = Some(on),
                        None => problems.push(Problem::new(path, "must be true or false")),
                    }
                } else if let Some(a) = group.attribute_mut(attr) {
                    a.value = value.clone();
                } else {
                    problems.push(Problem::new(path, "there is no such setting"));
                }
            }
        }
        problems
    }

    /// What differs from `base` (same tree), as edits: values, and switches.
    pub fn edits_from(&self, base: &Settings) -> Edits {
        let mut edits = Edits::new();
        for (group, before) in self.tree.groups.iter().zip(&base.tree.groups) {
            let mut changes = Map::new();
            if group.meta.enabled != before.meta.enabled
                && let Some(on) = group.meta.enabled
            {
                changes.insert("enabled".to_owned(), Value::Bool(on));
            }
            for (a, b) in group.attributes.iter().zip(&before.attributes) {
                if a.value != b.value {
                    changes.insert(a.name.clone(), a.value.clone());
                }
            }
            if !changes.is_empty() {
                edits.insert(group.name.clone(), Value::Object(changes));
            }
        }
        edits
    }

    /// `{group: {attr: value}}` for every attribute (and `enabled` for
    /// groups with a switch): what `mosaic settings check` prints.
    pub fn values(&self) -> Map<String, Value> {
        self.tree
            .groups
            .iter()
            .map(|g| {
                let mut values: Map<String, Value> = Map::new();
                if let Some(on) = g.meta.enabled {
                    values.insert("enabled".to_owned(), Value::Bool(on));
                }
                values.extend(
                    g.attributes
                        .iter()
                        .map(|a| (a.name.clone(), a.value.clone())),
                );
                (g.name.clone(), Value::Object(values))
            })
            .collect()
    }

    /// The models restrictions and conditions read: these settings and `context`.
    pub fn models(&self, context: &Context) -> JsonModels {
        JsonModels {
            settings: self.to_editable(),
            cluster: context.cluster.clone(),
            release: context.release.clone(),
            version: context.version.clone(),
            networking_parameters: context.networking_parameters.clone(),
        }
    }
}

/// What a `settings:` bind can set.
enum BindTarget<'a> {
    /// `group.attr.value`.
    Value(&'a str, &'a str),
    /// `group.metadata.enabled`.
    Switch(&'a str),
}

impl<'a> BindTarget<'a> {
    fn parse(path: &'a str) -> Option<BindTarget<'a>> {
        let parts: Vec<&str> = path.split('.').collect();
        match parts.as_slice() {
            [group, "metadata", "enabled"] => Some(BindTarget::Switch(group)),
            [group, attr, "value"] => Some(BindTarget::Value(group, attr)),
            _ => None,
        }
    }
}

/// The edit a `settings:` bind to `path` (without the model) decides, as
/// edits name it: `(group, attr)`, or `(group, "enabled")` for a switch.
pub fn bind_key(path: &str) -> Option<(&str, &str)> {
    match BindTarget::parse(path)? {
        BindTarget::Value(group, attr) => Some((group, attr)),
        BindTarget::Switch(group) => Some((group, "enabled")),
    }
}

impl SettingsTree {
    /// Whether a `settings:` bind to `path` (without the model) names
    /// something here: an attribute's value, or a group's switch.
    pub fn knows_bind(&self, path: &str) -> bool {
        match BindTarget::parse(path) {
            Some(BindTarget::Switch(group)) => self.group(group).is_some_and(|g| g.meta.switchable),
            Some(BindTarget::Value(group, attr)) => {
                self.group(group).and_then(|g| g.attribute(attr)).is_some()
            }
            None => false,
        }
    }
}

/// The `settings:` binds of `components` that name nothing in `tree`: each
/// as (component, bind target).
pub fn unknown_binds<'a>(
    tree: &SettingsTree,
    components: impl IntoIterator<Item = &'a crate::component::Component>,
) -> Vec<(String, String)> {
    components
        .into_iter()
        .flat_map(|c| c.bind.iter().map(move |b| (c, b)))
        .filter(|(_, b)| b.model == crate::component::BindModel::Settings)
        .filter(|(_, b)| !tree.knows_bind(b.path()))
        .map(|(c, b)| (c.name.to_string(), b.target.clone()))
        .collect()
}

fn plugin_metadata(
    plugin: &PluginGroup<'_>,
    restrictions: Vec<crate::restriction::Restriction>,
) -> GroupMeta {
    let declared = serde_json::json!({
        "class": "plugin",
        "name": plugin.name,
        "label": plugin.title,
        "version": plugin.version,
        "toggleable": true,
        "weight": plugin.attributes.meta.weight,
        "restrictions": restrictions,
    });
    let mut meta = GroupMeta::from_plugin(plugin.name, declared);
    meta.enabled = Some(false);
    meta
}

impl GroupMeta {
    fn from_plugin(name: &str, declared: Value) -> GroupMeta {
        let mut map = declared.as_object().cloned().unwrap_or_default();
        if map
            .get("restrictions")
            .is_some_and(|r| r.as_array().is_some_and(Vec::is_empty))
        {
            map.remove("restrictions");
        }
        let mut group = Map::new();
        group.insert("metadata".to_owned(), Value::Object(map));
        Group::from_json(name, name, &Value::Object(group))
            .map(|g| g.meta)
            .expect("plugin group metadata is well formed")
    }
}

#[cfg(test)]
mod tests;
